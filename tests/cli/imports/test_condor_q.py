"""``fs import condor-q`` takes only condor_q output (io/importers/condor_q.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.conftest import FIXTURES


def test_an_empty_file_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-q empty.txt`` once said "Imported 0 jobs" and rewrote the state."""
    pool = write_pool(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    before = pool["state"].read_bytes()
    result = run(
        "import",
        "condor-q",
        str(tmp_path / "empty.txt"),
        "--config",
        str(pool["config"]),
        "--state",
        str(pool["state"]),
        "--now",
        NOW,
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.txt'}: no job ads; expected condor_q -json or "
        "-long output (an empty queue prints nothing: then there is no job to import)\n"
    )
    assert pool["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("\n\n", "no job ads", id="blank"),
        pytest.param("[\n]\n", "no job ads", id="empty-json-array"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(  # (fs import condor-q of condor_status output named no import)
            OTHER_DUMPS["condor_status -json"],
            ":2: expected a job ad with ClusterId and ProcId; this is a slot ad: "
            "condor_status output is read by fs import condor-status",
            id="condor_status",
        ),
        pytest.param(
            OTHER_DUMPS["condor_userprio -l"],
            ":1: expected a job ad with ClusterId and ProcId; this is an accountant's ad: "
            "condor_userprio -l output is read by fs import condor-userprio",
            id="condor_userprio",
        ),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected 'Attr = value'", id="slurm.conf"),
    ],
)
def test_what_is_not_condor_q_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-q", content, expected)


def test_completed_jobs_left_in_the_queue_are_named_and_not_imported(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A queue that keeps completed jobs (``leave_in_queue``): the HTCondor 25.0 capture's
    queue with jobs 1.4, 2.6 and 2.8 completed (JobStatus 4). The negotiator never matches
    them and the accountant charged them when their claims closed, so they are neither
    queue nor claims: skipped and named, the 12 running ones claimed once each (on the
    slots condor_status shows claimed); their usage comes in with ``fs import
    condor-history`` once they leave the queue (which refuses this dump)."""
    pool, at = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    common = ["--state", str(state), "--now", at]
    dump = str(pool / "condor_config_val.dump.txt")
    assert run("import", "condor-config", dump, "--into", str(cfg)).exit_code == 0
    dump = str(pool / "condor_status.json")
    assert run("import", "condor-status", dump, "--into", str(cfg), *common).exit_code == 0
    ads = json.loads((pool / "condor_q.json").read_text(encoding="utf-8"))
    for ad in [ad for ad in ads if ad["JobStatus"] == 2][:3]:
        ad.update(JobStatus=4, CompletionDate=ad["JobCurrentStartDate"] + 30)
    (tmp_path / "q.json").write_text(json.dumps(ads, indent=1), encoding="utf-8")
    result = run("import", "condor-q", str(tmp_path / "q.json"), "--config", str(cfg), *common)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Imported 50 jobs from {tmp_path / 'q.json'} (38 idle, 12 running, 0 held) into "
        f"{state}; 0 new claim(s); ignored 3 removed/completed: 1.4, 2.6, 2.8\n"
    )
    jobs = json.loads(state.read_text(encoding="utf-8"))["jobs"]
    assert len(jobs) == 50 and {"1.4", "2.6", "2.8"}.isdisjoint(job["id"] for job in jobs)


def test_a_backslash_in_a_long_dump_is_read_as_condor_q_prints_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``condor_q -long`` prints the old ClassAd syntax, where a backslash escapes only a
    quote (``Lexer::tokenizeStringOld``): ``Owner = "AD\\\\ann"`` is an owner with two
    backslashes, and ``regexp("^m\\.1$", TARGET.Machine)`` holds the pattern ``^m\\.1$``
    (a dot, escaped), which ``classad2`` evaluates written ``"^m\\\\.1$"``. fs read the
    owner with one backslash and kept the expression's text as it was, which the new
    syntax reads as ``^m.1$``: the job matched slot1@mx1. Now it matches slot1@m.1 only,
    as ``classad2.parseAds(..., ParserType.Old)`` reads the dump."""
    slot = 'Name = "slot1@{m}"\nMachine = "{m}"\nCpus = 1\nState = "Unclaimed"\nStart = true\n'
    (tmp_path / "status.long.txt").write_text(slot.format(m="mx1") + "\n" + slot.format(m="m.1"))
    (tmp_path / "q.long.txt").write_text(
        'ClusterId = 7\nProcId = 0\nJobStatus = 1\nOwner = "AD\\\\ann"\nQDate = 1795258800\n'
        'Requirements = regexp("^m\\.1$",TARGET.Machine)\n'
    )
    cfg, state = tmp_path / "c.toml", tmp_path / "s.json"
    cfg.write_text('[pool]\nuid_domain = "htc.test"\ndefaults = "current"\n')
    at = ["--state", str(state), "--now", NOW]
    status = run(
        "import", "condor-status", str(tmp_path / "status.long.txt"), "--into", str(cfg), *at
    )
    assert status.exit_code == 0, status.stderr
    queue = run("import", "condor-q", str(tmp_path / "q.long.txt"), "--config", str(cfg), *at)
    assert queue.exit_code == 0, queue.stderr
    job = json.loads(state.read_text())["jobs"][0]
    assert (job["owner"], job["requirements"]) == (
        "AD\\\\ann",
        'regexp("^m\\\\.1$",TARGET.Machine)',
    )
    cycle = run("negotiate", "--dry-run", "--json", "--config", str(cfg), *at)
    assert cycle.exit_code == 0, cycle.stderr
    matches = json.loads(cycle.stdout)["matches"]
    assert [(m["submitter"], m["slot"]) for m in matches] == [("AD\\\\ann@htc.test", "slot1@m.1")]


def test_an_expression_that_requirements_name_is_said_to_be_left_out(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-q q.json`` of a job whose Requirements ``TARGET.Memory <
    MY.MaxMem`` name ``MaxMem = real("INF")`` (how HTCondor writes an infinite real) and
    whose Rank names ``Weight = real("NaN")``: HTCondor evaluates them (4096 < infinity
    holds: the job matches a slot), fs keeps no expression in a job's attributes, so its
    Requirements read MaxMem as undefined (no match). It left them out without a word,
    where ``fs import condor-status`` lists a slot's; now its summary names them. The
    literal it names (``RequestDisk``) is kept as before."""
    pool = write_pool(tmp_path)
    ad = {
        "ClusterId": 1, "ProcId": 0, "Owner": "alice", "JobStatus": 1, "QDate": 1795258800,
        "RequestDisk": 1000, "MaxMem": '/Expr(real("INF"))/', "Weight": '/Expr(real("NaN"))/',
        "Requirements": "/Expr(TARGET.Memory < MY.MaxMem && TARGET.Disk >= RequestDisk)/",
        "Rank": "/Expr(MY.Weight)/",
    }  # fmt: skip
    dump = tmp_path / "q.json"
    dump.write_text(json.dumps([ad]), encoding="utf-8")
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-q", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"Imported 1 jobs from {dump} (1 idle, 0 running, 0 held) into {pool['state']}; "
        "0 new claim(s); ignored 2 attribute(s) that Requirements or Rank name: "
        "MaxMem (expression), Weight (expression)\n"
    )
    (job,) = json.loads(pool["state"].read_text(encoding="utf-8"))["jobs"][1:]
    assert job["attributes"] == {"RequestDisk": 1000}
