"""The drand beacon of a v3 campaign (docs/AUDIT.md section 11.6): the network, read from `campaign.json`'s `drand`
(the network's `/info` JSON as a string) and named in `genesis.txt` by its chain hash; each turn's round, named by
its manifest and given with its signature in `resolution.json`'s `beacon`; the round's randomness, the seed's last
32 bytes; and a turn resolved without its round (`"signature": "waived"`), which needs a `without-beacon` act
before it.

The signature itself is checked by bls.py, when the optional py-ecc package is there.
"""

from __future__ import annotations

import calendar
import struct
import time

from base import Fail, is_int, parse_json, sha256
from bls import QUICKNET_PUBLIC_KEY, SIGNATURE_BYTES

SCHEME = "bls-unchained-g1-rfc9380"  # drand's quicknet scheme, the only one section 11.6 supports
WAIVED = "waived"
WITHOUT_BEACON = "without-beacon"  # the kind of the act that resolves a turn without its round
ROUND_LINE = "beacon drand round "  # the manifest's line after `phase`, then the round in decimal
MANIFEST_HEADER = "adjutant-manifest-v3"  # a turn's manifest in a drand campaign

# drand quicknet's /info, as the public network publishes it. The page gives its chain hash and public key; the
# genesis time and group hash are the network's own, and recomputing the page's chain hash from them checks both.
QUICKNET_INFO = (
    '{"public_key":"' + QUICKNET_PUBLIC_KEY.hex() + '","period":3,"genesis_time":1692803367,'
    '"hash":"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",'
    '"groupHash":"f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e",'
    '"schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"quicknet"}}'
)
QUICKNET_CHAIN_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"  # AUDIT.md 11.6
# The public drand networks section 11.6 lists by chain hash; any other network may be the game master's own.
KNOWN_CHAIN_HASHES = {QUICKNET_CHAIN_HASH: "quicknet"}


def chain_hash(period: int, genesis_time: int, public_key: bytes, group_hash: bytes, beacon_id: str) -> bytes:
    """SHA-256 of period (u32 BE) || genesis time (i64 BE) || public key || group hash || beacon id (UTF-8; left
    out when it is empty or `default`)."""
    tail = b"" if beacon_id in ("", "default") else beacon_id.encode("utf-8")
    return sha256(struct.pack(">I", period) + struct.pack(">q", genesis_time) + public_key + group_hash + tail)


def _hex(obj: dict, key: str, length: int) -> bytes:
    v = obj.get(key)
    if not isinstance(v, str):
        raise Fail(f"key {key!r} is missing or not a string")
    try:
        data = bytes.fromhex(v)
    except ValueError:
        raise Fail(f"{key} {v!r} is not hex") from None
    if len(data) != length or len(v) != 2 * length:
        raise Fail(f"{key} is {len(v)} hex digits, not {2 * length}")
    return data


class Network:
    """A drand network's /info JSON, read by the keys of section 11.6's table (`public_key`, `period`,
    `genesis_time`, `groupHash`, `schemeID`, `metadata.beaconID`, and `hash`, the chain hash, required); other
    keys are ignored. Raises Fail on what cannot be read."""

    def __init__(self, text: str) -> None:
        info = parse_json(text.encode("utf-8", "surrogatepass"), "the drand /info JSON", integers_only=False)
        if not isinstance(info, dict):
            raise Fail("the drand /info JSON is not an object")
        try:
            self.public_key = _hex(info, "public_key", 96)
            self.group_hash = _hex(info, "groupHash", 32)
        except Fail as e:
            raise Fail(f"the drand /info JSON: {e}") from None
        period, genesis_time = info.get("period"), info.get("genesis_time")
        if not is_int(period) or not 1 <= period < 1 << 32:
            raise Fail(f"the drand /info JSON: period {period!r} is not a whole number of seconds, 1 to 2^32 - 1")
        if not is_int(genesis_time) or not 0 <= genesis_time < 1 << 63:
            raise Fail(
                f"the drand /info JSON: genesis_time {genesis_time!r} is not a whole number from 0 to 2^63 - 1"
            )
        self.period: int = period
        self.genesis_time: int = genesis_time
        scheme = info.get("schemeID")
        if scheme != SCHEME:
            raise Fail(
                f"the drand /info JSON: schemeID is {scheme!r}; only {SCHEME!r} (drand's quicknet) is supported"
            )
        metadata = info.get("metadata")
        if metadata is None:  # absent or null: the beacon id is empty (section 11.6's table)
            metadata = {}
        beacon_id = metadata.get("beaconID", "") if isinstance(metadata, dict) else None
        if not isinstance(beacon_id, str):
            raise Fail(f"the drand /info JSON: metadata.beaconID {beacon_id!r} is not a string")
        self.beacon_id: str = beacon_id
        self.chain_hash = chain_hash(period, genesis_time, self.public_key, self.group_hash, beacon_id)
        # The network's own statement of its chain hash (section 11.6: required, 32 bytes in hex): it must be
        # what its fields make.
        try:
            self.stated_hash: str = _hex(info, "hash", 32).hex()
        except Fail as e:
            raise Fail(f"the drand /info JSON: {e} (the chain hash is required, section 11.6)") from None

    def problems(self) -> list[str]:
        if self.stated_hash != self.chain_hash.hex():
            return [
                f"the drand /info JSON says its chain hash is {self.stated_hash}, but its fields make "
                f"{self.chain_hash.hex()} (section 11.6)"
            ]
        return []

    def round_time(self, round_number: int) -> int:
        """When a round is published: genesis time + (r - 1) x period, in seconds since 1970 (UTC)."""
        return self.genesis_time + (round_number - 1) * self.period

    def genesis_line(self) -> str:
        """What genesis.txt says after `beacon `."""
        return f"drand {self.chain_hash.hex()}"


def randomness(signature: bytes) -> bytes:
    """A round's randomness, the seed's last 32 bytes: SHA-256 of the signature's bytes."""
    return sha256(signature)


class TurnBeacon:
    """resolution.json's `beacon` of a turn: the round and its signature (None when waived)."""

    def __init__(self, round_number: int, signature: bytes | None) -> None:
        self.round = round_number
        self.signature = signature

    @property
    def waived(self) -> bool:
        return self.signature is None

    def seed_field(self) -> bytes:
        """The seed's last 32 bytes: the randomness, or 32 zero bytes for a turn resolved without its round."""
        return bytes(32) if self.signature is None else randomness(self.signature)


def read_turn_beacon(res: dict) -> TurnBeacon:
    """A drand campaign's turn: `beacon` is `{"round": r, "signature": "<96 hex digits>" or "waived"}`."""
    b = res.get("beacon")
    if "beacon" not in res:
        raise Fail("resolution.json: key 'beacon' missing (every turn of a drand campaign has it, section 11.6)")
    if not isinstance(b, dict):
        raise Fail(f"resolution.json: beacon is not an object {{round, signature}}: {b!r}")
    r, sig = b.get("round"), b.get("signature")
    if not is_int(r) or r < 1:
        raise Fail(f"resolution.json: beacon round {r!r} is not a round number (1 or more)")
    if sig == WAIVED:
        return TurnBeacon(r, None)
    if not (isinstance(sig, str) and len(sig) == 2 * SIGNATURE_BYTES and all(c in "0123456789abcdef" for c in sig)):
        raise Fail(f"resolution.json: beacon signature {sig!r} is neither {2 * SIGNATURE_BYTES} lower-case hex "
                   f"digits nor {WAIVED!r}")
    return TurnBeacon(r, bytes.fromhex(sig))


def parse_round_line(line: str) -> int:
    """`beacon drand round <r>`, r in decimal without leading zeros, 1 or more."""
    if not line.startswith(ROUND_LINE):
        raise Fail(f"manifest.txt line 5 is {line!r}, expected `{ROUND_LINE}<r>` after the phase (section 11.6)")
    word = line[len(ROUND_LINE):]
    if not (word.isascii() and word.isdigit()) or word != str(int(word)) or int(word) < 1:
        raise Fail(f"manifest.txt: the round {word!r} is not a number from 1 without leading zeros")
    return int(word)


def utc_seconds(t: str) -> int:
    """An RFC 3339 UTC time in whole seconds (already checked), as seconds since 1970."""
    return calendar.timegm(time.strptime(t[:19], "%Y-%m-%dT%H:%M:%S"))


def utc_text(seconds: int) -> str:
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
    except (OverflowError, OSError, ValueError):
        return f"{seconds} s after 1970"


class Rounds:
    """The rounds of a drand campaign's turns, checked turn by turn in order (section 11.6): each signature
    against the network's key (when the BLS check can be had), a waived turn against the `without-beacon` acts,
    and the order of the rounds. Counts what it verified and what it could not."""

    def __init__(self, network: Network | None, bls, why_not: str | None, waivers: dict[int, int]) -> None:
        self.network = network
        self.bls = bls  # bls.Bls, or None
        self.why_not = why_not  # why there is no BLS check
        self.waivers = waivers  # turn k -> the number of a without-beacon act after turn k - 1
        self.verified = 0
        self.unchecked = 0
        self.taken: dict[int, int] = {}  # turn k -> the round it took (not waived)
        self.waived: set[int] = set()
        self.waived_rounds: dict[int, int] = {}  # turn k -> the round it was resolved without

    def check_turn(self, k: int, beacon: TurnBeacon, fails: list[str], notes: list[str]) -> None:
        if beacon.waived:
            self.waived.add(k)
            self.waived_rounds[k] = beacon.round
            act = self.waivers.get(k)
            if act is None:
                fails.append(
                    f"beacon: turn {k} was resolved without its drand round (signature waived), but no "
                    f"{WITHOUT_BEACON} act was recorded after turn {k - 1}, before it (section 11.6)"
                )
            else:
                notes.append(f"resolved without drand round {beacon.round} by act {act}, its seed's last 32 bytes "
                             "zeros")
            return
        # Every round an earlier turn took was published before this turn's phase closed, so this turn's round,
        # named then as one not yet published, is later than all of them.
        if self.taken:
            earlier_k, earlier = max(self.taken.items(), key=lambda item: item[1])
            if beacon.round <= earlier:
                fails.append(
                    f"beacon: round {beacon.round} is not later than round {earlier}, which turn {earlier_k} took: "
                    "it was published before this turn's manifest"
                )
        self.taken[k] = beacon.round
        if self.network is None:
            self.unchecked += 1
            notes.append(f"drand round {beacon.round}, signature NOT CHECKED (the network's /info cannot be read)")
            return
        if self.bls is None:
            self.unchecked += 1
            notes.append(f"drand round {beacon.round}, signature NOT CHECKED")
            return
        problem = self.bls.verify(self.network.public_key, beacon.round, beacon.signature)
        if problem is not None:
            fails.append(f"beacon: drand round {beacon.round}: {problem}")
        else:
            self.verified += 1
            notes.append(f"drand round {beacon.round}, signature verified")

    def check_times(self, beacon: TurnBeacon, latest_submission: str | None, fails: list[str]) -> None:
        """The round is named at the close as the first published strictly after it (plus a margin): so after
        every submission made for the phase."""
        if beacon.waived or self.network is None or latest_submission is None:
            return
        published = self.network.round_time(beacon.round)
        if published <= utc_seconds(latest_submission):
            fails.append(
                f"beacon: drand round {beacon.round} was published at {utc_text(published)}, not after the "
                f"submission of {latest_submission}: its randomness was known before the orders were fixed"
            )
