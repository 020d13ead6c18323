"""``fs import squeue`` takes only squeue --json or scontrol show jobs output
(io/importers/squeue.py): an empty file once dropped every running Slurm job."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.cli.test_slurm_imports import FIXTURES, _build, _pass_time


def _running(state: Path) -> int:
    return len(json.loads(state.read_text())["slurm"]["running"])


def test_an_empty_file_keeps_the_running_jobs(tmp_path: Path, run: Callable[..., Any]) -> None:
    common, state = _build(tmp_path, run, "ft1_running")
    assert _running(state) == 3
    before = state.read_bytes()
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("import", "squeue", str(empty), *common)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {empty}: no job records; expected squeue --json or scontrol show jobs output\n"
    )
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    "text", [pytest.param("No jobs in the system\n", id="scontrol"), pytest.param('{"jobs": []}')]
)
def test_a_dump_of_an_empty_queue_ends_the_running_jobs(
    tmp_path: Path, run: Callable[..., Any], text: str
) -> None:
    """What scontrol and squeue print for an empty queue is a queue of no job: the jobs
    that ran have ended."""
    common, state = _build(tmp_path, run, "ft1_running")
    dump = tmp_path / "queue.txt"
    dump.write_text(text)
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(f"{dump}: 0 jobs (0 pending, 0 running)")
    assert _running(state) == 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("\n\n", "no job records", id="blank"),
        pytest.param("$ squeue --json\n", "no job records", id="prompt-only"),
        pytest.param("[]\n", 'expected squeue --json output (an object with "jobs")', id="list"),
        pytest.param(GARBAGE, ':1: expected "JobId=..."', id="garbage"),
        pytest.param(OTHER_DUMPS["condor_q -json"], "jobs[0]: expected job_id", id="condor_q"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ':1: expected "JobId=..."', id="slurm.conf"),
        pytest.param(OTHER_DUMPS["sshare"], ':2: expected "JobId=..."', id="sshare"),
        pytest.param(
            FIXTURES / "cl1_idle" / "squeue.txt",
            ':2: expected "JobId=..." (scontrol show jobs) or squeue --json output',
            id="plain-squeue",
        ),
    ],
)
def test_what_is_not_a_job_dump_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    """fs import squeue squeue.txt (plain squeue's table, the likeliest wrong file) said
    only 'expected "JobId=..." (scontrol show jobs)', not the other dump it takes."""
    refuse_dump("squeue", content, expected)


def test_the_site_factor_is_the_dumps_else_0(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Without --site-factor-from-priority nothing is read off the printed Priority: job 8
    of ft1_running (its SiteFactor=300 set by scontrol update, which neither dump prints)
    gets 0 like every job; sprio then prints its priority without it."""
    from tests.cli.test_slurm_imports import FIXTURES

    common, _ = _build(tmp_path, run, "ft1_running")
    dump = FIXTURES / "ft1_running" / "scontrol_show_jobs.txt"
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert "site factor from Priority" not in result.stderr  # (only the hint names it)
    rows = json.loads(run("sprio", "--json", *common).stdout)
    assert {r["site"] for r in rows} == {0}
    eight = next(r for r in rows if r["job_id"] == "8")
    assert eight["priority"] == 5619 - 300  # sprio_l.txt's 5619 held the 300


def test_the_site_factor_flags_exclude_each_other(tmp_path: Path, run: Callable[..., Any]) -> None:
    common, state = _build(tmp_path, run, "ft1_running")
    before = state.read_bytes()
    dump = tmp_path / "queue.txt"
    dump.write_text("No jobs in the system\n")
    flags = ("--site-factor-from-priority", "--no-site-factor")
    result = run("import", "squeue", str(dump), *common, *flags)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "--site-factor-from-priority and --no-site-factor exclude each other" in result.stderr
    assert state.read_bytes() == before


IMPORTED_TWICE_CONFIG = """
[priority]
calc_period = "5"
[partitions.batch]
default = true
[qos.normal]
[accounts.a]
shares = 1
users = { u1 = 1 }
"""
ONE_RUNNING_JOB = """JobId=55 JobName=job55
   UserId=u1(1000) GroupId=users(100) MCS_label=N/A
   Priority=1 Nice=0 Account=a QOS=normal
   JobState=RUNNING Reason=None Dependency=(null)
   SubmitTime=2026-11-18T14:05:00 EligibleTime=2026-11-18T14:05:00
   StartTime=2026-11-18T14:06:00 EndTime=Unknown Deadline=N/A
   Partition=batch AllocNode:Sid=login1:4242
   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   AllocTRES=cpu=1,node=1,billing=1
"""


def _imported_once(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path], dump: str
) -> tuple[Path, list[str], list[str]]:
    """The state after ``fs import squeue`` of ``dump`` (``scontrol show jobs`` text), the
    config and state options, and the import's command line (to run again)."""
    path = tmp_path / "jobs.txt"
    path.write_text(dump)
    state = tmp_path / "state.json"
    args = ["--config", str(write_config(IMPORTED_TWICE_CONFIG)), "--state", str(state)]
    line = ["import", "squeue", str(path), *args, "--now", "2026-11-21T12:00:00Z"]
    assert run(*line).exit_code == 0
    return state, args, line


def test_the_same_dump_imported_again_changes_nothing(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """A running job with no usage charged yet (no decay pass since the import): importing
    the dump again brings the state to the same pass, which charges nothing, so no usage
    entry appears (it once added ``a/u1: 0.0`` on the second import only)."""
    state, _, line = _imported_once(tmp_path, run, write_config, ONE_RUNNING_JOB)
    first = state.read_bytes()
    assert json.loads(first)["slurm"]["usage"] == {}
    assert run(*line).exit_code == 0
    assert state.read_bytes() == first


def _queue_of(state: Path, jobs: list[dict[str, Any]]) -> None:
    doc = json.loads(state.read_text())
    doc["jobs"] = jobs
    state.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")


def test_a_bad_job_the_dump_replaces_is_refused_all_the_same(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """Job 55 of the queue is malformed (nice "x"); the dump holds a job 55 that would
    replace it, but a state file with a fault is refused, not written over: exit 2, one
    line naming the job, the file unchanged."""
    state, _, line = _imported_once(tmp_path, run, write_config, ONE_RUNNING_JOB)
    other = {"id": "56", "owner": "u1", "account": "a", "nice": 3}
    _queue_of(state, [{"id": "55", "owner": "u1", "nice": "x"}, other])
    before = state.read_bytes()
    result = run(*line)
    assert (result.exit_code, result.stdout) == (2, "")
    assert f"{state}: jobs: job 55: nice: expected a whole number" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert state.read_bytes() == before


def test_a_job_the_dump_replaces_goes_and_the_others_are_kept(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """Job 55 of the queue is replaced by the dump's; job 56 stays, first, as it was; the
    state written loads back as written."""
    state, args, line = _imported_once(tmp_path, run, write_config, ONE_RUNNING_JOB)
    imported = json.loads(state.read_text())["jobs"]
    other = {"id": "56", "owner": "u1", "account": "a", "nice": 3}
    _queue_of(state, [{"id": "55", "owner": "u2", "nice": 5}, other])
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert json.loads(state.read_text())["jobs"] == [other, *imported]
    listed = run("sprio", "--json", *args)  # a view reads the queue written (55 runs)
    assert listed.exit_code == 0, listed.stderr
    assert [row["job_id"] for row in json.loads(listed.stdout)] == ["56"]


def test_a_bad_job_the_dump_keeps_is_named_at_its_place(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """A job the dump does not replace is read, and its fault named by its place in the
    whole queue (job 1, after job 55 which the dump replaces); nothing is written."""
    state, _, line = _imported_once(tmp_path, run, write_config, ONE_RUNNING_JOB)
    _queue_of(state, [{"id": "55", "owner": "u1"}, {"id": "56", "owner": "u1", "nice": "x"}])
    before = state.read_bytes()
    result = run(*line)
    assert (result.exit_code, result.stdout) == (2, "")
    assert f"{state}: jobs: job 56: nice: expected a whole number" in result.stderr
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    ("queue", "fault"),
    [
        pytest.param(
            lambda job: [{**job, "nice": True}],
            "job 55: nice: expected a whole number",
            id="true for 1",
        ),
        pytest.param(
            lambda job: [job, dict(job)],
            "job 55 is given twice (job objects 1 and 2, counting from 1); give each job its own id",
            id="id twice",
        ),
    ],
)
def test_a_job_equal_to_the_dumps_but_malformed_is_refused(
    tmp_path: Path,
    run: Callable[..., Any],
    write_config: Callable[[str], Path],
    queue: Callable[[dict[str, Any]], list[dict[str, Any]]],
    fault: str,
) -> None:
    """A queued job equal to the one the dump writes for its id is not read again, unless
    it may hide a fault: ``true`` equals the dump's ``"nice": 1`` but is no number, and a
    job the queue holds twice is refused even when both are the dump's; nothing is
    written."""
    state, _, line = _imported_once(
        tmp_path, run, write_config, ONE_RUNNING_JOB.replace("Nice=0", "Nice=1")
    )
    (imported,) = json.loads(state.read_text())["jobs"]
    assert imported["nice"] == 1
    _queue_of(state, queue(imported))
    before = state.read_bytes()
    result = run(*line)
    assert (result.exit_code, result.stdout) == (2, "")
    assert f"{state}: jobs: {fault}" in result.stderr
    assert state.read_bytes() == before


def test_a_dump_on_stdin_imports_as_the_same_file(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """``fs import squeue -`` reads the dump from stdin (a piece at a time, as a file):
    the same state as the file gives."""
    state, args, _ = _imported_once(tmp_path, run, write_config, ONE_RUNNING_JOB)
    from_file = state.read_bytes()
    state.unlink()
    piped = ["import", "squeue", "-", *args, "--now", "2026-11-21T12:00:00Z"]
    result = run(*piped, input=ONE_RUNNING_JOB)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("-: 1 job (0 pending, 1 running)")
    assert state.read_bytes() == from_file


def test_a_dump_of_accounts_the_config_lacks_is_refused_naming_the_dump(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import squeue DUMP --config sample_configs/pool.toml``: a real Slurm dump whose
    jobs are in account ``b``, which the HTCondor sample pool does not configure, is
    refused in one line naming the dump and the job (not the state file, which is not at
    fault), with no summary of an import that did not happen and the state unchanged."""
    import shutil

    from tests.cli.test_slurm_imports import FIXTURES

    repo = Path(__file__).resolve().parents[3]
    state = tmp_path / "state.json"
    shutil.copy(repo / "sample_configs" / "sample-state.json", state)
    before = state.read_bytes()
    dump = FIXTURES / "ft2_idle" / "scontrol_show_jobs.txt"
    config = repo / "sample_configs" / "pool.toml"
    for dry in ((), ("--dry-run",)):
        result = run("import", "squeue", str(dump), "--config", str(config), "--state",
                     str(state), "--now", "2026-11-22T12:00:00Z", *dry)  # fmt: skip
        assert result.exit_code == 2
        assert result.stderr == (
            f'fs: error: {dump}: job 5: unknown account "b" (the config has no [accounts.b]:'
            " fs import sacctmgr of sacctmgr show assoc brings it)\n"
        )
        assert state.read_bytes() == before
