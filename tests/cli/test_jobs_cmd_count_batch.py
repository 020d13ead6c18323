"""``fs submit --count N``: its jobs differ only in their ids, so they are checked once, at
the first, before the others are made. A refusal of ``--count 1000000`` came after 3 s and
730 MB (every job object made, then each checked); it is now said at once, with the same
words, exit 2 and the state unchanged. The warnings name the batch as they did (``3 jobs
(2.0 ...)``), and the state holds the same jobs as a file listing them one by one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core import jobs as core_jobs
from fairshare_cli.core.limits import MAX_JOB_COUNT
from tests.cli.conftest import common, refused


@pytest.fixture
def no_expansion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a ``count`` object is expanded into its jobs (what made them all
    before any check)."""

    def expand(job: core_jobs.Job) -> list[core_jobs.Job]:
        assert job.count == 1, f"job {job.id}'s {job.count} jobs made"
        return [job]

    monkeypatch.setattr(core_jobs, "expand", expand)


LATER = (
    "fs: error: fs submit: job 2.0's submit_time 5138-11-16T09:46:39Z is after --now"
    " 2026-11-21T12:00:00Z: the job was queued at a later time; give 5138-11-16T09:46:39Z"
    " or a later time\n"
)
SLOT = "fs: error: fs submit: job 2.1: slot 'slot1@exec1' already runs another job\n"
PARTITION = 'fs: error: fs submit: job 2.0: unknown partition "nosuch" (see [partitions]: batch)\n'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "submit_time=99999999999"], LATER),
        (["--set", "status=running", "--set", "slot=slot1@exec1"], SLOT),
        (["--account", "hep", "--partition", "nosuch"], PARTITION),
    ],
    ids=["later", "slot", "partition"],
)
@pytest.mark.usefixtures("no_expansion")
def test_a_refused_count_is_refused_before_its_jobs_are_made(
    env: dict[str, Path], run: Callable[..., Any], args: list[str], message: str
) -> None:
    """``fs submit --owner bob --count 10000000 --set submit_time=99999999999 --config C
    --state S --now 2026-11-21T12:00:00Z`` (and a running job of a slot, an unknown
    partition): exit 2, the first job named as before, no job made, nothing written."""
    before = env["state"].read_bytes()
    result = run("submit", "--owner", "bob", "--count", str(MAX_JOB_COUNT), *args, *common(env))
    refused(result)
    assert result.stderr == message
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("args", "warning"),
    [
        (
            ["--account", "hep", "--cpus", "8"],
            "fs: warning: 3 jobs (2.0 ...) will pend, never started: PartitionConfig"
            ' (partition "batch": 4 CPUs in all, the job asks for 8)\n',
        ),
        (
            ["--accounting-group", "group_a"],
            "fs: warning: 3 jobs (2.0 ...): accounting group group_a is a group with no user,"
            " so HTCondor charges submitter group_a@example.org in <none>; an AccountingGroup"
            " is GROUP.USER (a submit file's accounting_group = group_a makes group_a.bob):"
            " make it group_a.bob\n",
        ),
        (
            ["--dirac-group", "lhcb_usr"],
            "fs: warning: dirac_group 'lhcb_usr' (3 jobs submitted) is not in [dirac.groups]"
            " (did you mean 'lhcb_user'?); DIRAC gives it the default share 1000\n",
        ),
    ],
    ids=["held", "group", "dirac"],
)
def test_a_count_is_warned_of_as_its_jobs(
    env: dict[str, Path], run: Callable[..., Any], args: list[str], warning: str
) -> None:
    """``fs submit --owner bob --count 3 --account hep --cpus 8 ...``: the warning counts
    the batch's three jobs and names the first, once."""
    result = run("submit", "--owner", "bob", "--count", "3", *args, *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Submitted 3 jobs as cluster 2\n"
    assert result.stderr == warning


@pytest.mark.parametrize("sets", [[], ["--set", 'attributes={"Foo": 1}']], ids=["plain", "map"])
def test_a_count_is_stored_as_its_jobs_one_by_one(
    env: dict[str, Path], tmp_path: Path, run: Callable[..., Any], sets: list[str]
) -> None:
    """``fs submit --owner bob --count 3`` writes the jobs a file listing 2.0, 2.1 and 2.2
    one by one writes (a job of a mapping field too)."""
    before = env["state"].read_bytes()
    result = run("submit", "--owner", "bob", "--count", "3", *sets, *common(env))
    assert result.exit_code == 0, result.stderr
    counted = json.loads(env["state"].read_text())["jobs"]
    env["state"].write_bytes(before)
    extra = {"attributes": {"Foo": 1}} if sets else {}
    objs = [{"id": f"2.{i}", "owner": "bob", **extra} for i in range(3)]
    (tmp_path / "jobs.json").write_text(json.dumps(objs))
    result = run("submit", "--file", str(tmp_path / "jobs.json"), *common(env))
    assert result.exit_code == 0, result.stderr
    assert json.loads(env["state"].read_text())["jobs"] == counted
    assert counted[2] == {"id": "2.1", "owner": "bob", "submit_time": 1795262400.0, **extra}
