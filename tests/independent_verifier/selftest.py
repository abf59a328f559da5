#!/usr/bin/env python3
"""Self-test of the independent verifier.

Builds a small synthetic archive laid out as docs/AUDIT.md section 7 (a chain of length 4 from a fixed h_0,
two resolutions: a turn and an umpire call, rolls drawn from the section 5 stream), checks that
`verify.py archive` accepts it, then checks that each tampered copy is refused and that malformed input is
reported rather than crashing. Exit status 0 only if every case behaves.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import verify as v  # noqa: E402

CAMPAIGN = "selftest-campaign"
H0 = bytes(range(0xA0, 0xC0))
N = 4
BEACON = "selftest beacon 7 21 33"


def canonical_json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def build_resolution(
    out: Path,
    k: int,
    kind: str,
    phase: str,
    secret: bytes,
    orders: dict[str, str | None],
    prior: bytes,
    nxt: bytes,
    dice: list[tuple[str, str]],
) -> None:
    folder = out / "resolutions" / f"{k:04d}"
    digests: dict[str, str | None] = {}
    for side, text in orders.items():
        if text is None:
            digests[side] = None
        else:
            data = text.encode("utf-8")
            write(folder / "orders" / f"{side}.txt", data)
            digests[side] = v.sha256(data).hex()
    manifest = v.manifest_text(CAMPAIGN, k, phase, digests).encode("utf-8")
    write(folder / "manifest.txt", manifest)
    write(folder / "prior-state.json", prior)
    write(folder / "next-state.json", nxt)
    manifest_digest = v.sha256(manifest)
    seed = v.derive_seed(CAMPAIGN, k, secret, manifest_digest, v.sha256(prior), BEACON)
    stream = v.Stream(seed)
    rolls = []
    for i, (die, purpose) in enumerate(dice):
        faces, value, first, words = v.roll(stream, die)
        rolls.append(
            canonical_json(
                {
                    "die": die,
                    "faces": faces,
                    "first_word": first,
                    "index": i,
                    "purpose": purpose,
                    "sides": v.DICE[die][0],
                    "value": value,
                    "words": words,
                }
            )
        )
    write(folder / "rolls.jsonl", b"".join(line + b"\n" for line in rolls))
    write(folder / "events.jsonl", canonical_json({"k": k, "what": f"{len(rolls)} rolls"}) + b"\n")
    write(
        folder / "resolution.json",
        canonical_json(
            {
                "k": k,
                "kind": kind,
                "manifest_digest": manifest_digest.hex(),
                "next_state_digest": v.sha256(nxt).hex(),
                "phase": phase,
                "prior_state_digest": v.sha256(prior).hex(),
                "resolved_at": f"2026-11-2{k}T18:00:00Z",
                "secret": secret.hex(),
                "seed": seed.hex(),
            }
        ),
    )


def build_archive(out: Path) -> None:
    hs = v.chain(H0, N)
    state0 = canonical_json({"turn": 1, "units": {"grenadiers": {"x": 1200, "y": 350}, "hussars": {"x": 0, "y": 0}}})
    state1 = canonical_json({"turn": 2, "units": {"grenadiers": {"x": 1200, "y": 350}, "hussars": {"x": 600, "y": 0}}})
    write(
        out / "campaign.json",
        canonical_json(
            {
                "beacon": BEACON,
                "campaign": CAMPAIGN,
                "chain_length": N,
                "commitment": hs[N].hex(),
                "initial_state_digest": v.sha256(state0).hex(),
                "no_orders_policy": "stand-fast",
                "resolutions": 2,
                "ruleset": "selftest",
                "spec": v.SPEC,
                "title": "Self-test campaign",
            }
        ),
    )
    build_resolution(
        out,
        1,
        "turn",
        "turn 1 orders (alpha active)",
        hs[N - 1],
        {
            "alpha": "move hussars 6\nfire grenadiers at hussars\nsalt 4711\n",
            "gamma": "hold grenadiers\n",
            "beta": None,
        },
        state0,
        state1,
        [("d6", "fire: grenadiers at hussars"), ("2d6", "morale: hussars"), ("d10", "cover: hussars")]
        + [("d6", f"hit {i}: grenadiers") for i in range(5)],
    )
    build_resolution(
        out,
        2,
        "umpire",
        "umpire call",
        hs[N - 2],
        {"@umpire": "umpire rally hussars\n"},
        state1,
        state1,
        [("d100", "rally: hussars"), ("2d6", "close combat: hussars"), ("d6", "rally: hussars")],
    )


def run_verify(out: Path) -> tuple[int, str, str]:
    p = subprocess.run(
        [sys.executable, str(HERE / "verify.py"), "archive", str(out)], capture_output=True, text=True, timeout=120
    )
    return p.returncode, p.stdout, p.stderr


# ---- tampering -----------------------------------------------------------------------------------


def res(out: Path, k: int) -> Path:
    return out / "resolutions" / f"{k:04d}"


def edit_json(path: Path, fn) -> None:
    obj = json.loads(path.read_bytes())
    fn(obj)
    path.write_bytes(canonical_json(obj))


def flip_secret_byte(out: Path) -> None:
    def f(o):
        b = bytearray(bytes.fromhex(o["secret"]))
        b[7] ^= 0x01
        o["secret"] = b.hex()

    edit_json(res(out, 1) / "resolution.json", f)


def edit_order_line(out: Path) -> None:
    p = res(out, 1) / "orders" / "alpha.txt"
    p.write_bytes(p.read_bytes().replace(b"move hussars 6", b"move hussars 7"))


def edit_roll_value(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    r = json.loads(lines[1])
    r["value"] += 1
    lines[1] = canonical_json(r)
    p.write_bytes(b"\n".join(lines))


def edit_roll_value_and_faces(out: Path) -> None:
    p = res(out, 2) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    r = json.loads(lines[0])
    r["value"] = r["value"] % 100 + 1
    r["faces"] = [r["value"]]
    lines[0] = canonical_json(r)
    p.write_bytes(b"\n".join(lines))


def flip_state_byte(out: Path) -> None:
    p = res(out, 1) / "next-state.json"
    b = bytearray(p.read_bytes())
    i = b.index(b"600")
    b[i] = ord("7")
    p.write_bytes(bytes(b))


def flip_prior_state_byte(out: Path) -> None:
    p = res(out, 2) / "prior-state.json"
    b = bytearray(p.read_bytes())
    b[-2] = ord("1") if b[-2] != ord("1") else ord("2")
    p.write_bytes(bytes(b))


def drop_a_roll(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    del lines[2]
    # renumber indexes so that only the gap in first_word betrays the missing roll
    fixed = []
    for i, line in enumerate(x for x in lines if x):
        r = json.loads(line)
        r["index"] = i
        fixed.append(canonical_json(r))
    p.write_bytes(b"".join(x + b"\n" for x in fixed))


def add_unlisted_orders(out: Path) -> None:
    write(res(out, 1) / "orders" / "beta.txt", b"hold everything\n")


def add_unlisted_orders_file(out: Path) -> None:
    write(res(out, 2) / "orders" / "delta.txt", b"charge\n")


def change_manifest_phase(out: Path) -> None:
    p = res(out, 1) / "manifest.txt"
    p.write_bytes(p.read_bytes().replace(b"alpha active", b"beta active"))


def change_beacon(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(beacon="selftest beacon 7 21 34"))


def drop_beacon(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(beacon=None))


def change_initial_state(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(initial_state_digest="00" * 32))


def umpire_changes_state(out: Path) -> None:
    p = res(out, 2) / "next-state.json"
    p.write_bytes(p.read_bytes().replace(b'"turn":2', b'"turn":3'))

    def f(o):
        o["next_state_digest"] = v.sha256(p.read_bytes()).hex()

    edit_json(res(out, 2) / "resolution.json", f)


def truncate_resolution_json(out: Path) -> None:
    p = res(out, 2) / "resolution.json"
    p.write_bytes(p.read_bytes()[:40])


def garbage_roll_line(out: Path) -> None:
    p = res(out, 2) / "rolls.jsonl"
    p.write_bytes(p.read_bytes() + b'{"die":"d6","faces":[1.5],\xff\n')


def roll_wrong_types(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    lines[0] = b'{"die":"d6","faces":"x","first_word":"0","index":0,"purpose":3,"sides":6,"value":null,"words":1}'
    p.write_bytes(b"\n".join(lines))


def unknown_die(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    p.write_bytes(p.read_bytes().replace(b'"die":"d10"', b'"die":"d12"', 1))


def campaign_json_not_object(out: Path) -> None:
    (out / "campaign.json").write_bytes(b"[1,2,3]")


def campaign_json_missing(out: Path) -> None:
    (out / "campaign.json").unlink()


def resolution_folder_missing(out: Path) -> None:
    shutil.rmtree(res(out, 2))


def manifest_not_utf8(out: Path) -> None:
    p = res(out, 1) / "manifest.txt"
    p.write_bytes(p.read_bytes() + b"\xfe\xff\n")


def hostile_side_id(out: Path) -> None:
    p = res(out, 1) / "manifest.txt"
    lines = p.read_bytes().split(b"\n")
    lines.insert(4, b"orders ../../campaign " + b"0" * 64)  # sorts before alpha, so only the id is wrong
    p.write_bytes(b"\n".join(lines))


def wrong_commitment(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(commitment=v.sha256(b"other").hex()))


TAMPERS = [
    ("one byte of a secret", flip_secret_byte),
    ("one order line", edit_order_line),
    ("one roll value", edit_roll_value),
    ("one roll value with matching faces", edit_roll_value_and_faces),
    ("one byte of a next state", flip_state_byte),
    ("one byte of a prior state", flip_prior_state_byte),
    ("a roll left out of the log", drop_a_roll),
    ("orders file for a side listed as none", add_unlisted_orders),
    ("unlisted orders file", add_unlisted_orders_file),
    ("manifest phase edited", change_manifest_phase),
    ("beacon changed", change_beacon),
    ("beacon removed", drop_beacon),
    ("initial state digest changed", change_initial_state),
    ("umpire call changes the state", umpire_changes_state),
    ("commitment changed", wrong_commitment),
    # malformed input: must be reported as FAIL, not crash
    ("truncated resolution.json", truncate_resolution_json),
    ("garbage roll line", garbage_roll_line),
    ("roll fields of the wrong type", roll_wrong_types),
    ("unknown die", unknown_die),
    ("campaign.json not an object", campaign_json_not_object),
    ("campaign.json missing", campaign_json_missing),
    ("resolution folder missing", resolution_folder_missing),
    ("manifest not UTF-8", manifest_not_utf8),
    ("side id escaping the orders folder", hostile_side_id),
]


def unpublish_logs(out: Path) -> None:
    (res(out, 2) / "rolls.jsonl").unlink()
    (res(out, 2) / "events.jsonl").unlink()


def main() -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="adjutant-verifier-selftest-") as tmp:
        base = Path(tmp) / "archive"
        build_archive(base)

        def case(name: str, mutate, expect_ok: bool) -> None:
            nonlocal failures
            out = Path(tmp) / f"case-{len(list(Path(tmp).iterdir()))}"
            shutil.copytree(base, out)
            if mutate is not None:
                mutate(out)
            rc, stdout, stderr = run_verify(out)
            crashed = "Traceback" in stderr or rc not in (0, 1)
            if expect_ok:
                good = rc == 0 and not crashed and "FAIL" not in stdout
            else:
                good = rc == 1 and not crashed and "FAIL" in stdout
            if good:
                detail = next((line for line in stdout.splitlines() if "FAIL" in line), "") if not expect_ok else ""
                print(f"ok {name}" + (f"  [{detail[:150]}]" if detail else ""))
            else:
                failures += 1
                print(f"FAIL {name}: exit {rc}, expected {'0' if expect_ok else '1'}")
                print("  " + stdout.replace("\n", "\n  ") + stderr.replace("\n", "\n  "))

        case("untampered archive passes", None, True)
        case("roll and event logs published late", unpublish_logs, True)
        for name, mutate in TAMPERS:
            case(f"refused: {name}", mutate, False)

        rc, stdout, _ = run_verify(base)
        print("  " + stdout.strip().replace("\n", "\n  "))

    print(f"selftest: {'ok' if failures == 0 else f'{failures} case(s) FAILED'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
