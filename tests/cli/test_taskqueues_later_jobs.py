"""A DIRAC jobs file of jobs queued after ``--now`` given to ``fs taskqueues``: the jobs
reader's task-queue records kept no ``submit_time``, so such a job was listed in a queue at
``--now`` (exit 0) where ``fs sprio``, ``fs negotiate`` and ``fs quota`` refuse it. Now
refused in their words (cli/imports/_dump_time.py's ``later_job``), the latest job named."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

LATER = "2026-11-21T14:00:00Z"


def _refusal(jobs: str, job: str, when: str) -> str:
    return (
        f"fs: error: {jobs}: job {job}'s submit_time {when} is after --now 2026-11-21T12:00:00Z:"
        " the job was queued at a later time (fs simulate --workload queues a workload's jobs"
        f" as their time comes); give {when} or a later time\n"
    )


@pytest.mark.parametrize("later", [LATER, 1795270000], ids=["iso-text", "epoch"])
def test_a_job_queued_after_now_is_refused(
    tmp_path: Path, run: Callable[..., Any], later: object
) -> None:
    """``fs taskqueues --jobs-file later.json`` of a job queued at 14:00 (or at epoch
    1795270000) at --now 12:00 listed it; now exit 2, one line, the latest job named."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "later.json"
    head = {"owner": "alice", "dirac_group": "lhcb_user", "dirac_requirements": {"cpu_time": 60}}
    objs = [
        {"id": "1.0", **head, "submit_time": "2026-11-21T11:00:00Z"},
        {"id": "2.0", **head, "submit_time": "2026-11-21T13:00:00Z"},
        {"id": "3.0", **head, "submit_time": later},
    ]
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    before = pool["state"].read_bytes()
    result = run("taskqueues", "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    when = LATER if later == LATER else "2026-11-21T14:06:40Z"
    assert result.stderr == _refusal(str(jobs), "3.0", when)
    assert pool["state"].read_bytes() == before


def test_jobs_queued_by_now_are_listed(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A job queued at --now itself is in its queue, as before."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "now.json"
    objs = [{"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user", "count": 3,
             "submit_time": "2026-11-21T12:00:00Z"}]  # fmt: skip
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    result = run("taskqueues", "--json", "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stderr) == (0, "")
    assert [row["jobs"] for row in json.loads(result.stdout)] == [3]
