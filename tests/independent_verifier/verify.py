#!/usr/bin/env python3
"""Independent verifier for adjutant's audited dice (spec adjutant-audit-v1).

Written from docs/AUDIT.md alone, with the Python 3.11 standard library only.

    python3 verify.py vectors       recompute every test vector of AUDIT.md section 9
    python3 verify.py archive OUT   verify an exported archive as AUDIT.md section 8 says

Exit status: 0 when everything checks, 1 when something does not, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct
import sys
from pathlib import Path

SPEC = "adjutant-audit-v1"
SEED_TAG = b"adjutant-seed-v1"
MANIFEST_HEADER = "adjutant-manifest-v1"
UMPIRE_SIDE = "@umpire"
UMPIRE_PHASE = "umpire"
SIDE_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
MASK32 = 0xFFFFFFFF


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --------------------------------------------------------------------------------------------------
# ChaCha20 block function, RFC 8439 section 2.3

_CHACHA_CONSTANTS = struct.unpack("<4I", b"expand 32-byte k")


def _rotl32(v: int, c: int) -> int:
    return ((v << c) & MASK32) | (v >> (32 - c))


def _quarter_round(s: list[int], a: int, b: int, c: int, d: int) -> None:
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl32(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl32(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl32(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl32(s[b] ^ s[c], 7)


def chacha20_block_words(key: bytes, counter: int, nonce: bytes) -> list[int]:
    """The 16 output words of one ChaCha20 block (RFC 8439, 20 rounds, 96-bit nonce)."""
    if len(key) != 32 or len(nonce) != 12 or not 0 <= counter <= MASK32:
        raise ValueError("chacha20: key must be 32 bytes, nonce 12 bytes, counter 32-bit")
    initial = list(_CHACHA_CONSTANTS) + list(struct.unpack("<8I", key)) + [counter] + list(
        struct.unpack("<3I", nonce)
    )
    s = initial[:]
    for _ in range(10):  # 10 double rounds = 20 rounds
        _quarter_round(s, 0, 4, 8, 12)
        _quarter_round(s, 1, 5, 9, 13)
        _quarter_round(s, 2, 6, 10, 14)
        _quarter_round(s, 3, 7, 11, 15)
        _quarter_round(s, 0, 5, 10, 15)
        _quarter_round(s, 1, 6, 11, 12)
        _quarter_round(s, 2, 7, 8, 13)
        _quarter_round(s, 3, 4, 9, 14)
    return [(x + y) & MASK32 for x, y in zip(s, initial)]


def chacha20_block(key: bytes, counter: int, nonce: bytes) -> bytes:
    return struct.pack("<16I", *chacha20_block_words(key, counter, nonce))


class Stream:
    """AUDIT.md section 5: ChaCha20 keyed with the seed, nonce zero, counter from zero, read as
    little-endian 32-bit words numbered from 0."""

    def __init__(self, seed: bytes):
        if len(seed) != 32:
            raise ValueError("seed must be 32 bytes")
        self.seed = seed
        self.position = 0  # number of the next word
        self._block_number = -1
        self._block: list[int] = []

    def word_at(self, i: int) -> int:
        block_number, offset = divmod(i, 16)
        if block_number != self._block_number:
            self._block = chacha20_block_words(self.seed, block_number, bytes(12))
            self._block_number = block_number
        return self._block[offset]

    def next_word(self) -> int:
        w = self.word_at(self.position)
        self.position += 1
        return w

    def below(self, n: int) -> int:
        if not 1 <= n <= 1 << 32:
            raise ValueError("below(n) needs 1 <= n <= 2^32")
        zone = (1 << 32) - ((1 << 32) % n)
        while True:
            x = self.next_word()
            if x < zone:
                return x % n


# die -> (sides of one die, number of dice, offset added to each below(sides))
DICE = {
    "d6": (6, 1, 1),
    "d10": (10, 1, 0),
    "d100": (100, 1, 1),
    "2d6": (6, 2, 1),
}


def roll(stream: Stream, die: str) -> tuple[list[int], int, int, int]:
    """Draw one roll; returns (faces, value, first_word, words)."""
    sides, count, offset = DICE[die]
    first = stream.position
    faces = [stream.below(sides) + offset for _ in range(count)]
    return faces, sum(faces), first, stream.position - first


# --------------------------------------------------------------------------------------------------
# Chain, manifest, seed (AUDIT.md sections 1-4)


def chain(h0: bytes, n: int) -> list[bytes]:
    hs = [h0]
    for _ in range(n):
        hs.append(sha256(hs[-1]))
    return hs


def manifest_text(campaign: str, k: int, phase: str, orders: dict[str, str | None]) -> str:
    lines = [MANIFEST_HEADER, f"campaign {campaign}", f"resolution {k}", f"phase {phase}"]
    for side in sorted(orders, key=lambda s: s.encode("utf-8")):
        lines.append(f"orders {side} {orders[side] if orders[side] is not None else 'none'}")
    return "".join(line + "\n" for line in lines)


def seed_preimage(
    campaign: str, k: int, secret: bytes, manifest_digest: bytes, prior_digest: bytes, beacon: str | None
) -> bytes:
    beacon_field = sha256(beacon.encode("utf-8")) if beacon is not None else bytes(32)
    pre = (
        SEED_TAG
        + sha256(campaign.encode("utf-8"))
        + struct.pack(">Q", k)
        + secret
        + manifest_digest
        + prior_digest
        + beacon_field
    )
    assert len(pre) == 184
    return pre


def derive_seed(*args) -> bytes:
    return sha256(seed_preimage(*args))


# --------------------------------------------------------------------------------------------------
# Self-checks of the primitives against RFC 8439

RFC8439_VECTORS = [
    # section 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1
    (
        "chacha20 rfc8439 2.3.2",
        bytes(range(32)),
        1,
        bytes.fromhex("000000090000004a00000000"),
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
    ),
    # appendix A.1 test vector #1: all-zero key and nonce, counter 0
    (
        "chacha20 rfc8439 A.1 #1",
        bytes(32),
        0,
        bytes(12),
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
    ),
]


def chacha_selfcheck() -> list[tuple[str, bool, str, str]]:
    results = []
    for name, key, counter, nonce, expected in RFC8439_VECTORS:
        got = chacha20_block(key, counter, nonce).hex()
        results.append((name, got == expected, expected, got))
    try:  # optional cross-check with an independent implementation; never required
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms  # type: ignore
    except Exception:
        return results
    try:
        key = bytes(range(32))
        mine = b"".join(chacha20_block(key, c, bytes(12)) for c in range(3))
        full_nonce = struct.pack("<I", 0) + bytes(12)
        enc = Cipher(algorithms.ChaCha20(key, full_nonce), mode=None).encryptor()
        theirs = enc.update(bytes(len(mine))) + enc.finalize()
        results.append(("chacha20 cross-check with cryptography", mine == theirs, theirs.hex(), mine.hex()))
    except Exception as e:  # a broken optional library does not fail the verifier
        print(f"note: optional cross-check with cryptography skipped: {e!r}")
    return results


# --------------------------------------------------------------------------------------------------
# `vectors`: AUDIT.md section 9, expected values copied from the document

EXPECTED = {
    "h_0": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "h_1": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    "h_2": "2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e",
    "h_3": "4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a",
    "alpha_orders_digest": "cd0f0526d2ddf060421ef112dd0005c2fd548a3a1e4840f098c789ae59dd9b5c",
    "manifest_text": (
        "adjutant-manifest-v1\n"
        "campaign example\n"
        "resolution 1\n"
        "phase turn 1 orders (alpha active)\n"
        "orders alpha cd0f0526d2ddf060421ef112dd0005c2fd548a3a1e4840f098c789ae59dd9b5c\n"
        "orders beta none\n"
    ),
    "manifest_digest": "e26b5c3e3af29dbf7e42585711df51a3fdde8de0ff84b631b5799ca6c0cd2afe",
    "prior_state_digest": "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
    "seed_preimage": (
        "61646a7574616e742d736565642d7631 50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c "
        "0000000000000001 2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e "
        "e26b5c3e3af29dbf7e42585711df51a3fdde8de0ff84b631b5799ca6c0cd2afe "
        "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a "
        "0000000000000000000000000000000000000000000000000000000000000000"
    ).replace(" ", ""),
    "seed": "48d7b3cc07974febc5e1e6c460a8bab0284d2b6824311b2727d6cc523fe328d2",
    "beacon": "2026-11-23 lottery 4 8 15 16 23 42",
    "seed_with_beacon": "dfc27b7ca25cf47c973f27f661943dac3554979892ecc6369007d3b7bfa189eb",
    "first_words": "f7c6f16a 8dab96ae b7566c89 40a4d329 9c730a8e bee0ea62 f74e2f00 ef1b309c",
    "dice": {
        "d6": ("1 1 2 4 1 3 1 3 6 1 4 4 3 5 3 4 3 6 6 5", 20),
        "d10": ("2 6 9 5 8 6 2 0 5 0 1 3 4 6 4 9 0 1 5 8", 20),
        "2d6": ("2 6 4 4 7 8 8 7 9 11 7 7 3 3 6 7 6 11 6 8", 40),
        "d100": ("83 87 10 86 39 7 93 41 26 71 2 44 65 17 35 90 21 22 26 39", 20),
    },
    "rejection": (
        "2376832686@0+2 1084543785@2+2 2624785038@4+1 2578340825@5+4 1034263170@9+1 "
        "1272326043@10+2 2574077564@12+1 2279326520@13+4 1912850525@17+2 2282258338@19+1"
    ),
}


def run_vectors() -> int:
    results: list[tuple[str, bool, str, str]] = []

    def check(name: str, expected, got) -> None:
        results.append((name, expected == got, str(expected), str(got)))

    results.extend(chacha_selfcheck())

    # Chain, N = 3
    h0 = bytes(range(32))
    hs = chain(h0, 3)
    for i in range(4):
        check(f"chain h_{i}", EXPECTED[f"h_{i}"], hs[i].hex())
    n = 3
    commitment = hs[n]
    check("chain C = h_3", EXPECTED["h_3"], commitment.hex())
    for k, name in ((1, "h_2"), (2, "h_1"), (3, "h_0")):
        check(f"chain r_{k} = {name}", EXPECTED[name], hs[n - k].hex())
    prev = commitment
    links_ok = True
    for k in range(1, n + 1):
        links_ok &= sha256(hs[n - k]) == prev
        prev = hs[n - k]
    check("chain links SHA-256(r_k) == r_(k-1)", True, links_ok)

    # Orders and manifest
    alpha_text = "hold grenadiers\nsalt 4711\n"
    alpha_digest = sha256(alpha_text.encode("utf-8")).hex()
    check("alpha orders digest", EXPECTED["alpha_orders_digest"], alpha_digest)
    text = manifest_text("example", 1, "turn 1 orders (alpha active)", {"beta": None, "alpha": alpha_digest})
    check("manifest text", EXPECTED["manifest_text"], text)
    manifest_digest = sha256(text.encode("utf-8"))
    check("manifest digest", EXPECTED["manifest_digest"], manifest_digest.hex())

    # Seed
    prior = b"{}"
    prior_digest = sha256(prior)
    check("prior state digest", EXPECTED["prior_state_digest"], prior_digest.hex())
    r1 = hs[n - 1]
    pre = seed_preimage("example", 1, r1, manifest_digest, prior_digest, None)
    check("seed preimage length", 184, len(pre))
    check("seed preimage", EXPECTED["seed_preimage"], pre.hex())
    seed = sha256(pre)
    check("seed", EXPECTED["seed"], seed.hex())
    seed_b = derive_seed("example", 1, r1, manifest_digest, prior_digest, EXPECTED["beacon"])
    check("seed with beacon", EXPECTED["seed_with_beacon"], seed_b.hex())

    # Stream
    st = Stream(seed)
    words = " ".join(f"{st.next_word():08x}" for _ in range(8))
    check("stream first 8 words", EXPECTED["first_words"], words)

    # Dice, each from a fresh stream of the seed
    for die, (values, nwords) in EXPECTED["dice"].items():
        st = Stream(seed)
        got_values = []
        for _ in range(20):
            faces, value, first, used = roll(st, die)
            got_values.append(str(value))
        check(f"dice 20 {die}", values, " ".join(got_values))
        check(f"dice 20 {die} words", nwords, st.position)

    # Rejection, below(3000000000)
    st = Stream(seed)
    n_big = 3000000000
    check("rejection zone", 3000000000, (1 << 32) - ((1 << 32) % n_big))
    got = []
    for _ in range(10):
        first = st.position
        v = st.below(n_big)
        got.append(f"{v}@{first}+{st.position - first}")
    check("rejection below(3000000000)", EXPECTED["rejection"], " ".join(got))

    failures = 0
    for name, ok, expected, got_value in results:
        if ok:
            print(f"ok {name}")
        else:
            failures += 1
            print(f"FAIL {name}: expected {expected!r} got {got_value!r}")
    print(f"vectors: {len(results) - failures} ok, {failures} failed")
    return 0 if failures == 0 else 1


# --------------------------------------------------------------------------------------------------
# `archive`: AUDIT.md sections 7 and 8


class Fail(Exception):
    """A check that did not hold; the message says what differs."""


def _no_floats(s: str):
    raise Fail(f"non-integer number {s}")


def _no_constants(s: str):
    raise Fail(f"non-JSON constant {s}")


def _unique_keys(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise Fail(f"duplicate key {k!r}")
        obj[k] = v
    return obj


def parse_json(data: bytes, what: str, integers_only: bool = True):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"{what} is not UTF-8: {e}") from None
    try:
        return json.loads(
            text,
            parse_float=_no_floats if integers_only else None,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_keys,
        )
    except Fail as e:
        raise Fail(f"{what}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise Fail(f"{what} is not valid JSON: {e}") from None


def read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise Fail(f"{what} missing") from None
    except OSError as e:
        raise Fail(f"{what} unreadable: {e}") from None


def read_json_object(path: Path, what: str) -> dict:
    obj = parse_json(read_bytes(path, what), what)
    if not isinstance(obj, dict):
        raise Fail(f"{what} is not a JSON object")
    return obj


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def get_field(obj: dict, key: str, kind, what: str):
    if key not in obj:
        raise Fail(f"{what}: key {key!r} missing")
    v = obj[key]
    if kind is int:
        if not is_int(v):
            raise Fail(f"{what}: {key} is not an integer: {v!r}")
    elif kind == "hex32":
        if not (isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)):
            raise Fail(f"{what}: {key} is not 64 lower-case hex digits: {v!r}")
        return bytes.fromhex(v)
    elif kind == "str_or_null":
        if v is not None and not isinstance(v, str):
            raise Fail(f"{what}: {key} is neither a string nor null: {v!r}")
    elif not isinstance(v, kind):
        raise Fail(f"{what}: {key} is not a {kind.__name__}: {v!r}")
    return v


class Campaign:
    def __init__(self, out: Path):
        obj = read_json_object(out / "campaign.json", "campaign.json")
        w = "campaign.json"
        spec = get_field(obj, "spec", str, w)
        if spec != SPEC:
            raise Fail(f"campaign.json: spec is {spec!r}, expected {SPEC!r}")
        self.id = get_field(obj, "campaign", str, w)
        self.chain_length = get_field(obj, "chain_length", int, w)
        if self.chain_length < 1:
            raise Fail(f"campaign.json: chain_length {self.chain_length} is not positive")
        self.commitment = get_field(obj, "commitment", "hex32", w)
        self.beacon = get_field(obj, "beacon", "str_or_null", w)
        policy = get_field(obj, "no_orders_policy", str, w)
        if policy not in ("stand-fast", "standing-orders"):
            raise Fail(f"campaign.json: no_orders_policy {policy!r} is neither stand-fast nor standing-orders")
        self.initial_state_digest = get_field(obj, "initial_state_digest", "hex32", w)
        self.resolutions = get_field(obj, "resolutions", int, w)
        if not 0 <= self.resolutions <= 10**6:
            raise Fail(f"campaign.json: resolutions {self.resolutions} is out of range")
        if self.resolutions > self.chain_length:
            raise Fail(
                f"campaign.json: {self.resolutions} resolutions but the chain has only {self.chain_length} secrets"
            )
        for key in ("title", "ruleset"):
            if key not in obj:
                raise Fail(f"campaign.json: key {key!r} missing")
        sides = get_field(obj, "sides", list, w)
        for side in sides:
            if not isinstance(side, str) or not is_side_id(side):
                raise Fail(f"campaign.json: side id {side!r} is not made of a-z, 0-9 and -")
        keys = [side.encode("utf-8") for side in sides]
        if keys != sorted(keys):
            raise Fail(f"campaign.json: sides {sides} are not sorted")
        if len(set(keys)) != len(keys):
            raise Fail(f"campaign.json: a side is listed twice in sides {sides}")
        self.sides: list[str] = sides


def is_side_id(side: str) -> bool:
    """Section 3: side ids are made of a-z, 0-9 and - (so they never start with @)."""
    return bool(side) and all(c in SIDE_ID_CHARS for c in side)


def folder_k(name: str) -> int | None:
    """Section 7: a resolution folder is named by k >= 1 in decimal, zero-padded to four digits (k of 10000
    and above with as many digits as it needs). Returns k, or None when the name is not such a folder name."""
    if not (name.isascii() and name.isdigit()):
        return None
    k = int(name)
    if k < 1 or name != f"{k:04d}":
        return None
    return k


def parse_manifest(data: bytes) -> tuple[str, str, str, list[tuple[str, str | None]]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"manifest.txt is not UTF-8: {e}") from None
    if not text.endswith("\n"):
        raise Fail("manifest.txt does not end with LF")
    lines = text[:-1].split("\n")
    if len(lines) < 4:
        raise Fail("manifest.txt has fewer than 4 lines")
    if lines[0] != MANIFEST_HEADER:
        raise Fail(f"manifest.txt first line is {lines[0]!r}, expected {MANIFEST_HEADER!r}")
    fields = []
    for line, key in zip(lines[1:4], ("campaign", "resolution", "phase")):
        if not line.startswith(key + " "):
            raise Fail(f"manifest.txt line {line!r} should start with {key!r}")
        fields.append(line[len(key) + 1 :])
    orders: list[tuple[str, str | None]] = []
    for line in lines[4:]:
        if not line.startswith("orders "):
            raise Fail(f"manifest.txt: unexpected line {line!r}")
        parts = line[len("orders ") :].split(" ")
        if len(parts) != 2 or not parts[0]:
            raise Fail(f"manifest.txt: malformed orders line {line!r}")
        side, digest = parts
        if digest == "none":
            orders.append((side, None))
        elif len(digest) == 64 and all(c in "0123456789abcdef" for c in digest):
            orders.append((side, digest))
        else:
            raise Fail(f"manifest.txt: orders line {line!r} has neither a hex digest nor none")
    keys = [s.encode("utf-8") for s, _ in orders]
    if keys != sorted(keys):
        raise Fail("manifest.txt: orders lines are not sorted by side id")
    if len(set(keys)) != len(keys):
        raise Fail("manifest.txt: a side is listed twice")
    return fields[0], fields[1], fields[2], orders


def check_orders_text(data: bytes, side: str) -> None:
    """Section 2: one line per order or salt line, each ending with LF, no blank lines."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Fail(f"orders/{side}.txt is not UTF-8") from None
    if not text:
        return
    if not text.endswith("\n"):
        raise Fail(f"orders/{side}.txt does not end with LF")
    for line in text[:-1].split("\n"):
        if not line.strip():
            raise Fail(f"orders/{side}.txt has a blank line")
        if "\r" in line:
            raise Fail(f"orders/{side}.txt has a carriage return")


ROLL_KEYS = {"die", "faces", "first_word", "index", "purpose", "sides", "value", "words"}


def replay_rolls(data: bytes, seed: bytes) -> int:
    """Section 8 step 5. Returns the number of rolls; raises Fail at the first difference."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"rolls.jsonl is not UTF-8: {e}") from None
    if text and not text.endswith("\n"):
        raise Fail("rolls.jsonl does not end with LF")
    lines = text[:-1].split("\n") if text else []
    stream = Stream(seed)
    for i, line in enumerate(lines):
        where = f"rolls.jsonl line {i + 1}"
        if not line.strip():
            raise Fail(f"{where} is blank")
        r = parse_json(line.encode("utf-8"), where)
        if not isinstance(r, dict):
            raise Fail(f"{where} is not a JSON object")
        missing = ROLL_KEYS - set(r)
        if missing:
            raise Fail(f"{where}: keys missing: {', '.join(sorted(missing))}")
        extra = set(r) - ROLL_KEYS
        if extra:
            raise Fail(f"{where}: unknown keys: {', '.join(sorted(extra))}")
        index = r["index"]
        if not is_int(index) or index != i:
            raise Fail(f"roll {i}: index is {index!r}, expected {i}")
        if not isinstance(r["purpose"], str):
            raise Fail(f"roll {i}: purpose is not a string")
        die = r["die"]
        if not isinstance(die, str) or die not in DICE:
            raise Fail(f"roll {i}: unknown die {die!r}")
        if not is_int(r["sides"]) or r["sides"] != DICE[die][0]:
            raise Fail(f"roll {i}: sides is {r['sides']!r}, expected {DICE[die][0]} for {die}")
        if not is_int(r["first_word"]) or r["first_word"] != stream.position:
            raise Fail(
                f"roll {i}: first_word is {r['first_word']!r}, expected {stream.position} (the stream position)"
            )
        faces, value, first, used = roll(stream, die)
        if r["faces"] != faces or not all(is_int(f) for f in r["faces"]):
            raise Fail(f"roll {i} ({die}): faces are {r['faces']!r}, expected {faces}")
        if not is_int(r["value"]) or r["value"] != value:
            raise Fail(f"roll {i} ({die}): value is {r['value']!r}, expected {value}")
        if not is_int(r["words"]) or r["words"] != used:
            raise Fail(f"roll {i} ({die}): words is {r['words']!r}, expected {used}")
    return len(lines)


def check_events(data: bytes) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"events.jsonl is not UTF-8: {e}") from None
    if text and not text.endswith("\n"):
        raise Fail("events.jsonl does not end with LF")
    for i, line in enumerate(text[:-1].split("\n") if text else []):
        # AUDIT.md does not restrict the numbers of the event log, so fractions are let through here
        obj = parse_json(line.encode("utf-8"), f"events.jsonl line {i + 1}", integers_only=False)
        if not isinstance(obj, dict):
            raise Fail(f"events.jsonl line {i + 1} is not a JSON object")


class ChainState:
    """The last secret known to link to the commitment, and its resolution number (0 for C)."""

    def __init__(self, commitment: bytes):
        self.secret = commitment
        self.k = 0


def verify_resolution(
    camp: Campaign, folder: Path, k: int, chain_state: ChainState, prev_next_digest: bytes | None
) -> tuple[list[str], int | None, list[str], bytes | None]:
    """Returns (failures, number of rolls or None when unpublished, notes, claimed next_state_digest)."""
    fails: list[str] = []
    notes: list[str] = []

    res = read_json_object(folder / "resolution.json", "resolution.json")
    w = "resolution.json"
    rk = get_field(res, "k", int, w)
    if rk != k:
        raise Fail(f"resolution.json k is {rk}, expected {k}")
    if k > camp.chain_length:
        raise Fail(f"k {k} exceeds chain_length {camp.chain_length}")
    kind = get_field(res, "kind", str, w)
    if kind not in ("turn", "umpire"):
        raise Fail(f"resolution.json kind {kind!r} is neither turn nor umpire")
    phase = get_field(res, "phase", str, w)
    secret = get_field(res, "secret", "hex32", w)
    manifest_digest_claimed = get_field(res, "manifest_digest", "hex32", w)
    seed_claimed = get_field(res, "seed", "hex32", w)
    prior_claimed = get_field(res, "prior_state_digest", "hex32", w)
    next_claimed = get_field(res, "next_state_digest", "hex32", w)
    resolved_at = get_field(res, "resolved_at", str, w)
    if not is_rfc3339_utc(resolved_at):
        fails.append(f"resolution.json: resolved_at {resolved_at!r} is not an RFC 3339 time in UTC")
    if kind == "umpire" and phase != UMPIRE_PHASE:
        fails.append(f"phase: an umpire call's phase label is {phase!r}, expected {UMPIRE_PHASE!r}")

    # 1. The chain link. With every earlier secret good this is SHA-256(r_k) == r_(k-1); after a bad
    # secret it checks r_k against the last good one, so one bad secret is reported once.
    h = secret
    for _ in range(k - chain_state.k):
        h = sha256(h)
    if h == chain_state.secret:
        chain_state.secret, chain_state.k = secret, k
    elif chain_state.k == k - 1:
        what = "the commitment" if k == 1 else f"r_{k - 1}"
        fails.append(f"chain: SHA-256(secret) is {h.hex()}, not {what} {chain_state.secret.hex()}")
    else:
        fails.append(f"chain: secret does not hash ({k - chain_state.k} times) to r_{chain_state.k}")

    # 2. Manifest and orders
    mbytes = read_bytes(folder / "manifest.txt", "manifest.txt")
    manifest_digest = sha256(mbytes)
    if manifest_digest != manifest_digest_claimed:
        fails.append(
            f"manifest digest: SHA-256(manifest.txt) is {manifest_digest.hex()}, "
            f"manifest_digest is {manifest_digest_claimed.hex()}"
        )
    orders_dir = folder / "orders"
    listed: set[str] | None = set()
    try:
        m_campaign, m_resolution, m_phase, m_orders = parse_manifest(mbytes)
    except Fail as e:
        fails.append(str(e))
        listed = None  # unknown, so unlisted orders files cannot be told
    else:
        if m_campaign != camp.id:
            fails.append(f"manifest: campaign is {m_campaign!r}, expected {camp.id!r}")
        if m_resolution != str(k):
            fails.append(f"manifest: resolution is {m_resolution!r}, expected {k}")
        if m_phase != phase:
            fails.append(f"manifest: phase is {m_phase!r}, resolution.json says {phase!r}")
        sides = [s for s, _ in m_orders]
        if kind == "umpire":
            if sides != [UMPIRE_SIDE]:
                fails.append(f"manifest: an umpire call must list {UMPIRE_SIDE} alone, it lists {sides}")
            elif m_orders[0][1] is None:
                fails.append(f"manifest: an umpire call's {UMPIRE_SIDE} line reads none, not a digest")
        elif sides != camp.sides:
            missing = [s for s in camp.sides if s not in sides]
            extra = [s for s in sides if s not in camp.sides]
            detail = []
            if missing:
                detail.append(f"missing {', '.join(missing)}")
            if extra:
                detail.append(f"not in campaign.json: {', '.join(repr(x) for x in extra)}")
            fails.append(
                f"manifest: a turn must list exactly the sides of campaign.json {camp.sides}, it lists {sides}"
                + (f" ({'; '.join(detail)})" if detail else "")
            )
        for side, digest in m_orders:
            if not (is_side_id(side) or (kind == "umpire" and side == UMPIRE_SIDE)):
                fails.append(f"manifest: side id {side!r} is not a valid side id; its orders file is not read")
                continue
            listed.add(side + ".txt")
            path = orders_dir / (side + ".txt")
            if digest is None:
                if path.exists():
                    fails.append(f"orders: side {side} is listed as none but orders/{side}.txt exists")
                continue
            try:
                data = read_bytes(path, f"orders/{side}.txt")
            except Fail as e:
                fails.append(f"orders: {e}")
                continue
            got = sha256(data).hex()
            if got != digest:
                fails.append(f"orders: SHA-256(orders/{side}.txt) is {got}, the manifest says {digest}")
            try:
                check_orders_text(data, side)
                if side == UMPIRE_SIDE and data.count(b"\n") != 1:
                    fails.append(f"orders/{UMPIRE_SIDE}.txt is not one line ending with LF")
            except Fail as e:
                fails.append(f"orders: {e}")
    if orders_dir.exists() and listed is not None:
        if not orders_dir.is_dir():
            fails.append("orders is not a folder")
        else:
            for entry in sorted(orders_dir.iterdir()):
                if entry.name not in listed:
                    fails.append(f"orders: {entry.name} is not listed in the manifest")

    # 3. States
    prior_bytes = read_bytes(folder / "prior-state.json", "prior-state.json")
    prior_digest = sha256(prior_bytes)
    if prior_digest != prior_claimed:
        fails.append(
            f"state: SHA-256(prior-state.json) is {prior_digest.hex()}, prior_state_digest is {prior_claimed.hex()}"
        )
    expected_prior = camp.initial_state_digest if k == 1 else prev_next_digest
    if expected_prior is not None and prior_claimed != expected_prior:
        what = "initial_state_digest" if k == 1 else f"resolution {k - 1}'s next_state_digest"
        fails.append(f"state: prior_state_digest {prior_claimed.hex()} is not {what} {expected_prior.hex()}")
    next_bytes = read_bytes(folder / "next-state.json", "next-state.json")
    next_digest = sha256(next_bytes)
    if next_digest != next_claimed:
        fails.append(
            f"state: SHA-256(next-state.json) is {next_digest.hex()}, next_state_digest is {next_claimed.hex()}"
        )
    if kind == "umpire" and next_claimed != prior_claimed:
        fails.append("state: an umpire call changed the state (next_state_digest != prior_state_digest)")

    # 4. Seed, from the bytes actually published
    seed = derive_seed(camp.id, k, secret, manifest_digest, prior_digest, camp.beacon)
    if seed != seed_claimed:
        fails.append(f"seed: derived {seed.hex()}, resolution.json says {seed_claimed.hex()}")

    # 5. Rolls. Logs published late are both absent (section 7); one without the other is refused.
    rolls_path = folder / "rolls.jsonl"
    events_path = folder / "events.jsonl"
    has_rolls, has_events = present(rolls_path), present(events_path)
    nrolls: int | None = None
    if not has_rolls and not has_events:
        notes.append("logs not yet published")
    elif has_rolls != has_events:
        there, absent = ("rolls.jsonl", "events.jsonl") if has_rolls else ("events.jsonl", "rolls.jsonl")
        fails.append(f"logs: {there} is published but {absent} is absent (logs published late are both absent)")
    if has_rolls:
        try:
            nrolls = replay_rolls(read_bytes(rolls_path, "rolls.jsonl"), seed)
        except Fail as e:
            fails.append(f"rolls: {e}")
    if has_events:
        try:
            check_events(read_bytes(events_path, "events.jsonl"))
        except Fail as e:
            fails.append(f"events: {e}")
    return fails, nrolls, notes, next_claimed


def is_rfc3339_utc(t: str) -> bool:
    """RFC 3339 date-time with the UTC offset (Z, or +00:00 / -00:00); resolved_at is not an input to anything."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]00:00)", t, re.ASCII)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(x) for x in m.groups()[:6])
    if not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 60:  # 60: a leap second
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return 1 <= day <= days


def present(path: Path) -> bool:
    """Whether anything (file, folder, even a dangling link) is at path."""
    try:
        path.lstat()
    except FileNotFoundError:
        return False
    except OSError:
        return True  # something is there, or cannot be ruled out; reading it reports the problem
    return True


def run_archive(out: Path) -> int:
    try:
        chacha_ok = all(ok for _, ok, _, _ in chacha_selfcheck())
    except Exception as e:  # pragma: no cover
        chacha_ok = False
        print(f"self-check: FAIL: {e!r}")
    if not chacha_ok:
        print("self-check: FAIL: the ChaCha20 block function does not match RFC 8439; nothing verified")
        return 1

    if not out.is_dir():
        print(f"archive {out}: FAIL: not a folder")
        return 1
    try:
        camp = Campaign(out)
    except Fail as e:
        print(f"campaign: FAIL: {e}")
        print(f"archive {out}: FAIL")
        return 1
    except Exception as e:
        print(f"campaign: FAIL: cannot read: {e!r}")
        print(f"archive {out}: FAIL")
        return 1

    failures = 0
    campaign_fails: list[str] = []
    res_dir = out / "resolutions"
    folders: dict[int, Path] = {}
    if res_dir.is_dir():
        for entry in sorted(res_dir.iterdir()):
            name = entry.name
            k = folder_k(name)
            if k is None:
                campaign_fails.append(
                    f"resolutions/{name} is not a resolution folder name (k >= 1, zero-padded to four digits)"
                )
                continue
            if not entry.is_dir():
                campaign_fails.append(f"resolutions/{name} is not a folder")
                continue
            folders[k] = entry
        for k in sorted(folders):
            if k > camp.resolutions:
                campaign_fails.append(
                    f"resolutions/{folders[k].name} is beyond the {camp.resolutions} resolutions campaign.json lists"
                )
    elif camp.resolutions > 0 or res_dir.exists():
        campaign_fails.append("resolutions is missing or not a folder")

    for msg in campaign_fails:
        print(f"campaign: FAIL: {msg}")
    failures += len(campaign_fails)

    chain_state = ChainState(camp.commitment)
    prev_next: bytes | None = None
    total_rolls = 0
    unpublished = 0  # resolutions whose logs are not yet published
    for k in range(1, camp.resolutions + 1):
        folder = folders.get(k)
        if folder is None:
            print(f"resolution {k}: FAIL: folder resolutions/{k:04d} missing")
            failures += 1
            prev_next = None
            continue
        try:
            fails, nrolls, notes, prev_next = verify_resolution(camp, folder, k, chain_state, prev_next)
        except Fail as e:
            fails, nrolls, notes, prev_next = [str(e)], None, [], None
        except Exception as e:  # never crash on malformed input
            fails, nrolls, notes, prev_next = [f"cannot verify: {e!r}"], None, [], None
        if fails:
            failures += 1
            print(f"resolution {k}: FAIL: {'; '.join(fails)}")
        else:
            if nrolls is None:
                unpublished += 1
                print(f"resolution {k}: ok (steps 1-4; {', '.join(notes)})")
            else:
                total_rolls += nrolls
                extra = f"; {', '.join(notes)}" if notes else ""
                print(f"resolution {k}: ok ({nrolls} rolls{extra})")

    if failures:
        print(f"archive {out}: FAIL ({failures} problem(s) in {camp.resolutions} resolution(s))")
        return 1
    tail = f", logs of {unpublished} resolution(s) not yet published" if unpublished else ""
    print(f"archive {out}: ok ({camp.resolutions} resolutions, {total_rolls} rolls replayed{tail})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Independent verifier for adjutant-audit-v1 (docs/AUDIT.md).")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("vectors", help="recompute the test vectors of AUDIT.md section 9")
    p_archive = sub.add_parser("archive", help="verify an exported archive (AUDIT.md section 8)")
    p_archive.add_argument("out", type=Path, help="the archive folder (holds campaign.json)")
    args = parser.parse_args(argv)
    if args.command == "vectors":
        return run_vectors()
    return run_archive(args.out)


if __name__ == "__main__":
    sys.exit(main())
