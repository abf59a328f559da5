"""A game master's correction, re-applied to the state before it (docs/AUDIT.md section 10, "Checking an
act", step 3, and "The units in a state").

The command is read as the page defines its canonical form, the unit is found in the prior state's `units`,
each field is set as the page says, the fields of the ruleset's part that its table leaves out at their
present value are left out, the ruleset's checks of a corrected unit are applied, and the canonical JSON of
the result (section 6) must be `next-state.json`, byte for byte. Each ruleset's table is transcribed below
from the page; a campaign under a ruleset the page gives no table for cannot have its corrections checked.
"""

from __future__ import annotations

import json
import re

from base import Fail, canonical_json, is_id, is_int, parse_json

# The fields every unit has, whatever its ruleset ("The units in a state"). A correction may set only the
# first three (position is the command's word for `location`).
ENVELOPE = ("id", "name", "side", "location", "facing", "strength", "original_strength", "eliminated")
SETTABLE_ENVELOPE = ("strength", "position", "facing")
# Step 3, "Its command": these come first, in this order, when the command sets them; any other field
# follows in the byte order of the names.
FIRST_FIELDS = ("strength", "formation", "position", "facing", "shaken", "disordered")

ALWAYS = object()  # a field with no "left out" entry: always in the unit's JSON


class Field:
    """One row of a ruleset's table: the JSON value it takes and when the unit's JSON leaves it out.

    kind is one of: enum (values), bool, whole (0 and up; `minimum` raises it), int (may be negative),
    string, words (list of words), ids (list of unit ids), point ({"x","y"}), ammunition (rounds by shot),
    turns_by_unit (a turn by enemy unit id), base ({"depth","frontage"})."""

    def __init__(self, kind: str, values: tuple[str, ...] = (), left_out=ALWAYS, minimum: int = 0):
        self.kind = kind
        self.values = values
        self.left_out = left_out
        self.minimum = minimum

    @property
    def nullable(self) -> bool:
        return self.left_out is None


def _fields(*rows: tuple[tuple[str, ...], Field]) -> dict[str, Field]:
    table: dict[str, Field] = {}
    for names, field in rows:
        for name in names:
            table[name] = field
    return table


SHOTS = ("roundshot", "shot", "shell", "shrapnel", "rocket", "ball")

# Sound the Charge (`sound-the-charge`)
STC = _fields(
    (("troop_type",), Field("enum", (
        "line-infantry", "light-infantry", "light-cavalry", "medium-cavalry", "heavy-cavalry", "light-guns",
        "field-guns", "heavy-guns", "horse-guns",
    ))),
    (("grade",), Field("enum", ("A", "B", "C", "D"))),
    (("gunners",), Field("whole")),
    (("formation",), Field("enum", (
        "line", "column", "square", "skirmish", "l-left", "l-right", "u", "masse", "limbered", "unlimbered",
    ))),
    (("ranks",), Field("whole", minimum=1)),
    (("marks",), Field("words")),
    (("shaken", "disordered"), Field("bool")),
    (("figure_frontage",), Field("whole", left_out=None)),
    (("rout_hits", "loss_hits", "combat_rounds", "last_combat_turn", "last_advance"), Field("whole", left_out=0)),
    (("blown", "in_combat", "advanced_full_speed", "skirmishers_out", "disembarking", "landing"),
     Field("bool", left_out=False)),
    (("gunners_at", "left_from"), Field("point", left_out=None)),
    (("screening",), Field("ids", left_out=[])),
    (("boat", "embarking", "regimental_gun_lost"), Field("string", left_out=None)),
)

# Kulikovo (`kulikovo`), on a hex map
KULIKOVO = _fields(
    (("weapon",), Field("enum", ("H", "M", "L", "R", "C", "B"))),
    (("shock_drm",), Field("int", left_out=0)),
    (("disordered", "retired"), Field("bool", left_out=False)),
    (("upset_turn",), Field("whole", left_out=0)),
)

# Grande Tactique (`grande-tactique`)
GT_CAVALRY = ("cavalry", "cuirassiers", "lancers")
GRANDE_TACTIQUE = _fields(
    (("troop_type",), Field("enum", ("infantry",) + GT_CAVALRY + ("artillery",))),
    (("command",), Field("string")),
    (("formation",), Field("enum", ("line", "column", "square"))),
    (("morale",), Field("enum", ("eager", "shaken", "routed"))),
    (("veteran", "firing"), Field("bool", left_out=False)),
    (("marks",), Field("words", left_out=[])),
    (("charged",), Field("ids", left_out=[])),
    (("charges_made",), Field("whole", left_out=0)),
)

# Percentile fire (`percentile-fire`)
PERCENTILE_FIRE = _fields(
    (("arm",), Field("enum", ("infantry", "cavalry", "artillery", "headquarters", "train"))),
    (("formation",), Field("enum", ("line", "column", "square", "skirmish", "limbered", "unlimbered"))),
    (("ranks",), Field("whole", left_out=2)),
    (("weapon",), Field("string", left_out="")),
    (("class",), Field("enum", ("A", "B", "C"), left_out=None)),
    (("rating",), Field("enum", ("regular", "landwehr", "militia"), left_out="regular")),
    (("morale",), Field("enum", ("steady", "disordered", "routing"), left_out="steady")),
    (("cannon", "cannon_lost", "howitzers", "counterbattery_since", "cmr", "light_figures", "regimental_guns",
      "fire_attacks"), Field("whole", left_out=0)),
    (("howitzer", "in_square", "regimental_weapon", "parent"), Field("string", left_out=None)),
    (("crewed",), Field("bool", left_out=True)),
    (("artillery_officer", "charging"), Field("bool", left_out=False)),
    (("ammunition",), Field("ammunition", left_out=None)),
    (("counterbattery",), Field("enum", ("A", "B"), left_out=None)),
    (("moved",), Field("enum", ("still", "closed-range", "moved"), left_out="still")),
    (("passby_fired",), Field("turns_by_unit", left_out={})),
    (("base",), Field("base")),
    (("files",), Field("whole")),
)

PF_FORMATIONS = {
    "infantry": ("line", "column", "square", "skirmish"),
    "cavalry": ("line", "column", "skirmish"),
    "artillery": ("limbered", "unlimbered"),
    "headquarters": ("line", "column"),
    "train": ("line", "column"),
}


def _stc_checks(unit: dict) -> str | None:
    if unit.get("formation") not in ("line", "column", "square", "skirmish", "limbered", "unlimbered"):
        formation = unit.get("formation")
        return f"its formation {formation!r} is not one of line, column, square, skirmish, limbered, unlimbered"
    return None


def _gt_checks(unit: dict) -> str | None:
    troop = unit.get("troop_type")
    if unit.get("formation") == "square" and troop != "infantry":
        return f"only infantry stands in square, and it is {troop!r}"
    if troop in GT_CAVALRY and unit.get("firing", False):
        return f"cavalry ({troop}) is never firing"
    return None


def _pf_checks(unit: dict) -> str | None:
    arm, formation = unit.get("arm"), unit.get("formation")
    if formation not in PF_FORMATIONS.get(arm, ()):
        return f"{arm!r} does not take the formation {formation!r}"
    cannon, howitzers = unit.get("cannon", 0), unit.get("howitzers", 0)
    if arm == "artillery":
        if cannon < 1:
            return "a battery has at least one cannon"
        if howitzers > cannon:
            return f"a battery has no more howitzers ({howitzers}) than cannon ({cannon})"
    elif cannon or howitzers:
        return f"a unit of the arm {arm!r} has neither cannon nor howitzers"
    if unit.get("light_figures", 0) > unit.get("strength", 0):
        return f"light_figures {unit.get('light_figures')} is more than its strength {unit.get('strength')}"
    if unit.get("counterbattery") is not None and arm != "artillery":
        return "only a battery carries a counterbattery marker"
    if unit.get("in_square") is not None and unit.get("in_square") == unit.get("id"):
        return "its in_square is its own id"
    return None


def _no_checks(unit: dict) -> str | None:
    return None


RULESETS: dict[str, tuple[dict[str, Field], object]] = {
    "sound-the-charge": (STC, _stc_checks),
    "kulikovo": (KULIKOVO, _no_checks),
    "grande-tactique": (GRANDE_TACTIQUE, _gt_checks),
    "percentile-fire": (PERCENTILE_FIRE, _pf_checks),
}

WHOLE = re.compile(r"0|[1-9][0-9]*", re.ASCII)
SIGNED = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)
TWO_DECIMALS = re.compile(r"(0|[1-9][0-9]*)\.([0-9]{2})", re.ASCII)
MAX_POSITION = 999900  # 9999.00, in hundredths


def is_word(token: str) -> bool:
    """Section 10: a word, for a JSON string, is made of letters, digits, `-`, `_`, `:` and `.`."""
    return bool(token) and all(c.isalnum() or c in "-_:." for c in token)


class Refused(Fail):
    """A correction the page says is refused: an archive holding one is in error."""


def parse_command(command: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """`correct <unit id>` then `<field> <value>` (two values for position), each field once and at least
    one, in the canonical order. Returns the unit id and the fields with their value words."""
    if command != command.lower():
        raise Refused("the command is not lower case throughout")
    words = command.split(" ")
    if any(w == "" for w in words):
        raise Refused("the command is not single-spaced")
    if len(words) < 2 or words[0] != "correct":
        raise Refused("the command does not start with `correct <unit>`")
    unit_id = words[1]
    fields: list[tuple[str, list[str]]] = []
    i = 2
    while i < len(words):
        name = words[i]
        count = 2 if name == "position" else 1
        values = words[i + 1 : i + 1 + count]
        if len(values) != count:
            raise Refused(f"the field {name!r} has no value")
        fields.append((name, values))
        i += 1 + count
    if not fields:
        raise Refused("the command sets no field")
    names = [n for n, _ in fields]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise Refused(f"the field {twice!r} is set twice")
    first = [n for n in FIRST_FIELDS if n in names]
    rest = sorted((n for n in names if n not in FIRST_FIELDS), key=lambda n: n.encode("utf-8"))
    if names != first + rest:
        raise Refused(
            f"the fields are not in the canonical order ({' '.join(first + rest)}): first strength, formation, "
            "position, facing, shaken, disordered, then the others by name"
        )
    return unit_id, fields


def _whole(token: str, what: str, low: int, high: int | None = None) -> int:
    if not WHOLE.fullmatch(token):
        raise Refused(f"{what} {token!r} is not a whole number written in decimal without leading zeros")
    n = int(token)
    if n < low or (high is not None and n > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise Refused(f"{what} {n} is out of bounds ({bound})")
    return n


def _hundredths(token: str, what: str) -> int:
    m = TWO_DECIMALS.fullmatch(token)
    if not m:
        raise Refused(f"{what} {token!r} is not a number with exactly two decimals")
    value = int(m.group(1)) * 100 + int(m.group(2))
    if value > MAX_POSITION:
        raise Refused(f"{what} {token} is beyond 9999.00")
    return value


def _json_value(token: str, name: str):
    if not token.startswith(("[", "{")):
        raise Refused(f"{name}: {token!r} is not a JSON list or object")
    try:
        value = parse_json(token.encode("utf-8"), f"{name} value", integers_only=True, sorted_keys=True)
    except Fail as e:
        raise Refused(str(e)) from None
    if canonical_json(value) != token.encode("utf-8"):
        raise Refused(f"{name}: {token!r} is not in the canonical form of section 6")
    return value


def _is_whole(v) -> bool:
    return is_int(v) and v >= 0


def field_value(name: str, field: Field, token: str):
    """The JSON value a command's word sets the field to, or Refused when it is not of the field's type or
    not one of the values its table allows."""
    if token == "none":
        if field.nullable:
            return None
        raise Refused(f"{name} cannot be none (null)")
    kind = field.kind
    if kind == "bool":
        if token not in ("yes", "no"):
            raise Refused(f"{name} takes yes or no, not {token!r}")
        return token == "yes"
    if kind == "whole":
        return _whole(token, name, field.minimum)
    if kind == "int":
        if not SIGNED.fullmatch(token):
            raise Refused(f"{name} {token!r} is not a whole number in decimal")
        return int(token)
    if kind == "enum":
        # A value the ruleset spells in capitals is written in lower case and set to its spelling.
        match = next((v for v in field.values if v.lower() == token), None)
        if match is None:
            raise Refused(f"{name} takes {', '.join(v.lower() for v in field.values)}, not {token!r}")
        return match
    if kind == "string":
        if not is_word(token):
            raise Refused(f"{name}: {token!r} is not a word (letters, digits, -, _, : and .)")
        return token
    value = _json_value(token, name)
    if kind == "words":
        ok = isinstance(value, list) and all(isinstance(w, str) and is_word(w) for w in value)
    elif kind == "ids":
        ok = isinstance(value, list) and all(isinstance(w, str) and is_id(w) for w in value)
    elif kind == "point":
        ok = isinstance(value, dict) and set(value) == {"x", "y"} and all(is_int(v) for v in value.values())
    elif kind == "base":
        ok = isinstance(value, dict) and set(value) == {"depth", "frontage"} and all(
            _is_whole(v) for v in value.values()
        )
    elif kind == "ammunition":
        ok = isinstance(value, dict) and set(value) <= set(SHOTS) and all(_is_whole(v) for v in value.values())
    elif kind == "turns_by_unit":
        ok = isinstance(value, dict) and all(is_id(k) and _is_whole(v) for k, v in value.items())
    else:  # pragma: no cover - every kind of the tables is handled above
        raise Refused(f"{name}: no rule for the kind {kind}")
    if not ok:
        raise Refused(f"{name}: {token} is not of the field's type ({kind})")
    return value


def apply_correction(ruleset: str, command: str, prior_bytes: bytes) -> bytes:
    """Re-applies the correction to the prior state's bytes; returns the canonical bytes of the state it
    makes. Raises Refused where section 10 says the correction is refused, Fail where the state is not laid
    out as the page says."""
    if ruleset not in RULESETS:
        raise Fail(
            f"the page gives no units' table for the ruleset {ruleset!r}, so its corrections cannot be re-applied"
        )
    table, checks = RULESETS[ruleset]
    unit_id, fields = parse_command(command)
    state = parse_json(prior_bytes, "prior-state.json", integers_only=True, sorted_keys=True)
    if not isinstance(state, dict) or not isinstance(state.get("units"), list):
        raise Fail("the prior state is not an object with a list `units`")
    if state.get("finished") is not None:
        raise Refused(f"the game was over (the prior state's finished is {json.dumps(state['finished'])})")
    units = state["units"]
    ids = [u.get("id") if isinstance(u, dict) else None for u in units]
    matches = [u for u in units if isinstance(u, dict) and u.get("id") == unit_id]
    if not matches:
        raise Refused(f"no unit of the prior state has the id {unit_id!r}")
    if len(matches) > 1 or ids.count(unit_id) > 1:
        raise Fail(f"two units of the prior state have the id {unit_id!r}")
    unit = matches[0]
    if unit.get("eliminated") is not None:
        raise Refused(f"the unit {unit_id} has left play ({json.dumps(unit.get('eliminated'))})")
    location = unit.get("location")
    if not isinstance(location, dict) or location.get("kind") not in ("table", "hex"):
        raise Fail(f"the unit {unit_id} has no location of kind table or hex")
    on_hex = location["kind"] == "hex"
    state_map = state.get("map")
    if isinstance(state_map, dict) and state_map.get("kind") != location["kind"]:
        raise Fail(
            f"the unit {unit_id} stands on a {location['kind']}, but the state's map is {state_map.get('kind')!r}"
        )

    for name, values in fields:
        if name == "strength":
            original = unit.get("original_strength")
            if not is_int(original):
                raise Fail(f"the unit {unit_id} has no whole original_strength")
            unit["strength"] = _whole(values[0], "strength", 0, original)
        elif name == "position":
            x, y = (_hundredths(v, f"position {axis}") for v, axis in zip(values, ("x", "y")))
            if on_hex:
                if x % 100 or y % 100:
                    raise Refused(f"position {values[0]} {values[1]}: on a hex map the column and row are whole")
                unit["location"] = {"kind": "hex", "column": x // 100, "row": y // 100}
            else:
                unit["location"] = {"kind": "table", "x": x, "y": y}
        elif name == "facing":
            unit["facing"] = _whole(values[0], "facing", 0, 5 if on_hex else 359)
        elif name in ENVELOPE:
            raise Refused(
                f"a correction never sets the field {name!r} (of a unit's own fields, only strength, position "
                "and facing)"
            )
        elif name not in table:
            raise Refused(f"the ruleset {ruleset} has no unit field {name!r}")
        else:
            unit[name] = field_value(name, table[name], values[0])

    # Leave out every field of the ruleset's part at the value its table leaves it out at; a field with no
    # such entry is always there.
    for name, field in table.items():
        if field.left_out is ALWAYS:
            if name not in unit:
                raise Fail(f"the unit {unit_id} lacks the field {name!r}, which its ruleset's table always has")
        elif name in unit and unit[name] == field.left_out and type(unit[name]) is type(field.left_out):
            del unit[name]
    problem = checks(unit)
    if problem:
        raise Refused(f"the unit as corrected fails its ruleset's checks: {problem}")
    result = canonical_json(state)
    if result == prior_bytes:
        raise Refused("it changes nothing (the next state would be the prior state)")
    return result
