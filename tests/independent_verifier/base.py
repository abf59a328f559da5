"""What every part of the independent verifier shares: SHA-256, the failure type, JSON read strictly and written
in the canonical form of docs/AUDIT.md section 6, files read without crashing, and the small predicates
sections 3 and 7 define (ids, digests, folder names, times)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

# Campaign ids and side ids (section 3).
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

# White space as AUDIT.md section 2 settles it: Unicode's White_Space property, 25 code points. Not Python's
# str.isspace(), which also takes U+001C to U+001F (control characters, refused on their own).
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
WHITE_SPACE_TEXT = "".join(sorted(WHITE_SPACE))  # for str.strip()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class Fail(Exception):
    """A check that did not hold; the message says what differs."""


def _no_floats(s: str):
    raise Fail(f"non-integer number {s}")


def _no_constants(s: str):
    raise Fail(f"non-JSON constant {s}")


def _unique_keys(pairs):
    """Section 7, rules for files: no object has a key twice, known or not."""
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise Fail(f"duplicate key {k!r}")
        obj[k] = v
    return obj


def _utf8_key(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


def _unique_sorted_keys(pairs):
    keys = [_utf8_key(k) for k, _ in pairs]
    for a, b in zip(keys, keys[1:]):
        if a >= b:
            what = "duplicate key" if a == b else "keys not sorted by their UTF-8 bytes at"
            raise Fail(f"{what} {b.decode('utf-8', 'replace')!r}")
    return dict(pairs)


def parse_json(data: bytes, what: str, integers_only: bool = True, sorted_keys: bool = False):
    """Parses UTF-8 JSON. Objects must have unique keys; with sorted_keys, also sorted by their UTF-8 bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Fail(f"{what} is not UTF-8: {e}") from None
    try:
        return json.loads(
            text,
            parse_float=_no_floats if integers_only else None,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_sorted_keys if sorted_keys else _unique_keys,
        )
    except Fail as e:
        raise Fail(f"{what}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise Fail(f"{what} is not valid JSON: {e}") from None


# Section 6: strings are written as JSON requires and no more. `"` and `\` with a backslash; these five
# control characters by their short escapes; every other character below U+0020 as \u00XX (lower-case hex);
# everything else, `/` and all non-ASCII characters included, as its own UTF-8 bytes.
SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def canonical_string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical_json(value) -> bytes:
    """The canonical form of section 6: UTF-8, no insignificant white space, object keys sorted by their
    UTF-8 bytes, integers only, strings escaped as JSON requires and no more. Raises Fail on a value that has
    no canonical form (a fraction, or a string holding a lone surrogate, which has no UTF-8 form)."""

    def enc(v) -> str:
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return canonical_string(v)
        if isinstance(v, list):
            return "[" + ",".join(enc(x) for x in v) + "]"
        if isinstance(v, dict):
            keys = sorted(v, key=_utf8_key)
            return "{" + ",".join(canonical_string(k) + ":" + enc(v[k]) for k in keys) + "}"
        raise Fail(f"{type(v).__name__} value {v!r} has no canonical form (integers only)")

    try:
        return enc(value).encode("utf-8")
    except UnicodeEncodeError:
        raise Fail("a string holds a lone surrogate (\\ud800-\\udfff), which has no UTF-8 form") from None
    except RecursionError:
        raise Fail("nested too deeply") from None


def check_canonical_json(data: bytes, name: str):
    """Section 6: the bytes are exactly the canonical form of the value they hold. Returns the value."""
    value = parse_json(data, name, integers_only=True, sorted_keys=True)
    at = whitespace_outside_strings(data.decode("utf-8"))
    if at is not None:
        raise Fail(f"{name} has insignificant white space (character {at})")
    try:
        canon = canonical_json(value)
    except Fail as e:
        raise Fail(f"{name}: {e}") from None
    if canon != data:
        i = next((i for i, (a, b) in enumerate(zip(data, canon)) if a != b), min(len(data), len(canon)))
        raise Fail(
            f"{name} is not in canonical form at byte {i}: it has {data[i:i + 12]!r}, the canonical form "
            f"{canon[i:i + 12]!r} (section 6)"
        )
    return value


def read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise Fail(f"{what} missing") from None
    except OSError as e:
        raise Fail(f"{what} unreadable: {e}") from None


def read_json_object(path: Path, what: str) -> dict:
    """campaign.json, resolution.json or act.json (section 7, rules for files): one JSON object, its layout free. Keys
    the verifier does not know are ignored, whatever they hold (fractions, nested objects); no object has a
    key twice, known or not."""
    obj = parse_json(read_bytes(path, what), what, integers_only=False)
    if not isinstance(obj, dict):
        raise Fail(f"{what} is not a JSON object")
    return obj


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_hex32(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def get_field(obj: dict, key: str, kind, what: str):
    if key not in obj:
        raise Fail(f"{what}: key {key!r} missing")
    v = obj[key]
    if kind is int:
        if not is_int(v):
            raise Fail(f"{what}: {key} is not an integer: {v!r}")
    elif kind == "hex32":
        if not is_hex32(v):
            raise Fail(f"{what}: {key} is not 64 lower-case hex digits: {v!r}")
        return bytes.fromhex(v)
    elif kind == "str_or_null":
        if v is not None and not isinstance(v, str):
            raise Fail(f"{what}: {key} is neither a string nor null: {v!r}")
    elif not isinstance(v, kind):
        raise Fail(f"{what}: {key} is not a {kind.__name__}: {v!r}")
    return v


def is_id(text: str) -> bool:
    """Section 3: side ids and the campaign id are made of a-z, 0-9 and -, at least one character (so a side
    id never starts with @)."""
    return bool(text) and all(c in ID_CHARS for c in text)


def folder_k(name: str) -> int | None:
    """Section 7: a resolution folder is named by k >= 1 in decimal, zero-padded to four digits (k of 10000
    and above with as many digits as it needs). Returns k, or None when the name is not such a folder name."""
    if not (name.isascii() and name.isdigit()):
        return None
    k = int(name)
    if k < 1 or name != f"{k:04d}":
        return None
    return k


def whitespace_outside_strings(text: str) -> int | None:
    """The offset of the first JSON white space outside a string, or None."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in " \t\n\r":
            return i
    return None


def is_rfc3339_utc(t: str, fraction: bool = False) -> bool:
    """Section 7: resolved_at is written YYYY-MM-DDThh:mm:ssZ (RFC 3339, UTC, whole seconds); it is not an
    input to anything. With fraction, a fraction of a second is allowed too (an act's `at`, section 10, is
    said to be RFC 3339 in UTC, without the whole seconds)."""
    pattern = r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})" + (r"(\.\d+)?Z" if fraction else "Z")
    m = re.fullmatch(pattern, t, re.ASCII)
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
