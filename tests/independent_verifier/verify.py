#!/usr/bin/env python3
"""Independent verifier for adjutant's audited dice and archive (specs adjutant-audit-v1, v2 and v3).

Written from docs/AUDIT.md alone, with the Python 3.11 standard library only; the BLS signature of a drand round
(section 11.6) is checked with the optional py-ecc package when it is installed (bls.py), and said not checked
when it is not.

    python3 verify.py vectors       recompute every test vector of AUDIT.md section 9
    python3 verify.py archive OUT [--head HEX ...] [--mail DIR] [--require-signatures]
                                    verify an exported archive as AUDIT.md sections 8, 10, 11.5 and 11.6 say,
                                    and that it holds every head given or found in the mail

Exit status: 0 when everything checks, 1 when something does not, 2 on a usage error.
"""

from __future__ import annotations

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the verifier's own modules

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402
import unicodedata  # noqa: E402
from pathlib import Path  # noqa: E402

import acts as act_checks  # noqa: E402
import bls as bls_check  # noqa: E402
import drand  # noqa: E402
import record  # noqa: E402
from base import (  # noqa: E402,F401  (the self-test reaches these through this module)
    Fail,
    canonical_json,
    canonical_string,
    check_canonical_json,
    folder_k,
    get_field,
    is_hex32,
    is_id,
    is_int,
    is_rfc3339_utc,
    parse_json,
    present,
    read_bytes,
    read_json_object,
    WHITE_SPACE,
    sha256,
    whitespace_outside_strings,
)

SPECS = {"adjutant-audit-v1": 1, "adjutant-audit-v2": 2, "adjutant-audit-v3": 3}  # section 10, section 11
SPEC = "adjutant-audit-v1"
MANIFEST_HEADER = "adjutant-manifest-v1"
UMPIRE_CHAIN_TAG = b"adjutant-umpire-chain-v1"  # 24 bytes, section 1
UMPIRE_SIDE = "@umpire"
UMPIRE_PHASE = "umpire"
MAX_CHAIN_LENGTH = 100000
MASK32 = 0xFFFFFFFF

# The two kinds of resolution (section 1), and the game master's acts (section 10). `kind` is the word of
# resolution.json.
TURN = "turn"
UMPIRE = "umpire"
ACT = "act"
KINDS = (TURN, UMPIRE)
SEED_TAG = {TURN: b"adjutant-seed-v1", UMPIRE: b"adjutant-call-v1"}  # 16 bytes each, section 4
MANIFEST_NUMBER_WORD = {TURN: "resolution", UMPIRE: "call"}  # the manifest's third line, section 3
FOLDER = {TURN: "turns", UMPIRE: "calls", ACT: "gm"}  # section 7
LABEL = {TURN: "turn", UMPIRE: "call", ACT: "act"}  # how the report names a resolution or an act
COUNT_KEY = {TURN: "turns", UMPIRE: "calls", ACT: "acts"}  # campaign.json

assert UMPIRE_CHAIN_TAG.__len__() == 24 and all(len(t) == 16 for t in SEED_TAG.values())


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
# Chains, manifest, seed (AUDIT.md sections 1-4)


def chain(h0: bytes, n: int) -> list[bytes]:
    """[h_0, h_1, ..., h_n] with h_(i+1) = SHA-256(h_i)."""
    hs = [h0]
    for _ in range(n):
        hs.append(sha256(hs[-1]))
    return hs


def umpire_start(h0: bytes) -> bytes:
    """u_0 = SHA-256("adjutant-umpire-chain-v1" || h_0)."""
    return sha256(UMPIRE_CHAIN_TAG + h0)


def umpire_chain(h0: bytes, n: int) -> list[bytes]:
    """[u_0, u_1, ..., u_n]."""
    return chain(umpire_start(h0), n)


def manifest_text(
    campaign: str, kind: str, k: int, phase: str, orders: dict[str, str | None], drand_round: int | None = None
) -> str:
    """Section 3. kind is `turn` or `umpire`; orders maps each side id to its digest in hex, or None. A turn of a
    drand campaign (section 11.6) names its round: the header is then `adjutant-manifest-v3`, and the line
    `beacon drand round <r>` follows the phase."""
    header = MANIFEST_HEADER if drand_round is None else drand.MANIFEST_HEADER
    lines = [header, f"campaign {campaign}", f"{MANIFEST_NUMBER_WORD[kind]} {k}", f"phase {phase}"]
    if drand_round is not None:
        lines.append(f"{drand.ROUND_LINE}{drand_round}")
    for side in sorted(orders, key=lambda s: s.encode("utf-8")):
        lines.append(f"orders {side} {orders[side] if orders[side] is not None else 'none'}")
    return "".join(line + "\n" for line in lines)


def text_beacon_field(beacon: str | None) -> bytes:
    """Section 4: the seed's last 32 bytes for a campaign's beacon text (`beacon` in campaign.json): its SHA-256
    when it is a string, even an empty one, else 32 zero bytes. A drand campaign's turns take their round's
    randomness instead (drand.TurnBeacon.seed_field, section 11.6)."""
    return sha256(beacon.encode("utf-8")) if beacon is not None else bytes(32)


def seed_preimage(
    kind: str,
    campaign: str,
    k: int,
    secret: bytes,
    manifest_digest: bytes,
    prior_digest: bytes,
    beacon_field: bytes,
) -> bytes:
    """Section 4: the 184 bytes hashed into the seed."""
    if len(beacon_field) != 32:
        raise ValueError("the beacon field is 32 bytes")
    pre = (
        SEED_TAG[kind]
        + sha256(campaign.encode("utf-8"))
        + struct.pack(">Q", k)
        + secret
        + manifest_digest
        + prior_digest
        + beacon_field
    )
    if len(pre) != 184:
        raise ValueError(f"seed preimage is {len(pre)} bytes, not 184")
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
    "u_0": "6a854d30a43509a4a88ba74a6342df4a9ff84345c51aa20215e45292864b4976",
    "U": "d821422635d2c669458caf990c677b1a43a455f60a772630e599f27fbc4b1492",
    "q_1": "5a28caf0e9810c47ea88bed8f3d40621ff9b3570ff1e71c61fad932e9e930c69",
    "q_2": "8b20f8a29843199f1d890e76062d0b843e19a503a8af107fbb36085052424ff9",
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
    "call_text": "rally grade c enemy-can-charge\n",
    "call_orders_digest": "4513568c91bc20cab70978fa2199a1925e83ae72f719c6aae7eae82a38617d1d",
    "call_manifest_text": (
        "adjutant-manifest-v1\n"
        "campaign example\n"
        "call 1\n"
        "phase umpire\n"
        "orders @umpire 4513568c91bc20cab70978fa2199a1925e83ae72f719c6aae7eae82a38617d1d\n"
    ),
    "call_manifest_digest": "eabc5ad59a9d1ba9044cabdb73ad79e48ef31e05df1708523b34ccfb70251106",
    "call_tag": "61646a7574616e742d63616c6c2d7631",
    "call_seed": "93830a761a6a7cff197166a79bf81f9e488c69d2bbc6ef9861e1c8ad3a8e0cd6",
    # Stream, dice and rejection: from the turn's seed (48d7b3cc...), the values section 9 prints.
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

# Section 11.7's further vectors: the chain hash of quicknet, byte by byte; a drand turn of the archive
# tests/fixtures/archives/drand-v3; and the dice line of umpire call 1 of tests/fixtures/archives/gm-acts-v3.
EXPECTED_11_7 = {
    "quicknet_preimage_head": "000000030000000064e62127",  # period, then genesis time
    "quicknet_preimage_tail": "717569636b6e6574",  # the beacon id, `quicknet`
    "quicknet_without_id": "bb53bd3c1f404463b224d27e22872c4754f7d4f5549693d349f616c3ac27d4a9",
    "test_network_chain_hash": "269e086bb0ccdc9247e07da7ed904e78259e8f4e653a2de3faa052a81695450d",
    "round_1022_time": 1767607263,
    "round_1022_message": "c982c5a3c11a6b5ab0b5bbf52785a901e7800df8ed52694992a8f0a9faad283f",
    "round_1022_signature": (
        "a06da52d7c202c657beba96e1c250a4fbfee6959bd085ea43dc0d761250fcb52d7b959372e7d3903d4ef3fb78da8a272"
    ),
    "round_1022_randomness": "e04b86aa03c15fb55cbb1cee06e89e364619b5e6108d0280cd3a023b6bcd8913",
    "drand_turn_seed": "fe3af93ad5678191fc379a9df8bc1ca1862f37dde77fb0588a961b5bbc1fdfc8",
    "dice_command": (
        "adjutant dice --campaign sound-the-charge-demo --umpire 1 --secret "
        "d4092b9beacd463dc9c7b2bd34e5e9a5eb79f3d91f1f5b27b06108e2150edd32 --manifest "
        "9864c4405ae7f284a44ea9426f7c0c2bee4ba871ead567bd8adcc7783ef02ad0 --prior "
        "71de4bebfecdf9f39329001edac8607accfd50185698e08a226e9173b3458c18 0:d6@0 1:d6@1 2:d6@2"
    ),
    "dice_words": "f6525720 c3802bb1 854fcaac",
    "dice_output": [
        "seed dd8c5b408b78a569372c8d9427bcd78278297cc697ee97b4f8fd057f3592b3dd",
        "#0 d6 = 1 [1] (stream words from 0)",
        "#1 d6 = 4 [4] (stream words from 1)",
        "#2 d6 = 5 [5] (stream words from 2)",
    ],
}
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "archives"


def dice_lines(campaign: str, kind: str, k: int, secret: str, manifest: str, prior: str,
               beacon_field: str | None, specs: list[str]) -> list[str]:
    """What `adjutant dice` prints (section 5, "The dice line of a report"): `seed <hex>`, then for each
    `<index>:<die>@<first_word>`, the die drawn on a fresh stream of that seed from word first_word, as
    `#<index> <die> = <value> [<faces>] (stream words from <first_word>)`. Raises ValueError on a bad word."""
    def hex32(what: str, text: str) -> bytes:
        value = text.strip()
        if len(value) != 64 or any(c not in "0123456789abcdefABCDEF" for c in value):
            raise ValueError(f"{what} must be 64 hex digits")
        return bytes.fromhex(value)

    field = bytes(32) if beacon_field is None else hex32("--beacon-field", beacon_field)
    seed = derive_seed(kind, campaign, k, hex32("--secret", secret), hex32("--manifest", manifest),
                       hex32("--prior", prior), field)
    lines = [f"seed {seed.hex()}"]
    for spec in specs:
        index, colon, rest = spec.partition(":")
        die, at, word = rest.partition("@")
        if not (colon and at and index.isascii() and index.isdigit() and word.isascii() and word.isdigit()
                and die in DICE):
            raise ValueError(f"`{spec}` is not INDEX:DIE@FIRST_WORD, e.g. 3:2d6@7")
        stream = Stream(seed)
        stream.position = int(word)
        faces, value, _, _ = roll(stream, die)
        lines.append(f"#{int(index)} {die} = {value} [{', '.join(map(str, faces))}] (stream words from {int(word)})")
    return lines


def parse_dice_command(command: str) -> tuple[list[str], list[str]]:
    """The arguments of an `adjutant dice ...` line, and the roll words, as a report writes them."""
    words = command.split(" ")
    if words[:2] != ["adjutant", "dice"]:
        raise ValueError("not an `adjutant dice` line")
    options, rolls = [], []
    i = 2
    while i < len(words):
        if words[i].startswith("--"):
            options += words[i:i + 2]
            i += 2
        else:
            rolls.append(words[i])
            i += 1
    return options, rolls


def vectors_11_7(check) -> None:
    """Section 11.7's drand and dice-line vectors, recomputed from the page's definitions and, where the
    page names a fixture archive, compared with it too."""
    x = EXPECTED_11_7
    q = drand.Network(drand.QUICKNET_INFO)
    pre = (struct.pack(">I", q.period) + struct.pack(">q", q.genesis_time) + q.public_key + q.group_hash
           + q.beacon_id.encode("utf-8"))
    check("drand quicknet: 148 bytes hashed", 148, len(pre))
    check("drand quicknet: period and genesis time bytes", x["quicknet_preimage_head"], pre[:12].hex())
    check("drand quicknet: beacon id bytes", x["quicknet_preimage_tail"], pre[-8:].hex())
    check("drand quicknet: chain hash of the 148 bytes", drand.QUICKNET_CHAIN_HASH, sha256(pre).hex())
    check("drand quicknet: without the beacon id", x["quicknet_without_id"], sha256(pre[:-8]).hex())
    check("drand quicknet: an id `default` is left out", x["quicknet_without_id"],
          drand.chain_hash(q.period, q.genesis_time, q.public_key, q.group_hash, "default").hex())
    fixture = FIXTURES / "drand-v3"
    campaign = json.loads((fixture / "campaign.json").read_bytes())
    net = drand.Network(campaign["drand"])
    check("drand-v3: the test network's chain hash", x["test_network_chain_hash"], net.chain_hash.hex())
    check("drand-v3: round 1022's time", x["round_1022_time"], net.round_time(1022))
    check("drand-v3: round 1022's message", x["round_1022_message"], sha256(struct.pack(">Q", 1022)).hex())
    resolution = json.loads((fixture / "turns/0001/resolution.json").read_bytes())
    check("drand-v3: round 1022's signature, as archived", x["round_1022_signature"],
          resolution["beacon"]["signature"])
    rnd = drand.randomness(bytes.fromhex(x["round_1022_signature"]))
    check("drand-v3: round 1022's randomness", x["round_1022_randomness"], rnd.hex())
    seed = derive_seed(TURN, campaign["campaign"], 1, bytes.fromhex(resolution["secret"]),
                       bytes.fromhex(resolution["manifest_digest"]), bytes.fromhex(resolution["prior_state_digest"]),
                       rnd)
    check("drand-v3: the turn's seed", x["drand_turn_seed"], seed.hex())
    check("drand-v3: the turn's seed, as archived", x["drand_turn_seed"], resolution["seed"])
    options, rolls = parse_dice_command(x["dice_command"])
    opts = dict(zip(options[::2], options[1::2]))
    lines = dice_lines(opts["--campaign"], UMPIRE if "--umpire" in opts else TURN,
                       int(opts.get("--umpire") or opts.get("--turn")), opts["--secret"], opts["--manifest"],
                       opts["--prior"], opts.get("--beacon-field"), rolls)
    check("dice line: what `adjutant dice` prints", x["dice_output"], lines)
    stream = Stream(bytes.fromhex(lines[0].split(" ")[1]))
    check("dice line: the first stream words", x["dice_words"], " ".join(f"{stream.next_word():08x}" for _ in range(3)))
    call = FIXTURES / "gm-acts-v3" / "calls" / "0001"
    check("dice line: the seed, as archived", lines[0], "seed " + json.loads((call / "resolution.json").read_bytes())["seed"])
    archived = [json.loads(line) for line in (call / "rolls.jsonl").read_text().splitlines()]
    check("dice line: the dice, as archived", [f"#{r['index']} {r['die']} = {r['value']} [{', '.join(map(str, r['faces']))}] "
                                               f"(stream words from {r['first_word']})" for r in archived], lines[1:])


def run_vectors() -> int:
    results: list[tuple[str, bool, str, str]] = []

    def check(name: str, expected, got) -> None:
        results.append((name, expected == got, str(expected), str(got)))

    results.extend(chacha_selfcheck())

    # The turns' chain, N = 3
    n = 3
    h0 = bytes(range(32))
    hs = chain(h0, n)
    for i in range(n + 1):
        check(f"chain h_{i}", EXPECTED[f"h_{i}"], hs[i].hex())
    commitment = hs[n]
    check("chain C = h_3", EXPECTED["h_3"], commitment.hex())
    for k, name in ((1, "h_2"), (2, "h_1"), (3, "h_0")):
        check(f"chain r_{k} = {name}", EXPECTED[name], hs[n - k].hex())
    prev, links_ok = commitment, True
    for k in range(1, n + 1):
        links_ok &= sha256(hs[n - k]) == prev
        prev = hs[n - k]
    check("chain links SHA-256(r_k) == r_(k-1), r_0 = C", True, links_ok)

    # The umpire calls' chain, from the same h_0
    check("umpire chain tag is 24 bytes", 24, len(UMPIRE_CHAIN_TAG))
    us = umpire_chain(h0, n)
    check("umpire chain u_0", EXPECTED["u_0"], us[0].hex())
    umpire_commitment = us[n]
    check("umpire chain U = u_3", EXPECTED["U"], umpire_commitment.hex())
    check("umpire chain q_1 = u_2", EXPECTED["q_1"], us[n - 1].hex())
    check("umpire chain q_2 = u_1", EXPECTED["q_2"], us[n - 2].hex())
    check("umpire chain q_3 = u_0", EXPECTED["u_0"], us[n - 3].hex())
    prev, links_ok = umpire_commitment, True
    for k in range(1, n + 1):
        links_ok &= sha256(us[n - k]) == prev
        prev = us[n - k]
    check("umpire chain links SHA-256(q_k) == q_(k-1), q_0 = U", True, links_ok)
    check("umpire chain shares no value with the turns' chain", True, not set(us) & set(hs))

    # Orders and manifest of a turn
    alpha_text = "hold grenadiers\nsalt 4711\n"
    alpha_digest = sha256(alpha_text.encode("utf-8")).hex()
    check("alpha orders digest", EXPECTED["alpha_orders_digest"], alpha_digest)
    text = manifest_text("example", TURN, 1, "turn 1 orders (alpha active)", {"beta": None, "alpha": alpha_digest})
    check("turn manifest text", EXPECTED["manifest_text"], text)
    manifest_digest = sha256(text.encode("utf-8"))
    check("turn manifest digest", EXPECTED["manifest_digest"], manifest_digest.hex())

    # Seed of a turn
    prior = b"{}"
    prior_digest = sha256(prior)
    check("prior state digest", EXPECTED["prior_state_digest"], prior_digest.hex())
    r1 = hs[n - 1]
    pre = seed_preimage(TURN, "example", 1, r1, manifest_digest, prior_digest, text_beacon_field(None))
    check("turn seed preimage length", 184, len(pre))
    check("turn seed preimage", EXPECTED["seed_preimage"], pre.hex())
    seed = sha256(pre)
    check("turn seed", EXPECTED["seed"], seed.hex())
    seed_b = derive_seed(TURN, "example", 1, r1, manifest_digest, prior_digest, text_beacon_field(EXPECTED["beacon"]))
    check("turn seed with beacon", EXPECTED["seed_with_beacon"], seed_b.hex())

    # An umpire call
    call_digest = sha256(EXPECTED["call_text"].encode("utf-8")).hex()
    check("call orders digest", EXPECTED["call_orders_digest"], call_digest)
    call_text = manifest_text("example", UMPIRE, 1, UMPIRE_PHASE, {UMPIRE_SIDE: call_digest})
    check("call manifest text", EXPECTED["call_manifest_text"], call_text)
    call_manifest_digest = sha256(call_text.encode("utf-8"))
    check("call manifest digest", EXPECTED["call_manifest_digest"], call_manifest_digest.hex())
    q1 = us[n - 1]
    call_pre = seed_preimage(UMPIRE, "example", 1, q1, call_manifest_digest, prior_digest, text_beacon_field(None))
    check("call seed preimage length", 184, len(call_pre))
    check("call seed preimage tag", EXPECTED["call_tag"], call_pre[:16].hex())
    check("call seed", EXPECTED["call_seed"], sha256(call_pre).hex())

    # Stream, from the turn's seed
    st = Stream(seed)
    words = " ".join(f"{st.next_word():08x}" for _ in range(8))
    check("stream first 8 words (turn seed)", EXPECTED["first_words"], words)

    # Dice, each from a fresh stream of the turn's seed
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

    vectors_11_7(check)

    # The drand beacon (section 11.6): quicknet's chain hash recomputed from its /info JSON, and the BLS check
    # on the published round 123 (with the optional py-ecc; said as skipped without it)
    quicknet = drand.Network(drand.QUICKNET_INFO)
    check("drand quicknet chain hash from its /info JSON", drand.QUICKNET_CHAIN_HASH, quicknet.chain_hash.hex())
    check("drand quicknet public key as section 11.6 gives it", bls_check.QUICKNET_PUBLIC_KEY.hex(),
          quicknet.public_key.hex())
    check("drand quicknet genesis line", f"drand {drand.QUICKNET_CHAIN_HASH}", quicknet.genesis_line())
    skipped = []
    bls, why_not = bls_check.load()
    if bls is None:
        skipped.append(f"the BLS check of drand quicknet round {bls_check.QUICKNET_ROUND}: {why_not}")
    else:
        results.extend(bls_check.selfcheck(bls))

    failures = 0
    for name, ok, expected, got_value in results:
        if ok:
            print(f"ok {name}")
        else:
            failures += 1
            print(f"FAIL {name}: expected {expected!r} got {got_value!r}")
    for what in skipped:
        print(f"SKIPPED (NOT CHECKED) {what}")
    tail = f", {len(skipped)} skipped" if skipped else ""
    print(f"vectors: {len(results) - failures} ok, {failures} failed{tail}")
    return 0 if failures == 0 else 1


# --------------------------------------------------------------------------------------------------
# `archive`: AUDIT.md sections 6, 7 and 8


































class Campaign:
    """campaign.json, section 7 (and sections 10 and 11.2 for the keys v2 and v3 add)."""

    def __init__(self, out: Path):
        obj = read_json_object(out / "campaign.json", "campaign.json")
        w = "campaign.json"
        spec = get_field(obj, "spec", str, w)
        if spec not in SPECS:
            raise Fail(f"campaign.json: spec is {spec!r}, not one this verifier knows ({', '.join(SPECS)})")
        self.spec: str = spec
        self.version: int = SPECS[spec]
        self.id: str = get_field(obj, "campaign", str, w)
        if not is_id(self.id):
            raise Fail(f"campaign.json: campaign id {self.id!r} is not made of a-z, 0-9 and - (section 3)")
        self.chain_length: int = get_field(obj, "chain_length", int, w)
        if not 1 <= self.chain_length <= MAX_CHAIN_LENGTH:  # section 1
            raise Fail(f"campaign.json: chain_length {self.chain_length} is not in 1 .. {MAX_CHAIN_LENGTH}")
        self.commitment: bytes = get_field(obj, "commitment", "hex32", w)
        self.umpire_commitment: bytes = get_field(obj, "umpire_commitment", "hex32", w)
        self.beacon: str | None = get_field(obj, "beacon", "str_or_null", w)
        # Section 11.6: a v3 campaign may name a drand network, `drand` holding its /info JSON as a string. Its
        # problems are reported with the campaign's and the rest is still checked; the network is None when the
        # JSON cannot be read, has_drand says whether the campaign names one at all.
        self.problems: list[str] = []
        self.has_drand = False
        self.drand: drand.Network | None = None
        if self.version >= 3 and obj.get("drand") is not None:
            self.has_drand = True
            if not isinstance(obj["drand"], str):
                raise Fail(f"campaign.json: drand is not a string (the network's /info JSON): {obj['drand']!r}")
            if self.beacon is not None:
                raise Fail("campaign.json: a campaign names one beacon, a text or a drand network, not both "
                           "(genesis.txt has one beacon line)")
            try:
                self.drand = drand.Network(obj["drand"])
            except Fail as e:
                self.problems.append(f"campaign.json: {e}")
            else:
                self.problems += [f"campaign.json: {msg}" for msg in self.drand.problems()]
        self.policy: str = get_field(obj, "no_orders_policy", str, w)
        if self.policy not in ("stand-fast", "standing-orders"):
            raise Fail(f"campaign.json: no_orders_policy {self.policy!r} is neither stand-fast nor standing-orders")
        self.initial_state_digest: bytes = get_field(obj, "initial_state_digest", "hex32", w)
        self.count: dict[str, int] = {}
        for kind in KINDS:
            key = COUNT_KEY[kind]
            n = get_field(obj, key, int, w)
            if n < 0:
                raise Fail(f"campaign.json: {key} {n} is negative")
            if n > self.chain_length:
                raise Fail(f"campaign.json: {n} {key} but each chain has only {self.chain_length} secrets")
            self.count[kind] = n
        # acts: absent in v1, there in v2 (section 7, rules for files). In v3 an archive without acts leaves
        # it out (section 11.7), read as 0.
        if self.version == 1:
            if "acts" in obj:
                raise Fail(f"campaign.json: key 'acts' is absent in an {spec} archive (section 7, rules for files)")
            self.count[ACT] = 0
        elif self.version == 2 or "acts" in obj:
            n = get_field(obj, "acts", int, w)
            if n < 0:
                raise Fail(f"campaign.json: acts {n} is negative")
            self.count[ACT] = n
        else:
            self.count[ACT] = 0
        self.entries: int | None = None
        self.head: bytes | None = None
        if self.version >= 3:  # section 11.2
            self.entries = get_field(obj, "entries", int, w)
            if self.entries < 0:
                raise Fail(f"campaign.json: entries {self.entries} is negative")
            self.head = get_field(obj, "head", "hex32", w)
        self.title: str = get_field(obj, "title", str, w)
        self.ruleset: str = get_field(obj, "ruleset", str, w)
        sides = get_field(obj, "sides", list, w)
        for side in sides:
            if not isinstance(side, str) or not is_id(side):
                raise Fail(f"campaign.json: side id {side!r} is not made of a-z, 0-9 and -")
        keys = [side.encode("utf-8") for side in sides]
        if keys != sorted(keys):
            raise Fail(f"campaign.json: sides {sides} are not sorted")
        if len(set(keys)) != len(keys):
            raise Fail(f"campaign.json: a side is listed twice in sides {sides}")
        self.sides: list[str] = sides

    @property
    def turns(self) -> int:
        return self.count[TURN]

    @property
    def calls(self) -> int:
        return self.count[UMPIRE]

    @property
    def acts(self) -> int:
        return self.count[ACT]

    def commitment_of(self, kind: str) -> bytes:
        return self.commitment if kind == TURN else self.umpire_commitment

    def genesis(self) -> bytes:
        """Section 11.2: the genesis.txt these fields make."""
        return record.genesis_text(
            self.id, self.ruleset, self.sides, self.chain_length, self.commitment, self.umpire_commitment,
            self.genesis_beacon(), self.policy, self.initial_state_digest,
        )

    def genesis_beacon(self) -> str:
        """What genesis.txt says after `beacon ` (sections 11.2 and 11.6)."""
        if self.has_drand:
            if self.drand is None:
                raise Fail("the drand /info JSON of campaign.json cannot be read, so genesis.txt's beacon line "
                           "cannot be rebuilt")
            return self.drand.genesis_line()
        if self.beacon is None:
            return "none"
        return "text " + sha256(self.beacon.encode("utf-8")).hex()


class ManifestFields:
    """What a manifest says (section 3; a drand turn's header and round, section 11.6)."""

    def __init__(self, header: str, campaign: str, number_word: str, number: str, phase: str,
                 drand_round: int | None, orders: list[tuple[str, str | None]]) -> None:
        self.header = header
        self.campaign = campaign
        self.number_word = number_word
        self.number = number
        self.phase = phase
        self.drand_round = drand_round  # the round a v3 manifest names, None in a v1 manifest
        self.orders = orders  # [(side, digest or None)]


def parse_manifest(data: bytes) -> ManifestFields:
    """Reads a manifest's fields. Raises Fail on anything sections 3 and 11.6 do not allow; the caller also
    compares the bytes with the canonical text rebuilt from the fields, and says which header it expected."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"manifest.txt is not UTF-8: {e}") from None
    if "\r" in text:
        raise Fail("manifest.txt has a carriage return (each line ends with LF alone)")
    if not text.endswith("\n"):
        raise Fail("manifest.txt does not end with LF")
    lines = text[:-1].split("\n")
    if len(lines) < 4:
        raise Fail("manifest.txt has fewer than 4 lines")
    header = lines[0]
    if header not in (MANIFEST_HEADER, drand.MANIFEST_HEADER):
        raise Fail(f"manifest.txt first line is {header!r}, expected {MANIFEST_HEADER!r} "
                   f"(or {drand.MANIFEST_HEADER!r} for a turn of a drand campaign)")
    if not lines[1].startswith("campaign "):
        raise Fail(f"manifest.txt line {lines[1]!r} should start with 'campaign'")
    campaign = lines[1][len("campaign ") :]
    number_word, _, number = lines[2].partition(" ")
    if number_word not in MANIFEST_NUMBER_WORD.values():
        raise Fail(f"manifest.txt line {lines[2]!r} should start with 'resolution' or 'call'")
    if not lines[3].startswith("phase "):
        raise Fail(f"manifest.txt line {lines[3]!r} should start with 'phase'")
    phase = lines[3][len("phase ") :]
    drand_round = None
    rest = lines[4:]
    if header == drand.MANIFEST_HEADER:
        if not rest:
            raise Fail(f"manifest.txt has no line `{drand.ROUND_LINE}<r>` after its phase (section 11.6)")
        drand_round = drand.parse_round_line(rest[0])
        rest = rest[1:]
    orders: list[tuple[str, str | None]] = []
    for line in rest:
        if not line.startswith("orders "):
            raise Fail(f"manifest.txt: unexpected line {line!r}")
        parts = line[len("orders ") :].split(" ")
        if len(parts) != 2 or not parts[0]:
            raise Fail(f"manifest.txt: malformed orders line {line!r}")
        side, digest = parts
        if digest == "none":
            orders.append((side, None))
        elif is_hex32(digest):
            orders.append((side, digest))
        else:
            raise Fail(f"manifest.txt: orders line {line!r} has neither a hex digest nor none")
    keys = [s.encode("utf-8") for s, _ in orders]
    if keys != sorted(keys):
        raise Fail("manifest.txt: orders lines are not sorted by side id")
    if len(set(keys)) != len(keys):
        raise Fail("manifest.txt: a side is listed twice")
    return ManifestFields(header, campaign, number_word, number, phase, drand_round, orders)


def first_difference(got: bytes, want: bytes) -> str:
    """Where two texts first differ, by line, for a report."""
    g, w = got.split(b"\n"), want.split(b"\n")
    for i, (a, b) in enumerate(zip(g, w)):
        if a != b:
            return f"line {i + 1} is {a!r}, expected {b!r}"
    if len(g) != len(w):
        return f"it has {len(g) - 1} line(s), expected {len(w) - 1}"
    return "they differ"  # not reached: equal line lists mean equal bytes


def single_spaced_problem(line: str) -> str | None:
    """No space at either end, never two in a row, no other white space: section 2's White_Space, 25 code
    points (U+001C to U+001F are not white space there; they are control characters, refused before this)."""
    if line != line.strip(" ") or "  " in line:
        return "is not single-spaced"
    other = next((c for c in line if c in WHITE_SPACE and c != " "), None)
    if other is not None:
        return f"has white space other than single spaces (U+{ord(other):04X})"
    return None


def check_orders_text(data: bytes, side: str) -> None:
    """Section 2. A side's canonical orders text: never empty; its order lines, then its salt lines, each
    line ending with LF, no blank lines. An order line is printable ASCII in lower case, single-spaced (its
    ruleset's grammar, which this verifier does not implement, says the rest); a salt line is `salt`, a space
    and one or more single-spaced words kept as written, without control characters. An umpire call's text is
    the canonical call and LF: one line without control characters, single-spaced (its ruleset's page says
    the rest)."""
    name = f"orders/{side}.txt"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Fail(f"{name} is not UTF-8") from None
    if "\r" in text:
        raise Fail(f"{name} has a carriage return")
    if not text:
        if side == UMPIRE_SIDE:
            raise Fail(f"{name} is empty, not the canonical call and LF")
        raise Fail(
            f"{name} is empty (a canonical orders text is never empty: a side that sent no orders reads none "
            "in the manifest and has no file)"
        )
    if not text.endswith("\n"):
        raise Fail(f"{name} does not end with LF")
    lines = text[:-1].split("\n")
    if side == UMPIRE_SIDE:
        if len(lines) != 1 or not lines[0].strip():
            raise Fail(f"{name} is not one line ending with LF")
        call = lines[0]
        if any(unicodedata.category(c) == "Cc" for c in call):
            raise Fail(f"{name}: the call {call!r} has a control character")
        problem = single_spaced_problem(call)
        if problem:
            raise Fail(f"{name}: the call {call!r} {problem}")
        return
    salted = False
    for n, line in enumerate(lines, 1):
        if not line.strip():
            raise Fail(f"{name} has a blank line (line {n})")
        if any(unicodedata.category(c) == "Cc" for c in line):
            raise Fail(f"{name} line {n} {line!r} has a control character")
        problem = single_spaced_problem(line)
        if problem:
            raise Fail(f"{name} line {n} {line!r} {problem}")
        if line == "salt":
            raise Fail(f"{name} line {n} is a salt line without text")
        is_salt = line.startswith("salt ")
        if salted and not is_salt:
            raise Fail(f"{name} line {n} {line!r} is an order after a salt line (salt lines come last)")
        if not is_salt:
            bad = next((c for c in line if not 0x20 <= ord(c) <= 0x7E), None)
            if bad is not None:
                raise Fail(f"{name} line {n} {line!r} has {bad!r}: an order line is printable ASCII")
            if line != line.lower():
                raise Fail(f"{name} line {n} {line!r} is not lower case")
        salted = salted or is_salt




def check_state_json(data: bytes, name: str) -> None:
    """Section 6: canonical JSON, UTF-8, no insignificant white space, object keys sorted by their UTF-8 bytes,
    integers only, strings escaped as JSON requires and no more: the file is byte for byte the canonical form
    of the value it holds (and, like the section 9 state `{}`, has no final LF)."""
    check_canonical_json(data, name)


ROLL_KEYS = {"die", "faces", "first_word", "index", "purpose", "sides", "value", "words"}


def replay_rolls(data: bytes, seed: bytes) -> int:
    """Section 8 step 5. Returns the number of rolls; raises Fail at the first difference."""
    lines = jsonl_lines(data, "rolls.jsonl")
    stream = Stream(seed)
    for i, line in enumerate(lines):
        where = f"rolls.jsonl line {i + 1}"
        if not line.strip():
            raise Fail(f"{where} is blank")
        r = check_canonical_json(line, where)  # section 6: the same form as a state
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
        if not isinstance(r["faces"], list) or r["faces"] != faces or not all(is_int(f) for f in r["faces"]):
            raise Fail(f"roll {i} ({die}): faces are {r['faces']!r}, expected {faces}")
        if not is_int(r["value"]) or r["value"] != value:
            raise Fail(f"roll {i} ({die}): value is {r['value']!r}, expected {value}")
        if not is_int(r["words"]) or r["words"] != used:
            raise Fail(f"roll {i} ({die}): words is {r['words']!r}, expected {used}")
    return len(lines)


def jsonl_lines(data: bytes, name: str) -> list[bytes]:
    """The lines of a log (section 7: every line ends with LF; an empty file has no lines)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"{name} is not UTF-8: {e}") from None
    if data and not data.endswith(b"\n"):
        raise Fail(f"{name} does not end with LF")
    return data[:-1].split(b"\n") if data else []


def check_events(data: bytes) -> None:
    """Section 7: one JSON object per line; section 6: each line in the canonical form (integers only)."""
    for i, line in enumerate(jsonl_lines(data, "events.jsonl")):
        where = f"events.jsonl line {i + 1}"
        if not line.strip():
            raise Fail(f"{where} is blank")
        obj = check_canonical_json(line, where)
        if not isinstance(obj, dict):
            raise Fail(f"{where} is not a JSON object")


def hash_times(x: bytes, times: int) -> bytes:
    for _ in range(times):
        x = sha256(x)
    return x


class ChainState:
    """One chain (section 1): the last secret known to link to its commitment, and its number (0 for the
    commitment itself)."""

    def __init__(self, kind: str, commitment: bytes):
        self.kind = kind
        self.secret = commitment
        self.k = 0
        self.letter = "r" if kind == TURN else "q"
        self.commitment_name = "commitment C" if kind == TURN else "umpire_commitment U"

    def name(self, k: int) -> str:
        return self.commitment_name if k == 0 else f"{self.letter}_{k}"

    def holds(self, k: int, secret: bytes) -> bool:
        """Whether secret is number k of this chain, as far as the last good secret can tell."""
        if k >= self.k:
            return hash_times(secret, k - self.k) == self.secret
        return hash_times(self.secret, self.k - k) == secret


class Outcome:
    """What checking one resolution found; filled as it goes, so that what was read survives a Fail."""

    def __init__(self) -> None:
        self.fails: list[str] = []
        self.notes: list[str] = []
        self.nrolls: int | None = None  # rolls replayed, None when not (logs unpublished, or a difference)
        self.next_claimed: bytes | None = None  # next_state_digest as resolution.json states it
        self.prior_claimed: bytes | None = None  # prior_state_digest as resolution.json states it
        self.after_turn: int | None = None
        self.link: record.Link | None = None  # v3: the folder's link.txt, when it reads
        self.gm_submissions: list[tuple[str, str]] | None = None  # v3 turns: lines of submissions.txt via gm


def check_manifest(
    camp: Campaign, folder: Path, kind: str, k: int, phase: str, drand_round: int | None, fails: list[str]
) -> bytes:
    """Section 8 step 2. Appends what differs to fails; returns the manifest's published bytes. drand_round is
    the round resolution.json gives a turn of a drand campaign (section 11.6), which its manifest must name;
    None for any other resolution, whose manifest is `adjutant-manifest-v1`."""
    mbytes = read_bytes(folder / "manifest.txt", "manifest.txt")
    expected_header = MANIFEST_HEADER if drand_round is None else drand.MANIFEST_HEADER
    before = len(fails)
    orders_dir = folder / "orders"
    expected_sides = camp.sides if kind == TURN else [UMPIRE_SIDE]
    expected_phase = phase if kind == TURN else UMPIRE_PHASE
    word = MANIFEST_NUMBER_WORD[kind]
    listed: set[str] | None = set()
    try:
        m = parse_manifest(mbytes)
    except Fail as e:
        fails.append(f"manifest: {e}")
        listed = None  # unknown, so unlisted orders files cannot be told
    else:
        m_campaign, m_word, m_number, m_phase, m_orders = m.campaign, m.number_word, m.number, m.phase, m.orders
        if m.header != expected_header:
            what = ("a turn of a drand campaign" if drand_round is not None else
                    "an umpire call" if kind == UMPIRE else "a turn of a campaign without a drand beacon")
            fails.append(f"manifest: begins {m.header!r}, but {what} has {expected_header!r} (section 11.6)")
        elif drand_round is not None and m.drand_round != drand_round:
            fails.append(
                f"manifest: names drand round {m.drand_round}, but resolution.json's beacon is round {drand_round}"
            )
        if m_campaign != camp.id:
            fails.append(f"manifest: campaign is {m_campaign!r}, expected {camp.id!r}")
        if m_word != word:
            what = "a turn's" if kind == TURN else "an umpire call's"
            fails.append(
                f"manifest: third line is {m_word + ' ' + m_number!r}, {what} reads {word + ' ' + str(k)!r}"
            )
        elif m_number != str(k):
            fails.append(f"manifest: {word} number is {m_number!r}, expected {k}")
        if m_phase != expected_phase:
            where = "resolution.json says" if kind == TURN else "an umpire call's is"
            fails.append(f"manifest: phase is {m_phase!r}, {where} {expected_phase!r}")
        sides = [s for s, _ in m_orders]
        if kind == UMPIRE:
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
            if not (is_id(side) or (kind == UMPIRE and side == UMPIRE_SIDE)):
                fails.append(f"manifest: side id {side!r} is not a valid side id; its orders file is not read")
                continue
            listed.add(side + ".txt")
            path = orders_dir / (side + ".txt")
            if digest is None:
                if present(path):
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
            except Fail as e:
                fails.append(f"orders: {e}")
    if present(orders_dir) and listed is not None:
        if not orders_dir.is_dir():
            fails.append("orders is not a folder")
        else:
            for entry in sorted(orders_dir.iterdir()):
                if entry.name not in listed:
                    fails.append(f"orders: {entry.name} is not listed in the manifest")

    # The manifest is exactly the text section 3 makes from its fields: the campaign, the kind and number,
    # the phase, and one orders line per expected side with the digest of its orders file, or none when it
    # has no file. Earlier differences already explain a mismatch, so this reports only what they missed.
    if len(fails) == before:
        digests: dict[str, str | None] = {}
        for side in expected_sides:
            path = orders_dir / (side + ".txt")
            digests[side] = sha256(path.read_bytes()).hex() if path.is_file() else None
        canonical = manifest_text(camp.id, kind, k, expected_phase, digests, drand_round).encode("utf-8")
        if mbytes != canonical:
            fails.append(
                "manifest: manifest.txt is not the canonical text section 3 makes from its fields "
                f"({first_difference(mbytes, canonical)})"
            )
    return mbytes


def verify_resolution(
    camp: Campaign,
    folder: Path,
    kind: str,
    k: int,
    chains: dict[str, ChainState],
    states: act_checks.States,
    prev_call_after: int | None,
    rounds: drand.Rounds | None,
    out: Outcome,
) -> None:
    """Section 8, steps 1-5, for turn k (kind `turn`) or umpire call k (kind `umpire`); in v3 also the
    folder's link.txt and a turn's submissions.txt (section 11.5, steps 2 and 4), and in a drand campaign a
    turn's round (section 11.6).

    states knows the states the game passed through after each turn already checked (section 10; in v1
    only the state each turn left); prev_call_after is the after_turn of the previous call, if known; rounds
    checks the rounds of a drand campaign's turns, in order (None without a drand beacon)."""
    fails, notes = out.fails, out.notes
    label = LABEL[kind]
    if camp.version >= 3:
        out.link = record.check_link(camp.id, folder, f"{FOLDER[kind]}/{folder.name}", True, fails)

    res = read_json_object(folder / "resolution.json", "resolution.json")
    w = "resolution.json"
    rkind = get_field(res, "kind", str, w)
    if rkind not in KINDS:
        raise Fail(f"resolution.json kind {rkind!r} is neither turn nor umpire")
    if rkind != kind:
        raise Fail(f"resolution.json kind is {rkind!r}, but the folder is in {FOLDER[kind]}/ (kind {kind!r})")
    rk = get_field(res, "k", int, w)
    if rk != k:
        raise Fail(f"resolution.json k is {rk}, expected {k}")
    if k > camp.chain_length:
        raise Fail(f"k {k} exceeds chain_length {camp.chain_length}")
    after_turn = get_field(res, "after_turn", int, w)
    out.after_turn = after_turn
    phase = get_field(res, "phase", str, w)
    secret = get_field(res, "secret", "hex32", w)
    manifest_digest_claimed = get_field(res, "manifest_digest", "hex32", w)
    seed_claimed = get_field(res, "seed", "hex32", w)
    prior_claimed = get_field(res, "prior_state_digest", "hex32", w)
    next_claimed = get_field(res, "next_state_digest", "hex32", w)
    out.next_claimed, out.prior_claimed = next_claimed, prior_claimed
    resolved_at = get_field(res, "resolved_at", str, w)
    if not is_rfc3339_utc(resolved_at):
        fails.append(f"resolution.json: resolved_at {resolved_at!r} is not written YYYY-MM-DDThh:mm:ssZ")
    problem = phase_label_problem(phase)
    if problem:
        fails.append(f"phase: the phase label {phase!r} {problem}")
    if kind == UMPIRE and phase != UMPIRE_PHASE:
        fails.append(f"phase: an umpire call's phase label is {phase!r}, expected {UMPIRE_PHASE!r}")
    # Section 11.6: every turn of a drand campaign has its round; umpire calls take none.
    turn_beacon: drand.TurnBeacon | None = None
    if kind == TURN and camp.has_drand:
        turn_beacon = drand.read_turn_beacon(res)
    elif camp.version >= 3 and res.get("beacon") is not None:
        why = "an umpire call takes no drand round" if kind == UMPIRE else "the campaign names no drand network"
        fails.append(f"resolution.json: beacon is {res['beacon']!r}, but {why} (section 11.6)")

    # after_turn (section 7): for turn k, k - 1; for a call, a turn of this archive (0 before any), and
    # calls are numbered in the order they happened, so it never goes back.
    prior_turn: int | None
    if kind == TURN:
        prior_turn = k - 1
        if after_turn != k - 1:
            fails.append(f"after_turn: turn {k} has after_turn {after_turn}, expected {k - 1}")
    else:
        prior_turn = after_turn
        if not 0 <= after_turn <= camp.turns:
            fails.append(f"after_turn: {after_turn} is not a turn of this archive (0 .. {camp.turns})")
            prior_turn = None
        elif prev_call_after is not None and after_turn < prev_call_after:
            fails.append(
                f"after_turn: {after_turn} is before call {k - 1}'s after_turn {prev_call_after} "
                "(calls are numbered in the order they happened)"
            )

    # 1. The chain link. With every earlier secret good this is SHA-256(s_k) == s_(k-1); after a bad secret
    # it checks s_k against the last good one, so one bad secret is reported once.
    cs = chains[kind]
    other = chains[UMPIRE if kind == TURN else TURN]
    if cs.holds(k, secret):
        cs.secret, cs.k = secret, k
    else:
        if cs.k == k - 1:
            msg = f"chain: SHA-256(secret) is {sha256(secret).hex()}, not {cs.name(k - 1)} {cs.secret.hex()}"
        else:
            msg = f"chain: secret does not hash ({k - cs.k} times) to {cs.name(cs.k)}"
        if other.holds(k, secret):
            msg += f" (it is {other.letter}_{k} of the other chain, which links to {other.commitment_name})"
        fails.append(msg)
    if kind == TURN and cs.k == k == camp.chain_length and camp.version < 3:
        # The last turn of the chain reveals h_0, from which the umpire chain is derived (section 1; in v3
        # the umpire chain has its own secret, section 11.1).
        u_n = hash_times(umpire_start(secret), camp.chain_length)
        if u_n != camp.umpire_commitment:
            fails.append(
                f"chain: turn {k} reveals h_0, whose umpire chain ends at {u_n.hex()}, "
                f"not umpire_commitment {camp.umpire_commitment.hex()}"
            )

    # 2. Manifest and orders
    mbytes = check_manifest(camp, folder, kind, k, phase, turn_beacon.round if turn_beacon else None, fails)
    manifest_digest = sha256(mbytes)
    if manifest_digest != manifest_digest_claimed:
        fails.append(
            f"manifest digest: SHA-256(manifest.txt) is {manifest_digest.hex()}, "
            f"manifest_digest is {manifest_digest_claimed.hex()}"
        )

    # 3. States
    prior_bytes = read_bytes(folder / "prior-state.json", "prior-state.json")
    prior_digest = sha256(prior_bytes)
    if prior_digest != prior_claimed:
        fails.append(
            f"state: SHA-256(prior-state.json) is {prior_digest.hex()}, prior_state_digest is {prior_claimed.hex()}"
        )
    # Section 10: a turn starts from the last state the game passed through after turn k - 1; a call from any
    # of the states after its after_turn (without acts, both are the state that turn left).
    if prior_turn is not None:
        passed = states.after(prior_turn)
        allowed = passed[-1:] if kind == TURN else passed
        if None not in allowed and prior_claimed not in allowed:
            if len(passed) == 1:
                what = "initial_state_digest" if prior_turn == 0 else f"turn {prior_turn}'s next_state_digest"
                want = passed[0].hex()
            elif kind == TURN:
                what, want = f"the last state after turn {prior_turn} (after its acts)", passed[-1].hex()
            else:
                what = f"any state the game passed through after turn {prior_turn}"
                want = ", ".join(d.hex()[:16] + "..." for d in passed)
            fails.append(f"state: prior_state_digest {prior_claimed.hex()} is not {what} {want}")
    next_bytes = read_bytes(folder / "next-state.json", "next-state.json")
    next_digest = sha256(next_bytes)
    if next_digest != next_claimed:
        fails.append(
            f"state: SHA-256(next-state.json) is {next_digest.hex()}, next_state_digest is {next_claimed.hex()}"
        )
    if kind == UMPIRE and next_claimed != prior_claimed:
        fails.append("state: an umpire call changed the state (next_state_digest != prior_state_digest)")
    for data, name in ((prior_bytes, "prior-state.json"), (next_bytes, "next-state.json")):
        try:
            check_state_json(data, name)
        except Fail as e:
            fails.append(f"state: not canonical JSON: {e}")

    # 4. Seed, from the bytes actually published; a drand turn's last 32 bytes are its round's randomness
    field = turn_beacon.seed_field() if turn_beacon is not None else text_beacon_field(camp.beacon)
    seed = derive_seed(kind, camp.id, k, secret, manifest_digest, prior_digest, field)
    if seed != seed_claimed:
        msg = f"seed: derived {seed.hex()}, resolution.json says {seed_claimed.hex()}"
        other_kind = UMPIRE if kind == TURN else TURN
        if derive_seed(other_kind, camp.id, k, secret, manifest_digest, prior_digest, field) == seed_claimed:
            msg += f" (the seed the tag {SEED_TAG[other_kind].decode()!r} gives, not a {label}'s)"
        elif turn_beacon is not None and not turn_beacon.waived and derive_seed(
            kind, camp.id, k, secret, manifest_digest, prior_digest, bytes(32)
        ) == seed_claimed:
            msg += " (the seed 32 zero bytes give, as if the turn were resolved without its round)"
        fails.append(msg)
    if turn_beacon is not None and rounds is not None:
        rounds.check_turn(k, turn_beacon, fails, notes)

    # 5. Rolls. Logs published late are both absent (section 7); one without the other is refused.
    rolls_path = folder / "rolls.jsonl"
    events_path = folder / "events.jsonl"
    has_rolls, has_events = present(rolls_path), present(events_path)
    if not has_rolls and not has_events:
        notes.append("logs not yet published")
    elif has_rolls != has_events:
        there, absent = ("rolls.jsonl", "events.jsonl") if has_rolls else ("events.jsonl", "rolls.jsonl")
        fails.append(f"logs: {there} is published but {absent} is absent (logs published late are both absent)")
    if has_rolls:
        try:
            out.nrolls = replay_rolls(read_bytes(rolls_path, "rolls.jsonl"), seed)
        except Fail as e:
            fails.append(f"rolls: {e}")
    if has_events:
        try:
            check_events(read_bytes(events_path, "events.jsonl"))
        except Fail as e:
            fails.append(f"events: {e}")

    # v3: every submission made for the phase (section 11.3)
    if camp.version >= 3 and kind == TURN:
        try:
            data = read_bytes(folder / "submissions.txt", "submissions.txt")
        except Fail as e:
            fails.append(f"submissions: {e}")
        else:
            try:
                listed = parse_manifest(mbytes).orders
            except Fail:
                listed = None  # the manifest's own check says why
            out.gm_submissions, latest = record.check_submissions(data, camp.sides, listed, fails)
            if turn_beacon is not None and rounds is not None:
                rounds.check_times(turn_beacon, latest, fails)


def phase_label_problem(label: str) -> str | None:
    """Section 3: a phase label is printable ASCII (0x20 to 0x7E), at least one character, neither starting nor
    ending with a space. It is not checked against the pattern adjutant writes, so other rulesets' phase names
    still check."""
    if not label:
        return "is empty"
    bad = next((c for c in label if not 0x20 <= ord(c) <= 0x7E), None)
    if bad is not None:
        return f"has the character {bad!r} (U+{ord(bad):04X}), not printable ASCII (0x20 to 0x7E)"
    if label.startswith(" "):
        return "starts with a space"
    if label.endswith(" "):
        return "ends with a space"
    return None






def collect_folders(out: Path, kind: str, count: int, campaign_fails: list[str]) -> dict[int, Path]:
    """The k -> folder map of turns/ or calls/ (section 7)."""
    top = FOLDER[kind]
    base = out / top
    folders: dict[int, Path] = {}
    if base.is_dir():
        for entry in sorted(base.iterdir()):
            name = entry.name
            k = folder_k(name)
            if k is None:
                campaign_fails.append(f"{top}/{name} is not a folder name (k >= 1, zero-padded to four digits)")
                continue
            if not entry.is_dir():
                campaign_fails.append(f"{top}/{name} is not a folder")
                continue
            folders[k] = entry
        for k in sorted(folders):
            if k > count:
                campaign_fails.append(f"{top}/{folders[k].name} is beyond the {count} {top} campaign.json lists")
    elif count > 0 or present(base):
        campaign_fails.append(f"{top} is missing or not a folder")
    return folders


def summary(out: Path, ok: bool, detail: str, total_rolls: int) -> str:
    return f"archive {out}: {'ok' if ok else 'FAIL'} ({detail}{total_rolls} rolls replayed)"


def run_archive(
    out: Path, heads: list[str] | None = None, mail: Path | None = None, require_signatures: bool = False
) -> int:
    """Verifies the archive OUT; heads are the heads given with --head (lower-case hex), mail a folder of
    received mail whose heads the archive must hold (section 11.5). A drand round's signature that cannot be
    checked (no BLS library) is said loudly, and is a failure only with require_signatures."""
    heads = heads or []
    try:
        chacha_ok = all(ok for _, ok, _, _ in chacha_selfcheck())
    except Exception as e:  # pragma: no cover
        chacha_ok = False
        print(f"self-check: FAIL: {e!r}")
    if not chacha_ok:
        print("self-check: FAIL: the ChaCha20 block function does not match RFC 8439; nothing verified")
        print(summary(out, False, "", 0))
        return 1

    if not out.is_dir():
        print(f"campaign: FAIL: {out} is not a folder")
        print(summary(out, False, "", 0))
        return 1
    try:
        camp = Campaign(out)
    except Fail as e:
        print(f"campaign: FAIL: {e}")
        print(summary(out, False, "", 0))
        return 1
    except Exception as e:
        print(f"campaign: FAIL: cannot read: {e!r}")
        print(summary(out, False, "", 0))
        return 1

    failures = 0
    total_rolls = 0
    unpublished = 0  # resolutions whose logs are not yet published
    held: dict[bytes, str] | None = None  # v3: every head the archive holds
    try:
        campaign_fails: list[str] = list(camp.problems)
        folders = {kind: collect_folders(out, kind, camp.count[kind], campaign_fails) for kind in KINDS + (ACT,)}
        for msg in campaign_fails:
            print(f"campaign: FAIL: {msg}")
        failures += len(campaign_fails)

        # Every act.json first: the states the game passed through after each turn depend on them.
        acts = [act_checks.read_act(camp.version, folders[ACT].get(n), n) for n in range(1, camp.acts + 1)]
        states = act_checks.States(camp.initial_state_digest, acts)
        rounds, beacon_failures = beacon_rounds(camp, acts)
        failures += beacon_failures
        entries: list[record.Entry] = []
        gm_submissions: dict[int, list[tuple[str, str]]] = {}
        chains = {kind: ChainState(kind, camp.commitment_of(kind)) for kind in KINDS}
        prev_call_after: int | None = None
        for kind in KINDS:  # turns first, then calls
            label = LABEL[kind]
            for k in range(1, camp.count[kind] + 1):
                outcome = Outcome()
                folder = folders[kind].get(k)
                if folder is None:
                    outcome.fails.append(f"folder {FOLDER[kind]}/{k:04d} missing")
                else:
                    try:
                        verify_resolution(camp, folder, kind, k, chains, states, prev_call_after, rounds, outcome)
                    except Fail as e:
                        outcome.fails.append(str(e))
                    except Exception as e:  # never crash on malformed input
                        outcome.fails.append(f"cannot verify: {e!r}")
                if kind == TURN:
                    states.turn_next[k] = outcome.next_claimed
                    states.turn_prior[k] = outcome.prior_claimed
                    if outcome.gm_submissions is not None:
                        gm_submissions[k] = outcome.gm_submissions
                elif outcome.after_turn is not None:
                    prev_call_after = outcome.after_turn
                entries.append(record.Entry(f"{FOLDER[kind]}/{k:04d}", kind, k, outcome.link, outcome.after_turn))
                if outcome.nrolls is not None:
                    total_rolls += outcome.nrolls
                if outcome.fails:
                    failures += 1
                    print(f"{label} {k}: FAIL: {'; '.join(outcome.fails)}")
                elif outcome.nrolls is None:
                    unpublished += 1
                    print(f"{label} {k}: ok (steps 1-4; {', '.join(outcome.notes)})")
                else:
                    extra = f"; {', '.join(outcome.notes)}" if outcome.notes else ""
                    print(f"{label} {k}: ok ({outcome.nrolls} rolls{extra})")

        check_without_beacon_acts(camp, acts, rounds)
        failures += check_acts(camp, acts, states, entries)
        if camp.version >= 3:
            failures += check_gm_lines(camp, acts, gm_submissions)
            problems, held = check_whole_record(camp, out, entries)
            failures += problems
    except Exception as e:  # never crash on malformed input
        failures += 1
        print(f"campaign: FAIL: cannot verify: {e!r}")

    if heads or mail is not None:
        failures += check_heads(camp, out, held, heads, mail)

    counts = f"{camp.turns} turns, {camp.calls} calls, " + (f"{camp.acts} acts, " if camp.version >= 2 else "")
    if camp.drand is not None and camp.drand.chain_hash.hex() not in drand.KNOWN_CHAIN_HASHES:
        # Section 11.6: a beacon protects only if nobody in the campaign holds its key. A network whose chain
        # hash is not a known public one's may be the game master's own: the archive can check and still be
        # as honest as the game master. A warning, not a failure.
        print(f"beacon: WARNING: the drand chain {camp.drand.chain_hash.hex()} is not quicknet's "
              f"({drand.QUICKNET_CHAIN_HASH}) nor any known public network's: whoever holds its key, the game "
              "master perhaps, could know each turn's dice before its manifest was out.")
    if rounds is not None:
        if rounds.verified:
            counts += f"{rounds.verified} drand signature(s) verified, "
        if rounds.unchecked:
            why = rounds.why_not or "the drand network's /info JSON cannot be read"
            print(f"beacon: {'FAIL' if require_signatures else 'WARNING'}: the BLS signatures of "
                  f"{rounds.unchecked} drand round(s) were NOT CHECKED: {why}. Everything else was checked, their "
                  "randomness in the seeds included; a round whose signature is not checked could be any value.")
            counts += f"{rounds.unchecked} drand signature(s) NOT CHECKED, "
            failures += require_signatures
    if failures:
        print(summary(out, False, f"{failures} problem(s); {counts}", total_rolls))
        return 1
    tail = f"logs of {unpublished} resolution(s) not yet published, " if unpublished else ""
    print(summary(out, True, counts + tail, total_rolls))
    return 0


def beacon_rounds(camp: Campaign, acts: list[act_checks.Act]) -> tuple[drand.Rounds | None, int]:
    """For a drand campaign (section 11.6): what checks its turns' rounds, with the BLS library loaded and
    checked on its known answers first (a library that fails them is not used, and that is a failure). Returns
    it (None without a drand beacon) and the number of problems printed."""
    if not camp.has_drand:
        return None, 0
    waivers = {a.after_turn + 1: a.n for a in acts if a.readable and a.kind == drand.WITHOUT_BEACON}
    bls, why_not = None, None
    problems = 0
    if camp.turns > 0:
        bls, why_not = bls_check.load()
    if bls is not None:
        wrong = [name for (name, ok, _, _) in bls_check.selfcheck(bls) if not ok]
        if wrong:
            print(f"beacon: FAIL: py-ecc {bls.version} fails known answers ({'; '.join(wrong)}); it is not used")
            problems += 1
            bls, why_not = None, f"py-ecc {bls.version} fails its known answers"
    return drand.Rounds(camp.drand, bls, why_not, waivers), problems


def check_without_beacon_acts(camp: Campaign, acts: list[act_checks.Act], rounds: drand.Rounds | None) -> None:
    """Section 11.6: `without beacon` resolves the turn that waits for its round without it; so the act is in a
    drand campaign, and the turn after it, when the archive has it, says `"signature": "waived"`."""
    for act in acts:
        if not act.readable or act.kind != drand.WITHOUT_BEACON:
            continue
        if rounds is None:
            act.fails.append("a campaign without a drand beacon has no turn waiting for a round (section 11.6)")
            continue
        k = act.after_turn + 1
        if k in rounds.taken:
            act.fails.append(f"turn {k}, after it, took drand round {rounds.taken[k]}: it was not resolved without it")
        # Section 11.6, what a waiver lets a game master do: before the round's time, know the dice (the field
        # is zeros) while nobody else can; after it, compare with the round's dice if the round was public.
        # Not a failure: the archive cannot say whether the relay was out of reach; the timing is for people.
        if k in rounds.waived_rounds and rounds.network is not None and act.at is not None:
            try:
                waived_at = datetime.datetime.fromisoformat(act.at.replace("Z", "+00:00")).timestamp()
            except ValueError:
                continue
            r = rounds.waived_rounds[k]
            due = rounds.network.round_time(r)
            if waived_at < due:
                act.notes.append(f"WARNING: the waiver came {due - waived_at:.0f} s BEFORE drand round {r}'s time "
                                 f"({drand.utc_text(due)}): the game master could know turn {k}'s dice before anyone")
            else:
                act.notes.append(f"WARNING: the waiver came {waived_at - due:.0f} s after drand round {r}'s time "
                                 f"({drand.utc_text(due)}): if the round was public then (drand's own relays keep "
                                 "it), the game master could compare both outcomes and keep one")


def check_acts(
    camp: Campaign,
    acts: list[act_checks.Act],
    states: act_checks.States,
    entries: list[record.Entry],
) -> int:
    """Section 10 (and 11.4): each act in order, one report line each. Returns the number that failed."""
    failures = 0
    undone: set[int] = set()
    prev_after: int | None = None
    for act in acts:
        link = None
        if act.folder is not None and camp.version >= 3:
            link = record.check_link(camp.id, act.folder, f"gm/{act.folder.name}", False, act.fails)
        if act.readable:
            try:
                act_checks.check_act(act, camp.ruleset, camp.sides, camp.turns, states, undone, prev_after)
            except Fail as e:
                act.fails.append(str(e))
            except Exception as e:  # never crash on malformed input
                act.fails.append(f"cannot verify: {e!r}")
            prev_after = act.after_turn
        entries.append(record.Entry(f"gm/{act.n:04d}", ACT, act.n, link, act.after_turn))
        what = f"{act.kind} after turn {act.after_turn}: {act.describe()}" if act.readable else "unreadable"
        if act.fails:
            failures += 1
            print(f"act {act.n}: FAIL: {'; '.join(act.fails)}")
        else:
            extra = f"; {', '.join(act.notes)}" if act.notes else ""
            print(f"act {act.n}: ok ({what}{extra})")
    return failures


def check_gm_lines(camp: Campaign, acts: list[act_checks.Act], gm_submissions: dict[int, list[tuple[str, str]]]) -> int:
    problems = act_checks.check_gm_lines(acts, camp.turns, gm_submissions)
    for msg in problems:
        print(f"record: FAIL: {msg}")
    return len(problems)


def check_whole_record(camp: Campaign, out: Path, entries: list[record.Entry]) -> tuple[int, dict[bytes, str]]:
    """Section 11.5, steps 1 and 3. Prints `record: ...` lines; returns the problems and the heads held."""
    try:
        genesis = camp.genesis()
    except Fail as e:
        print(f"record: FAIL: {e}")
        return 1, {}
    genesis_path = out / "genesis.txt"
    genesis_bytes = None
    if present(genesis_path):
        try:
            genesis_bytes = read_bytes(genesis_path, "genesis.txt")
        except Fail as e:
            print(f"record: FAIL: {e}")
            return 1, {}
    problems, held = record.check_record(genesis, genesis_bytes, entries, camp.entries, camp.head, TURN)
    for msg in problems:
        print(f"record: FAIL: {msg}")
    if not problems:
        print(f"record: ok ({camp.entries} entries linked from genesis.txt to head {camp.head.hex()})")
    return len(problems), held


def archived_values(camp: Campaign, out: Path) -> tuple[set[str], dict[tuple[str, int], str | None]]:
    """What the mail is checked against (section 11.5): the SHA-256 of every turn's and call's manifest.txt,
    and each resolution's secret from its resolution.json (None when it cannot be read)."""
    manifests: set[str] = set()
    secrets: dict[tuple[str, int], str | None] = {}
    for kind in KINDS:
        for k in range(1, camp.count[kind] + 1):
            folder = out / FOLDER[kind] / f"{k:04d}"
            try:
                manifests.add(sha256((folder / "manifest.txt").read_bytes()).hex())
            except OSError:
                pass
            try:
                secret = json.loads((folder / "resolution.json").read_bytes()).get("secret")
                secrets[(kind, k)] = secret.lower() if isinstance(secret, str) else None
            except (OSError, ValueError, AttributeError):
                secrets[(kind, k)] = None
    return manifests, secrets


def check_mail(camp: Campaign, out: Path, mail: Path) -> tuple[int, dict[str, list[str]]]:
    """Section 11.5, "What --mail reads, exactly": every file under mail is a message; the campaign's are those
    tagged `[<id>]`, with a Message-ID made for it, or naming it; their commitments, revealed secrets and (in a
    message that reveals a secret) manifest digests must be the archive's. Prints `mail ...` lines; returns the
    number of problems and the heads found (head -> files), which check_heads checks."""
    if not mail.is_dir():
        print(f"mail {mail}: FAIL: not a folder")
        return 1, {}
    reading = record.read_mail(mail, camp.id)
    for msg in reading.notes:
        print(f"mail {mail}: note: {msg}")
    heads = reading.heads()
    manifests, secrets = archived_values(camp, out)
    expected = {"commitment": camp.commitment.hex(), "umpire_commitment": camp.umpire_commitment.hex()}
    fails: list[str] = []
    counts = {"commitments": 0, "secrets": 0, "manifests": 0, "manifests checked": 0}
    for name, values in reading.messages:
        for prefix in values.unreadable:
            fails.append(f"{name}: a line begins `{prefix}` but gives no value of 64 hex digits, so it cannot be "
                         "checked against the archive")
        for key, value in values.commitments:
            counts["commitments"] += 1
            if value != expected[key]:
                fails.append(f"{name}: {key} {value}, the archive's campaign.json says {expected[key]}")
        for value in values.manifests:
            counts["manifests"] += 1
            if not values.reveals:
                continue  # a manifest mailed before its resolution need not be archived yet (section 7)
            counts["manifests checked"] += 1
            if value not in manifests:
                fails.append(f"{name}: the manifest digest {value} is in no resolution of the archive")
        for kind, k, value in values.secrets:
            counts["secrets"] += 1
            what = "turn" if kind == TURN else "umpire call"
            if (kind, k) not in secrets:
                fails.append(f"{name}: {what} {k} revealed {value}, but the archive does not hold {what} {k}")
            elif secrets[(kind, k)] != value:
                fails.append(f"{name}: {what} {k} revealed {value}, the archive says {secrets[(kind, k)]}")
    if reading.of_campaign == 0:
        fails.append(f"no message of the {reading.read} file(s) is campaign {camp.id}'s (section 11.5)")
    print(
        f"mail {mail}: {reading.read} file(s) read, {reading.of_campaign} of campaign {camp.id}; "
        f"{len(heads)} distinct head(s), {counts['commitments']} commitment(s), {counts['secrets']} revealed "
        f"secret(s), {counts['manifests']} manifest digest(s) ({counts['manifests checked']} checked)"
    )
    for msg in fails:
        print(f"mail {mail}: FAIL: {msg}")
    return len(fails), heads


def check_heads(camp: Campaign, out: Path, held: dict[bytes, str] | None, heads: list[str],
                mail: Path | None) -> int:
    """Section 11.5: the archive holds every head a player received, given with --head or found in a folder of
    mail, and the mail's other values are the archive's (check_mail). Prints one line per head; returns the
    number of problems."""
    failures = 0
    sources: dict[str, list[str]] = {h: ["--head"] for h in heads}
    if mail is not None:
        problems, found = check_mail(camp, out, mail)
        failures += problems
        for h, files in found.items():
            sources.setdefault(h, []).append(f"in {len(files)} message(s)")
    if not sources:
        return failures
    if camp.version < 3:
        print(f"head: FAIL: an {camp.spec} archive has no hash-linked record, so it holds none of the "
              f"{len(sources)} head(s) given or mailed (section 11)")
        return failures + 1
    if held is None:
        print("head: FAIL: the record could not be read, so no head can be checked")
        return failures + 1
    # In the order of the record: genesis.txt, then entry 1, 2, ...; heads the archive does not hold last.
    order = {digest: i for i, digest in enumerate(held)}
    for h, where in sorted(sources.items(), key=lambda item: order.get(bytes.fromhex(item[0]), len(order))):
        what = held.get(bytes.fromhex(h))
        if what is None:
            failures += 1
            print(
                f"head {h}: FAIL: the archive does not hold it ({', '.join(where)}): it was cut short before "
                "that entry, or rewritten"
            )
        else:
            print(f"head {h}: ok ({what}; {', '.join(where)})")
    return failures


def head_hex(text: str) -> str:
    value = text.strip().lower()
    if not is_hex32(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a head: 64 hex digits")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Independent verifier for adjutant-audit-v1, v2 and v3 (docs/AUDIT.md)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("vectors", help="recompute the test vectors of AUDIT.md section 9")
    p_archive = sub.add_parser("archive", help="verify an exported archive (AUDIT.md sections 8, 10, 11.5)")
    p_archive.add_argument("out", type=Path, help="the archive folder (holds campaign.json)")
    p_archive.add_argument(
        "--head", action="append", type=head_hex, default=[], metavar="HEX",
        help="a head a player received (`archive head = ...`): the archive must hold it; may be repeated",
    )
    p_archive.add_argument(
        "--mail", type=Path, metavar="DIR",
        help="a folder of received mail (a Maildir or saved messages): the archive must hold every head in it",
    )
    p_archive.add_argument(
        "--require-signatures", action="store_true",
        help="fail when the BLS signatures of a drand campaign's rounds cannot be checked (py-ecc missing)",
    )
    p_dice = sub.add_parser(
        "dice", help="re-derive a report's dice from its `adjutant dice ...` line (AUDIT.md section 5)"
    )
    p_dice.add_argument("--campaign", required=True)
    which = p_dice.add_mutually_exclusive_group(required=True)
    which.add_argument("--turn", type=int, metavar="K", help="a turn resolution's number")
    which.add_argument("--umpire", type=int, metavar="K", help="an umpire call's number")
    p_dice.add_argument("--secret", required=True)
    p_dice.add_argument("--manifest", required=True)
    p_dice.add_argument("--prior", required=True)
    p_dice.add_argument("--beacon-field", dest="beacon_field", help="the seed's 32 beacon bytes, hex (absent: zeros)")
    p_dice.add_argument("rolls", nargs="*", metavar="INDEX:DIE@FIRST_WORD")
    args = parser.parse_args(argv)
    if args.command == "vectors":
        return run_vectors()
    if args.command == "dice":
        kind, k = (TURN, args.turn) if args.turn is not None else (UMPIRE, args.umpire)
        try:
            lines = dice_lines(args.campaign, kind, k, args.secret, args.manifest, args.prior, args.beacon_field,
                               args.rolls)
        except ValueError as e:
            print(f"dice: {e}", file=sys.stderr)
            return 2
        print("\n".join(lines))
        return 0
    return run_archive(args.out, args.head, args.mail, args.require_signatures)


if __name__ == "__main__":
    sys.exit(main())
