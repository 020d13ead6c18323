"""A jobs file of jobs queued (or started) after ``--now`` given to ``fs negotiate`` or
``fs quota`` (cli/htcondor_inputs.py): a workload handed over as ``--jobs-file`` had its
later jobs matched and counted as demand at ``--now``, where ``fs submit --file`` refuses
them. Now refused in ``fs submit``'s words, naming ``fs simulate --workload``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

LATER = "2026-11-21T14:00:00Z"


@pytest.mark.parametrize("view", [["negotiate", "--dry-run"], ["quota"]])
def test_a_job_queued_after_now_is_refused(
    tmp_path: Path, run: Callable[..., Any], view: list[str]
) -> None:
    """``fs negotiate --dry-run --jobs-file later.json`` of a job with submit_time 14:00 at
    --now 12:00 matched it (exit 0); now exit 2, one line, the state unchanged."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "later.json"
    objs = [
        {"id": "1.0", "owner": "alice", "submit_time": "2026-11-21T11:00:00Z"},
        {"id": "2.0", "owner": "bob", "submit_time": LATER, "run_time": 600},
    ]
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    before = pool["state"].read_bytes()
    result = run(*view, "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 2.0's submit_time {LATER} is after --now 2026-11-21T12:00:00Z:"
        " the job was queued at a later time (fs simulate --workload queues a workload's jobs"
        f" as their time comes); give {LATER} or a later time\n"
    )
    assert pool["state"].read_bytes() == before


def test_a_running_job_started_after_now_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs quota --jobs-file run.json`` of a running job started at 14:00, at --now 12:00."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "run.json"
    objs = [{"id": "3.0", "owner": "alice", "status": "running", "start_time": LATER}]
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    result = run("quota", "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 3.0's start_time {LATER} is after --now 2026-11-21T12:00:00Z:"
        " the job was started at a later time (fs simulate --workload queues a workload's jobs"
        f" as their time comes); give {LATER} or a later time\n"
    )


def test_sprio_refuses_a_job_queued_after_now(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs sprio --jobs-file later.json`` of a Slurm job queued at 14:00, at --now 12:00,
    printed the bare header (exit 0), the job left out without a word; now refused as
    ``fs negotiate`` and ``fs quota`` refuse it (cli/sprio.py reads the file its own way)."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "later.json"
    objs = [{"id": "2.0", "owner": "alice", "account": "hep", "submit_time": LATER}]
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    result = run("sprio", "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 2.0's submit_time {LATER} is after --now 2026-11-21T12:00:00Z:"
        " the job was queued at a later time (fs simulate --workload queues a workload's jobs"
        f" as their time comes); give {LATER} or a later time\n"
    )
