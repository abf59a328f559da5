#!/usr/bin/env python3
"""Self-test of the verifier's checks of the drand beacon (docs/AUDIT.md section 11.6), on the archive kept in
tests/fixtures/archives/drand-v3: a v3 campaign whose one turn took round 1022 of a test network, whose /info JSON
is campaign.json's `drand`.

The archive passes; with the BLS library (py-ecc) its signature is verified, and without it (run with `python -S`,
which hides installed packages) it still passes, saying loudly that the signature was NOT CHECKED, and fails with
--require-signatures. A turn resolved without its round passes with a `without-beacon` act before it and fails
without one. Then each rule broken on its own fails for its reason: one byte of every file; a signature byte
changed; a signature byte changed with the seed and every link recomputed, and another round claimed for the same
signature (these two only the BLS check can see: without py-ecc they are reported as skipped); the manifest's
round, header or line; genesis.txt's chain hash; the network's /info fields; a round published before a
submission; a beacon where none belongs. The network's /info and the order of rounds are also checked directly.
Run by selftest.py; exit status 0 only if every case behaves.
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
sys.dont_write_bytecode = True

import bls as bls_check  # noqa: E402
import drand  # noqa: E402
import record  # noqa: E402
import verify as v  # noqa: E402
from selftest_records import edit_json, flip, relink, value_middle  # noqa: E402

FIXTURE = HERE.parent / "fixtures" / "archives" / "drand-v3"
V3 = HERE.parent / "fixtures" / "archives" / "gm-acts-v3"
TURN = "turns/0001"
SIGNATURE = "a06da52d7c202c657beba96e1c250a4fbfee6959bd085ea43dc0d761250fcb52d7b959372e7d3903d4ef3fb78da8a272"


def run_verify(out: Path, *extra: str, hide_packages: bool = False) -> tuple[int, str, str]:
    flags = ["-S", "-E", "-s"] if hide_packages else []  # no site-packages, PYTHONPATH or user site
    p = subprocess.run(
        [sys.executable, *flags, str(HERE / "verify.py"), "archive", str(out), *extra],
        capture_output=True, text=True, timeout=300,
    )
    return p.returncode, p.stdout, p.stderr


# ---- editing the drand archive ------------------------------------------------------------------------------


def reseed(out: Path, field: bytes | None = None) -> None:
    """Recomputes turn 1's manifest digest and seed from its files (the seed's last 32 bytes from its beacon,
    or field when given), as someone rewriting the archive would. Its roll log is empty, so no roll changes."""
    folder = out / TURN
    res = json.loads((folder / "resolution.json").read_bytes())
    manifest = (folder / "manifest.txt").read_bytes()
    if field is None:
        field = drand.read_turn_beacon(res).seed_field()
    seed = v.derive_seed(v.TURN, "sound-the-charge-demo", 1, bytes.fromhex(res["secret"]), v.sha256(manifest),
                         v.sha256((folder / "prior-state.json").read_bytes()), field)
    edit_json(folder / "resolution.json", lambda o: o.update(manifest_digest=v.sha256(manifest).hex(),
                                                              seed=seed.hex()))


def set_signature(out: Path, signature: str) -> None:
    edit_json(out / TURN / "resolution.json", lambda o: o["beacon"].update(signature=signature))


def flipped_signature() -> str:
    data = bytearray(bytes.fromhex(SIGNATURE))
    data[20] ^= 0x01
    return data.hex()


def edit_info(out: Path, fn) -> None:
    """Changes the network's /info JSON held in campaign.json."""
    def change(o):
        info = json.loads(o["drand"])
        fn(info)
        o["drand"] = json.dumps(info, separators=(",", ":"))
    edit_json(out / "campaign.json", change)


def add_without_beacon_act(out: Path, after_turn: int, n: int = 1) -> Path:
    """A `without beacon` act after turn after_turn, with a link.txt for relink to rewrite; campaign.json counts
    it."""
    folder = out / "gm" / f"{n:04d}"
    folder.mkdir(parents=True)
    act = {"kind": "without-beacon", "n": n, "after_turn": after_turn, "undoes_turn": None,
           "command": "without beacon", "at": "2026-01-05T10:01:40Z", "by": "gm umpire@example.org"}
    (folder / "act.json").write_text(json.dumps(act, indent=2) + "\n")
    (folder / "link.txt").write_bytes(record.Link("x", 1, "0" * 64, "gm/x", [], b"").text())
    edit_json(out / "campaign.json", lambda o: o.update(acts=n))
    return folder


def waive(out: Path, with_act: bool = True) -> None:
    """Turn 1 resolved without its round: `"signature": "waived"`, the seed's last 32 bytes zeros, and (with_act)
    the act before it, entry 1, the turn entry 2."""
    set_signature(out, drand.WAIVED)
    reseed(out)
    if with_act:
        act = add_without_beacon_act(out, 0)
        relink(out, [act, out / TURN])
    else:
        relink(out)


def t_signature_byte(out: Path) -> None:
    set_signature(out, flipped_signature())
    relink(out)


def t_signature_byte_reseeded(out: Path) -> None:
    set_signature(out, flipped_signature())
    reseed(out)
    relink(out)


def t_other_round_same_signature(out: Path) -> None:
    """Round 1023 claimed with round 1022's signature, the manifest and seed made to match."""
    edit_json(out / TURN / "resolution.json", lambda o: o["beacon"].update(round=1023))
    path = out / TURN / "manifest.txt"
    path.write_text(path.read_text().replace("beacon drand round 1022", "beacon drand round 1023"))
    reseed(out)
    relink(out)


def t_manifest_round(out: Path) -> None:
    path = out / TURN / "manifest.txt"
    path.write_text(path.read_text().replace("beacon drand round 1022", "beacon drand round 1021"))
    reseed(out)
    relink(out)


def t_manifest_v1(out: Path) -> None:
    path = out / TURN / "manifest.txt"
    text = path.read_text().replace("adjutant-manifest-v3", "adjutant-manifest-v1")
    path.write_text("".join(line + "\n" for line in text.splitlines() if not line.startswith("beacon ")))
    reseed(out)
    relink(out)


def t_manifest_round_line_dropped(out: Path) -> None:
    path = out / TURN / "manifest.txt"
    path.write_text("".join(line + "\n" for line in path.read_text().splitlines() if not line.startswith("beacon ")))
    reseed(out)
    relink(out)


def t_manifest_round_leading_zero(out: Path) -> None:
    path = out / TURN / "manifest.txt"
    path.write_text(path.read_text().replace("beacon drand round 1022", "beacon drand round 01022"))
    reseed(out)
    relink(out)


def t_genesis_chain_hash(out: Path) -> None:
    path = out / "genesis.txt"
    path.write_text(path.read_text().replace("beacon drand 269e", "beacon drand 369e"))
    relink(out)


def t_genesis_with_public_key(out: Path) -> None:
    """genesis.txt in section 11.2's form, `drand <chain hash> <public key>`, where 11.6 has the chain hash alone."""
    path = out / "genesis.txt"
    key = json.loads(json.loads((out / "campaign.json").read_bytes())["drand"])["public_key"]
    lines = path.read_text().splitlines()
    lines = [line + f" {key}" if line.startswith("beacon drand ") else line for line in lines]
    path.write_text("".join(line + "\n" for line in lines))
    relink(out)


def t_info_period(out: Path) -> None:
    edit_info(out, lambda i: i.update(period=4))


def t_info_period_and_hash(out: Path) -> None:
    """Another period, with the network's `hash` made to match: genesis.txt's chain hash then tells."""
    def change(i):
        i.update(period=4)
        i["hash"] = drand.Network(json.dumps(i)).chain_hash.hex()
    edit_info(out, change)


def t_info_beacon_id(out: Path) -> None:
    edit_info(out, lambda i: i["metadata"].update(beaconID="default"))


def t_info_scheme(out: Path) -> None:
    edit_info(out, lambda i: i.update(schemeID="pedersen-bls-chained"))


def t_info_not_json(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(drand="{\"public_key\":"))


def t_info_key_short(out: Path) -> None:
    edit_info(out, lambda i: i.update(public_key=i["public_key"][:-2]))


def t_info_without_hash(out: Path) -> None:
    """The /info JSON without its `hash` (section 11.6: required)."""
    edit_info(out, lambda i: i.pop("hash"))


def t_info_genesis_before_1970(out: Path) -> None:
    """A genesis time before 1970, its hash made to match (section 11.6: from 0)."""
    def change(i):
        i.update(genesis_time=-3)
        i["hash"] = drand.chain_hash(i["period"], -3, bytes.fromhex(i["public_key"]),
                                     bytes.fromhex(i["groupHash"]), i["metadata"]["beaconID"]).hex()
    edit_info(out, change)


def t_text_beacon_too(out: Path) -> None:
    edit_json(out / "campaign.json", lambda o: o.update(beacon="2026-01-05 lottery"))


def t_beacon_missing(out: Path) -> None:
    edit_json(out / TURN / "resolution.json", lambda o: o.pop("beacon"))
    relink(out)


def t_signature_upper_case(out: Path) -> None:
    set_signature(out, SIGNATURE.upper())
    relink(out)


def t_waived_without_act(out: Path) -> None:
    waive(out, with_act=False)


def t_waived_seed_with_randomness(out: Path) -> None:
    waive(out)
    reseed(out, drand.randomness(bytes.fromhex(SIGNATURE)))
    relink(out, [out / "gm/0001", out / TURN])


def t_act_but_round_taken(out: Path) -> None:
    act = add_without_beacon_act(out, 0)
    relink(out, [act, out / TURN])


def t_act_after_the_turn(out: Path) -> None:
    """The act recorded after the waived turn, not before it."""
    set_signature(out, drand.WAIVED)
    reseed(out)
    act = add_without_beacon_act(out, 1)
    relink(out, [out / TURN, act])


def t_submission_after_round(out: Path) -> None:
    """Round 1022 is published at 10:01:03; a submission made at 10:01:05 saw its randomness."""
    path = out / TURN / "submissions.txt"
    path.write_text(path.read_text().replace("2026-01-05T10:00:00Z", "2026-01-05T10:01:05Z"))
    relink(out)


def t_submission_at_round_time(out: Path) -> None:
    path = out / TURN / "submissions.txt"
    path.write_text(path.read_text().replace("2026-01-05T10:00:00Z", "2026-01-05T10:01:03Z"))
    relink(out)


def t3_beacon_in_turn(out: Path) -> None:
    """A turn of a campaign without a drand beacon that names a round."""
    edit_json(out / "turns/0002/resolution.json", lambda o: o.update(beacon={"round": 5, "signature": SIGNATURE}))
    relink(out)


def t3_without_beacon_act(out: Path) -> None:
    """A `without beacon` act in a campaign without a drand beacon (after its last turn, the last entry)."""
    acts = json.loads((out / "campaign.json").read_bytes())["acts"]
    add_without_beacon_act(out, 4, acts + 1)
    relink(out)


# (name, mutation, reason, needs the BLS check to fail)
TAMPERS = [
    ("a signature byte changed", t_signature_byte, "seed: derived", False),
    ("a signature byte changed, the seed and links recomputed", t_signature_byte_reseeded,
     "beacon: drand round 1022: the signature is not a point of G1", True),
    ("round 1023 claimed with round 1022's signature, manifest, seed and links recomputed",
     t_other_round_same_signature, "the signature does not verify for round 1023", True),
    ("the manifest names another round", t_manifest_round,
     "manifest: names drand round 1021, but resolution.json's beacon is round 1022", False),
    ("a v1 manifest without the round line", t_manifest_v1,
     "begins 'adjutant-manifest-v1', but a turn of a drand campaign has 'adjutant-manifest-v3'", False),
    ("a v3 manifest without its round line", t_manifest_round_line_dropped, "expected `beacon drand round <r>`",
     False),
    ("a round with a leading zero", t_manifest_round_leading_zero, "without leading zeros", False),
    ("genesis.txt with another chain hash", t_genesis_chain_hash, "genesis.txt is not the text", False),
    ("genesis.txt with the public key after the chain hash", t_genesis_with_public_key,
     "genesis.txt is not the text", False),
    ("the network's period changed", t_info_period, "but its fields make", False),
    ("the network's period changed and its hash made to match", t_info_period_and_hash,
     "genesis.txt is not the text", False),
    ("the network's beacon id changed to default (left out of the hash)", t_info_beacon_id, "but its fields make",
     False),
    ("another drand scheme", t_info_scheme, "only 'bls-unchained-g1-rfc9380'", False),
    ("the /info JSON cut short", t_info_not_json, "is not valid JSON", False),
    ("a public key one byte short", t_info_key_short, "public_key is 190 hex digits, not 192", False),
    ("the /info JSON without its hash", t_info_without_hash, "the chain hash is required", False),
    ("a genesis time before 1970", t_info_genesis_before_1970, "genesis_time -3 is not a whole number from 0",
     False),
    ("a text beacon and a drand network", t_text_beacon_too, "not both", False),
    ("a turn without its beacon", t_beacon_missing, "key 'beacon' missing", False),
    ("a signature in upper-case hex", t_signature_upper_case, "lower-case hex", False),
    ("a waived turn with no act before it", t_waived_without_act, "no without-beacon act was recorded", False),
    ("a waived turn whose seed took the randomness", t_waived_seed_with_randomness, "seed: derived", False),
    ("a without-beacon act, yet the turn took its round", t_act_but_round_taken, "took drand round 1022", False),
    ("the without-beacon act after the waived turn", t_act_after_the_turn, "no without-beacon act was recorded",
     False),
    ("a submission after the round was published", t_submission_after_round,
     "was published at 2026-01-05T10:01:03Z, not after the submission of 2026-01-05T10:01:05Z", False),
    ("a submission at the very second the round was published", t_submission_at_round_time,
     "not after the submission", False),
]

V3_TAMPERS = [
    ("a turn naming a drand round in a campaign without one", t3_beacon_in_turn,
     "but the campaign names no drand network", False),
    ("a without-beacon act in a campaign without a drand beacon", t3_without_beacon_act,
     "a campaign without a drand beacon has no turn waiting", False),
]


# ---- direct checks --------------------------------------------------------------------------------------------


def direct_cases() -> list[tuple[str, bool]]:
    cases = []
    info = json.loads(json.loads((FIXTURE / "campaign.json").read_bytes())["drand"])
    net = drand.Network(json.dumps(info))
    cases.append(("the fixture's network: chain hash as its /info says", net.chain_hash.hex() == info["hash"]
                  and not net.problems()))
    cases.append(("round 1022 of the fixture's network is published at 10:01:03",
                  drand.utc_text(net.round_time(1022)) == "2026-01-05T10:01:03Z"))
    no_id = dict(info, metadata={})
    cases.append(("an empty beacon id is left out, as `default` is",
                  drand.Network(json.dumps(no_id)).chain_hash
                  == drand.Network(json.dumps(dict(info, metadata={"beaconID": "default"}))).chain_hash))
    cases.append(("the quicknet /info makes the page's chain hash",
                  drand.Network(drand.QUICKNET_INFO).chain_hash.hex() == drand.QUICKNET_CHAIN_HASH))

    def rounds_fail(sequence: list[tuple[int, str | None]]) -> list[str]:
        r = drand.Rounds(net, None, "no library here", {2: 7})
        fails: list[str] = []
        for k, (rnd, sig) in enumerate(sequence, 1):
            beacon = drand.TurnBeacon(rnd, None if sig is None else bytes.fromhex(sig))
            r.check_turn(k, beacon, fails, [])
        return fails

    cases.append(("rounds that grow pass", rounds_fail([(10, SIGNATURE), (11, None), (12, SIGNATURE)]) == []))
    cases.append(("a round taken twice fails", any("not later than round 10" in f for f in
                                                   rounds_fail([(10, SIGNATURE), (10, None), (10, SIGNATURE)]))))
    cases.append(("a round before an earlier turn's fails", any("not later than round 10" in f for f in
                                                               rounds_fail([(10, SIGNATURE), (11, None),
                                                                            (9, SIGNATURE)]))))
    cases.append(("a waived turn's round does not bind the next", rounds_fail([(10, SIGNATURE), (20, None),
                                                                              (15, SIGNATURE)]) == []))
    return cases


SKIPPED: list[str] = []  # the BLS cases the last run could not check, for selftest.py's last line


def main() -> int:
    failures = 0
    skipped: list[str] = []
    bls, why_not = bls_check.load()
    bls_ok = bls is not None and all(ok for _, ok, _, _ in bls_check.selfcheck(bls))

    def report(name: str, good: bool, detail: str = "") -> None:
        nonlocal failures
        print(f"{'ok' if good else 'FAIL'} {name}" + (f"  [{detail[:160]}]" if good and detail else ""))
        if not good:
            failures += 1
            if detail:
                print("  " + detail.replace("\n", "\n  "))

    def expect(name: str, out: Path, ok: bool, reason: str | None = None, *extra: str,
               hide_packages: bool = False, said: str | None = None) -> str:
        rc, stdout, stderr = run_verify(out, *extra, hide_packages=hide_packages)
        crashed = "Traceback" in stderr or rc not in (0, 1)
        if ok:
            good = rc == 0 and not crashed and "FAIL" not in stdout
        else:
            good = rc == 1 and not crashed and "FAIL" in stdout and (reason is None or reason in stdout)
        good = good and (said is None or said in stdout)
        first = next((line for line in stdout.splitlines() if "FAIL" in line), "")
        report(name, good, first if good else f"exit {rc}; expected {reason or said!r}\n{stdout}{stderr}")
        return stdout

    if not FIXTURE.is_dir():
        print(f"FAIL the fixture {FIXTURE} is missing")
        return 1
    with tempfile.TemporaryDirectory(prefix="adjutant-verifier-drand-") as tmp:
        tmp_path = Path(tmp)

        def copy(src: Path) -> Path:
            out = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
            shutil.copytree(src, out)
            return out

        # The archive as exported, with and without the BLS check
        not_checked = "drand signature(s) NOT CHECKED"
        if bls_ok:
            expect("drand archive passes, its signature verified", FIXTURE, True,
                   said="1 drand signature(s) verified")
            expect("drand archive with --require-signatures and py-ecc passes", FIXTURE, True, None,
                   "--require-signatures", said="1 drand signature(s) verified")
        else:
            skipped.append("the BLS check of the drand archive as exported")
        expect("drand archive without py-ecc (python -S) passes, saying loudly the signature was NOT CHECKED",
               FIXTURE, True, hide_packages=True, said=not_checked)
        # Section 11.6: the fixture's network is a test network, not quicknet: it checks, with a warning.
        expect("a drand network that is not a known public one passes with a warning that names it", FIXTURE,
               True, hide_packages=True, said="is not quicknet's")
        expect("drand archive without py-ecc fails with --require-signatures", FIXTURE, False,
               "were NOT CHECKED", "--require-signatures", hide_packages=True)

        out = copy(FIXTURE)
        waive(out)
        expect("a turn resolved without its round, with its without-beacon act before it, passes", out, True,
               said="resolved without drand round 1022 by act 1")
        expect("a waiver is reported with its time against the round's time (section 11.6)", out, True,
               said="WARNING: the waiver came")

        # One byte of any file
        files = sorted(p for p in FIXTURE.rglob("*") if p.is_file())
        passed = []
        for path in files:
            rel = path.relative_to(FIXTURE)
            out = copy(FIXTURE)
            spot = value_middle(path.read_bytes(), "drand") if rel.name == "campaign.json" else None
            flip(out / rel, spot)
            rc, _, stderr = run_verify(out)
            if rc != 1 or "Traceback" in stderr:
                passed.append(str(rel))
            shutil.rmtree(out)
        report(f"one byte flipped in each of the {len(files)} files of the drand archive (campaign.json: in its "
               "drand value): every copy fails", not passed, "passed: " + ", ".join(passed) if passed else "")

        for name, fn, reason, needs_bls in TAMPERS:
            out = copy(FIXTURE)
            fn(out)
            if needs_bls and not bls_ok:
                skipped.append(f"{name}: only the BLS check sees it")
                expect(f"without py-ecc, {name}: passes but says NOT CHECKED", out, True, said=not_checked)
                continue
            expect(f"drand refused: {name}", out, False, reason)
        for name, fn, reason, _ in V3_TAMPERS:
            out = copy(V3)
            fn(out)
            expect(f"v3 refused: {name}", out, False, reason)

    for name, good in direct_cases():
        report(name, good)
    why = why_not or "py-ecc fails its known answers"
    for what in skipped:
        print(f"SKIPPED (NOT CHECKED: {why}) {what}")
    SKIPPED[:] = skipped
    print(f"selftest of the drand beacon: {'ok' if failures == 0 else f'{failures} case(s) FAILED'}"
          + (f", {len(skipped)} BLS case(s) SKIPPED" if skipped else ""))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
