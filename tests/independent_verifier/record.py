"""The hash-linked record of a v3 archive (docs/AUDIT.md section 11): `genesis.txt`, each folder's `link.txt`,
the chain of entries up to `head`, each turn's `submissions.txt`, and the heads a player received, given one by
one (`--head`) or read from a folder of mail (`--mail`).
"""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from html.parser import HTMLParser
from pathlib import Path

from base import WHITE_SPACE_TEXT, Fail, is_hex32, is_id, is_rfc3339_utc, present, read_bytes, sha256

GENESIS_HEADER = "adjutant-genesis-v3"
LINK_HEADER = "adjutant-link-v3"
LOGS = ("rolls.jsonl", "events.jsonl")  # the only files of a resolution that may be withheld (section 7)
ENTRY_NUMBER = re.compile(r"[1-9][0-9]*", re.ASCII)


def genesis_text(campaign: str, ruleset: str, sides: list[str], chain_length: int, commitment: bytes,
                 umpire_commitment: bytes, beacon_line: str, policy_word: str, initial_state: bytes) -> bytes:
    """Section 11.2: what the campaign fixed before its first order. beacon_line is what follows `beacon `:
    `none`, `text <SHA-256 of the text>` or `drand <chain hash>` (section 11.6)."""
    lines = [
        GENESIS_HEADER,
        f"campaign {campaign}",
        f"ruleset {ruleset}",
        "sides " + " ".join(sorted(sides, key=lambda s: s.encode("utf-8"))),
        f"chain_length {chain_length}",
        f"commitment {commitment.hex()}",
        f"umpire_commitment {umpire_commitment.hex()}",
        f"beacon {beacon_line}",
        f"no_orders_policy {policy_word}",
        f"initial_state {initial_state.hex()}",
    ]
    return "".join(line + "\n" for line in lines).encode("utf-8")


class Link:
    """One folder's link.txt, read."""

    def __init__(self, campaign: str, entry: int, previous: str, record: str, files: list[tuple[str, str]],
                 digest: bytes) -> None:
        self.campaign = campaign
        self.entry = entry
        self.previous = previous
        self.record = record
        self.files = files
        self.digest = digest  # SHA-256 of link.txt: the entry digest

    def text(self) -> bytes:
        lines = [LINK_HEADER, f"campaign {self.campaign}", f"entry {self.entry}", f"previous {self.previous}",
                 f"record {self.record}"]
        lines += [f"file {path} {digest}" for path, digest in self.files]
        return "".join(line + "\n" for line in lines).encode("utf-8")


def _field(line: str, key: str, n: int) -> str:
    if not line.startswith(key + " "):
        raise Fail(f"line {n} is {line!r}, expected `{key} ...`")
    return line[len(key) + 1:]


def parse_link(data: bytes) -> Link:
    """Reads link.txt and checks that it is canonical: it reads back as itself, byte for byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Fail("link.txt is not UTF-8") from None
    if not text.endswith("\n"):
        raise Fail("link.txt does not end with LF")
    lines = text[:-1].split("\n")
    if len(lines) < 5:
        raise Fail("link.txt has fewer than 5 lines")
    if lines[0] != LINK_HEADER:
        raise Fail(f"link.txt first line is {lines[0]!r}, expected {LINK_HEADER!r}")
    campaign = _field(lines[1], "campaign", 2)
    entry_word = _field(lines[2], "entry", 3)
    if not ENTRY_NUMBER.fullmatch(entry_word):
        raise Fail(f"link.txt: entry {entry_word!r} is not a number from 1, without leading zeros")
    previous = _field(lines[3], "previous", 4)
    if not is_hex32(previous):
        raise Fail(f"link.txt: previous {previous!r} is not 64 lower-case hex digits")
    record = _field(lines[4], "record", 5)
    files: list[tuple[str, str]] = []
    for n, line in enumerate(lines[5:], 6):
        rest = _field(line, "file", n)
        path, _, digest = rest.rpartition(" ")
        if not path or not is_hex32(digest):
            raise Fail(f"link.txt line {n} {line!r} is not `file <path> <digest>`")
        files.append((path, digest))
    paths = [p.encode("utf-8") for p, _ in files]
    if paths != sorted(paths) or len(set(paths)) != len(paths):
        raise Fail("link.txt: the file lines are not sorted by the bytes of the path, each once")
    link = Link(campaign, int(entry_word), previous, record, files, sha256(data))
    if link.text() != data:
        raise Fail("link.txt does not read back as itself (it is not canonical)")
    return link


def folder_files(folder: Path) -> list[str]:
    """Every file under the folder but its link.txt, as paths relative to it with `/` between names."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            continue
        rel = path.relative_to(folder).as_posix()
        if rel != "link.txt":
            found.append(rel)
    return found


def check_link(campaign: str, folder: Path, record: str, is_resolution: bool, fails: list[str]) -> Link | None:
    """Section 11.5, step 2, for one folder. Appends what differs to fails; returns the link when it reads."""
    try:
        link = parse_link(read_bytes(folder / "link.txt", "link.txt"))
    except Fail as e:
        fails.append(f"link: {e}")
        return None
    if link.campaign != campaign:
        fails.append(f"link: link.txt names the campaign {link.campaign!r}, not {campaign!r}")
    if link.record != record:
        fails.append(f"link: link.txt names the record {link.record!r}, but it is in {record}")
    listed = {}
    for path, digest in link.files:
        parts = path.split("/")
        if path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            fails.append(f"link: the path {path!r} is not a path inside the folder")
            continue
        listed[path] = digest
    absent = []
    for path, digest in listed.items():
        target = folder / path
        if not present(target):
            absent.append(path)
            continue
        try:
            data = read_bytes(target, path)
        except Fail as e:
            fails.append(f"link: {e}")
            continue
        if sha256(data).hex() != digest:
            fails.append(f"link: SHA-256({path}) is {sha256(data).hex()}, link.txt says {digest}")
    for path in absent:
        if not (is_resolution and path in LOGS):
            fails.append(f"link: {path} is listed in link.txt but absent (only rolls.jsonl and events.jsonl may be)")
    logs_absent = [p for p in LOGS if p in absent]
    if is_resolution:
        if len(logs_absent) == 1:
            fails.append(f"link: {logs_absent[0]} is absent but the other log is not (both or neither)")
        for name in LOGS:
            if name not in listed:
                fails.append(f"link: {name} is not listed (the logs are listed even while withheld)")
    for path in folder_files(folder):
        if path not in listed:
            fails.append(f"link: {path} is not listed in link.txt")
    return link


def check_submissions(data: bytes, sides: list[str], manifest_orders: list[tuple[str, str | None]] | None,
                      fails: list[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Section 11.3. Each line `<time> <side> <orders digest> <status> <via>`; a side's last `accepted` line is
    the digest the manifest lists for it, and a side the manifest lists as none has no `accepted` line.
    Returns the (side, digest) of the lines entered by the operator (via gm), and the latest time of a line
    (None when there is none), which a drand round must follow (section 11.6)."""
    entered: list[tuple[str, str]] = []
    latest: str | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fails.append("submissions: submissions.txt is not UTF-8")
        return entered, latest
    if text and not text.endswith("\n"):
        fails.append("submissions: submissions.txt does not end with LF")
        return entered, latest
    last_accepted: dict[str, str] = {}
    for n, line in enumerate(text[:-1].split("\n") if text else [], 1):
        words = line.split(" ")
        if len(words) != 5:
            fails.append(f"submissions: line {n} {line!r} is not `<time> <side> <digest> <status> <via>`")
            continue
        time, side, digest, status, via = words
        problems = []
        if not is_rfc3339_utc(time):
            problems.append(f"time {time!r} is not RFC 3339 UTC in whole seconds")
        if not is_id(side) or side not in sides:
            problems.append(f"{side!r} is not a side of the campaign")
        if not is_hex32(digest):
            problems.append(f"digest {digest!r} is not 64 lower-case hex digits")
        if status not in ("accepted", "superseded"):
            problems.append(f"status {status!r} is neither accepted nor superseded")
        if via not in ("mail", "gm"):
            problems.append(f"via {via!r} is neither mail nor gm")
        if problems:
            fails.append(f"submissions: line {n}: {'; '.join(problems)}")
            continue
        latest = time if latest is None or time > latest else latest  # one format: the text sorts as the time
        if status == "accepted":
            last_accepted[side] = digest
        if via == "gm":
            entered.append((side, digest))
    if manifest_orders is not None:
        for side, digest in manifest_orders:
            got = last_accepted.get(side)
            if digest is None and got is not None:
                fails.append(f"submissions: {side} has an accepted line ({got}) but the manifest lists none")
            elif digest is not None and got != digest:
                what = f"its last accepted line reads {got}" if got else "it has no accepted line"
                fails.append(f"submissions: the manifest lists {digest} for {side}, but {what}")
    return entered, latest


class Entry:
    """What the record check needs of one folder."""

    def __init__(self, record: str, kind: str, k: int, link: Link | None, after_turn: int | None) -> None:
        self.record = record
        self.kind = kind  # turn, umpire or act
        self.k = k
        self.link = link
        self.after_turn = after_turn


def check_record(genesis: bytes, genesis_bytes: bytes | None, entries: list[Entry], count: int, head: bytes,
                 turn_kind: str) -> tuple[list[str], dict[bytes, str]]:
    """Section 11.5, steps 1 and 3: genesis.txt is the text campaign.json makes; the entries run 1 to `entries`
    without a gap, each linked to the one before (the first to genesis.txt), and `head` is the last one's
    digest. Also: entries of one kind are recorded in the order of their numbers, and each call's and act's
    after_turn is the number of turns recorded before it. Returns the problems and every head the archive
    holds (digest -> what it is)."""
    fails: list[str] = []
    heads: dict[bytes, str] = {}
    genesis_digest = None
    if genesis_bytes is None:
        fails.append("genesis.txt missing")
    else:
        genesis_digest = sha256(genesis_bytes)
        heads[genesis_digest] = "genesis.txt"
        if genesis_bytes != genesis:
            from_lines, want_lines = genesis_bytes.split(b"\n"), genesis.split(b"\n")
            where = next((f"line {i + 1} is {a!r}, expected {b!r}" for i, (a, b) in
                          enumerate(zip(from_lines, want_lines)) if a != b),
                         f"it has {len(from_lines) - 1} line(s), expected {len(want_lines) - 1}")
            fails.append(f"genesis.txt is not the text campaign.json's fields make ({where})")
    if count != len(entries):
        fails.append(f"entries is {count}, but the archive has {len(entries)} resolutions and acts")
    by_number: dict[int, Entry] = {}
    for e in sorted((e for e in entries if e.link is not None), key=lambda e: e.link.entry):
        if e.link.entry in by_number:
            fails.append(f"entry {e.link.entry} is both {by_number[e.link.entry].record} and {e.record}")
            continue
        by_number[e.link.entry] = e
        heads[e.link.digest] = f"entry {e.link.entry}, {e.record}"
    for n in sorted(by_number):
        if n > count:
            fails.append(f"{by_number[n].record} is entry {n}, beyond the {count} entries campaign.json counts")
    missing = [n for n in range(1, count + 1) if n not in by_number]
    if missing:
        shown = ", ".join(str(n) for n in missing[:10]) + (" ..." if len(missing) > 10 else "")
        fails.append(f"no folder is entry {shown} (the entries run 1 to {count} without a gap)")
    for n in range(1, count + 1):
        e = by_number.get(n)
        if e is None:
            continue
        before = genesis_digest if n == 1 else (by_number[n - 1].link.digest if n - 1 in by_number else None)
        if before is not None and e.link.previous != before.hex():
            what = "genesis.txt" if n == 1 else f"entry {n - 1} ({by_number[n - 1].record})"
            fails.append(
                f"entry {n} ({e.record}): previous is {e.link.previous}, not the digest of {what} {before.hex()}"
            )
    last = genesis_digest if count == 0 else (by_number[count].link.digest if count in by_number else None)
    if last is not None and head != last:
        fails.append(f"head is {head.hex()}, not the digest of the last entry {last.hex()}")
    elif head not in heads:
        fails.append(f"head {head.hex()} is not the digest of any entry")

    # The order of recording: each kind's numbers grow with the entries, and the turns recorded before a call
    # or an act are its after_turn.
    ordered = sorted((e for e in entries if e.link is not None), key=lambda e: e.link.entry)
    last_k: dict[str, tuple[int, str]] = {}
    turns_before = 0
    for e in ordered:
        prev = last_k.get(e.kind)
        if prev is not None and e.k < prev[0]:
            fails.append(f"{e.record} is entry {e.link.entry}, recorded after {prev[1]}")
        last_k[e.kind] = (e.k, e.record)
        if e.kind != turn_kind and e.after_turn is not None and e.after_turn != turns_before:
            fails.append(
                f"{e.record} is entry {e.link.entry}, after {turns_before} turn(s) were recorded, "
                f"but its after_turn is {e.after_turn}"
            )
        if e.kind == turn_kind:
            turns_before += 1
    return fails, heads


# Section 11.5, "What --mail reads, exactly": the prefixes of the lines read, and what each value is.
HEX_PREFIXES = (
    ("archive head = ", "head"),
    ("commitment C = ", "commitment"),
    ("umpire commitment U = ", "umpire_commitment"),
    ("manifest digest = ", "manifest"),
    ("manifest digest: ", "manifest"),
    ("Manifest digest: ", "manifest"),
)
SECRET_PREFIXES = (("revealed secret r_", "turn"), ("revealed secret q_", "umpire"))
REVEALS = "revealed secret"  # a mailed manifest digest is checked only in a message whose text holds this
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
U64_MAX = (1 << 64) - 1


def _hex64(text: str) -> str | None:
    return text.lower() if len(text) == 64 and all(c in HEX_DIGITS for c in text) else None


def _decimal(text: str) -> int | None:
    """k of `revealed secret r_<k> = `: ASCII digits, a leading `+` also taken, at most 2^64 - 1."""
    digits = text[1:] if text.startswith("+") else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        return None
    n = int(digits)
    return n if n <= U64_MAX else None


class MailValues:
    """What the lines of one message's text give (section 11.5): heads, commitments, manifest digests (and
    whether the message reveals a secret, which decides whether they are checked), revealed secrets."""

    def __init__(self) -> None:
        self.heads: list[str] = []
        self.commitments: list[tuple[str, str]] = []  # (key of campaign.json, value)
        self.manifests: list[str] = []
        self.secrets: list[tuple[str, int, str]] = []  # (turn or umpire, k, value)
        self.reveals = False
        self.unreadable: list[str] = []  # prefixes of lines that give no value: each a failure


def values_in_text(text: str) -> MailValues:
    """Reads a message's text as section 11.5 says: lines cut at LF (a CR before it dropped), white space
    (section 2) at the start skipped, then a prefix byte for byte and its value: exactly 64 hex digits, not
    followed by another; a line with a prefix but no value cannot be checked, and is kept as a failure."""
    out = MailValues()
    out.reveals = REVEALS in text
    for raw in text.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        line = line.lstrip(WHITE_SPACE_TEXT)
        for prefix, what in HEX_PREFIXES:
            if line.startswith(prefix):
                rest = line[len(prefix):]
                value = _hex64(rest[:64])
                if value is None or rest[64:65] in HEX_DIGITS:
                    out.unreadable.append(prefix)
                    continue
                if what == "head":
                    out.heads.append(value)
                elif what == "manifest":
                    out.manifests.append(value)
                else:
                    out.commitments.append((what, value))
        for prefix, kind in SECRET_PREFIXES:
            if not line.startswith(prefix):
                continue
            number, sep, rest = line[len(prefix):].partition(" = ")
            k = _decimal(number) if sep else None
            value = _hex64(rest.strip(WHITE_SPACE_TEXT))
            if k is not None and value is not None:
                out.secrets.append((kind, k, value))
            else:
                out.unreadable.append(prefix)
    return out


def heads_in_text(text: str) -> list[str]:
    """Every head a text gives (section 11.5), in order."""
    return values_in_text(text).heads


def mail_files(folder: Path) -> list[Path]:
    """Every file under the folder, at any depth, hidden ones included, by the bytes of their paths."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    return sorted(files, key=lambda p: p.relative_to(folder).as_posix().encode("utf-8", "surrogateescape"))


class _HtmlText(HTMLParser):
    """An HTML body turned to text, for a message with no text/plain body: tags dropped, entities read, a line
    break at each block."""

    BLOCKS = {"br", "p", "div", "tr", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        self.parts.append(data)


def message_text(message) -> str:
    """The message's text bodies, each followed by LF: every text/plain part that is not an attachment; with
    none, every text/html part that is not one, turned to text."""
    def bodies(subtype: str) -> list:
        return [part for part in message.walk()
                if not part.is_multipart() and part.get_content_type() == f"text/{subtype}"
                and part.get_content_disposition() != "attachment"]

    parts, html = bodies("plain"), False
    if not parts:
        parts, html = bodies("html"), True
    text = []
    for part in parts:
        try:
            content = part.get_content()
        except Exception:  # undecodable: read as Latin-1, as a mail reader would show it
            payload = part.get_payload(decode=True) or b""
            content = payload.decode("latin-1")
        if html:
            reader = _HtmlText()
            reader.feed(content)
            content = "".join(reader.parts)
        text.append(content + "\n")
    return "".join(text)


def _names(text: str, campaign: str) -> bool:
    """The id in the text with no ASCII letter, digit, `-` or `_` right before or after it."""
    def of_id(c: str) -> bool:
        return c.isascii() and (c.isalnum() or c in "-_")
    at = text.find(campaign) if campaign else -1
    while at >= 0:
        before = text[at - 1] if at > 0 else ""
        after = text[at + len(campaign):at + len(campaign) + 1]
        if not (before and of_id(before)) and not (after and of_id(after)):
            return True
        at = text.find(campaign, at + 1)
    return False


def concerns(subject: str, message_id: str, text: str, campaign: str) -> bool:
    """Section 11.5: the subject holds `[<id>]`, the Message-ID (without its `<`) begins `<id>.`, or the text
    names the id (with no letter, digit, `-` or `_` of ASCII either side of it)."""
    return (f"[{campaign}]" in subject
            or message_id.strip().lstrip("<").startswith(f"{campaign}.")
            or _names(text, campaign))


class MailReading:
    """A folder of mail, read for one campaign (section 11.5)."""

    def __init__(self) -> None:
        self.read = 0  # files read as messages
        self.of_campaign = 0
        self.messages: list[tuple[str, MailValues]] = []  # (file, values), the campaign's messages only
        self.notes: list[str] = []

    def heads(self) -> dict[str, list[str]]:
        """Each distinct head, and the files it is in, in the order found."""
        found: dict[str, list[str]] = {}
        for name, values in self.messages:
            for h in values.heads:
                found.setdefault(h, [])
                if name not in found[h]:
                    found[h].append(name)
        return found


def read_mail(folder: Path, campaign: str) -> MailReading:
    """Reads every file under folder as a message (Python's email package); keeps the values of the
    campaign's messages."""
    out = MailReading()
    parser = BytesParser(policy=policy.default)
    for path in mail_files(folder):
        name = path.relative_to(folder).as_posix()
        try:
            data = path.read_bytes()
            message = parser.parsebytes(data)
        except Exception as e:  # a file that cannot be read is passed over, said so
            out.notes.append(f"{name}: not read as mail ({e!r})")
            continue
        out.read += 1
        try:
            subject = str(message.get("Subject", "") or "")
            message_id = str(message.get("Message-ID", "") or "")
        except Exception:  # a header that cannot be decoded names nothing
            subject, message_id = "", ""
        text = message_text(message)
        if not concerns(subject, message_id, text, campaign):
            continue
        out.of_campaign += 1
        out.messages.append((name, values_in_text(text)))
    return out
