"""A job's ``time_limit`` of 0 is INFINITE, wherever a job object is read.

sbatch, salloc and srun read ``--time=0`` as INFINITE (``arg_set_time_limit`` in
``src/common/slurm_opt.c``), and what Slurm prints for a job without a limit is never 0:
``scontrol show jobs`` prints ``TimeLimit=UNLIMITED``, 22.05's ``squeue --json`` a null
``time_limit``, 26.05's ``{"set": false, "infinite": true, "number": 0}`` (the 26.05.3
capture's pending jobs). ``fs submit --time-limit 0`` read it so; ``--set time_limit=0``,
``--file`` and ``--jobs-file`` kept a limit of 0 seconds, which ended a simulated job as it
started and gave it the job-size factor of a 1-minute limit.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

Run = Callable[..., Any]
NOW_EPOCH = 1795262400
#: Job size alone, relative to the time limit (PriorityFlags=SMALL_RELATIVE_TO_TIME).
CONFIG = (
    SPRIO_POOL.replace("age = 1000", "age = 0\njobsize = 1000").replace(
        'max_age = "7-0"', 'max_age = "7-0"\nflags = ["SMALL_RELATIVE_TO_TIME"]'
    )
    + SPRIO_ACCOUNTS
)


@pytest.mark.parametrize(
    "given", [["--set", "time_limit=0"], ["--set", "time_limit=0:00"], ["--time-limit", "0"]]
)
def test_submit_stores_a_limit_of_zero_as_infinite(
    tmp_path: Path, run: Run, given: list[str]
) -> None:
    args = [*sprio_files(tmp_path, [], CONFIG)[:4], "--now", NOW]
    res = run("submit", "--owner", "alice", "--account", "hep", *given, *args)
    assert res.exit_code == 0, res.stderr
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [job["time_limit"] for job in jobs] == ["INFINITE"]


def test_sprio_job_size_of_a_zero_limit_is_that_of_no_limit(tmp_path: Path, run: Run) -> None:
    """``fs sprio --jobs-file jobs.json`` printed JOBSIZE 500 for ``"time_limit": 0``.

    By hand (``set_priority_factors``, SMALL_RELATIVE_TO_TIME): 2 nodes of 2 CPUs, so a
    1-CPU job of one node counts max(1 × 4 / 2, 1) = 2 CPUs, divided by its limit in
    minutes and by the cluster's 4 CPUs. No limit (INFINITE, 4294967295 minutes):
    2 / 4294967295 / 4 ≈ 1.2e-10, JOBSIZE 0; one hour: 2 / 60 / 4 = 0.00833, JOBSIZE 8;
    the old 0 seconds was taken as 1 minute: 2 / 1 / 4 = 0.5, JOBSIZE 500."""
    jobs = [
        {"id": str(k), "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH,
         "time_limit": limit}
        for k, limit in enumerate([0, "0", "INFINITE", "1:00:00"], start=1)
    ]  # fmt: skip
    res = run("sprio", "-o", "%.5i %.10J", *sprio_files(tmp_path, jobs, CONFIG))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        "JOBID    JOBSIZE",
        "    1          0",
        "    2          0",
        "    3          0",
        "    4          8",
    ]


def test_simulate_runs_a_job_of_zero_limit_its_run_time(tmp_path: Path, run: Run) -> None:
    """``fs simulate --scheduler slurm``: a workload job of ``"time_limit": 0`` and a
    10-minute run time ended as it started; unlimited, it holds its CPU 600 s."""
    args = [*sprio_files(tmp_path, [], CONFIG)[:4], "--now", NOW]
    work = [{"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW,
             "run_time": 600, "time_limit": 0}]  # fmt: skip
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--until", "0:10:00",
              "--cycle", "300", "--scheduler", "slurm", "--json", *args)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    held = [(row["time"], row["slots"]) for row in json.loads(res.stdout) if row["kind"] == "pool"]
    assert held == [
        ("2026-11-21T12:00:00Z", 1.0),
        ("2026-11-21T12:05:00Z", 1.0),
        ("2026-11-21T12:10:00Z", 0.0),
    ]
