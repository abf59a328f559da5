#!/usr/bin/env python3
"""Self-test of the independent verifier.

Builds a small synthetic archive laid out as docs/AUDIT.md section 7: sides alpha, beta and gamma, both
chains of length 5 from a fixed h_0, three turns and three umpire calls interleaved with them (calls after
turns 0, 2 and 2), rolls drawn from the section 5 stream. Checks that `verify.py archive` accepts it (also
with its logs unpublished, with a turns' chain used up to h_0, and with edge cases the spec allows: other
rulesets' phase labels, unknown keys, strings of every kind, an empty beacon, salt lines kept as written,
calls with capitals and an inch mark), then that each
tampered copy is refused, for the expected reason where one is given, and that malformed input is reported
rather than crashing; it also checks section 6's string escaping directly. Exit status 0 only if every case
behaves.
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

TURN, UMPIRE = v.TURN, v.UMPIRE
CAMPAIGN = "selftest-campaign"
H0 = bytes(range(0xA0, 0xC0))
N = 5
BEACON = "selftest beacon 7 21 33"
SIDES = ["alpha", "beta", "gamma"]


def canonical_json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def state(turn: int, hussars_x: int) -> bytes:
    units = {"grenadiers": {"x": 1200, "y": 350}, "hussars": {"x": hussars_x, "y": 0}}
    return canonical_json({"turn": turn, "units": units})


# STATES[t] is the state turn t left (STATES[0] the initial state)
STATES = [state(1, 0), state(2, 600), state(3, 900), state(4, 1150)]

TURNS: dict[int, tuple[str, dict[str, str | None], list[tuple[str, str]]]] = {
    1: (
        "turn 1 orders (alpha active)",
        {
            "alpha": "move hussars 6\nfire grenadiers at hussars\nsalt 4711\n",
            "gamma": "hold grenadiers\n",
            "beta": None,
        },
        [("d6", "fire: grenadiers at hussars"), ("2d6", "morale: hussars"), ("d10", "cover: hussars")]
        + [("d6", f"hit {i}: grenadiers") for i in range(5)],
    ),
    2: (
        "turn 1 orders (beta active)",
        {"alpha": None, "beta": "move hussars 3\n", "gamma": None},
        [("d100", "attrition: hussars"), ("d6", "disorder: hussars")],
    ),
    3: (
        "turn 2 orders (alpha active)",
        {"alpha": "salt only a salt line\n", "beta": "charge hussars grenadiers\nsalt x y\n", "gamma": None},
        [("2d6", "charge: hussars"), ("2d6", "close combat: grenadiers"), ("d6", "pursuit: hussars")],
    ),
}

# k -> (after_turn, canonical call text, dice)
CALLS: dict[int, tuple[int, str, list[tuple[str, str]]]] = {
    1: (0, "rally grade c enemy-can-charge\n", [("d100", "rally: hussars"), ("d6", "rally: hussars")]),
    2: (2, "shoot 12 hussars grade b range 3\n", [("2d6", "close combat: hussars"), ("d6", "rally: hussars")]),
    3: (2, "morale grenadiers grade a\n", [("2d6", "morale: grenadiers")]),
}


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def res(out: Path, kind: str, k: int) -> Path:
    return out / v.FOLDER[kind] / f"{k:04d}"


def turn_secret(k: int, n: int = N) -> bytes:
    return v.chain(H0, n)[n - k]


def call_secret(k: int, n: int = N, u0: bytes | None = None) -> bytes:
    us = v.chain(u0, n) if u0 is not None else v.umpire_chain(H0, n)
    return us[n - k]


def build_resolution(
    out: Path,
    kind: str,
    k: int,
    after_turn: int,
    phase: str,
    secret: bytes,
    orders: dict[str, str | None],
    prior: bytes,
    nxt: bytes,
    dice: list[tuple[str, str]],
    index_from: int = 0,
    word_from: int = 0,
    number_word: str | None = None,
    tag_kind: str | None = None,
    manifest_fn=None,
    beacon: str | None = BEACON,
) -> None:
    """Writes turn or umpire call k, with every digest and roll consistent. The keyword arguments break one
    rule each: index_from and word_from shift the logged index and first_word of every roll (0 for an honest
    log, whose numbering starts again in each resolution); number_word replaces the manifest's `resolution` or
    `call`; tag_kind derives the seed with the other kind's tag; manifest_fn rewrites the manifest's bytes
    (before its digest is taken); beacon is the beacon the seed is derived with (None for none)."""
    folder = res(out, kind, k)
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
    manifest = v.manifest_text(CAMPAIGN, kind, k, phase, digests).encode("utf-8")
    if number_word is not None:
        manifest = manifest.replace(f"\n{v.MANIFEST_NUMBER_WORD[kind]} ".encode(), f"\n{number_word} ".encode(), 1)
    if manifest_fn is not None:
        manifest = manifest_fn(manifest)
    write(folder / "manifest.txt", manifest)
    write(folder / "prior-state.json", prior)
    write(folder / "next-state.json", nxt)
    manifest_digest = v.sha256(manifest)
    seed = v.derive_seed(
        tag_kind or kind, CAMPAIGN, k, secret, manifest_digest, v.sha256(prior), v.text_beacon_field(beacon)
    )
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
    write(folder / "events.jsonl", canonical_json({"k": k, "kind": kind, "what": f"{len(rolls)} rolls"}) + b"\n")
    write(
        folder / "resolution.json",
        canonical_json(
            {
                "after_turn": after_turn,
                "k": k,
                "kind": kind,
                "manifest_digest": manifest_digest.hex(),
                "next_state_digest": v.sha256(nxt).hex(),
                "phase": phase,
                "prior_state_digest": v.sha256(prior).hex(),
                "resolved_at": f"2026-11-{10 + 2 * after_turn + (kind == UMPIRE):02d}T18:0{k}:00Z",
                "secret": secret.hex(),
                "seed": seed.hex(),
            }
        ),
    )


def build_turn(out: Path, k: int, orders: dict[str, str | None] | None = None, **kw) -> None:
    phase, default_orders, dice = TURNS[k]
    args = dict(
        after_turn=k - 1,
        phase=phase,
        secret=turn_secret(k),
        orders=default_orders if orders is None else orders,
        prior=STATES[k - 1],
        nxt=STATES[k],
        dice=dice,
    )
    args.update(kw)
    build_resolution(out, TURN, k, **args)


def build_call(out: Path, k: int, orders: dict[str, str | None] | None = None, **kw) -> None:
    after_turn, text, dice = CALLS[k]
    args = dict(
        after_turn=after_turn,
        phase=v.UMPIRE_PHASE,
        secret=call_secret(k),
        orders={v.UMPIRE_SIDE: text} if orders is None else orders,
        prior=STATES[after_turn],
        nxt=STATES[after_turn],
        dice=dice,
    )
    args.update(kw)
    build_resolution(out, UMPIRE, k, **args)


def write_campaign(
    out: Path, n: int = N, turns: int = len(TURNS), calls: int = len(CALLS), u0=None, beacon: str | None = BEACON
) -> None:
    umpire = v.chain(u0, n) if u0 is not None else v.umpire_chain(H0, n)
    write(
        out / "campaign.json",
        canonical_json(
            {
                "beacon": beacon,
                "calls": calls,
                "campaign": CAMPAIGN,
                "chain_length": n,
                "commitment": v.chain(H0, n)[n].hex(),
                "initial_state_digest": v.sha256(STATES[0]).hex(),
                "no_orders_policy": "stand-fast",
                "ruleset": "selftest",
                "sides": SIDES,
                "spec": v.SPEC,
                "title": "Self-test campaign",
                "turns": turns,
                "umpire_commitment": umpire[n].hex(),
            }
        ),
    )


def build_archive(out: Path) -> None:
    write_campaign(out)
    for k in TURNS:
        build_turn(out, k)
    for k in CALLS:
        build_call(out, k)


def rebuild_with_chain_length(out: Path, n: int, u0: bytes | None = None) -> None:
    """The same archive with chains of length n (3 uses the turns' chain up to h_0)."""
    write_campaign(out, n=n, u0=u0)
    for k in TURNS:
        build_turn(out, k, secret=turn_secret(k, n))
    for k in CALLS:
        build_call(out, k, secret=call_secret(k, n, u0))


def run_verify(out: Path) -> tuple[int, str, str]:
    p = subprocess.run(
        [sys.executable, str(HERE / "verify.py"), "archive", str(out)], capture_output=True, text=True, timeout=120
    )
    return p.returncode, p.stdout, p.stderr


# ---- tampering -----------------------------------------------------------------------------------


def edit_json(path: Path, fn) -> None:
    obj = json.loads(path.read_bytes())
    fn(obj)
    path.write_bytes(canonical_json(obj))


def edit_lines(path: Path, fn) -> None:
    lines = path.read_bytes().split(b"\n")
    fn(lines)
    path.write_bytes(b"\n".join(lines))


def edit_roll(path: Path, i: int, fn) -> None:
    def f(lines):
        r = json.loads(lines[i])
        fn(r)
        lines[i] = canonical_json(r)

    edit_lines(path, f)


def flip_secret_byte(out: Path) -> None:
    def f(o):
        b = bytearray(bytes.fromhex(o["secret"]))
        b[7] ^= 0x01
        o["secret"] = b.hex()

    edit_json(res(out, TURN, 1) / "resolution.json", f)


def flip_call_secret_byte(out: Path) -> None:
    def f(o):
        b = bytearray(bytes.fromhex(o["secret"]))
        b[0] ^= 0x80
        o["secret"] = b.hex()

    edit_json(res(out, UMPIRE, 2) / "resolution.json", f)


def edit_order_line(out: Path) -> None:
    p = res(out, TURN, 1) / "orders" / "alpha.txt"
    p.write_bytes(p.read_bytes().replace(b"move hussars 6", b"move hussars 7"))


def edit_call_text(out: Path) -> None:
    p = res(out, UMPIRE, 2) / "orders" / "@umpire.txt"
    p.write_bytes(p.read_bytes().replace(b"range 3", b"range 2"))


def edit_roll_value(out: Path) -> None:
    edit_roll(res(out, TURN, 1) / "rolls.jsonl", 1, lambda r: r.update(value=r["value"] + 1))


def edit_roll_value_and_faces(out: Path) -> None:
    def f(r):
        r["value"] = r["value"] % 100 + 1
        r["faces"] = [r["value"]]

    edit_roll(res(out, UMPIRE, 1) / "rolls.jsonl", 0, f)


def flip_state_byte(out: Path) -> None:
    p = res(out, TURN, 1) / "next-state.json"
    p.write_bytes(p.read_bytes().replace(b"600", b"700"))


def flip_prior_state_byte(out: Path) -> None:
    p = res(out, UMPIRE, 2) / "prior-state.json"
    p.write_bytes(p.read_bytes().replace(b"900", b"901"))


def drop_a_roll(out: Path) -> None:
    p = res(out, TURN, 1) / "rolls.jsonl"
    lines = [x for x in p.read_bytes().split(b"\n") if x]
    del lines[2]
    # renumber indexes so that only the gap in first_word betrays the missing roll
    fixed = []
    for i, line in enumerate(lines):
        r = json.loads(line)
        r["index"] = i
        fixed.append(canonical_json(r))
    p.write_bytes(b"".join(x + b"\n" for x in fixed))


def add_unlisted_orders(out: Path) -> None:
    write(res(out, TURN, 1) / "orders" / "beta.txt", b"hold everything\n")


def add_unlisted_orders_file(out: Path) -> None:
    write(res(out, UMPIRE, 2) / "orders" / "delta.txt", b"charge\n")


def change_manifest_phase(out: Path) -> None:
    p = res(out, TURN, 1) / "manifest.txt"
    p.write_bytes(p.read_bytes().replace(b"alpha active", b"beta active"))


def change_beacon(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(beacon="selftest beacon 7 21 34"))


def drop_beacon(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(beacon=None))


def change_initial_state(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(initial_state_digest="00" * 32))


def umpire_changes_state(out: Path) -> None:
    build_call(out, 2, nxt=STATES[3])


def truncate_resolution_json(out: Path) -> None:
    p = res(out, UMPIRE, 2) / "resolution.json"
    p.write_bytes(p.read_bytes()[:40])


def garbage_roll_line(out: Path) -> None:
    p = res(out, UMPIRE, 2) / "rolls.jsonl"
    p.write_bytes(p.read_bytes() + b'{"die":"d6","faces":[1.5],\xff\n')


def roll_wrong_types(out: Path) -> None:
    def f(lines):
        lines[0] = b'{"die":"d6","faces":"x","first_word":"0","index":0,"purpose":3,"sides":6,"value":null,"words":1}'

    edit_lines(res(out, TURN, 1) / "rolls.jsonl", f)


def unknown_die(out: Path) -> None:
    p = res(out, TURN, 1) / "rolls.jsonl"
    p.write_bytes(p.read_bytes().replace(b'"die":"d10"', b'"die":"d12"', 1))


def campaign_json_not_object(out: Path) -> None:
    (out / "campaign.json").write_bytes(b"[1,2,3]")


def campaign_json_missing(out: Path) -> None:
    (out / "campaign.json").unlink()


def resolution_folder_missing(out: Path) -> None:
    shutil.rmtree(res(out, UMPIRE, 2))


def turn_folder_missing(out: Path) -> None:
    shutil.rmtree(res(out, TURN, 2))


def turns_folder_missing(out: Path) -> None:
    shutil.rmtree(out / "turns")


def calls_folder_beyond_count(out: Path) -> None:
    shutil.copytree(res(out, UMPIRE, 3), out / "calls" / "0004")


def manifest_not_utf8(out: Path) -> None:
    p = res(out, TURN, 1) / "manifest.txt"
    p.write_bytes(p.read_bytes() + b"\xfe\xff\n")


def hostile_side_id(out: Path) -> None:
    # sorts before alpha, so only the id is wrong
    edit_lines(res(out, TURN, 1) / "manifest.txt", lambda lines: lines.insert(4, b"orders ../../campaign " + b"0" * 64))


def wrong_commitment(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(commitment=v.sha256(b"other").hex()))


def wrong_umpire_commitment(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(umpire_commitment=v.sha256(b"other").hex()))


def commitments_swapped(out: Path) -> None:
    def f(o):
        o["commitment"], o["umpire_commitment"] = o["umpire_commitment"], o["commitment"]

    edit_json(out / "campaign.json", f)


def umpire_commitment_missing(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.pop("umpire_commitment"))


def old_resolutions_count(out: Path) -> None:
    def f(o):
        o["resolutions"] = o.pop("turns") + o.pop("calls")

    edit_json(out / "campaign.json", f)


def calls_beyond_chain(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(calls=N + 1))


def chain_length_too_long(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(chain_length=100001))


# ---- two kinds of resolution (AUDIT.md sections 1, 3, 4, 7 and 8) --------------------------------
# Each of these rebuilds a resolution so that every digest and roll is consistent: only the rule under
# test is broken.


def turn_secret_from_umpire_chain(out: Path) -> None:
    build_turn(out, 2, secret=call_secret(2))  # would link to U, not to C


def call_secret_from_turn_chain(out: Path) -> None:
    build_call(out, 2, secret=turn_secret(2))


def call_wrong_after_turn(out: Path) -> None:
    build_call(out, 2, after_turn=1)  # its prior state is the one turn 2 left


def call_after_turn_going_back(out: Path) -> None:
    build_call(out, 3, after_turn=1, prior=STATES[1], nxt=STATES[1])  # call 2 came after turn 2


def call_after_missing_turn(out: Path) -> None:
    build_call(out, 3, after_turn=4, prior=STATES[3], nxt=STATES[3])


def call_after_turn_negative(out: Path) -> None:
    build_call(out, 1, after_turn=-1)


def turn_wrong_after_turn(out: Path) -> None:
    build_turn(out, 2, after_turn=0)


def turn_prior_from_wrong_turn(out: Path) -> None:
    build_turn(out, 3, prior=STATES[1])


def call_manifest_says_resolution(out: Path) -> None:
    build_call(out, 2, number_word="resolution")


def turn_manifest_says_call(out: Path) -> None:
    build_turn(out, 2, number_word="call")


def call_seed_with_turn_tag(out: Path) -> None:
    build_call(out, 1, tag_kind=TURN)


def turn_seed_with_call_tag(out: Path) -> None:
    build_turn(out, 3, tag_kind=UMPIRE)


def manifest_crlf(out: Path) -> None:
    build_turn(out, 1, manifest_fn=lambda m: m.replace(b"\n", b"\r\n"))


def call_manifest_crlf(out: Path) -> None:
    build_call(out, 3, manifest_fn=lambda m: m.replace(b"\n", b"\r\n"))


def manifest_number_leading_zero(out: Path) -> None:
    build_call(out, 2, manifest_fn=lambda m: m.replace(b"\ncall 2\n", b"\ncall 02\n"))


def manifest_trailing_blank_line(out: Path) -> None:
    build_turn(out, 2, manifest_fn=lambda m: m + b"\n")


def turn_in_calls_folder(out: Path) -> None:
    shutil.rmtree(res(out, UMPIRE, 3))
    shutil.copytree(res(out, TURN, 3), res(out, UMPIRE, 3))


def after_turn_missing(out: Path) -> None:
    edit_json(res(out, UMPIRE, 1) / "resolution.json", lambda o: o.pop("after_turn"))


def call_file_without_at(out: Path) -> None:
    build_call(out, 2, orders={"umpire": CALLS[2][1]})


def call_two_lines(out: Path) -> None:
    build_call(out, 2, orders={v.UMPIRE_SIDE: "shoot 12 hussars\ngrade b range 3\n"})


# ---- the sides of a manifest (AUDIT.md sections 3 and 8, step 2) ---------------------------------


def side_missing_from_manifest(out: Path) -> None:
    o = TURNS[1][1]
    build_turn(out, 1, orders={"alpha": o["alpha"], "beta": None})  # gamma left out


def side_none_missing_from_manifest(out: Path) -> None:
    o = TURNS[1][1]
    build_turn(out, 1, orders={"alpha": o["alpha"], "gamma": o["gamma"]})  # beta left out


def extra_side_in_manifest(out: Path) -> None:
    build_turn(out, 1, orders={**TURNS[1][1], "delta": "hold hussars\n"})


def extra_side_none_in_manifest(out: Path) -> None:
    build_turn(out, 1, orders={**TURNS[1][1], "delta": None})


def side_missing_from_campaign(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(sides=["alpha", "gamma"]))


def umpire_line_in_turn(out: Path) -> None:
    build_turn(out, 1, orders={**TURNS[1][1], "@umpire": "rally hussars\n"})


def umpire_call_lists_a_side(out: Path) -> None:
    build_call(out, 2, orders={v.UMPIRE_SIDE: CALLS[2][1], "alpha": None})


def umpire_call_lists_the_sides(out: Path) -> None:
    build_call(out, 2, orders={"alpha": None, "beta": None, "gamma": None})


def umpire_call_none(out: Path) -> None:
    build_call(out, 2, orders={v.UMPIRE_SIDE: None})


def umpire_call_phase(out: Path) -> None:
    build_call(out, 2, phase="umpire call")


def manifest_lines_unsorted(out: Path) -> None:
    def swap(m: bytes) -> bytes:
        lines = m.split(b"\n")
        lines[4], lines[5] = lines[5], lines[4]
        return b"\n".join(lines)

    build_turn(out, 1, manifest_fn=swap)


def upper_case_side_id(out: Path) -> None:
    sides = ["Gamma", "alpha", "beta"]  # sorted by UTF-8 bytes, but G is not a side id character
    edit_json(out / "campaign.json", lambda o: o.update(sides=sides))
    o = TURNS[1][1]
    build_turn(out, 1, orders={"alpha": o["alpha"], "beta": None, "Gamma": o["gamma"]})


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


# ---- orders text (AUDIT.md section 2) ------------------------------------------------------------


def orders_upper_case(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "Move hussars 3\n"})


def orders_double_space(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "move  hussars 3\n"})


def orders_trailing_space(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "move hussars 3 \n"})


def order_after_salt(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "salt 1\nmove hussars 3\n"})


def orders_blank_line(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "move hussars 3\n\nsalt 1\n"})


def orders_crlf(out: Path) -> None:
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "move hussars 3\r\n"})


# ---- states (AUDIT.md section 6) -----------------------------------------------------------------


def state_with_white_space(out: Path) -> None:
    build_turn(out, 3, nxt=b'{"turn": 4}')


def state_with_final_lf(out: Path) -> None:
    build_turn(out, 3, nxt=STATES[3] + b"\n")


def state_keys_unsorted(out: Path) -> None:
    build_turn(out, 3, nxt=b'{"units":{},"turn":4}')


def state_with_fraction(out: Path) -> None:
    build_turn(out, 3, nxt=b'{"turn":4.5}')


# ---- logs published late (AUDIT.md section 7) ----------------------------------------------------


def unpublish(out: Path, kind: str, k: int) -> None:
    (res(out, kind, k) / "rolls.jsonl").unlink()
    (res(out, kind, k) / "events.jsonl").unlink()


def unpublish_some_logs(out: Path) -> None:
    unpublish(out, TURN, 3)
    unpublish(out, UMPIRE, 2)


def unpublish_all_logs(out: Path) -> None:
    for k in TURNS:
        unpublish(out, TURN, k)
    for k in CALLS:
        unpublish(out, UMPIRE, k)


def rolls_log_missing(out: Path) -> None:
    (res(out, TURN, 1) / "rolls.jsonl").unlink()


def events_log_missing(out: Path) -> None:
    (res(out, UMPIRE, 2) / "events.jsonl").unlink()


def unpublished_logs_with_bad_secret(out: Path) -> None:
    unpublish_all_logs(out)
    flip_secret_byte(out)


def unpublished_logs_with_bad_manifest(out: Path) -> None:
    umpire_call_lists_a_side(out)
    unpublish(out, UMPIRE, 2)


# ---- lines, folders, roll numbering --------------------------------------------------------------


def orders_without_final_lf(out: Path) -> None:
    build_turn(out, 1, orders={**TURNS[1][1], "gamma": "hold grenadiers"})


def rolls_without_final_lf(out: Path) -> None:
    p = res(out, UMPIRE, 2) / "rolls.jsonl"
    p.write_bytes(p.read_bytes()[:-1])


def events_without_final_lf(out: Path) -> None:
    p = res(out, TURN, 1) / "events.jsonl"
    p.write_bytes(p.read_bytes()[:-1])


def manifest_without_final_lf(out: Path) -> None:
    build_turn(out, 1, manifest_fn=lambda m: m[:-1])


def folder_not_zero_padded(out: Path) -> None:
    res(out, UMPIRE, 2).rename(out / "calls" / "2")


def folder_over_padded(out: Path) -> None:
    res(out, TURN, 2).rename(out / "turns" / "00002")


def old_layout(out: Path) -> None:
    (out / "turns").rename(out / "resolutions")


def roll_numbering_continues(out: Path) -> None:
    # call 2 numbers its rolls after call 1's 2 rolls instead of starting again at 0
    build_call(out, 2, index_from=len(CALLS[1][2]))


def roll_words_continue(out: Path) -> None:
    build_call(out, 2, word_from=9)


def roll_ninth_key(out: Path) -> None:
    edit_roll(res(out, TURN, 1) / "rolls.jsonl", 0, lambda r: r.update(unit="grenadiers"))


def roll_key_missing(out: Path) -> None:
    edit_roll(res(out, TURN, 1) / "rolls.jsonl", 0, lambda r: r.pop("purpose"))


def resolved_at_not_rfc3339(out: Path) -> None:
    edit_json(res(out, UMPIRE, 2) / "resolution.json", lambda o: o.update(resolved_at="2026-11-22 18:00"))


def resolved_at_not_utc(out: Path) -> None:
    edit_json(res(out, TURN, 1) / "resolution.json", lambda o: o.update(resolved_at="2026-11-21T19:00:00+01:00"))


def exhausted_chain_umpire_not_from_h0(out: Path) -> None:
    rebuild_with_chain_length(out, len(TURNS), u0=v.sha256(b"not derived from h_0"))



# ---- empty orders files (AUDIT.md section 2) -----------------------------------------------------


def orders_file_empty(out: Path) -> None:
    # the manifest lists the digest of the empty text, and the file is there: still refused
    build_turn(out, 2, orders={**TURNS[2][1], "beta": ""})


def umpire_orders_file_empty(out: Path) -> None:
    build_call(out, 2, orders={v.UMPIRE_SIDE: ""})


# ---- phase labels (AUDIT.md section 3) -----------------------------------------------------------

# labels another ruleset could write: anything printable ASCII, not starting or ending with a space
OTHER_PHASES = {1: "Phase 1: Move -- Blue/Red [50%] ~ ok", 2: "Turn 2 FIRE! (a & b)  {x}", 3: "x"}


def phase_labels_of_another_ruleset(out: Path) -> None:
    for k, phase in OTHER_PHASES.items():
        build_turn(out, k, phase=phase)


def phase_label(label: str):
    def mutate(out: Path) -> None:
        build_turn(out, 2, phase=label)

    return mutate


# ---- unknown keys of campaign.json and resolution.json (AUDIT.md section 7) ----------------------

UNKNOWN = {
    "scale": 1.5,
    "exported_by": "adjutant 9.9 \u00e9",
    "notes": {"a": [1.25, None, True, {"b": -2.5e-3}]},
    "Zz": None,
    "@later": ["x", 3],
}


def unknown_keys_ignored(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(UNKNOWN))
    edit_json(res(out, TURN, 1) / "resolution.json", lambda o: o.update(UNKNOWN, weather=0.75))
    edit_json(res(out, UMPIRE, 2) / "resolution.json", lambda o: o.update(UNKNOWN, umpire_note="rain"))


def prepend_raw(path: Path, raw: bytes) -> None:
    data = path.read_bytes()
    assert data.startswith(b"{")
    path.write_bytes(b"{" + raw + data[1:])


def repeated_unknown_key(out: Path) -> None:
    prepend_raw(out / "campaign.json", b'"note":1,"note":[2.5],')
    prepend_raw(res(out, UMPIRE, 1) / "resolution.json", b'"note":"a","note":"b",')


def repeated_known_campaign_key(out: Path) -> None:
    prepend_raw(out / "campaign.json", b'"turns":3,')


def repeated_known_resolution_key(out: Path) -> None:
    prepend_raw(res(out, TURN, 2) / "resolution.json", b'"k":2,')


def known_key_fraction(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(chain_length=float(N)))


def resolution_k_fraction(out: Path) -> None:
    edit_json(res(out, UMPIRE, 3) / "resolution.json", lambda o: o.update(k=3.0))


# ---- the canonical form of states and log lines (AUDIT.md section 6) -----------------------------

# one string with every kind of character section 6 names: quote, backslash, the five short escapes, other
# control characters, `/`, DEL, and non-ASCII characters (two-, three- and four-byte UTF-8)
SPECIAL = 'fire / "old guard" \\ a\tb\nc\bd\fe\rf \x00\x01\x1b\x1f \x7f \u00e9 \u2028 \U0001f600'
STATE_SPECIAL = canonical_json({"name": SPECIAL, "turn": 4, "\u00e9": {"/": "\\"}})


def special_strings(out: Path) -> None:
    build_turn(out, 1, dice=[(die, f"{purpose} {SPECIAL}") for die, purpose in TURNS[1][2]])
    p = res(out, TURN, 1) / "events.jsonl"
    p.write_bytes(p.read_bytes() + canonical_json({"note": SPECIAL, "\u00e9t\u00e9": 1, "z": [SPECIAL]}) + b"\n")
    build_turn(out, 3, nxt=STATE_SPECIAL)


def respelled(name: str, raw: bytes, other: bytes):
    """special_strings, then the first `raw` in turn 1's or 3's `name` file spelled `other` instead."""

    def mutate(out: Path) -> None:
        special_strings(out)
        if name == "next-state.json":
            assert raw in STATE_SPECIAL
            build_turn(out, 3, nxt=STATE_SPECIAL.replace(raw, other, 1))  # every digest consistent
            return
        p = res(out, TURN, 1) / name
        data = p.read_bytes()
        assert raw in data, (name, raw)
        p.write_bytes(data.replace(raw, other, 1))

    return mutate


def events_line(raw: bytes):
    def mutate(out: Path) -> None:
        p = res(out, UMPIRE, 1) / "events.jsonl"
        p.write_bytes(p.read_bytes() + raw + b"\n")

    return mutate


# ---- the beacon field (AUDIT.md section 4) and the chain length (section 1) ----------------------


def rebuild_with_beacon(out: Path, campaign_beacon: str | None, seed_beacon: str | None) -> None:
    write_campaign(out, beacon=campaign_beacon)
    for k in TURNS:
        build_turn(out, k, beacon=seed_beacon)
    for k in CALLS:
        build_call(out, k, beacon=seed_beacon)


def empty_beacon(out: Path) -> None:
    rebuild_with_beacon(out, "", "")  # an empty string is a beacon: its field is SHA-256 of no bytes


def null_beacon(out: Path) -> None:
    rebuild_with_beacon(out, None, None)


def empty_beacon_taken_as_none(out: Path) -> None:
    rebuild_with_beacon(out, "", None)


def chain_length_zero(out: Path) -> None:
    no_resolutions(out)
    write_campaign(out, n=0, turns=0, calls=0)  # C = h_0 and U = u_0 = SHA-256(tag || h_0)


# ---- the rules settled for outside verifiers (AUDIT.md sections 2, 3, 7) -------------------------


def salt_as_written(out: Path) -> None:
    # a salt line keeps the player's capitals and any non-ASCII letter; its word `salt` is lower case
    build_turn(out, 2, orders={**TURNS[2][1], "beta": "move hussars 3\nsalt The Eagles fly \u00e0 l'aube\n"})


def call_with_capitals_and_inch_mark(out: Path) -> None:
    build_call(out, 2, orders={v.UMPIRE_SIDE: 'fire 6 x 12pdr class B roundshot massed 8"\n'})


def orders_text(text: str):
    def mutate(out: Path) -> None:
        build_turn(out, 2, orders={**TURNS[2][1], "beta": text})

    return mutate


def call_text(text: str):
    def mutate(out: Path) -> None:
        build_call(out, 2, orders={v.UMPIRE_SIDE: text})

    return mutate


def campaign_id_upper_case(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(campaign="Selftest-Campaign"))


def acts_key_in_v1(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(acts=0))


def title_not_a_string(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(title=7))


def resolved_at_with_fraction(out: Path) -> None:
    edit_json(res(out, TURN, 1) / "resolution.json", lambda o: o.update(resolved_at="2026-11-10T18:01:00.5Z"))


def chain_length_negative(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(chain_length=-1))


TAMPERS = [
    ("one byte of a turn secret", flip_secret_byte, "turn 1: FAIL: chain:"),
    ("one byte of a call secret", flip_call_secret_byte, "call 2: FAIL: chain:"),
    ("one order line", edit_order_line, "turn 1: FAIL: orders: SHA-256(orders/alpha.txt)"),
    ("one word of an umpire call", edit_call_text, "call 2: FAIL: orders: SHA-256(orders/@umpire.txt)"),
    ("one roll value", edit_roll_value, "value is"),
    ("one roll value with matching faces", edit_roll_value_and_faces, "call 1: FAIL: rolls:"),
    ("one byte of a next state", flip_state_byte, "turn 1: FAIL: state:"),
    ("one byte of a prior state", flip_prior_state_byte, "call 2: FAIL: state:"),
    ("a roll left out of the log", drop_a_roll, "(the stream position)"),
    ("orders file for a side listed as none", add_unlisted_orders, "listed as none but orders/beta.txt exists"),
    ("unlisted orders file", add_unlisted_orders_file, "delta.txt is not listed"),
    ("manifest phase edited", change_manifest_phase, "resolution.json says"),
    ("beacon changed", change_beacon, "seed:"),
    ("beacon removed", drop_beacon, "seed:"),
    ("initial state digest changed", change_initial_state, "is not initial_state_digest"),
    ("umpire call changes the state", umpire_changes_state, "an umpire call changed the state"),
    ("commitment changed", wrong_commitment, "turn 1: FAIL: chain:"),
    ("umpire_commitment changed", wrong_umpire_commitment, "call 1: FAIL: chain:"),
    ("commitment and umpire_commitment swapped", commitments_swapped, "which links to umpire_commitment U"),
    ("umpire_commitment missing", umpire_commitment_missing, "key 'umpire_commitment' missing"),
    ("campaign.json counting resolutions, not turns and calls", old_resolutions_count, "key 'turns' missing"),
    ("more calls than the chain holds", calls_beyond_chain, "each chain has only 5 secrets"),
    ("chain_length above 100000", chain_length_too_long, "chain_length 100001 is not in"),
    # two kinds of resolution
    ("a turn secret from the umpire chain (checked against U)", turn_secret_from_umpire_chain,
     "(it is q_2 of the other chain, which links to umpire_commitment U)"),
    ("a call secret from the turns' chain", call_secret_from_turn_chain, "it is r_2 of the other chain"),
    ("a call with the wrong after_turn", call_wrong_after_turn, "is not turn 1's next_state_digest"),
    ("a call whose after_turn goes back", call_after_turn_going_back, "is before call 2's after_turn 2"),
    ("a call after a turn not in the archive", call_after_missing_turn, "4 is not a turn of this archive"),
    ("a call with a negative after_turn", call_after_turn_negative, "-1 is not a turn of this archive"),
    ("a turn whose after_turn is not k - 1", turn_wrong_after_turn, "turn 2 has after_turn 0, expected 1"),
    ("a turn whose prior state is an older turn's", turn_prior_from_wrong_turn, "is not turn 2's next_state_digest"),
    ("a call manifest saying resolution instead of call", call_manifest_says_resolution,
     "third line is 'resolution 2', an umpire call's reads 'call 2'"),
    ("a turn manifest saying call instead of resolution", turn_manifest_says_call,
     "third line is 'call 2', a turn's reads 'resolution 2'"),
    ("a call seed derived with the turn tag", call_seed_with_turn_tag, "the tag 'adjutant-seed-v1' gives"),
    ("a turn seed derived with the call tag", turn_seed_with_call_tag, "the tag 'adjutant-call-v1' gives"),
    ("a non-canonical manifest: CRLF line ends", manifest_crlf,
     "turn 1: FAIL: manifest: manifest.txt has a carriage return"),
    ("a non-canonical call manifest: CRLF line ends", call_manifest_crlf,
     "call 3: FAIL: manifest: manifest.txt has a carriage return"),
    ("a manifest number with a leading zero", manifest_number_leading_zero, "call number is '02'"),
    ("a manifest with a trailing blank line", manifest_trailing_blank_line, "unexpected line ''"),
    ("a turn in the calls folder", turn_in_calls_folder, "kind is 'turn', but the folder is in calls/"),
    ("after_turn missing", after_turn_missing, "key 'after_turn' missing"),
    ("a call's orders not from @umpire", call_file_without_at, "must list @umpire alone"),
    ("a call of two lines", call_two_lines, "@umpire.txt is not one line"),
    ("the used-up turns' chain does not derive the umpire chain", exhausted_chain_umpire_not_from_h0,
     "turn 3: FAIL: chain: turn 3 reveals h_0"),
    # malformed input: must be reported as FAIL, not crash
    ("truncated resolution.json", truncate_resolution_json, "call 2: FAIL"),
    ("garbage roll line", garbage_roll_line, "call 2: FAIL"),
    ("roll fields of the wrong type", roll_wrong_types, "turn 1: FAIL"),
    ("unknown die", unknown_die, "unknown die 'd12'"),
    ("campaign.json not an object", campaign_json_not_object, "campaign.json is not a JSON object"),
    ("campaign.json missing", campaign_json_missing, "campaign.json missing"),
    ("call folder missing", resolution_folder_missing, "call 2: FAIL: folder calls/0002 missing"),
    ("turn folder missing", turn_folder_missing, "turn 2: FAIL: folder turns/0002 missing"),
    ("turns folder missing", turns_folder_missing, "turns is missing"),
    ("a call folder beyond the count", calls_folder_beyond_count, "calls/0004 is beyond"),
    ("manifest not UTF-8", manifest_not_utf8, "not UTF-8"),
    ("side id escaping the orders folder", hostile_side_id, "is not a valid side id"),
    # sides
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
    # orders text
    ("orders not lower case", orders_upper_case, "is not lower case"),
    ("orders with a double space", orders_double_space, "is not single-spaced"),
    ("orders with a trailing space", orders_trailing_space, "is not single-spaced"),
    ("an order after a salt line", order_after_salt, "after a salt line"),
    ("orders with a blank line", orders_blank_line, "has a blank line"),
    ("orders with CRLF line ends", orders_crlf, "beta.txt has a carriage return"),
    # states
    ("a state with white space", state_with_white_space, "insignificant white space"),
    ("a state ending with LF", state_with_final_lf, "insignificant white space"),
    ("a state with unsorted keys", state_keys_unsorted, "keys not sorted"),
    ("a state with a fraction", state_with_fraction, "non-integer number 4.5"),
    # logs published late
    ("rolls.jsonl missing, events.jsonl present", rolls_log_missing, "events.jsonl is published but rolls.jsonl"),
    ("events.jsonl missing, rolls.jsonl present", events_log_missing, "rolls.jsonl is published but events.jsonl"),
    ("logs unpublished but a secret changed", unpublished_logs_with_bad_secret, "turn 1: FAIL: chain:"),
    ("logs unpublished but an umpire manifest lists a side", unpublished_logs_with_bad_manifest, "@umpire alone"),
    # lines, folders, roll numbering
    ("orders file without its final LF", orders_without_final_lf, "gamma.txt does not end with LF"),
    ("rolls.jsonl without its final LF", rolls_without_final_lf, "rolls.jsonl does not end with LF"),
    ("events.jsonl without its final LF", events_without_final_lf, "events.jsonl does not end with LF"),
    ("manifest without its final LF", manifest_without_final_lf, "manifest.txt does not end with LF"),
    ("call folder not zero-padded", folder_not_zero_padded, "calls/2 is not"),
    ("turn folder padded to five digits", folder_over_padded, "turns/00002 is not"),
    ("the old layout (resolutions/ instead of turns/)", old_layout, "turns is missing"),
    ("roll index not starting again at 0", roll_numbering_continues, "index is 2, expected 0"),
    ("roll first_word not starting again at 0", roll_words_continue, "first_word is 9, expected 0"),
    ("a ninth key in a roll", roll_ninth_key, "unknown keys: unit"),
    ("a key missing from a roll", roll_key_missing, "keys missing: purpose"),
    ("resolved_at not RFC 3339", resolved_at_not_rfc3339, "is not written YYYY-MM-DDThh:mm:ssZ"),
    ("resolved_at not in UTC", resolved_at_not_utc, "is not written YYYY-MM-DDThh:mm:ssZ"),
    ("resolved_at with a fraction of a second", resolved_at_with_fraction, "is not written YYYY-MM-DDThh:mm:ssZ"),
    # empty orders files (section 2)
    ("an empty orders file of a side", orders_file_empty, "turn 2: FAIL: orders: orders/beta.txt is empty"),
    ("an empty umpire call file", umpire_orders_file_empty, "call 2: FAIL: orders: orders/@umpire.txt is empty"),
    # phase labels (section 3)
    ("a phase label with a non-ASCII letter", phase_label("turn 1 ordres (\u00e9quipe active)"),
     "(U+00E9), not printable ASCII"),
    ("a phase label with a tab", phase_label("turn 1\torders (beta active)"), "(U+0009), not printable ASCII"),
    ("a phase label with DEL", phase_label("turn 1 orders\x7f"), "(U+007F), not printable ASCII"),
    ("a phase label with a line break", phase_label("turn 1\norders (beta active)"), "(U+000A), not printable"),
    ("a phase label with a NUL", phase_label("turn 1 \x00"), "(U+0000), not printable ASCII"),
    ("a phase label starting with a space", phase_label(" turn 1 orders (beta active)"), "starts with a space"),
    ("a phase label ending with a space", phase_label("turn 1 orders (beta active) "), "ends with a space"),
    ("a phase label that is one space", phase_label(" "), "starts with a space"),
    # known keys of campaign.json and resolution.json (section 7); unknown ones pass, see main()
    ("a known key of campaign.json given twice", repeated_known_campaign_key, "campaign.json: duplicate key 'turns'"),
    ("a known key of resolution.json given twice", repeated_known_resolution_key,
     "turn 2: FAIL: resolution.json: duplicate key 'k'"),
    ("chain_length written as a fraction", known_key_fraction, "chain_length is not an integer: 5.0"),
    ("a call's k written as a fraction", resolution_k_fraction, "call 3: FAIL: resolution.json: k is not an integer"),
    # the canonical form (section 6)
    ("a roll line with a non-ASCII character as \\u00e9", respelled("rolls.jsonl", "\u00e9".encode(), b"\\u00e9"),
     "turn 1: FAIL: rolls: rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with a four-byte character as a surrogate pair",
     respelled("rolls.jsonl", "\U0001f600".encode(), b"\\ud83d\\ude00"), "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with U+2028 as \\u2028", respelled("rolls.jsonl", "\u2028".encode(), b"\\u2028"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with / as \\/", respelled("rolls.jsonl", b"/", b"\\/"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with a tab as \\u0009", respelled("rolls.jsonl", b"\\t", b"\\u0009"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with a line feed as \\u000a", respelled("rolls.jsonl", b"\\n", b"\\u000a"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with U+001F in upper-case hex", respelled("rolls.jsonl", b"\\u001f", b"\\u001F"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with U+001B raw, not escaped", respelled("rolls.jsonl", b"\\u001b", b"\x1b"),
     "rolls.jsonl line 1 is not valid JSON"),
    ("a roll line with DEL as \\u007f", respelled("rolls.jsonl", b"\x7f", b"\\u007f"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with a quote as \\u0022", respelled("rolls.jsonl", b'\\"', b"\\u0022"),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with an integer written -0", respelled("rolls.jsonl", b'"index":0', b'"index":-0'),
     "rolls.jsonl line 1 is not in canonical form"),
    ("a roll line with a space after a colon", respelled("rolls.jsonl", b'"die":', b'"die": '),
     "rolls.jsonl line 1 has insignificant white space"),
    ("a roll line with its keys unsorted", respelled("rolls.jsonl", b'{"die":"d6",', b'{"faces":[0],"die":"d6",'),
     "rolls.jsonl line 1: keys not sorted"),
    ("an event line with a non-ASCII character as \\u00e9", respelled("events.jsonl", "\u00e9".encode(), b"\\u00e9"),
     "turn 1: FAIL: events: events.jsonl line 2 is not in canonical form"),
    ("an event key with a non-ASCII character as \\u00e9", respelled("events.jsonl", '"\u00e9t'.encode(), b'"\\u00e9t'),
     "events.jsonl line 2 is not in canonical form"),
    ("a state with a non-ASCII character as \\u00e9", respelled("next-state.json", "\u00e9".encode(), b"\\u00e9"),
     "turn 3: FAIL: state: not canonical JSON: next-state.json is not in canonical form"),
    ("a state with / as \\/", respelled("next-state.json", b"/", b"\\/"), "next-state.json is not in canonical form"),
    ("a state with a control character as \\u0008", respelled("next-state.json", b"\\b", b"\\u0008"),
     "next-state.json is not in canonical form"),
    ("an event line with a fraction", events_line(b'{"range":2.5}'),
     "call 1: FAIL: events: events.jsonl line 2: non-integer"),
    ("an event line with an exponent", events_line(b'{"a":1e2}'), "events.jsonl line 2: non-integer number 1e2"),
    ("an event line with its keys unsorted", events_line(b'{"b":1,"a":2}'), "events.jsonl line 2: keys not sorted"),
    ("an event line with a white space", events_line(b'{"a": 1}'), "events.jsonl line 2 has insignificant white space"),
    ("an event line with a lone surrogate", events_line(b'{"a":"\\ud800"}'), "lone surrogate"),
    ("an event line that is not an object", events_line(b"[1,2]"), "events.jsonl line 2 is not a JSON object"),
    ("a blank event line", events_line(b""), "events.jsonl line 2 is blank"),
    # the beacon field (section 4) and the chain length (section 1)
    ("an empty beacon taken for no beacon", empty_beacon_taken_as_none, "turn 1: FAIL: seed:"),
    ("chain_length 0", chain_length_zero, "chain_length 0 is not in 1 .. 100000"),
    ("a negative chain_length", chain_length_negative, "chain_length -1 is not in 1 .. 100000"),
    # the rules settled for outside verifiers (sections 2, 3, 7)
    ("an unknown key given twice", repeated_unknown_key, "campaign.json: duplicate key 'note'"),
    ("a campaign id with capitals", campaign_id_upper_case, "campaign id 'Selftest-Campaign' is not made of"),
    ("an empty phase label", phase_label(""), "is empty"),
    ("the key acts in a v1 archive", acts_key_in_v1, "key 'acts' is absent"),
    ("a title that is not a string", title_not_a_string, "title is not a str"),
    ("a salt line without text", orders_text("move hussars 3\nsalt\n"), "a salt line without text"),
    ("a salt line with a tab", orders_text("salt a\tb\n"), "has a control character"),
    ("a salt line with a no-break space", orders_text("salt a\u00a0b\n"), "white space other than single spaces"),
    ("a salt line with an em space (White_Space, section 2)", orders_text("salt a\u2003b\n"),
     "white space other than single spaces (U+2003)"),
    ("a salt line with U+001F (not white space: a control character)", orders_text("salt a\x1fb\n"),
     "has a control character"),
    ("a salt line in capitals, `Salt` (the word is lower case)", orders_text("move hussars 3\nSalt 4711\n"),
     "is not lower case"),
    ("an order line with a non-ASCII letter", orders_text("move hussars \u00e9\n"), "an order line is printable ASCII"),
    ("a call with a double space", call_text("shoot 12  hussars grade b range 3\n"), "is not single-spaced"),
    ("a call with a control character", call_text("shoot 12 hussars\x1b grade b range 3\n"), "control character"),
]


def salt_only_orders(out: Path) -> None:
    # a side may send nothing but a salt line; and a side id may use digits and -
    edit_json(out / "campaign.json", lambda o: o.update(sides=["2nd-corps", "alpha", "beta", "gamma"]))
    for k in TURNS:
        build_turn(out, k, orders={**TURNS[k][1], "2nd-corps": "salt x\n" if k == 1 else None})


def exhausted_turn_chain(out: Path) -> None:
    rebuild_with_chain_length(out, len(TURNS))  # turn 3 reveals r_3 = h_0


def no_resolutions(out: Path) -> None:
    shutil.rmtree(out / "turns")
    shutil.rmtree(out / "calls")
    edit_json(out / "campaign.json", lambda o: o.update(turns=0, calls=0))


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


def escape_cases() -> list[tuple[str, bool]]:
    """Section 6's string escaping, checked directly on the verifier's canonical form, with the bytes the
    section prescribes for each kind of character."""
    want = {
        '"': b'\\"',
        "\\": b"\\\\",
        "\b": b"\\b",
        "\t": b"\\t",
        "\n": b"\\n",
        "\f": b"\\f",
        "\r": b"\\r",
        "\x00": b"\\u0000",
        "\x01": b"\\u0001",
        "\x0b": b"\\u000b",
        "\x1b": b"\\u001b",
        "\x1f": b"\\u001f",
        " ": b" ",
        "/": b"/",
        "~": b"~",
        "\x7f": b"\x7f",
        "\u0080": b"\xc2\x80",
        "\u00e9": b"\xc3\xa9",
        "\u2028": b"\xe2\x80\xa8",
        "\ufeff": b"\xef\xbb\xbf",
        "\U0001f600": b"\xf0\x9f\x98\x80",
    }
    cases = [
        (f"canonical string {ch!r} -> {raw!r}", v.canonical_json(ch) == b'"' + raw + b'"') for ch, raw in want.items()
    ]
    every = "".join(chr(c) for c in range(0x100)) + "\u2028\ud7ff\ue000\uffff\U0010ffff"
    cases.append(
        (
            "canonical strings U+0000 .. U+00FF and more agree with json.dumps(ensure_ascii=False)",
            all(v.canonical_json(ch) == json.dumps(ch, ensure_ascii=False).encode() for ch in every),
        )
    )
    obj = {"z": 1, "\u00e9": 2, "\uffff": 3, "\U0001f600": 4, "Z": [True, False, None, -7, "a"], "": {}}
    cases.append(
        (
            "canonical object: keys sorted by their UTF-8 bytes, no white space",
            v.canonical_json(obj)
            == b'{"":{},"Z":[true,false,null,-7,"a"],"z":1,"\xc3\xa9":2,"\xef\xbf\xbf":3,"\xf0\x9f\x98\x80":4}',
        )
    )
    for name, value in (("a fraction", 1.5), ("a lone surrogate", "\ud800"), ("a fraction in a list", [1, 0.5])):
        try:
            v.canonical_json(value)
            refused = False
        except v.Fail:
            refused = True
        cases.append((f"canonical form refuses {name}", refused))
    return cases


def report_shape_ok(stdout: str, rolls: int | None) -> bool:
    """The report: one line per resolution, turns then calls in order, each `turn K: ok ...` or
    `call K: ok ...`, then a summary line with `<N> rolls replayed`."""
    lines = stdout.splitlines()
    want = [f"turn {k}: ok " for k in TURNS] + [f"call {k}: ok " for k in CALLS]
    if len(lines) != len(want) + 1:
        return False
    if not all(line.startswith(w) for line, w in zip(lines, want)):
        return False
    return rolls is None or f" {rolls} rolls replayed" in lines[-1]


def main() -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="adjutant-verifier-selftest-") as tmp:
        base = Path(tmp) / "archive"
        build_archive(base)

        def case(name: str, mutate, expect_ok: bool, reason: str | None = None) -> str:
            nonlocal failures
            out = Path(tmp) / f"case-{len(list(Path(tmp).iterdir()))}"
            shutil.copytree(base, out)
            if mutate is not None:
                mutate(out)
            rc, stdout, stderr = run_verify(out)
            crashed = "Traceback" in stderr or rc not in (0, 1)
            summary_ok = bool(stdout.splitlines()) and " rolls replayed" in stdout.splitlines()[-1]
            if expect_ok:
                good = rc == 0 and not crashed and "FAIL" not in stdout and summary_ok
            else:
                good = (
                    rc == 1
                    and not crashed
                    and "FAIL" in stdout
                    and summary_ok
                    and (reason is None or reason in stdout)
                )
            if good:
                detail = next((line for line in stdout.splitlines() if "FAIL" in line), "") if not expect_ok else ""
                print(f"ok {name}" + (f"  [{detail[:160]}]" if detail else ""))
            else:
                failures += 1
                because = f" with {reason!r} in the report" if reason and not expect_ok else ""
                print(f"FAIL {name}: exit {rc}, expected {'0' if expect_ok else '1'}{because}")
                print("  " + stdout.replace("\n", "\n  ") + stderr.replace("\n", "\n  "))
            return stdout

        total = sum(len(d) for _, _, d in TURNS.values()) + sum(len(d) for _, _, d in CALLS.values())
        stdout = case("untampered archive passes", None, True)
        shape = report_shape_ok(stdout, total)
        print(f"{'ok' if shape else 'FAIL'} report: turns then calls, one line each, {total} rolls replayed")
        failures += not shape
        case("roll and event logs of a turn and a call published late", unpublish_some_logs, True)
        stdout = case("no logs published yet", unpublish_all_logs, True)
        shape = report_shape_ok(stdout, 0)
        print(f"{'ok' if shape else 'FAIL'} report with no logs: 0 rolls replayed")
        failures += not shape
        case("salt-only orders, side id with digits and -", salt_only_orders, True)
        case("turns' chain used up to h_0, umpire chain derived from it", exhausted_turn_chain, True)
        case("no turns and no calls yet", no_resolutions, True)
        case("phase labels of another ruleset (upper case, punctuation, one letter)", phase_labels_of_another_ruleset,
             True)
        case("unknown keys of campaign.json and resolution.json, fractions included, are ignored",
             unknown_keys_ignored, True)
        case("a salt line kept as written, capitals and non-ASCII", salt_as_written, True)
        case("a salt word holding U+200B (not white space, section 2)", orders_text("salt a\u200bb\n"), True)
        case("a call with capitals and an inch mark", call_with_capitals_and_inch_mark, True)
        case("strings of every kind in rolls, events and a state, written as section 6 says", special_strings, True)
        case("an empty beacon, hashed as a string", empty_beacon, True)
        case("no beacon (null), 32 zero bytes", null_beacon, True)
        for name, mutate, *reason in TAMPERS:
            case(f"refused: {name}", mutate, False, *reason)
        for name, good in folder_k_cases() + escape_cases():
            print(f"{'ok' if good else 'FAIL'} {name}")
            failures += not good

        rc, stdout, _ = run_verify(base)
        print("  " + stdout.strip().replace("\n", "\n  "))

    # Specs v2 and v3 (sections 10 and 11), on the archives and mail kept in tests/fixtures/
    import selftest_records

    failures += selftest_records.main() != 0

    # The drand beacon (section 11.6), on the archive kept in tests/fixtures/archives/drand-v3
    import selftest_drand

    failures += selftest_drand.main() != 0

    skipped = f" ({len(selftest_drand.SKIPPED)} BLS case(s) SKIPPED, see above)" if selftest_drand.SKIPPED else ""
    print(f"selftest: {'ok' if failures == 0 else f'{failures} case(s) FAILED'}{skipped}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
