#!/usr/bin/env python3
"""Self-test of the independent verifier.

Builds a small synthetic archive laid out as docs/AUDIT.md section 7 (sides alpha, beta and gamma, a chain
of length 4 from a fixed h_0, two resolutions: a turn and an umpire call, rolls drawn from the section 5
stream), checks that `verify.py archive` accepts it (also with its logs unpublished), then checks that each
tampered copy is refused, for the expected reason where one is given, and that malformed input is reported
rather than crashing. Exit status 0 only if every case behaves.
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
SIDES = ["alpha", "beta", "gamma"]
STATE0 = json.dumps(
    {"turn": 1, "units": {"grenadiers": {"x": 1200, "y": 350}, "hussars": {"x": 0, "y": 0}}},
    sort_keys=True,
    separators=(",", ":"),
).encode("utf-8")
STATE1 = STATE0.replace(b'"turn":1', b'"turn":2').replace(b'"x":0', b'"x":600')
TURN_PHASE = "turn 1 orders (alpha active)"
TURN_ORDERS: dict[str, str | None] = {
    "alpha": "move hussars 6\nfire grenadiers at hussars\nsalt 4711\n",
    "gamma": "hold grenadiers\n",
    "beta": None,
}
TURN_DICE = [("d6", "fire: grenadiers at hussars"), ("2d6", "morale: hussars"), ("d10", "cover: hussars")] + [
    ("d6", f"hit {i}: grenadiers") for i in range(5)
]
UMPIRE_ORDERS: dict[str, str | None] = {"@umpire": "umpire rally hussars\n"}
UMPIRE_DICE = [("d100", "rally: hussars"), ("2d6", "close combat: hussars"), ("d6", "rally: hussars")]


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
    index_from: int = 0,
    word_from: int = 0,
) -> None:
    """Writes resolution k. index_from and word_from shift the logged index and first_word of every roll
    (0 for an honest log, whose numbering starts again in each resolution)."""
    folder = out / "resolutions" / f"{k:04d}"
    if folder.exists():
        shutil.rmtree(folder)
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
                    "first_word": first + word_from,
                    "index": i + index_from,
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


def secret(k: int) -> bytes:
    return v.chain(H0, N)[N - k]


def build_turn(out: Path, orders: dict[str, str | None] = TURN_ORDERS, phase: str = TURN_PHASE, **kw) -> None:
    build_resolution(out, 1, "turn", phase, secret(1), orders, STATE0, STATE1, TURN_DICE, **kw)


def build_umpire(out: Path, orders: dict[str, str | None] = UMPIRE_ORDERS, phase: str = "umpire", **kw) -> None:
    build_resolution(out, 2, "umpire", phase, secret(2), orders, STATE1, STATE1, UMPIRE_DICE, **kw)


def build_archive(out: Path) -> None:
    hs = v.chain(H0, N)
    write(
        out / "campaign.json",
        canonical_json(
            {
                "beacon": BEACON,
                "campaign": CAMPAIGN,
                "chain_length": N,
                "commitment": hs[N].hex(),
                "initial_state_digest": v.sha256(STATE0).hex(),
                "no_orders_policy": "stand-fast",
                "resolutions": 2,
                "ruleset": "selftest",
                "sides": SIDES,
                "spec": v.SPEC,
                "title": "Self-test campaign",
            }
        ),
    )
    build_turn(out)
    build_umpire(out)


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


# ---- the sides of a manifest (AUDIT.md sections 3 and 8, step 2) ---------------------------------
# Each of these rebuilds a resolution so that every digest and roll is consistent: only the rule under
# test is broken.


def side_missing_from_manifest(out: Path) -> None:
    build_turn(out, orders={"alpha": TURN_ORDERS["alpha"], "beta": None})  # gamma left out


def side_none_missing_from_manifest(out: Path) -> None:
    build_turn(out, orders={"alpha": TURN_ORDERS["alpha"], "gamma": TURN_ORDERS["gamma"]})  # beta left out


def extra_side_in_manifest(out: Path) -> None:
    build_turn(out, orders={**TURN_ORDERS, "delta": "hold hussars\n"})


def extra_side_none_in_manifest(out: Path) -> None:
    build_turn(out, orders={**TURN_ORDERS, "delta": None})


def side_missing_from_campaign(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides=["alpha", "gamma"]))


def umpire_line_in_turn(out: Path) -> None:
    build_turn(out, orders={**TURN_ORDERS, "@umpire": "umpire rally hussars\n"})


def umpire_call_lists_a_side(out: Path) -> None:
    build_umpire(out, orders={**UMPIRE_ORDERS, "alpha": None})


def umpire_call_lists_the_sides(out: Path) -> None:
    build_umpire(out, orders={"alpha": None, "beta": None, "gamma": None})


def umpire_call_none(out: Path) -> None:
    build_umpire(out, orders={"@umpire": None})


def umpire_call_phase(out: Path) -> None:
    build_umpire(out, phase="umpire call")


def manifest_lines_unsorted(out: Path) -> None:
    build_turn(out)
    p = res(out, 1) / "manifest.txt"
    lines = p.read_bytes().split(b"\n")
    lines[4], lines[5] = lines[5], lines[4]
    p.write_bytes(b"\n".join(lines))
    edit_json(res(out, 1) / "resolution.json", lambda o: o.update(manifest_digest=v.sha256(p.read_bytes()).hex()))


def upper_case_side_id(out: Path) -> None:
    sides = ["Gamma", "alpha", "beta"]  # sorted by UTF-8 bytes, but G is not a side id character
    edit_json(out / "campaign.json", lambda o: o.update(sides=sides))
    build_turn(out, orders={"alpha": TURN_ORDERS["alpha"], "beta": None, "Gamma": TURN_ORDERS["gamma"]})


def campaign_sides_unsorted(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides=["beta", "alpha", "gamma"]))


def campaign_sides_missing(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.pop("sides"))


def campaign_sides_not_a_list(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides="alpha beta gamma"))


def campaign_side_twice(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides=["alpha", "beta", "beta", "gamma"]))


def campaign_side_not_a_string(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides=["alpha", "beta", 3]))


# ---- logs published late (AUDIT.md section 7) ----------------------------------------------------


def rolls_log_missing(out: Path) -> None:
    (res(out, 1) / "rolls.jsonl").unlink()


def events_log_missing(out: Path) -> None:
    (res(out, 2) / "events.jsonl").unlink()


def unpublished_logs_with_bad_secret(out: Path) -> None:
    for k in (1, 2):
        (res(out, k) / "rolls.jsonl").unlink()
        (res(out, k) / "events.jsonl").unlink()
    flip_secret_byte(out)


def unpublished_logs_with_bad_manifest(out: Path) -> None:
    unpublish_logs(out)
    build_umpire(out, orders={**UMPIRE_ORDERS, "alpha": None})
    unpublish_logs(out)


# ---- lines, folders, roll numbering --------------------------------------------------------------


def orders_without_final_lf(out: Path) -> None:
    build_turn(out, orders={**TURN_ORDERS, "gamma": "hold grenadiers"})


def rolls_without_final_lf(out: Path) -> None:
    p = res(out, 2) / "rolls.jsonl"
    p.write_bytes(p.read_bytes()[:-1])


def events_without_final_lf(out: Path) -> None:
    p = res(out, 1) / "events.jsonl"
    p.write_bytes(p.read_bytes()[:-1])


def manifest_without_final_lf(out: Path) -> None:
    p = res(out, 1) / "manifest.txt"
    p.write_bytes(p.read_bytes()[:-1])
    edit_json(res(out, 1) / "resolution.json", lambda o: o.update(manifest_digest=v.sha256(p.read_bytes()).hex()))


def folder_not_zero_padded(out: Path) -> None:
    res(out, 2).rename(out / "resolutions" / "2")


def folder_over_padded(out: Path) -> None:
    res(out, 2).rename(out / "resolutions" / "00002")


def roll_numbering_continues(out: Path) -> None:
    # resolution 2 numbers its rolls after resolution 1's 8 rolls instead of starting again at 0
    build_umpire(out, index_from=len(TURN_DICE))


def roll_words_continue(out: Path) -> None:
    build_umpire(out, word_from=9)


def roll_ninth_key(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    r = json.loads(lines[0])
    r["unit"] = "grenadiers"
    lines[0] = canonical_json(r)
    p.write_bytes(b"\n".join(lines))


def roll_key_missing(out: Path) -> None:
    p = res(out, 1) / "rolls.jsonl"
    lines = p.read_bytes().split(b"\n")
    r = json.loads(lines[0])
    del r["purpose"]
    lines[0] = canonical_json(r)
    p.write_bytes(b"\n".join(lines))


def resolved_at_not_rfc3339(out: Path) -> None:
    edit_json(res(out, 2) / "resolution.json", lambda o: o.update(resolved_at="2026-11-22 18:00"))


def resolved_at_not_utc(out: Path) -> None:
    edit_json(res(out, 1) / "resolution.json", lambda o: o.update(resolved_at="2026-11-21T19:00:00+01:00"))


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
    # sides (each with its expected reason)
    ("a side missing from a turn manifest", side_missing_from_manifest, "missing gamma"),
    ("a silent side missing from a turn manifest", side_none_missing_from_manifest, "missing beta"),
    ("an extra side in a turn manifest", extra_side_in_manifest, "not in campaign.json: 'delta'"),
    ("an extra silent side in a turn manifest", extra_side_none_in_manifest, "not in campaign.json: 'delta'"),
    ("a side dropped from campaign.json", side_missing_from_campaign, "not in campaign.json: 'beta'"),
    ("@umpire in a turn manifest", umpire_line_in_turn, "not in campaign.json: '@umpire'"),
    ("an umpire call listing a side too", umpire_call_lists_a_side, "must list @umpire alone"),
    ("an umpire call listing the sides", umpire_call_lists_the_sides, "must list @umpire alone"),
    ("an umpire call reading none", umpire_call_none, "reads none"),
    ("an umpire call's phase not umpire", umpire_call_phase, "phase label is 'umpire call'"),
    ("manifest orders lines not sorted", manifest_lines_unsorted, "not sorted"),
    ("side id with an upper-case letter", upper_case_side_id, "not made of a-z"),
    ("campaign.json sides not sorted", campaign_sides_unsorted, "are not sorted"),
    ("campaign.json sides missing", campaign_sides_missing, "key 'sides' missing"),
    ("campaign.json sides not a list", campaign_sides_not_a_list, "sides is not a list"),
    ("campaign.json side listed twice", campaign_side_twice, "listed twice"),
    ("campaign.json side not a string", campaign_side_not_a_string, "side id 3"),
    # logs published late
    ("rolls.jsonl missing, events.jsonl present", rolls_log_missing, "events.jsonl is published but rolls.jsonl"),
    ("events.jsonl missing, rolls.jsonl present", events_log_missing, "rolls.jsonl is published but events.jsonl"),
    ("logs unpublished but a secret changed", unpublished_logs_with_bad_secret, "chain:"),
    ("logs unpublished but an umpire manifest lists a side", unpublished_logs_with_bad_manifest, "@umpire alone"),
    # lines, folders, roll numbering
    ("orders file without its final LF", orders_without_final_lf, "gamma.txt does not end with LF"),
    ("rolls.jsonl without its final LF", rolls_without_final_lf, "rolls.jsonl does not end with LF"),
    ("events.jsonl without its final LF", events_without_final_lf, "events.jsonl does not end with LF"),
    ("manifest without its final LF", manifest_without_final_lf, "manifest.txt does not end with LF"),
    ("resolution folder not zero-padded", folder_not_zero_padded, "resolutions/2 is not"),
    ("resolution folder padded to five digits", folder_over_padded, "resolutions/00002 is not"),
    ("roll index not starting again at 0", roll_numbering_continues, "index is 8, expected 0"),
    ("roll first_word not starting again at 0", roll_words_continue, "first_word is 9, expected 0"),
    ("a ninth key in a roll", roll_ninth_key, "unknown keys: unit"),
    ("a key missing from a roll", roll_key_missing, "keys missing: purpose"),
    ("resolved_at not RFC 3339", resolved_at_not_rfc3339, "not an RFC 3339 time"),
    ("resolved_at not in UTC", resolved_at_not_utc, "not an RFC 3339 time"),
]


def unpublish_logs(out: Path) -> None:
    (res(out, 2) / "rolls.jsonl").unlink()
    (res(out, 2) / "events.jsonl").unlink()


def unpublish_all_logs(out: Path) -> None:
    for k in (1, 2):
        (res(out, k) / "rolls.jsonl").unlink()
        (res(out, k) / "events.jsonl").unlink()


def salt_only_orders(out: Path) -> None:
    # a side may send nothing but a salt line; and a side id may use digits and -
    edit_json(out / "campaign.json", lambda o: o.update(sides=["2nd-corps", "alpha", "beta", "gamma"]))
    build_turn(out, orders={**TURN_ORDERS, "2nd-corps": "salt x\n"})


def folder_k_cases() -> list[tuple[str, bool]]:
    """Section 7 folder names, checked directly (an archive with 10000 resolutions is too big to build)."""
    want = {
        "0001": 1,
        "0042": 42,
        "9999": 9999,
        "10000": 10000,
        "123456": 123456,
        "1": None,
        "001": None,
        "00001": None,
        "010000": None,
        "0000": None,
        "+001": None,
        "00\u0661\u0662": None,  # non-ASCII digits
        "": None,
    }
    return [(f"folder name {name!r} -> {k}", v.folder_k(name) == k) for name, k in want.items()]


def main() -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="adjutant-verifier-selftest-") as tmp:
        base = Path(tmp) / "archive"
        build_archive(base)

        def case(name: str, mutate, expect_ok: bool, reason: str | None = None) -> None:
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
                good = rc == 1 and not crashed and "FAIL" in stdout and (reason is None or reason in stdout)
            if good:
                detail = next((line for line in stdout.splitlines() if "FAIL" in line), "") if not expect_ok else ""
                print(f"ok {name}" + (f"  [{detail[:150]}]" if detail else ""))
            else:
                failures += 1
                because = f" with {reason!r} in the report" if reason and not expect_ok else ""
                print(f"FAIL {name}: exit {rc}, expected {'0' if expect_ok else '1'}{because}")
                print("  " + stdout.replace("\n", "\n  ") + stderr.replace("\n", "\n  "))

        case("untampered archive passes", None, True)
        case("roll and event logs published late", unpublish_logs, True)
        case("no logs published yet", unpublish_all_logs, True)
        case("salt-only orders, side id with digits and -", salt_only_orders, True)
        for name, mutate, *reason in TAMPERS:
            case(f"refused: {name}", mutate, False, *reason)
        for name, good in folder_k_cases():
            print(f"{'ok' if good else 'FAIL'} {name}")
            failures += not good

        rc, stdout, _ = run_verify(base)
        print("  " + stdout.strip().replace("\n", "\n  "))

    print(f"selftest: {'ok' if failures == 0 else f'{failures} case(s) FAILED'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
