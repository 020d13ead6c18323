"""``fs negotiate --dry-run --explain ID`` of an id that is no idle job
(core/operations/negotiate.py ``_refuse_explain``): a bare cluster is told its ``.0`` job,
and a queue of no idle job says why once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_negotiate import files  # noqa: F401  (the fixture)


def test_a_bare_cluster_is_told_its_first_job(
    files: Callable[..., list[str]],  # noqa: F811
    run: Any,
) -> None:
    """``--explain 106`` of a jobs file holding 106.0 said only "no idle job with that id";
    it now says a job id is CLUSTER.PROC and gives 106.0. Exit 2, nothing written."""
    args = files([{"id": "106.0", "owner": "a"}, {"id": "107.0", "owner": "b"}])
    result = run("negotiate", "--dry-run", "--explain", "106", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: --explain 106: no idle job with that id in jobs file {args[-1]} (a job id"
        " is CLUSTER.PROC: give 106.0 for the first job of cluster 106); idle jobs: 106.0,"
        " 107.0\n"
    )
    assert not Path(args[3]).exists()


def test_a_running_job_in_a_queue_of_none_idle_says_why_once(
    files: Callable[..., list[str]],  # noqa: F811
    run: Any,
) -> None:
    """``--explain 1`` of the one job, running, said "(only an idle job is negotiated
    for)" twice: after the job's status and again after "it holds no idle job"."""
    jobs = [{"id": "1", "owner": "a", "status": "running", "start_time": "2026-11-21T11:00:00Z"}]
    args = files(jobs)
    result = run("negotiate", "--dry-run", "--explain", "1", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: --explain 1: job 1 is running, not idle, in jobs file {args[-1]} (only an"
        " idle job is negotiated for); it holds no idle job\n"
    )
