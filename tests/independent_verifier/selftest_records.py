#!/usr/bin/env python3
"""Self-test of the verifier's checks of spec v2 and v3 (docs/AUDIT.md sections 10 and 11), on the archives
adjutant exported that are kept in tests/fixtures/archives/ (`demo`, v1; `gm-acts`, v2; `gm-acts-v3`, v3 with
every kind of act) and the mail a v3 campaign's players received (tests/fixtures/mail/gm-acts-v3: the text
parts of the game master's copy of each message carrying a head, and of a player's two acknowledgements).

It checks that the three archives pass (the v3 one also with every head of its mail, given with --head or
read with --mail), then that tampered copies fail: one byte of every file of the v3 archive; the archive cut
short by its last entry, which still passes alone (everything in it is consistent) but not against a head of
the entry cut off nor against the mail; an act rewritten and every link after it recomputed, which passes
alone but not against the heads the players received; and tampering of each rule sections 10 and 11 add.
Corrections (section 10) are also re-applied directly, for every ruleset, from small states. Run by
selftest.py; exit status 0 only if every case behaves.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import corrections as c  # noqa: E402
import record  # noqa: E402
import verify as v  # noqa: E402

FIXTURES = HERE.parent / "fixtures"
V1 = FIXTURES / "archives" / "demo"
V2 = FIXTURES / "archives" / "gm-acts"
V3 = FIXTURES / "archives" / "gm-acts-v3"
MAIL = FIXTURES / "mail" / "gm-acts-v3"


def run_verify(out: Path, *extra: str) -> tuple[int, str, str]:
    p = subprocess.run(
        [sys.executable, str(HERE / "verify.py"), "archive", str(out), *extra],
        capture_output=True, text=True, timeout=300,
    )
    return p.returncode, p.stdout, p.stderr


# ---- editing an archive ----------------------------------------------------------------------------------


def edit_json(path: Path, fn) -> None:
    """Rewrites campaign.json or act.json with fn applied, in the layout adjutant writes (any layout reads)."""
    obj = json.loads(path.read_bytes())
    fn(obj)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def links(out: Path) -> list[Path]:
    """Every folder of the record, in the order of its entry number."""
    found = []
    for top in ("turns", "calls", "gm"):
        for folder in sorted((out / top).iterdir()) if (out / top).is_dir() else []:
            text = (folder / "link.txt").read_text(encoding="utf-8")
            entry = int(text.split("\n")[2].split(" ")[1])
            found.append((entry, folder))
    return [folder for _, folder in sorted(found)]


def entry_digest(out: Path, record_name: str) -> str:
    return v.sha256((out / record_name / "link.txt").read_bytes()).hex()


def relink(out: Path, order: list[Path] | None = None) -> None:
    """Recomputes every link.txt, in entry order (or the order given), from the files each folder holds now,
    then campaign.json's entries and head: what someone rewriting the archive would do."""
    campaign = json.loads((out / "campaign.json").read_bytes())["campaign"]
    previous = v.sha256((out / "genesis.txt").read_bytes()).hex()
    folders = order if order is not None else links(out)
    for e, folder in enumerate(folders, 1):
        old = record.parse_link((folder / "link.txt").read_bytes())
        listed = {path for path, _ in old.files}
        present = set(record.folder_files(folder))
        files = sorted(listed | present, key=lambda p: p.encode("utf-8"))
        digests = [(p, v.sha256((folder / p).read_bytes()).hex()) for p in files if (folder / p).exists()]
        digests += [(p, d) for p, d in old.files if not (folder / p).exists()]  # logs withheld keep their digest
        digests.sort(key=lambda pd: pd[0].encode("utf-8"))
        rec = f"{folder.parent.name}/{folder.name}"
        link = record.Link(campaign, e, previous, rec, digests, b"")
        (folder / "link.txt").write_bytes(link.text())
        previous = v.sha256(link.text()).hex()
    edit_json(out / "campaign.json", lambda o: o.update(entries=len(folders), head=previous))


def flip(path: Path, at: int | None = None) -> None:
    """One bit of one byte changed (the middle one unless at says); an empty file (a log of a resolution that
    rolled no die) gains one byte."""
    data = bytearray(path.read_bytes())
    if not data:
        path.write_bytes(b"\n")
        return
    i = len(data) // 2 if at is None else at
    data[i] ^= 0x01
    path.write_bytes(bytes(data))


def value_middle(text: bytes, key: str) -> int:
    """The offset of the middle byte of a top-level value of campaign.json as adjutant lays it out."""
    m = re.search(rb'\n  "' + key.encode() + rb'": (.+?),?\n(?=  "|\})', text, re.S)
    if m is None:
        raise ValueError(f"campaign.json has no key {key}")
    i = (m.start(1) + m.end(1)) // 2
    while text[i : i + 1] in (b" ", b"\n"):  # a byte of the value, not of its layout
        i += 1
    return i


def truncate_last_entry(out: Path) -> str:
    """Removes the last entry (turn 4) and makes campaign.json consistent; returns the removed entry's digest."""
    last = links(out)[-1]
    removed = v.sha256((last / "link.txt").read_bytes()).hex()
    kind = last.parent.name
    shutil.rmtree(last)
    edit_json(out / "campaign.json", lambda o: o.update({kind: o[kind] - 1}))
    relink(out)
    return removed


def rewrite_act(out: Path) -> None:
    """Act 4 said `extend 1d`; the rewritten archive says `extend 3d`, every link after it recomputed."""
    edit_json(out / "gm/0004/act.json", lambda o: o.update(command="extend 3d"))
    relink(out)


def write_mail(folder: Path, name: str, body: str, subject: str = "[sound-the-charge-demo] a report",
               message_id: str | None = None, html: bool = False) -> None:
    msg = EmailMessage()
    msg["From"] = "adjutant <adjutant@example.org>"
    msg["To"] = "auditor@example.org"
    msg["Subject"] = subject
    if message_id is not None:
        msg["Message-ID"] = message_id
    if html:
        msg.set_content(body, subtype="html")
    else:
        msg.set_content(body)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(bytes(msg))


def mail_heads() -> list[str]:
    return list(record.read_mail(MAIL, "sound-the-charge-demo").heads())


# ---- tampering, each a function of the copy; one rule broken each -----------------------------------------


def t_genesis_commitment(out: Path) -> None:
    text = (out / "genesis.txt").read_text()
    (out / "genesis.txt").write_text(text.replace("commitment 9", "commitment 8", 1))
    relink(out)


def t_campaign_head(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(head="0" * 64))


def t_campaign_entries(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(entries=o["entries"] + 1))


def t_campaign_no_head(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.pop("head"))


def t_unlisted_file(out: Path) -> None:
    (out / "turns/0002/note.txt").write_text("a note\n")


def t_listed_file_removed(out: Path) -> None:
    (out / "turns/0002/manifest.txt").unlink()


def t_one_log_withheld(out: Path) -> None:
    (out / "turns/0001/rolls.jsonl").unlink()


def t_both_logs_withheld(out: Path) -> None:
    (out / "turns/0001/rolls.jsonl").unlink()
    (out / "turns/0001/events.jsonl").unlink()
    (out / "calls/0001/rolls.jsonl").unlink()
    (out / "calls/0001/events.jsonl").unlink()


def t_link_other_record(out: Path) -> None:
    path = out / "calls/0001/link.txt"
    path.write_text(path.read_text().replace("record calls/0001", "record calls/0002"))
    relink_from_text_only(out)


def relink_from_text_only(out: Path) -> None:
    """Recomputes each `previous` and campaign.json's head without touching the `record` lines."""
    previous = v.sha256((out / "genesis.txt").read_bytes()).hex()
    folders = links(out)
    for folder in folders:
        lines = (folder / "link.txt").read_text().split("\n")
        lines[3] = f"previous {previous}"
        (folder / "link.txt").write_text("\n".join(lines))
        previous = v.sha256((folder / "link.txt").read_bytes()).hex()
    edit_json(out / "campaign.json", lambda o: o.update(head=previous))


def t_link_not_canonical(out: Path) -> None:
    path = out / "gm/0005/link.txt"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    relink_from_text_only_bytes(out)


def relink_from_text_only_bytes(out: Path) -> None:
    previous = v.sha256((out / "genesis.txt").read_bytes()).hex()
    for folder in links(out):
        data = (folder / "link.txt").read_bytes()
        lines = data.split(b"\n")
        end = b"\r" if lines[3].endswith(b"\r") else b""
        lines[3] = f"previous {previous}".encode() + end
        (folder / "link.txt").write_bytes(b"\n".join(lines))
        previous = v.sha256((folder / "link.txt").read_bytes()).hex()
    edit_json(out / "campaign.json", lambda o: o.update(head=previous))


def t_entries_reordered(out: Path) -> None:
    # turns/0002 (entry 16) and the replace act after it (entry 17) swap places in the record
    order = links(out)
    i = next(i for i, f in enumerate(order) if f.parent.name == "turns" and f.name == "0002")
    order[i], order[i + 1] = order[i + 1], order[i]
    relink(out, order)


def t_entry_dropped_from_middle(out: Path) -> None:
    # act 5 (pause) removed, the acts after it renumbered, every link recomputed
    shutil.rmtree(out / "gm/0005")
    for n in range(6, 19):
        src, dst = out / f"gm/{n:04d}", out / f"gm/{n - 1:04d}"
        src.rename(dst)
        edit_json(dst / "act.json", lambda o, m=n - 1: o.update(n=m))
    edit_json(out / "campaign.json", lambda o: o.update(acts=o["acts"] - 1))
    relink(out)


def t_accepted_line_dropped(out: Path) -> None:
    path = out / "turns/0004/submissions.txt"
    path.write_text("".join(line + "\n" for line in path.read_text().splitlines() if " accepted " not in line))
    relink(out)


def t_gm_submission_dropped(out: Path) -> None:
    # the operator's first submission of turn 1, superseded, left out of submissions.txt
    path = out / "turns/0001/submissions.txt"
    lines = path.read_text().splitlines()
    path.write_text("".join(line + "\n" for line in lines[1:]))
    relink(out)


def t_gm_submission_added(out: Path) -> None:
    # a line saying the operator entered orders no submit act records
    path = out / "turns/0004/submissions.txt"
    path.write_text("2026-11-25T17:19:00Z french " + "ab" * 32 + " superseded gm\n" + path.read_text())
    relink(out)


def t_submissions_status(out: Path) -> None:
    path = out / "turns/0004/submissions.txt"
    path.write_text(path.read_text().replace(" superseded ", " withdrawn "))
    relink(out)


def t_replace_with_passphrase(out: Path) -> None:
    edit_json(out / "gm/0014/act.json", lambda o: o.update(command=o["command"] + " passphrase neue worte"))
    relink(out)


def t_submit_none_digest(out: Path) -> None:
    edit_json(out / "gm/0016/act.json", lambda o: o.update(orders_digest="ab" * 32))
    relink(out)


def t_submit_without_reason(out: Path) -> None:
    edit_json(out / "gm/0001/act.json", lambda o: o.pop("reason"))
    relink(out)


def t_act_without_by(out: Path) -> None:
    edit_json(out / "gm/0004/act.json", lambda o: o.pop("by"))
    relink(out)


def t_pause_with_states(out: Path) -> None:
    shutil.copy(out / "gm/0007/prior-state.json", out / "gm/0005/prior-state.json")
    shutil.copy(out / "gm/0007/prior-state.json", out / "gm/0005/next-state.json")
    relink(out)


def t_command_not_its_kind(out: Path) -> None:
    edit_json(out / "gm/0005/act.json", lambda o: o.update(command="resume"))
    relink(out)


def t_acts_key_removed(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.pop("acts"))


def t_spec_v2(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(spec="adjutant-audit-v2"))


def t_spec_v4(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(spec="adjutant-audit-v4"))


def t_v3_correction_strength(out: Path) -> None:
    edit_json(out / "gm/0007/act.json", lambda o: o.update(command=o["command"].replace("strength 10", "strength 9")))
    relink(out)


# v2 (gm-acts): no record, so only the checks of section 10 stand between a rewrite and a pass


def t2_correction_other_value(out: Path) -> None:
    edit_json(out / "gm/0001/act.json", lambda o: o.update(command=o["command"].replace("strength 10", "strength 11")))


def t2_correction_not_canonical(out: Path) -> None:
    synonym = lambda o: o.update(command=o["command"].replace("position 20.00 15.00", "at 20 15"))  # noqa: E731
    edit_json(out / "gm/0003/act.json", synonym)


def t2_correction_order(out: Path) -> None:
    command = "correct 1-ligne shaken yes strength 10 formation column"
    edit_json(out / "gm/0001/act.json", lambda o: o.update(command=command))


def t2_rollback_removed(out: Path) -> None:
    shutil.rmtree(out / "gm/0002")
    (out / "gm/0003").rename(out / "gm/0002")
    edit_json(out / "gm/0002/act.json", lambda o: o.update(n=2))
    edit_json(out / "campaign.json", lambda o: o.update(acts=2))


def t2_rollback_twice(out: Path) -> None:
    # the correction after turn 3 replaced by a second rollback of turn 2
    shutil.rmtree(out / "gm/0003")
    shutil.copytree(out / "gm/0002", out / "gm/0003")
    edit_json(out / "gm/0003/act.json", lambda o: o.update(n=3))


def t2_after_turn_back(out: Path) -> None:
    edit_json(out / "gm/0003/act.json", lambda o: o.update(after_turn=1))


def t2_v3_kind(out: Path) -> None:
    shutil.copytree(out / "gm/0003", out / "gm/0004")
    edit_json(out / "gm/0004/act.json", lambda o: o.update(n=4, kind="pause", command="pause"))
    edit_json(out / "campaign.json", lambda o: o.update(acts=4))


def t2_acts_key_removed(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.pop("acts"))


def t2_as_v1(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: (o.pop("acts"), o.update(spec="adjutant-audit-v1")))


V3_TAMPERS = [
    ("genesis.txt with another commitment, links recomputed", t_genesis_commitment, "record: FAIL: genesis.txt is not"),
    ("campaign.json's head changed", t_campaign_head, "record: FAIL: head is 0000"),
    ("campaign.json's entries one more", t_campaign_entries, "record: FAIL: entries is 24"),
    ("campaign.json without head", t_campaign_no_head, "key 'head' missing"),
    ("a file no link lists", t_unlisted_file, "turn 2: FAIL: link: note.txt is not listed"),
    ("a listed file removed", t_listed_file_removed, "manifest.txt is listed in link.txt but absent"),
    ("one log withheld, the other not", t_one_log_withheld, "rolls.jsonl is absent but the other log is not"),
    ("a link naming another folder", t_link_other_record, "names the record 'calls/0002', but it is in calls/0001"),
    ("a link.txt with CRLF line ends", t_link_not_canonical, "act 5: FAIL: link:"),
    ("two entries swapped, re-linked", t_entries_reordered, "after 1 turn(s) were recorded, but its after_turn is 2"),
    ("a turn's accepted line dropped, re-linked", t_accepted_line_dropped, "but it has no accepted line"),
    ("an operator's superseded submission dropped, re-linked", t_gm_submission_dropped,
     "lists french 515c7b7eb1bfeedd7c1b533787b1985cdcf1a9979d22b07166c24560f3fa3c39 via gm 1 time(s), but 2"),
    ("an operator's submission no act records, re-linked", t_gm_submission_added, "but 0 submit act(s)"),
    ("a status neither accepted nor superseded", t_submissions_status, "status 'withdrawn'"),
    ("a replace carrying the passphrase, re-linked", t_replace_with_passphrase, "must not hold the passphrase"),
    ("submit none with a digest, re-linked", t_submit_none_digest, "64 zeros exactly for `none`"),
    ("submit without its reason, re-linked", t_submit_without_reason, "key 'reason' missing"),
    ("an act without by, re-linked", t_act_without_by, "key 'by' missing"),
    ("a pause with state files, re-linked", t_pause_with_states, "a pause changes no state"),
    ("a pause whose command is resume, re-linked", t_command_not_its_kind, "does not begin with its kind 'pause'"),
    ("acts key removed while gm/ holds acts", t_acts_key_removed, "gm/0001 is beyond the 0 gm"),
    ("a v3 archive declared v2", t_spec_v2, "is not one of correction, rollback"),
    ("an unknown spec", t_spec_v4, "not one this verifier knows"),
    ("a correction's strength changed, re-linked", t_v3_correction_strength, "does not make next-state.json"),
]

V2_TAMPERS = [
    ("a correction's value changed", t2_correction_other_value, "act 1: FAIL: correction: re-applied"),
    ("a correction written with a synonym", t2_correction_not_canonical, "act 3: FAIL: correction refused"),
    ("a correction's fields out of order", t2_correction_order, "not in the canonical order"),
    ("the rollback removed", t2_rollback_removed, "turn 3: FAIL: state: prior_state_digest"),
    ("a turn rolled back twice", t2_rollback_twice, "rollback: turn 2 was already undone by an earlier act"),
    ("an act's after_turn going back", t2_after_turn_back, "act 3: FAIL"),
    ("a v3 kind of act in a v2 archive", t2_v3_kind, "kind 'pause' is not one of correction, rollback"),
    ("acts key removed", t2_acts_key_removed, "key 'acts' missing"),
    ("declared v1", t2_as_v1, "gm/0001 is beyond the 0 gm"),
]


# ---- corrections re-applied directly (section 10), every ruleset ----------------------------------------


def unit(uid: str, side: str, location: dict, **fields) -> dict:
    u = {"eliminated": None, "facing": 0, "id": uid, "location": location, "name": uid.title(),
         "original_strength": 12, "side": side, "strength": 12}
    u.update(fields)
    return u


def state_bytes(map_kind: str, units: list[dict], finished=None) -> bytes:
    if map_kind == "table":
        m = {"kind": "table", "width": 7200, "depth": 4800}
    else:
        m = {"kind": "hex", "columns": 20, "rows": 12}
    return v.canonical_json({"finished": finished, "map": m, "units": units})


def at(x: int, y: int) -> dict:
    return {"kind": "table", "x": x, "y": y}


def hexat(col: int, row: int) -> dict:
    return {"kind": "hex", "column": col, "row": row}


STC_UNIT = dict(troop_type="line-infantry", grade="B", gunners=0, formation="line", ranks=1, marks=[],
                shaken=False, disordered=False)
STC_STATE = state_bytes("table", [
    unit("1-ligne", "french", at(1400, 1000), **STC_UNIT),
    unit("ir-1", "austrian", at(1400, 3800), **{**STC_UNIT, "formation": "l-left"}),
    unit("gone", "austrian", at(100, 100), **{**STC_UNIT, "eliminated": "routed off the table"}),
])
KUL_STATE = state_bytes("hex", [unit("moscow", "russian", hexat(3, 4), weapon="M")])
GT_STATE = state_bytes("table", [
    unit("1-inf", "french", at(100, 100), troop_type="infantry", command="c1", formation="line", morale="eager"),
    unit("lanc", "french", at(900, 100), troop_type="lancers", command="c1", formation="column", morale="eager"),
])
PF_BASE = dict(formation="line", base={"depth": 100, "frontage": 200}, files=6)
PF_STATE = state_bytes("table", [
    unit("inf", "blue", at(100, 100), arm="infantry", **PF_BASE),
    unit("bty", "blue", at(500, 100), arm="artillery", cannon=2, **{**PF_BASE, "formation": "unlimbered"}),
])


def changed(before: bytes, after: bytes, uid: str) -> dict:
    """The fields of unit uid that differ, as (before, after); other units must be unchanged."""
    b, a = json.loads(before), json.loads(after)
    if {k: val for k, val in b.items() if k != "units"} != {k: val for k, val in a.items() if k != "units"}:
        return {"<state>": "changed outside the units"}
    out = {}
    for ub, ua in zip(b["units"], a["units"]):
        if ub["id"] != uid:
            if ub != ua:
                out[f"<unit {ub['id']}>"] = "changed"
            continue
        for key in sorted(set(ub) | set(ua)):
            if ub.get(key, "<absent>") != ua.get(key, "<absent>"):
                out[key] = (ub.get(key, "<absent>"), ua.get(key, "<absent>"))
    return out


def correction_cases() -> list[tuple[str, bool]]:
    cases = []

    def ok(name: str, ruleset: str, state: bytes, command: str, uid: str, want: dict) -> None:
        try:
            got = changed(state, c.apply_correction(ruleset, command, state), uid)
        except v.Fail as e:
            got = f"refused: {e}"
        good = got == want
        cases.append((f"correction {ruleset}: `{command}` sets {want}" + ("" if good else f", got {got}"), good))

    def refused(name: str, ruleset: str, state: bytes, command: str, reason: str) -> None:
        try:
            c.apply_correction(ruleset, command, state)
            got = "applied"
        except c.Refused as e:
            got = str(e)
        good = reason in got
        cases.append((f"correction {ruleset} refused ({name}): `{command}`" + ("" if good else f": got {got!r}"), good))

    # The page's test vector, on the bundled campaign's initial state
    initial = (V1 / "turns/0001/prior-state.json").read_bytes()
    ok("vector", "sound-the-charge", initial,
       "correct 1-ligne strength 10 formation column position 14.50 10.00 facing 15 shaken yes", "1-ligne",
       {"strength": (12, 10), "formation": ("line", "column"), "location": (at(1400, 1000), at(1450, 1000)),
        "facing": (0, 15), "shaken": (False, True)})
    stc = "sound-the-charge"
    ok("grade", stc, STC_STATE, "correct 1-ligne grade a", "1-ligne", {"grade": ("B", "A")})
    ok("left out", stc, STC_STATE, "correct 1-ligne blown yes rout_hits 2", "1-ligne",
       {"blown": ("<absent>", True), "rout_hits": ("<absent>", 2)})
    ok("point", stc, STC_STATE, 'correct 1-ligne gunners_at {"x":5,"y":-7}', "1-ligne",
       {"gunners_at": ("<absent>", {"x": 5, "y": -7})})
    ok("list", stc, STC_STATE, 'correct 1-ligne marks ["elite"] screening ["ir-1"]', "1-ligne",
       {"marks": ([], ["elite"]), "screening": ("<absent>", ["ir-1"])})
    ok("string", stc, STC_STATE, "correct 1-ligne boat boat-1", "1-ligne", {"boat": ("<absent>", "boat-1")})
    ok("strength 0", stc, STC_STATE, "correct 1-ligne strength 0", "1-ligne", {"strength": (12, 0)})
    ok("a formation the check takes, from one it does not", stc, STC_STATE, "correct ir-1 formation line",
       "ir-1", {"formation": ("l-left", "line")})
    refused("nothing changes", stc, STC_STATE, "correct 1-ligne rout_hits 0", "changes nothing")
    refused("no such unit", stc, STC_STATE, "correct 2-ligne strength 3", "no unit")
    refused("left play", stc, STC_STATE, "correct gone strength 3", "has left play")
    refused("strength above original", stc, STC_STATE, "correct 1-ligne strength 13", "out of bounds")
    refused("facing 360", stc, STC_STATE, "correct 1-ligne facing 360", "out of bounds")
    refused("one decimal", stc, STC_STATE, "correct 1-ligne position 14.5 10.00", "exactly two decimals")
    refused("beyond 9999.00", stc, STC_STATE, "correct 1-ligne position 9999.01 10.00", "beyond 9999.00")
    refused("order", stc, STC_STATE, "correct 1-ligne shaken yes strength 10", "canonical order")
    refused("order of the others", stc, STC_STATE, "correct 1-ligne rout_hits 2 blown yes", "canonical order")
    refused("twice", stc, STC_STATE, "correct 1-ligne strength 10 strength 9", "set twice")
    refused("value not allowed", stc, STC_STATE, "correct 1-ligne troop_type cavalry", "troop_type takes")
    refused("no such field", stc, STC_STATE, "correct 1-ligne morale 3", "no unit field 'morale'")
    refused("- for _", stc, STC_STATE, "correct 1-ligne rout-hits 2", "no unit field 'rout-hits'")
    refused("envelope", stc, STC_STATE, "correct 1-ligne name bob", "never sets the field 'name'")
    refused("capitals", stc, STC_STATE, "correct 1-ligne grade A", "not lower case")
    refused("double space", stc, STC_STATE, "correct 1-ligne  strength 10", "not single-spaced")
    refused("fails its check", stc, STC_STATE, "correct 1-ligne formation u", "fails its ruleset's checks")
    refused("not canonical JSON", stc, STC_STATE, 'correct 1-ligne gunners_at {"y":5,"x":1}', "keys not sorted")
    refused("null where not allowed", stc, STC_STATE, "correct 1-ligne grade none", "cannot be none")
    refused("a fraction", stc, STC_STATE, "correct 1-ligne ranks 1.5", "not a whole number")
    refused("ranks 0", stc, STC_STATE, "correct 1-ligne ranks 0", "out of bounds")
    refused("game over", stc, state_bytes("table", json.loads(STC_STATE)["units"], finished="french victory"),
            "correct 1-ligne strength 10", "the game was over")
    kul = "kulikovo"
    ok("hex position", kul, KUL_STATE, "correct moscow position 7.00 2.00 facing 5 shock_drm -1 weapon h", "moscow",
       {"location": (hexat(3, 4), hexat(7, 2)), "facing": (0, 5), "weapon": ("M", "H"), "shock_drm": ("<absent>", -1)})
    refused("half a hex", kul, KUL_STATE, "correct moscow position 3.50 4.00", "column and row are whole")
    refused("hexside 6", kul, KUL_STATE, "correct moscow facing 6", "out of bounds")
    refused("no formation", kul, KUL_STATE, "correct moscow formation line", "no unit field 'formation'")
    gt = "grande-tactique"
    ok("square", gt, GT_STATE, "correct 1-inf formation square firing yes", "1-inf",
       {"formation": ("line", "square"), "firing": ("<absent>", True)})
    refused("cavalry in square", gt, GT_STATE, "correct lanc formation square", "only infantry stands in square")
    refused("cavalry firing", gt, GT_STATE, "correct lanc firing yes", "never firing")
    pf = "percentile-fire"
    ok("crewed no is kept", pf, PF_STATE, "correct bty crewed no howitzers 1", "bty",
       {"crewed": ("<absent>", False), "howitzers": ("<absent>", 1)})
    ok("class", pf, PF_STATE, "correct inf class b ranks 3", "inf",
       {"class": ("<absent>", "B"), "ranks": ("<absent>", 3)})
    refused("ranks 2 and crewed yes are left out", pf, PF_STATE, "correct inf ranks 2", "changes nothing")
    refused("a formation its arm does not take", pf, PF_STATE, "correct inf formation limbered", "does not take")
    refused("more howitzers than cannon", pf, PF_STATE, "correct bty howitzers 3", "no more howitzers")
    refused("cannon for infantry", pf, PF_STATE, "correct inf cannon 1", "neither cannon nor howitzers")
    refused("counterbattery for infantry", pf, PF_STATE, "correct inf counterbattery a", "only a battery")
    refused("light figures", pf, PF_STATE, "correct inf light_figures 13", "more than its strength")
    refused("in its own square", pf, PF_STATE, "correct inf in_square inf", "its own id")
    refused("ammunition of no shot", pf, PF_STATE, 'correct bty ammunition {"grape":3}', "not of the field's type")
    try:
        c.apply_correction("selftest", "correct a strength 1", STC_STATE)
        cases.append(("correction under a ruleset the page has no table for is not re-applied", False))
    except c.Refused:
        cases.append(("correction under a ruleset the page has no table for is not re-applied", False))
    except v.Fail:
        cases.append(("correction under a ruleset the page has no table for is not re-applied", True))
    return cases


def head_text_cases() -> list[tuple[str, bool]]:
    """Section 11.5: a value is the 64 hex digits right after the prefix, either case, not followed by a 65th,
    what follows ignored; white space (section 2) before the prefix is skipped; a line with a prefix and no
    value gives none (and is kept as a failure)."""
    h = "ab" * 32
    want = {
        f"archive head = {h}  (keep it)": [h],
        f"x\narchive head = {h}\r\n    archive head = {h.upper()}\n": [h, h],
        "archive head = none yet": [],
        f"archive head = {h}0": [],
        f"archive head = {h[:-1]}": [],
        f"archive head ={h}": [],
        f"Archive head = {h}": [],
        f"\u00a0\u2003archive head = {h}": [h],
        f"\x1carchive head = {h}": [],
        f"text archive head = {h}": [],
        "no head here": [],
    }
    cases = [(f"heads in text {text[:40]!r}", record.heads_in_text(text) == got) for text, got in want.items()]
    s = "cd" * 32
    v = record.values_in_text(
        f"revealed secret r_3 = {s} \nrevealed secret q_+2 = {s.upper()}\nrevealed secret r_x = {s}\n"
        f"revealed secret r_4 = {s}0\nrevealed secret r_5={s}\ncommitment C = {h}  (the turns' chain)\n"
        f"umpire commitment U = {s}\nManifest digest: {h}\nmanifest digest: {s}\nmanifest digest = {h}\n"
        f"manifest digest {h}\n"
    )
    cases.append(("revealed secrets read: r_3, q_+2 (upper case); r_x, 65 digits, no ` = ` passed over",
                  v.secrets == [("turn", 3, s), ("umpire", 2, s)]))
    cases.append(("commitments read: C with text after it, U", v.commitments == [("commitment", h),
                                                                              ("umpire_commitment", s)]))
    cases.append(("manifest digests read in their three spellings", v.manifests == [h, s, h] and v.reveals))
    cases.append(("a message's campaign: [id] in the subject",
                  record.concerns("Re: [demo] orders", "", "", "demo")))
    cases.append(("a message's campaign: a Message-ID made for it",
                  record.concerns("Re: orders", "<demo.reply.ab@example.org>", "", "demo")))
    cases.append(("a message's campaign: the text naming the id",
                  record.concerns("", "", "resolved in demo, turn 3", "demo")))
    cases.append(("not a message of the campaign: the id only inside a word",
                  not record.concerns("", "", "resolved in demonstration", "demo")))
    cases.append(("not a message of the campaign", not record.concerns("[demo-2] x", "<demo-2.x@e>", "", "demo")))
    return cases


def main() -> int:
    failures = 0

    def report(name: str, good: bool, detail: str = "") -> None:
        nonlocal failures
        print(f"{'ok' if good else 'FAIL'} {name}" + (f"  [{detail[:160]}]" if good and detail else ""))
        if not good:
            failures += 1
            if detail:
                print("  " + detail.replace("\n", "\n  "))

    def expect(name: str, out: Path, ok: bool, reason: str | None = None, *extra: str) -> str:
        rc, stdout, stderr = run_verify(out, *extra)
        crashed = "Traceback" in stderr or rc not in (0, 1)
        if ok:
            good = rc == 0 and not crashed and "FAIL" not in stdout
        else:
            good = rc == 1 and not crashed and "FAIL" in stdout and (reason is None or reason in stdout)
        first = next((line for line in stdout.splitlines() if "FAIL" in line), "")
        report(name, good, first if good else f"exit {rc}; expected {reason!r}\n{stdout}{stderr}")
        return stdout

    for missing in (V1, V2, V3, MAIL):
        if not missing.is_dir():
            print(f"FAIL the fixture {missing} is missing")
            return 1
    heads = mail_heads()
    with tempfile.TemporaryDirectory(prefix="adjutant-verifier-records-") as tmp:
        tmp_path = Path(tmp)

        def copy(src: Path) -> Path:
            out = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
            shutil.copytree(src, out)
            return out

        expect("v1 archive (demo) passes", V1, True)
        expect("v2 archive (gm-acts) passes", V2, True)
        stdout = expect("v3 archive (gm-acts-v3) passes", V3, True)
        acts_ok = sum(1 for line in stdout.splitlines() if line.startswith("act ") and ": ok (" in line)
        report("v3 archive: one ok line per act, 18 acts", acts_ok == 18, f"{acts_ok} act lines")
        report("v3 mail: 6 heads found in the fixture mail", len(heads) == 6, ", ".join(h[:12] for h in heads))
        expect("v3 archive against its mail (--mail)", V3, True, None, "--mail", str(MAIL))
        expect("v3 archive against every head, one by one (--head)", V3, True, None,
               *[arg for h in heads for arg in ("--head", h)])
        expect("v2 archive has no head to hold", V2, False, "has no hash-linked record", "--head", heads[0])
        expect("a head the archive does not hold", V3, False, "the archive does not hold it", "--head", "cd" * 32)
        empty = tmp_path / "empty-mail"
        empty.mkdir()
        expect("a folder with no message at all", V3, False, "is campaign sound-the-charge-demo's", "--mail",
               str(empty))
        others = tmp_path / "other-campaign"
        write_mail(others, "1.eml", f"archive head = {'cd' * 32}\n", subject="[another] a report")
        expect("a folder with only another campaign's mail (its head not read)", V3, False,
               "is campaign sound-the-charge-demo's", "--mail", str(others))
        bad_mail = tmp_path / "bad-mail"
        write_mail(bad_mail, "1.eml", "archive head = 12345\n")
        expect("a head line without 64 hex digits cannot be checked, and fails (section 11.5)", V3, False,
               "gives no value of 64 hex digits", "--mail", str(bad_mail))
        long_head = tmp_path / "long-head"
        write_mail(long_head, "1.eml", f"archive head = {'ab' * 32}0\n")
        expect("65 hex digits in a row are no head (section 11.5)", V3, False, "gives no value of 64 hex digits",
               "--mail", str(long_head))
        no_head = tmp_path / "no-head"
        write_mail(no_head, "1.eml", "The campaign sound-the-charge-demo is open.\n", subject="welcome")
        expect("a message of the campaign without any head", V3, True, None, "--mail", str(no_head))
        commitments = json.loads((V3 / "campaign.json").read_bytes())
        secret4 = json.loads((V3 / "turns/0004/resolution.json").read_bytes())["secret"]
        manifest4 = hashlib.sha256((V3 / "turns/0004/manifest.txt").read_bytes()).hexdigest()
        wrong = "ee" * 32
        mail_cases = [
            ("a mailed commitment C not the archive's", f"commitment C = {wrong}\n", False, "commitment"),
            ("a mailed umpire commitment U not the archive's", f"umpire commitment U = {wrong}\n", False,
             "umpire_commitment"),
            ("the archive's commitments, mailed", f"commitment C = {commitments['commitment']}  (the turns' chain)\n"
             f"umpire commitment U = {commitments['umpire_commitment']}\n", True, None),
            ("a revealed secret not the archive's", f"revealed secret r_4 = {wrong}\n", False,
             "turn 4 revealed"),
            ("a revealed secret of a turn the archive does not hold", f"revealed secret r_5 = {secret4}\n", False,
             "does not hold turn 5"),
            ("a revealed secret of an umpire call the archive does not hold", f"revealed secret q_2 = {secret4}\n",
             False, "does not hold umpire call 2"),
            ("turn 4's secret and manifest, as its report gives them",
             f"revealed secret r_4 = {secret4}\nmanifest digest = {manifest4}\n", True, None),
            ("a manifest digest in no resolution, in a message that reveals a secret",
             f"revealed secret r_4 = {secret4}\nManifest digest: {wrong}\n", False, "is in no resolution"),
            ("a manifest digest in no resolution, in a manifest mail (not checked)",
             f"orders french {wrong}\nmanifest digest: {wrong}\n", True, None),
        ]
        for i, (name, body, ok, reason) in enumerate(mail_cases):
            folder = tmp_path / f"mail-values-{i}"
            write_mail(folder, "1.eml", body)
            expect(name, V3, ok, reason, "--mail", str(folder))
        by_id = tmp_path / "by-message-id"
        write_mail(by_id, "1.eml", f"Your orders are accepted.\narchive head = {'cd' * 32}\n", subject="Re: orders",
                   message_id="<sound-the-charge-demo.reply.0123456789abcdef.0123456789ab@example.org>")
        expect("an acknowledgement known by its Message-ID only is read", V3, False,
               f"head {'cd' * 32}: FAIL", "--mail", str(by_id))
        html_only = tmp_path / "html-only"
        write_mail(html_only, "1.eml", f"<p>archive head = {'cd' * 32}</p>", html=True)
        expect("an HTML-only message is read as text", V3, False, f"head {'cd' * 32}: FAIL", "--mail",
               str(html_only))
        maildir = tmp_path / "maildir"
        write_mail(maildir / "cur", "1:2,S", f"Resolution 9\narchive head = {heads[-1]}  (keep it)\n")
        write_mail(maildir / "new", "2", "no head in this one\n")
        expect("a Maildir (cur/, new/) of mail", V3, True, None, "--mail", str(maildir))

        # Cut short: the last entry removed, campaign.json made consistent
        out = copy(V3)
        removed = truncate_last_entry(out)
        expect("cut short by its last entry: passes alone", out, True)
        expect("cut short: fails with --head of the entry cut off", out, False,
               f"head {removed}: FAIL: the archive does not hold it", "--head", removed)
        expect("cut short: fails against the mail", out, False, f"head {removed}: FAIL", "--mail", str(MAIL))
        expect("cut short: still holds the heads before the cut", out, True, None,
               *[arg for h in heads if h != removed for arg in ("--head", h)])

        # Rewritten: an act changed and every link after it recomputed
        out = copy(V3)
        rewrite_act(out)
        expect("an act rewritten and re-linked: passes alone", out, True)
        expect("an act rewritten and re-linked: fails with the head of the last report", out, False,
               "FAIL: the archive does not hold it", "--head", heads[-1])
        stdout = expect("an act rewritten and re-linked: fails against the mail", out, False,
                        "FAIL: the archive does not hold it", "--mail", str(MAIL))
        held = [h for h in heads if f"head {h}: ok" in stdout]
        report("an act rewritten: only the genesis head still holds", len(held) == 1 and "genesis.txt" in stdout
               and f"head {held[0]}: ok (genesis.txt" in stdout, ", ".join(held))

        # An act that changes nothing cut out of the middle, the acts after it renumbered, every link after it
        # recomputed: consistent, so only the heads received after it tell
        out = copy(V3)
        t_entry_dropped_from_middle(out)
        expect("the pause cut out, the record renumbered and re-linked: passes alone", out, True)
        expect("the pause cut out: fails against the mail", out, False, "FAIL: the archive does not hold it",
               "--mail", str(MAIL))

        # One byte of any file
        files = sorted(p for p in V3.rglob("*") if p.is_file())
        flipped_ok = []
        for path in files:
            rel = path.relative_to(V3)
            out = copy(V3)
            if rel.name == "campaign.json":
                # every value but the title, which nothing hashes (see the report of the page's gaps)
                spots = [value_middle(path.read_bytes(), key) for key in
                         ("spec", "campaign", "ruleset", "sides", "chain_length", "commitment", "umpire_commitment",
                          "beacon", "no_orders_policy", "initial_state_digest", "turns", "calls", "acts",
                          "entries", "head")]
                for i, spot in enumerate(spots):
                    one = copy(V3)
                    flip(one / rel, spot)
                    rc, _, stderr = run_verify(one)
                    if rc != 1 or "Traceback" in stderr:
                        flipped_ok.append(f"{rel}@{spot}")
                    shutil.rmtree(one)
                continue
            flip(out / rel)
            rc, _, stderr = run_verify(out)
            if rc != 1 or "Traceback" in stderr:
                flipped_ok.append(str(rel))
            shutil.rmtree(out)
        report(f"one byte flipped in each of the {len(files)} files of the v3 archive: every copy fails",
               not flipped_ok, "passed: " + ", ".join(flipped_ok) if flipped_ok else "")

        for name, fn, reason in V3_TAMPERS:
            out = copy(V3)
            fn(out)
            expect(f"v3 refused: {name}", out, False, reason)
        out = copy(V3)
        t_both_logs_withheld(out)
        expect("v3: both logs of a turn and a call withheld pass (their digests stay in the links)", out, True)
        for name, fn, reason in V2_TAMPERS:
            out = copy(V2)
            fn(out)
            expect(f"v2 refused: {name}", out, False, reason)

    for name, good in correction_cases() + head_text_cases():
        report(name, good)
    print(f"selftest of v2 and v3: {'ok' if failures == 0 else f'{failures} case(s) FAILED'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
