"""``fs import condor-status`` takes only condor_status output (cli/imports/condor_status.py,
io/importers/condor_status.py): a dump without a slot ad is refused, nothing written."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.importers.condor_status import machines_fragment, read_status
from tests.cli.conftest import NOW, refused, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.conftest import FIXTURES


def test_an_empty_file_keeps_every_machine(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-status empty.txt --into p.toml --replace`` once deleted every
    ``[[machines]]`` entry; now it names the file and what was expected."""
    pool = write_pool(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    before = (pool["config"].read_bytes(), pool["state"].read_bytes())
    result = run(
        "import",
        "condor-status",
        str(tmp_path / "empty.txt"),
        "--into",
        str(pool["config"]),
        "--replace",
        "--state",
        str(pool["state"]),
        "--now",
        NOW,
    )
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.txt'}: no slot ads; expected condor_status -json or "
        "-long output\n"
    )
    assert result.exit_code == 2
    assert (pool["config"].read_bytes(), pool["state"].read_bytes()) == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no slot ads; expected condor_status -json or -long", id="empty"),
        pytest.param("\n  \n", "no slot ads", id="blank-lines"),
        pytest.param("[]\n", "no slot ads", id="empty-json-array"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(  # (fs import condor-status of condor_q output named no import)
            OTHER_DUMPS["condor_userprio -l"],
            ':1: expected a slot ad with Name = "slotN@machine"; this is an accountant\'s ad: '
            "condor_userprio -l output is read by fs import condor-userprio",
            id="condor_userprio",
        ),
        pytest.param(
            OTHER_DUMPS["condor_q -json"],
            ':2: expected a slot ad with Name = "slotN@machine"; this is a job ad: condor_q '
            "output is read by fs import condor-q, condor_history output by fs import "
            "condor-history",
            id="condor_q",
        ),
        pytest.param(OTHER_DUMPS["condor_config"], ":1: expected 'Attr = value'", id="config"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected 'Attr = value'", id="slurm.conf"),
    ],
)
def test_what_is_not_condor_status_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-status", content, expected, into=True)


@pytest.mark.parametrize(
    ("ad", "expected"),
    [
        pytest.param(
            {"Name": "slot1@", "Cpus": 1},
            "Machine: expected a name, got an empty one",
            id="no-host",
        ),
        pytest.param(
            {"Name": "slot1@m\u001b[31mred", "Machine": "m", "Cpus": 1},
            "Name: expected a name without blanks or control characters",
            id="escape",
        ),
        pytest.param(
            {"Name": "slot1@m", "Machine": "m\u0000", "Cpus": 1},
            "Machine: expected a name without blanks",
            id="nul",
        ),
        pytest.param(
            {"Name": "slot1@m", "Cpus": 1, " ": 1},
            "an attribute name: expected a name without blanks",
            id="blank-attribute",
        ),
        pytest.param(
            {"Name": "slot1@m", "Cpus": 1, "": 1},
            "an attribute name: expected a name, got an empty one",
            id="empty-attribute",
        ),
    ],
)
def test_names_are_names(refuse_dump: Refuse, ad: dict[str, Any], expected: str) -> None:
    """A machine, slot or attribute name that is blank or holds control characters would
    reach the config; it is refused where the dump is read."""
    refuse_dump("condor-status", json.dumps([ad]), ":1: " + expected, into=True)


def test_a_slot_ad_without_my_type_needs_a_slot_attribute(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """An ad with a ``user@domain`` Name and no slot attribute is no slot; one with
    ``MyType = "Machine"`` or a slot attribute is."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "st.json"
    dump.write_text('[{"Name": "alice@example.org", "Priority": 0.5}]')
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    refused(result, f"{dump}:1: expected a slot ad")
    dump.write_text('[{"Name": "slot1@m1", "MyType": "Machine"}]')
    result = run("import", "condor-status", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    assert 'hosts = ["m1"]' in result.stdout


#: A 25.0 startd's partitionable slot with ``CONSUMPTION_POLICY = True`` and ``NUM_CLAIMS =
#: 4``: ``Resource::publish_static`` writes ``Consumption<resource>`` (the param_info
#: defaults here) and ``NumClaims`` (its claim ids).
CP_SLOT = (
    'Name = "slot1@m1"\nMachine = "m1"\nSlotType = "Partitionable"\nPartitionableSlot = true\n'
    "Cpus = 8\nMemory = 16384\nTotalSlotCpus = 8\nTotalSlotMemory = 16384\nNumClaims = 4\n"
    'MachineResources = "Cpus Memory Disk Swap"\n'
    "ConsumptionCpus = quantize(target.RequestCpus,{1})\n"
    "ConsumptionMemory = quantize(target.RequestMemory,{128})\n"
    'State = "Unclaimed"\nOpSys = "LINUX"\n'
)


def test_a_consumption_policy_comes_in_with_its_expressions_and_claims() -> None:
    """The slot's ``Consumption*`` expressions become ``consumption_cpus`` and
    ``consumption_memory``, ``NumClaims = 4`` becomes ``num_claims``; neither is kept as a
    machine attribute."""
    dump = read_status(io.StringIO(CP_SLOT), "status.txt")
    stanzas, names, notes = machines_fragment(dump)
    assert notes == []
    assert names == {"slot1@m1": "slot1@m1"}
    (stanza,) = stanzas
    assert stanza["partitionable"] is True
    assert stanza["consumption_policy"] is True
    assert stanza["num_claims"] == 4
    assert stanza["consumption_cpus"] == "quantize(target.RequestCpus,{1})"
    assert stanza["consumption_memory"] == "quantize(target.RequestMemory,{128})"
    assert "NumClaims" not in stanza["attributes"]
    assert not any(k.lower().startswith("consumption") for k in stanza["attributes"])


def test_a_pslot_without_consumption_expressions_has_no_policy() -> None:
    """No ``Consumption*`` attribute (``cp_supports_policy`` false): no policy keys."""
    text = "\n".join(line for line in CP_SLOT.splitlines() if "Consumption" not in line)
    (stanza,) = machines_fragment(read_status(io.StringIO(text + "\n"), "s"))[0]
    assert "consumption_policy" not in stanza
    assert stanza["attributes"]["Cpus"] == 8


def test_import_writes_the_consumption_policy_into_the_config(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-status --into``: the machine gets ``consumption_policy = true``,
    ``num_claims = 4`` and the expressions, and the config reads back (``config check``)."""
    dump = tmp_path / "status.long.txt"
    dump.write_text(CP_SLOT)
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    args = ["--into", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    text = cfg.read_text()
    assert "consumption_policy = true" in text
    assert "num_claims = 4" in text
    assert run("config", "check", "--config", str(cfg)).exit_code == 0


def test_a_claimed_slots_concurrency_limits_go_with_its_claim(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A claimed slot publishing ``ConcurrencyLimits = "lic"`` (not a machine attribute):
    its claim in the state carries them, and with ``LIC_LIMIT = 1`` the next job asking
    ``lic`` is refused (1 + 1 > 1: ``rejectForConcurrencyLimits``) though the other slot
    is free."""
    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Claimed"\n'
        'RemoteUser = "z@d"\nJobId = "5.0"\nJobStart = 1795258000\n'
        'ConcurrencyLimits = "lic"\n\n'
        'Name = "slot2@m1"\nMachine = "m1"\nCpus = 1\nState = "Unclaimed"\n'
    )
    cfg = write_config(
        "[pool]\nuid_domain = 'd'\ndefaults = 'current'\n"
        "[negotiator]\nconcurrency_limits = { lic = 1 }\n"
    )
    state = tmp_path / "s.json"
    args = ["--state", str(state), "--now", NOW]
    result = run("import", "condor-status", str(dump), "--into", str(cfg), *args)
    assert result.exit_code == 0, result.stderr
    assert "ConcurrencyLimits" not in cfg.read_text()
    claims = json.loads(state.read_text())["negotiator"]["claims"]
    assert claims["slot1@m1"]["concurrency_limits"] == "lic"
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"id": "7.0", "owner": "a", "concurrency_limits": "lic"}]))
    args = ["--config", str(cfg), *args]
    result = run("negotiate", "--dry-run", *args, "--jobs-file", str(jobs), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["unmatched"] == [
        {"job_id": "7.0", "submitter": "a@d", "reason": "concurrency_limit"}
    ]


def test_a_state_that_cannot_be_written_leaves_the_config_as_it_was(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``fs import condor-status DUMP --into CONFIG`` on a full disk: the machines are
    merged into CONFIG only once the claims on them are written, so a failed (or refused)
    import changes neither file (before, CONFIG held the new machines and the state none
    of their claims); exit 1, the error the only line."""
    import fairshare_cli.io.state as state_io
    from fairshare_cli.errors import RuntimeFailure

    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Claimed"\n'
        'RemoteUser = "z@d"\nJobId = "5.0"\nJobStart = 1795258000\n'
    )
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    before = cfg.read_bytes()
    state = tmp_path / "s.json"

    def full(path: Path, state: Any, before_rename: Any = None, **_: Any) -> None:
        raise RuntimeFailure(f"cannot write state file {path}: disk full; nothing was written")

    monkeypatch.setattr(state_io, "save_state", full)
    result = run("import", "condor-status", str(dump), "--into", str(cfg), "--state",
                 str(state), "--now", NOW)  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: cannot write state file {state}: disk full; nothing was written\n"
    )
    assert cfg.read_bytes() == before and not state.exists()


def test_a_merge_refused_without_replace_writes_no_claim(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-status DUMP --into CONFIG`` where CONFIG's [[machines]] differ
    and no --replace: exit 2 with the merge's one line, and the state holds none of the
    dump's claims (before, the claims were written and only then the merge refused)."""
    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Claimed"\n'
        'RemoteUser = "z@d"\nJobId = "5.0"\nJobStart = 1795258000\n'
    )
    cfg = write_config(
        "[pool]\nuid_domain = 'd'\n[[machines]]\nname = 'exec'\ncount = 1\nslots = 2\n"
    )
    state = tmp_path / "s.json"
    state.write_text('{"format": "fairshare-cli state", "schema_version": 1}\n')
    before = (cfg.read_bytes(), state.read_bytes())
    args = ["--into", str(cfg), "--state", str(state), "--now", NOW]
    # (the [[machines]] entries by name: they were shown as TOML lines, "\n" escaped)
    result = run("import", "condor-status", str(dump), *args)
    refused(result, "machines is 1 table (exec) in the file, the import says 1 table (m1);")
    assert (cfg.read_bytes(), state.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pool.toml",
        "s.json",
        "s.json.lock",
        "status.long.txt",
    ]


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("9" * 400, ":7: JobStart = 999999999999... (400 characters): beyond a 64-bit"),
        ("-99999999999999", ":1: JobStart: expected epoch seconds of the years 1 to 9999"),
        ("1e400", ":7: JobStart = 1e400: beyond a double, which HTCondor reads as infinite"),
    ],
)
def test_a_claim_start_beyond_any_time_is_refused(
    tmp_path: Path, run: Callable[..., Any], start: str, expected: str
) -> None:
    """``fs import condor-status DUMP`` whose claimed slot has a 400-digit JobStart: exit 2
    with one line naming the dump's line, the state unchanged (was an OverflowError
    traceback converting it, then a refusal naming the state's field, not the dump; a
    number no ClassAd holds is refused at its own line, as every ``-long`` value is)."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Claimed"\n'
        f'RemoteUser = "z@d"\nJobId = "5.0"\nJobStart = {start}\n'
    )
    before = pool["state"].read_bytes()
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    refused(result, f"{dump}{expected}")
    assert pool["state"].read_bytes() == before


def test_a_config_that_cannot_be_written_leaves_the_state_without_claims(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-status DUMP --into CONFIG --state S`` with CONFIG's disk full (or
    its folder read-only): the state had its claims written first, then the merge failed
    (exit 1): claims on slots the config lacks, charged by every later fs negotiate. Now
    the merge comes first: both files byte for byte as they were."""
    import os

    flat = FIXTURES / "htcondor-25.0" / "flat_users"
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    assert run("import", "condor-config", str(flat / "condor_config"), "--into", str(config))
    state.write_text('{"format": "fairshare-cli state", "schema_version": 1}\n')
    before = config.read_bytes(), state.read_bytes()
    replace = os.replace

    def config_disk_full(src: Any, dst: Any) -> None:
        if str(dst) == str(config):
            raise OSError(28, "No space left on device")
        replace(src, dst)

    monkeypatch.setattr("fairshare_cli.io.atomic.os.replace", config_disk_full)
    line = ["import", "condor-status", str(flat / "condor_status.json"), "--into", str(config)]
    result = run(*line, "--state", str(state), "--now", "1795458333")
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: cannot write config file {config}: No space left on device\n"
    )
    assert (config.read_bytes(), state.read_bytes()) == before
    monkeypatch.setattr("fairshare_cli.io.atomic.os.replace", replace)
    result = run(*line, "--state", str(state), "--now", "1795458333")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith(f"18 claim(s) into {state}\n")


def test_a_full_disk_for_the_state_leaves_no_history_row_past_its_marks(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-status free.json --config C --state S`` releasing the 18 claims
    of the HTCondor 25.0 capture, on a disk that fills as the state is written: the 18 ends
    were committed to ``S.history.sqlite`` first, and stayed there past the state's marks
    (never read, dropped by the next writer). Now the store commits only once the new
    state is on the disk: exit 1, one line, the state byte for byte, the store as the
    marks say."""
    import sqlite3

    import fairshare_cli.io.atomic as atomic
    from fairshare_cli.io.usage_store import store_path

    flat, at = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"
    cfg, state = tmp_path / "htc.toml", tmp_path / "s.json"
    assert run("import", "condor-config", str(flat / "condor_config"), "--into", str(cfg))
    line = ["import", "condor-status", str(flat / "condor_status.json"), "--into", str(cfg)]
    assert run(*line, "--state", str(state), "--now", at).exit_code == 0
    ads = json.loads((flat / "condor_status.json").read_text(encoding="utf-8"))
    for ad in ads:
        if ad.get("State") == "Claimed":
            ad.update(State="Unclaimed", Activity="Idle")
            for key in ("RemoteUser", "RemoteOwner", "JobId", "AccountingGroup", "JobStart"):
                ad.pop(key, None)
    (tmp_path / "free.json").write_text(json.dumps(ads), encoding="utf-8")
    before = state.read_bytes()

    def disk_full(fd: int, text: Any) -> None:
        import os

        os.close(fd)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "_write", disk_full)
    result = run("import", "condor-status", str(tmp_path / "free.json"), "--config", str(cfg),
                 "--state", str(state), "--now", "2026-11-23T18:26:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"fs: error: cannot write state file {state}: No space left on device\n"
    assert state.read_bytes() == before
    marks = json.loads(before)["usage_history"]
    conn = sqlite3.connect(store_path(state))
    try:
        rows = [
            conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("records", "ends")
        ]
    finally:
        conn.close()
    assert (marks["records"], marks["ends"]) == (18, 0) and rows == [18, 0]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "free.json", "htc.toml", "s.history.sqlite", "s.json", "s.json.lock"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("attr", "value", "shown"),
    [
        ("RemoteUser", '"\\u001b[2Jz@d"', "'\\x1b[2Jz@d'"),
        ("AccountingGroup", '"g\\tz@d"', "'g\\tz@d'"),
        ("JobId", '"5.0\\u001b[31m"', "'5.0\\x1b[31m'"),
    ],
)
def test_a_claim_holder_or_job_with_a_terminal_escape_is_refused(
    tmp_path: Path, run: Callable[..., Any], attr: str, value: str, shown: str
) -> None:
    """``fs import condor-status slot.json`` whose claimed slot's RemoteUser held a terminal
    escape: the claim went into the state, and ``fs negotiate --dry-run`` printed its
    submitter raw (``\\x1b[2J`` cleared the terminal). Every other door refuses such a name;
    this one too now, naming the line and attribute; nothing written."""
    pool = write_pool(tmp_path)
    ad = {"Name": "slot1@m1", "Machine": "m1", "Cpus": 1, "State": "Claimed",
          "RemoteUser": "z@d", "JobId": "5.0", "JobStart": 1795258000}  # fmt: skip
    text = json.dumps([ad]).replace(f'"{attr}": ', f'"{attr}": {value}, "x{attr}": ')
    if attr not in ad:
        text = text.replace('"State"', f'"{attr}": {value}, "State"')
    dump = tmp_path / "slot.json"
    dump.write_text(text)
    before = pool["state"].read_bytes()
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    refused(result)
    assert result.stderr == (
        f"fs: error: {dump}:1: {attr}: expected a name without blanks or control characters, "
        f"got {shown}\n"
    )
    assert pool["state"].read_bytes() == before


def test_a_backslash_in_a_long_dump_is_read_as_condor_status_prints_it(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    r"""``condor_status -long`` prints the old ClassAd syntax, where a backslash escapes
    only a quote (``Lexer::tokenizeStringOld``): ``Share = "\\srv\pool"`` is the UNC path
    ``\\srv\pool`` and ``Dir = "C:\condor\"`` ends in a backslash. fs read the first as
    ``\srv\pool`` and left the second out as an expression (``ignored 1: Dir``); now both
    are the slot's attributes as ``classad2.parseAds(..., ParserType.Old)`` reads them."""
    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Unclaimed"\n'
        'Share = "\\\\srv\\pool"\nDir = "C:\\condor\\"\n'
    )
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    args = ["--into", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    check = run("config", "check", "--config", str(cfg), "--json")
    assert check.exit_code == 0, check.stderr
    attributes = json.loads(check.stdout)["machines"][0]["attributes"]
    assert (attributes["Share"], attributes["Dir"]) == ("\\\\srv\\pool", "C:\\condor\\")
