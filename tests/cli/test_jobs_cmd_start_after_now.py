"""``fs submit`` of a running job whose ``start_time`` is after ``--now``: it was queued as
running, its usage charged from a time still to come (a use of less than nothing until
then), where ``fs import history`` refuses work that starts after ``--now`` and the
HTCondor dump imports a job or claim started after it. Now refused the dumps' way: one
line, exit 2, the state unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused


@pytest.mark.parametrize("how", ["options", "file"])
def test_a_running_job_started_after_now_is_refused(
    env: dict[str, Path], tmp_path: Path, run: Callable[..., Any], how: str
) -> None:
    """``fs submit --owner alice --account hep --set status=running --set
    start_time=2026-11-21T13:00:00Z --now 2026-11-21T12:00:00Z`` (and the same job from
    ``--file``): exit 2, the job and both times named, the later time offered as --now."""
    before = env["state"].read_bytes()
    job = {"owner": "alice", "account": "hep", "status": "running",
           "start_time": "2026-11-21T13:00:00Z"}  # fmt: skip
    if how == "file":
        (tmp_path / "jobs.json").write_text(json.dumps([{"id": "7.0", **job}]))
        args = ["--file", str(tmp_path / "jobs.json")]
        who = f"{tmp_path / 'jobs.json'}: job 7.0's"
    else:
        args = ["--owner", "alice", "--account", "hep", "--set", "status=running",
                "--set", "start_time=2026-11-21T13:00:00Z"]  # fmt: skip
        who = "fs submit: job 2's"  # (the state queues job 1: the next free number)
    result = run("submit", *args, *common(env)[:4], "--now", "2026-11-21T12:00:00Z")
    refused(result)
    assert result.stderr == (
        f"fs: error: {who} start_time 2026-11-21T13:00:00Z is after --now "
        "2026-11-21T12:00:00Z: the job started at a later time; give 2026-11-21T13:00:00Z "
        "or a later time\n"
    )
    assert env["state"].read_bytes() == before


def test_a_running_job_started_at_now_is_queued(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """The same job started at --now itself (no use yet) is queued, as an import of a dump
    of that time is."""
    result = run("submit", "--owner", "alice", "--account", "hep", "--set", "status=running",
                 "--set", "start_time=2026-11-21T12:00:00Z", *common(env)[:4],
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("how", ["options", "file"])
def test_a_job_queued_after_now_is_refused(
    env: dict[str, Path], tmp_path: Path, run: Callable[..., Any], how: str
) -> None:
    """``fs submit --owner alice --account hep --set submit_time=2026-11-21T13:00:00Z --now
    2026-11-21T12:00:00Z`` (and the same job from ``--file``): a job queued an hour after
    --now, whose wait sprio would count from a time still to come, is refused as
    ``fs import condor-q`` refuses a QDate after --now: exit 2, the state unchanged."""
    before = env["state"].read_bytes()
    if how == "file":
        job = {"id": "7.0", "owner": "alice", "account": "hep",
               "submit_time": "2026-11-21T13:00:00Z"}  # fmt: skip
        (tmp_path / "jobs.json").write_text(json.dumps([job]))
        args = ["--file", str(tmp_path / "jobs.json")]
        who = f"{tmp_path / 'jobs.json'}: job 7.0's"
    else:
        args = ["--owner", "alice", "--account", "hep", "--set",
                "submit_time=2026-11-21T13:00:00Z"]  # fmt: skip
        who = "fs submit: job 2's"
    result = run("submit", *args, *common(env)[:4], "--now", "2026-11-21T12:00:00Z")
    refused(result)
    assert result.stderr == (
        f"fs: error: {who} submit_time 2026-11-21T13:00:00Z is after --now "
        "2026-11-21T12:00:00Z: the job was queued at a later time; give "
        "2026-11-21T13:00:00Z or a later time\n"
    )
    assert env["state"].read_bytes() == before
