"""The game master's acts (docs/AUDIT.md section 10, spec v2, and section 11.4, spec v3): reading `act.json`,
the states the game passed through after each turn, and the checks of each act.

An act is read in two steps. First every `act.json` is read (`read_act`), so that the states the game went
through are known before the resolutions are checked: turn t + 1 starts from the last state after turn t, an
umpire call after turn t from any of them. Then each act is checked (`check_act`) once every turn is known.
"""

from __future__ import annotations

from pathlib import Path

from base import (
    Fail,
    check_canonical_json,
    get_field,
    is_int,
    is_rfc3339_utc,
    present,
    read_bytes,
    read_json_object,
    sha256,
)
from corrections import Refused, apply_correction

CORRECTION = "correction"
ROLLBACK = "rollback"
STATE_KINDS = (CORRECTION, ROLLBACK)  # the acts that change the state (section 10)
# Section 11.4: the acts of v3 that change no state.
# Section 11.6: `without-beacon` resolves a drand campaign's waiting turn without its round.
V3_KINDS = STATE_KINDS + ("extend", "pause", "resume", "resolve-now", "replace", "change", "submit", "without-beacon")
NO_ORDERS = "0" * 64  # orders_digest of `submit <side> none`


class Act:
    """What `act.json` of act n says, and what checking it found."""

    def __init__(self, n: int, folder: Path | None) -> None:
        self.n = n
        self.folder = folder
        self.fails: list[str] = []
        self.notes: list[str] = []
        self.kind: str | None = None
        self.after_turn: int | None = None
        self.command: str | None = None
        self.prior_claimed: bytes | None = None
        self.next_claimed: bytes | None = None
        self.orders_digest: str | None = None
        self.at: str | None = None  # when it was done, as act.json says (RFC 3339, UTC)
        self.readable = False  # act.json read and its keys good enough to place the act

    @property
    def changes_state(self) -> bool:
        return self.kind in STATE_KINDS

    def describe(self) -> str:
        return f"`{self.command}`" if self.command is not None else "unreadable"


def read_act(spec_version: int, folder: Path | None, n: int) -> Act:
    """Reads gm/NNNN/act.json: its keys, their types and the values section 10 (and in v3 section 11.4)
    allows. Problems go to act.fails."""
    act = Act(n, folder)
    if folder is None:
        act.fails.append(f"folder gm/{n:04d} missing")
        return act
    try:
        _read_act(spec_version, folder, act)
    except Fail as e:
        act.fails.append(str(e))
    return act


def _read_act(spec_version: int, folder: Path, act: Act) -> None:
    w = "act.json"
    obj = read_json_object(folder / "act.json", w)
    kind = get_field(obj, "kind", str, w)
    kinds = V3_KINDS if spec_version >= 3 else STATE_KINDS
    if kind not in kinds:
        raise Fail(f"act.json: kind {kind!r} is not one of {', '.join(kinds)}")
    n = get_field(obj, "n", int, w)
    if n != act.n:
        raise Fail(f"act.json: n is {n}, expected {act.n} (the folder's number)")
    after_turn = get_field(obj, "after_turn", int, w)
    if after_turn < 0:
        raise Fail(f"act.json: after_turn {after_turn} is negative")
    command = get_field(obj, "command", str, w)
    if "undoes_turn" not in obj:
        raise Fail("act.json: key 'undoes_turn' missing")
    undoes = obj["undoes_turn"]
    at = get_field(obj, "at", str, w)
    act.kind, act.after_turn, act.command, act.at = kind, after_turn, command, at
    if kind == ROLLBACK:
        if not is_int(undoes):
            act.fails.append(f"act.json: undoes_turn of a rollback is not an integer: {undoes!r}")
        elif undoes != after_turn:
            act.fails.append(f"act.json: undoes_turn is {undoes}, but a rollback undoes turn after_turn ({after_turn})")
    elif undoes is not None:
        act.fails.append(f"act.json: undoes_turn is {undoes!r}, null for a {kind}")
    if not is_rfc3339_utc(at, fraction=True):
        act.fails.append(f"act.json: at {at!r} is not an RFC 3339 time in UTC")
    if kind in STATE_KINDS:
        act.prior_claimed = get_field(obj, "prior_state_digest", "hex32", w)
        act.next_claimed = get_field(obj, "next_state_digest", "hex32", w)
    else:
        for key in ("prior_state_digest", "next_state_digest"):
            if key in obj:
                act.fails.append(f"act.json: a {kind} changes no state and has no {key} (section 11.4)")
    if spec_version >= 3:
        by = get_field(obj, "by", str, w)
        who, _, rest = by.partition(" ")
        if who not in ("gm", "operator") or not rest.strip():
            act.fails.append(f"act.json: by {by!r} is neither `gm <address>` nor `operator <user>`")
        if kind == "submit":
            get_field(obj, "reason", str, w)
            act.orders_digest = get_field(obj, "orders_digest", "hex32", w).hex()
    act.readable = True


def check_command(act: Act, sides: list[str]) -> None:
    """Section 11.4: a command begins with its kind (`-` read as a space); for a correction section 10 says
    the rest. A rollback is the word alone; `submit <side>` or `submit <side> none` names a side of the
    campaign, with orders_digest 64 zeros exactly for `none`; `replace <side> <new address>` carries nothing
    more (never the passphrase)."""
    kind, command = act.kind, act.command or ""
    if kind == CORRECTION:
        if not command.startswith("correct "):
            act.fails.append(f"command: a correction's command is `correct <unit> ...`, not {command!r}")
        return  # the rest is checked by re-applying it
    if kind == ROLLBACK:
        if command != "rollback":
            act.fails.append(f"command: a rollback's command is `rollback`, not {command!r}")
        return
    word = kind.replace("-", " ")
    if command != word and not command.startswith(word + " "):
        act.fails.append(f"command: {command!r} does not begin with its kind {word!r}")
        return
    words = command.split(" ")
    if kind == "submit":
        none = len(words) == 3 and words[2] == "none"
        if len(words) not in (2, 3) or (len(words) == 3 and not none):
            act.fails.append(f"command: {command!r} is neither `submit <side>` nor `submit <side> none`")
        elif words[1] not in sides:
            act.fails.append(f"command: {words[1]!r} is not a side of the campaign")
        elif none != (act.orders_digest == NO_ORDERS):
            act.fails.append(
                f"orders_digest {act.orders_digest} does not fit {command!r} (64 zeros exactly for `none`)"
            )
    elif kind == "replace":
        if len(words) != 3:
            act.fails.append(
                f"command: {command!r} is not `replace <side> <new address>` (it must not hold the passphrase)"
            )
    elif kind == "change":
        what = words[1] if len(words) > 1 else ""
        count = {"address": 4, "time-zone": 4, "deadline-time": 3, "phase": 4}.get(what)
        if count is None or len(words) != count:
            act.fails.append(
                f"command: {command!r} is not `change address|time-zone <who> <value>`, "
                "`change deadline-time <HH:MM|none>` or `change phase <phase> <duration>`"
            )
    elif kind in ("pause", "resume", "resolve-now", "without-beacon") and command != word:
        act.fails.append(f"command: {command!r} is more than {word!r}")


class States:
    """The states the game passed through (section 10): after turn t, the state turn t left (for t = 0 the
    initial state), then the state each act with after_turn t made, in order. None stands for a digest that
    could not be read, which makes every check that would use it unknown rather than failed."""

    def __init__(self, initial: bytes, acts: list[Act]) -> None:
        self.turn_next: dict[int, bytes | None] = {0: initial}
        self.turn_prior: dict[int, bytes | None] = {}
        self.acts_after: dict[int, list[Act]] = {}
        for act in acts:
            if act.readable and act.changes_state:
                self.acts_after.setdefault(act.after_turn, []).append(act)

    def after(self, t: int, before_act: int | None = None) -> list[bytes | None]:
        """The states after turn t, up to (not including) act before_act when given."""
        states = [self.turn_next.get(t)]
        for act in self.acts_after.get(t, []):
            if before_act is not None and act.n >= before_act:
                break
            states.append(act.next_claimed)
        return states

    def last(self, t: int, before_act: int | None = None) -> bytes | None:
        return self.after(t, before_act)[-1]


def check_act(
    act: Act, ruleset: str, sides: list[str], turns: int, states: States, undone: set[int], prev_after: int | None
) -> None:
    """Section 10, "Checking an act", steps 1-4, and section 11.4. undone holds the turns earlier acts rolled
    back; prev_after is the previous act's after_turn."""
    t = act.after_turn
    if t > turns:
        act.fails.append(f"after_turn {t} is not a turn of this archive (0 .. {turns})")
        return
    if prev_after is not None and t < prev_after:
        act.fails.append(f"after_turn {t} is before act {act.n - 1}'s after_turn {prev_after} (it never decreases)")
    check_command(act, sides)
    folder = act.folder
    if not act.changes_state:
        for name in ("prior-state.json", "next-state.json"):
            if present(folder / name):
                act.fails.append(f"state: a {act.kind} changes no state and has no {name} (section 11.4)")
        return

    # 1. The state files and their digests
    files = {}
    for name, claimed in (("prior-state.json", act.prior_claimed), ("next-state.json", act.next_claimed)):
        try:
            data = read_bytes(folder / name, name)
        except Fail as e:
            act.fails.append(f"state: {e}")
            continue
        files[name] = data
        if sha256(data) != claimed:
            key = name.replace("-state.json", "_state_digest")
            act.fails.append(f"state: SHA-256({name}) is {sha256(data).hex()}, {key} is {claimed.hex()}")
        try:
            check_canonical_json(data, name)
        except Fail as e:
            act.fails.append(f"state: not canonical JSON: {e}")
    # 2. Its prior state is the state the game was in at that point
    expected = states.last(t, before_act=act.n)
    if expected is not None and act.prior_claimed != expected:
        act.fails.append(
            f"state: prior_state_digest {act.prior_claimed.hex()} is not the last state after turn {t} "
            f"({expected.hex()})"
        )
    if act.kind == CORRECTION:
        # 3. Re-applied to the prior state, the correction makes the next state byte for byte
        if "prior-state.json" in files and "next-state.json" in files:
            try:
                made = apply_correction(ruleset, act.command, files["prior-state.json"])
            except Refused as e:
                act.fails.append(f"correction refused: {e}")
            except Fail as e:
                act.fails.append(f"correction: {e}")
            except (TypeError, ValueError, AttributeError, KeyError) as e:
                act.fails.append(f"correction: the prior state is not laid out as section 10 says ({e!r})")
            else:
                if made != files["next-state.json"]:
                    at = next((i for i, (a, b) in enumerate(zip(made, files["next-state.json"])) if a != b),
                              min(len(made), len(files["next-state.json"])))
                    act.fails.append(
                        f"correction: re-applied to the prior state, `{act.command}` does not make next-state.json "
                        f"(they differ at byte {at}: {files['next-state.json'][at:at + 24]!r}, re-applied "
                        f"{made[at:at + 24]!r})"
                    )
                else:
                    act.notes.append("re-applied to the prior state")
    else:
        # 4. A rollback with after_turn t undoes turn t
        if t < 1:
            act.fails.append("rollback: after_turn 0, there is no turn to undo")
        elif t in undone:
            act.fails.append(f"rollback: turn {t} was already undone by an earlier act")
        else:
            want = states.turn_prior.get(t)
            if want is not None and act.next_claimed != want:
                act.fails.append(
                    f"rollback: next_state_digest {act.next_claimed.hex()} is not turn {t}'s prior state {want.hex()}"
                )
            else:
                act.notes.append(f"restores the state turn {t} started from")
        undone.add(t)


def check_gm_lines(acts: list[Act], turns: int, gm_submissions: dict[int, list[tuple[str, str]]]) -> list[str]:
    """Sections 11.3 and 11.4 together: orders the operator entered (`submit <side>`, an act after turn t) are
    a submission made for the phase turn t + 1 resolved, and a line of that turn's submissions.txt `via gm`
    is orders the operator entered. So, for each turn of the archive, each (side, digest) is as many times a
    line via gm as a submit act after the turn before. (`submit <side> none` enters no orders: it makes no
    line.)"""
    fails = []
    entered: dict[int, list[tuple[str, str]]] = {}
    for act in acts:
        if act.readable and act.kind == "submit" and act.orders_digest not in (None, NO_ORDERS):
            words = (act.command or "").split(" ")
            if len(words) >= 2:
                entered.setdefault(act.after_turn + 1, []).append((words[1], act.orders_digest))
    for k in range(1, turns + 1):
        lines = gm_submissions.get(k)
        if lines is None:
            continue  # that turn's submissions.txt could not be read; its own check says why
        acts_k = entered.get(k, [])
        for side, digest in sorted(set(lines) | set(acts_k)):
            have, want = lines.count((side, digest)), acts_k.count((side, digest))
            if have != want:
                fails.append(
                    f"turns/{k:04d}/submissions.txt lists {side} {digest} via gm {have} time(s), "
                    f"but {want} submit act(s) after turn {k - 1} entered it"
                )
    return fails
