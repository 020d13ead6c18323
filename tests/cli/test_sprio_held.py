"""``fs sprio`` leaves out a Slurm job of priority 0: it is held.

Read in Slurm's ``priority_multifactor.c`` (22.05 and 26.05 alike): the list sprio asks for
skips a job whose ``priority`` is 0 ("0 means the job is held"). ``scontrol update job
priority=0``, ``scontrol hold`` and ``sbatch --hold`` all hold a job so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

CONFIG = SPRIO_POOL + SPRIO_ACCOUNTS
NOW_EPOCH = 1795262400
Run = Callable[..., Any]


def _job(job_id: str, owner: str, **extra: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": owner, "account": "hep", "submit_time": NOW_EPOCH - 6048,
            **extra}  # fmt: skip


def test_sprio_leaves_out_a_job_of_admin_priority_zero(tmp_path: Path, run: Run) -> None:
    """``fs sprio --jobs-file jobs.json`` listed job 2, of ``"admin_priority": 0``, with
    PRIORITY 0; sprio lists no held job. Job 1 waited 6,048 s of PriorityMaxAge's 604,800:
    AGE 1000 × 0.01 = 10 (the sample pool weighs age alone)."""
    jobs = [_job("1", "alice"), _job("2", "bob", admin_priority=0), _job("3", "bob",
            admin_priority=7)]  # fmt: skip
    res = run("sprio", "-o", "%.5i %.8u %.10Y %.10A", *sprio_files(tmp_path, jobs, CONFIG))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        "JOBID     USER   PRIORITY        AGE",
        "    1    alice         10         10",
        "    3      bob          7          0",
    ]


def test_sprio_j_naming_only_a_held_job_prints_the_header(tmp_path: Path, run: Run) -> None:
    """``-j 2`` names a held job only: sprio's list has no row of it, the header alone."""
    jobs = [_job("1", "alice"), _job("2", "bob", admin_priority=0)]
    res = run("sprio", "-j", "2", "-o", "%.5i %.10Y", *sprio_files(tmp_path, jobs, CONFIG))
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "JOBID   PRIORITY\n"
