"""``fs sprio`` factors against rules read in Slurm's ``priority_multifactor.c``
(``set_priority_factors``, ``_foreach_priority_factor_job``) and ``acct_policy.c``
(``acct_policy_handle_accrue_time``) that no capture exercises. Every expected line is
worked out by hand from those functions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
CONFIG = SPRIO_POOL + SPRIO_ACCOUNTS


def _pool(tmp_path: Path, jobs: list[dict[str, Any]], config: str = CONFIG) -> list[str]:
    return sprio_files(tmp_path, jobs, config)


def _job(job_id: str, age: int, **extra: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - age,
            **extra}  # fmt: skip


# Job 1 was submitted 600 s ago with a begin time an hour ahead; job 2 7,200 s ago, eligible
# 3,600 s ago; neither has an accrue time yet (as fs submit makes them).
BEGIN_JOBS = [
    _job("1", 600, eligible_time=NOW_EPOCH + 3600),
    _job("2", 7200, eligible_time=NOW_EPOCH - 3600),
]


def test_a_job_accrues_age_from_its_begin_time_and_is_listed_once_eligible(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Without ACCRUE_ALWAYS (and without enforced limits) the accrue time is the begin
    time, and sprio lists a job only once its begin time has passed: job 1 is not listed;
    job 2's AGE is 3600 / 604800 x 1000 = 5.95, printed 6."""
    result = run("sprio", "-o", "%.5i %.10A", *_pool(tmp_path, BEGIN_JOBS))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["JOBID        AGE", "    2          6"]


def test_accrue_always_counts_age_from_submission_and_lists_a_job_not_yet_eligible(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """ACCRUE_ALWAYS: the accrue time is the submit time and sprio lists a job once
    submitted: job 1's AGE 600 / 604800 x 1000 = 0.99 (1), job 2's 7200 / 604800 x 1000 =
    11.9 (12)."""
    config = CONFIG.replace('max_age = "7-0"\n', 'max_age = "7-0"\nflags = ["ACCRUE_ALWAYS"]\n')
    result = run("sprio", "-o", "%.5i %.10A", *_pool(tmp_path, BEGIN_JOBS, config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "JOBID        AGE",
        "    1          1",
        "    2         12",
    ]


def test_a_calc_period_past_slurmctlds_int_is_read_wrapped_as_slurmctld_reads_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """read_config.c stores PriorityCalcPeriod as time_str2mins(...) * 60, the seconds
    summed in an int: "100000000" minutes (6,000,000,000 s) wraps to 1,705,032,704 s,
    rounded up to 28,417,212 minutes: 1,705,032,720 s. A new state's passes fall on epoch
    multiples of it; the last by --now is 1,705,032,720 (2024-01-12T04:12:00Z), and AGE
    counts to it: a job submitted at 1,704,067,200 (2024-01-01) has waited 965,520 s, over
    max_age 100 days (8,640,000 s) 0.1117500, x 1000 = 111.75, printed 112 (fs read 6e9 s:
    its last pass was the epoch, before the job, AGE 0)."""
    config = CONFIG.replace('max_age = "7-0"', 'max_age = "100-0"\ncalc_period = "100000000"')
    jobs = [_job("1", NOW_EPOCH - 1704067200)]
    result = run("sprio", "-n", "-o", "%.5i %.10a %.10A", *_pool(tmp_path, jobs, config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "JOBID        AGE        AGE",
        "    1  0.1117500        112",
    ]


@pytest.mark.parametrize(
    ("period", "why"),
    [
        pytest.param(
            "50000000",
            '"50000000" overflows the int slurmctld reads it in (about 68 years or more): '
            '-21582787 minutes, refused ("Bad value" for PriorityCalcPeriod); a plain number '
            "is seconds",
            id="wraps-negative",
        ),
        pytest.param(
            "71582788",
            'Bad value "71582788" for PriorityCalcPeriod (must be at least 1 minute)',
            id="wraps-to-zero-minutes",
        ),
        pytest.param(
            "INFINITE",
            'Bad value "INFINITE" for PriorityCalcPeriod (expected a finite period)',
            id="infinite",
        ),
    ],
)
def test_a_calc_period_slurmctld_refuses_is_refused(
    tmp_path: Path, run: Callable[..., Any], period: str, why: str
) -> None:
    """slurmctld stops on a PriorityCalcPeriod below one minute ("Bad value"): "50000000"
    minutes (3,000,000,000 s) wraps to -1,294,967,296 s, (-1,294,967,296 + 59) / 60 =
    -21,582,787 minutes; "71582788" minutes (4,294,967,280 s) wraps to -16 s, (-16 + 59) /
    60 = 0 minutes; INFINITE is -1 minutes."""
    config = CONFIG.replace('max_age = "7-0"', f'max_age = "7-0"\ncalc_period = "{period}"')
    result = run("sprio", "-l", *_pool(tmp_path, [_job("1", 600)], config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {tmp_path / 'pool.toml'}: priority.calc_period: {why}\n"


#: Two one-slot nodes of 4 CPUs and 2 A100 GPUs (slurm.conf's Gres=gpu:a100:2) in batch.
GPU_POOL = (
    """
[pool]
defaults = "current"
[[machines]]
name = "gpu"
count = 2
attributes = { Cpus = 4, "gres/gpu:a100" = 2 }
partitions = ["batch"]
[partitions.batch]
default = true
[priority.weights]
tres = "CPU=1000,GRES/gpu=1000,GRES/gpu:a100=500"
"""
    + SPRIO_ACCOUNTS
)


def test_a_gres_weight_divides_the_jobs_count_by_its_partitions(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """_get_tres_factors divides a job's count of each TRES by its partition's, which
    _calc_part_tres sums over the partition's nodes; a typed GRES counts towards its
    name too, on a node and in a request (_set_type_tres_cnt). Batch: 8 CPUs, gres/gpu 4,
    gres/gpu:a100 4. Job 1 (1 CPU, gres/gpu:a100 1): cpu 1/8 x 1000 = 125, gres/gpu
    1/4 x 1000 = 250, gres/gpu:a100 1/4 x 500 = 125: PRIORITY 500 (fs counted no GPU in
    the partition nor gres/gpu in the job: 125). Job 2 (2 CPUs): cpu 2/8 x 1000 = 250."""
    jobs = [_job("1", 3600, attributes={"gres/gpu:a100": 1}), _job("2", 3600, request_cpus=2)]
    result = run("sprio", "-o", "%.5i %.10Y %.40T", *_pool(tmp_path, jobs, GPU_POOL))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "JOBID   PRIORITY                                     TRES",
        "    1        500   cpu=125,gres/gpu=250,gres/gpu:a100=125",
        "    2        250                                  cpu=250",
    ]


def test_a_partition_named_twice_gives_one_row(tmp_path: Path, run: Callable[..., Any]) -> None:
    """partition_mgr.c's get_part_list adds a partition to the job's list only once:
    ``-p batch,batch`` is one sprio row (fs printed two)."""
    jobs = [_job("1", 600, partition="batch,batch")]
    result = run("sprio", "-o", "%.5i %.9r", *_pool(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["JOBID PARTITION", "    1     batch"]


def test_a_max_age_past_slurmctlds_int_is_read_wrapped_as_slurmctld_reads_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """read_config.c stores PriorityMaxAge as time_str2mins(...) * 60 in a uint32_t, with
    time_str2secs summing seconds in an int: "100000000" minutes (6,000,000,000 s) wraps
    to 6e9 - 2^32 = 1,705,032,704 s, rounded up to 28,417,212 minutes: 1,705,032,720 s.
    A job waiting 1,705,033 s has AGE 1,705,033 / 1,705,032,720 = 0.0010000 (fs read
    6e9 s: 0.0002842)."""
    config = CONFIG.replace('max_age = "7-0"', 'max_age = "100000000"')
    result = run("sprio", "-n", "-o", "%.5i %.10a", *_pool(tmp_path, [_job("1", 1705033)], config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["JOBID        AGE", "    1  0.0010000"]


def test_a_max_age_slurmctld_refuses_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """PriorityMaxAge "50000000" minutes is 3,000,000,000 s, which time_str2secs's int wraps to
    -1,294,967,296; time_str2mins gives (-1,294,967,296 + 59) / 60 = -21,582,787 minutes,
    and read_config.c stops on a negative PriorityMaxAge ("Bad value")."""
    config = CONFIG.replace('max_age = "7-0"', 'max_age = "50000000"')
    result = run("sprio", "-l", *_pool(tmp_path, [_job("1", 600)], config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {tmp_path / "pool.toml"}: priority.max_age: "50000000" overflows the int '
        "slurmctld reads it in (about 68 years or more): -21582787 minutes, refused "
        '("Bad value" for PriorityMaxAge); a plain number is seconds\n'
    )
