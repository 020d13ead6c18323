"""``partitions.NAME.default_time`` (``DefaultTime``): the time limit of a job that sets none.

slurmctld gives such a job its primary partition's ``DefaultTime`` when it takes it
(``_valid_job_part`` in ``job_mgr.c``, 22.05.11 and 26.05.3 alike: the first partition it
names, else the default one); with none it keeps no limit, and sprio's job size under
``SMALL_RELATIVE_TO_TIME`` divides by the partition's ``MaxTime`` instead
(``_set_priority_factors`` in ``priority_multifactor.c``). fs read no ``DefaultTime``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, sprio_files

Run = Callable[..., Any]
NOW_EPOCH = 1795262400
#: 2 nodes of 2 CPUs in batch (the default: MaxTime 100 minutes, DefaultTime 20) and
#: short (MaxTime 50 minutes, no DefaultTime); the job-size factor alone, relative to time.
POOL = """
[pool]
defaults = "current"
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 2
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch", "short"]
[partitions.batch]
default = true
max_time = "1:40:00"
default_time = "20"
[partitions.short]
max_time = "50:00"
[qos.normal]
priority = 0
[priority]
max_age = "7-0"
flags = ["SMALL_RELATIVE_TO_TIME"]
[priority.weights]
age = 0
jobsize = 1000
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
"""


def _job(job_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH, **fields}


def test_sprio_job_size_of_a_job_of_no_limit_uses_default_time(tmp_path: Path, run: Run) -> None:
    """By hand (``_set_priority_factors``, SMALL_RELATIVE_TO_TIME): a 1-CPU job of one
    node counts max(1 × 4 CPUs / 2 nodes, 1) = 2 CPUs, divided by its limit in minutes and
    by the cluster's 4 CPUs, × 1000 = 500 / minutes:

    - job 1, no partition, no limit: batch's DefaultTime 20 minutes: 25 (fs: its MaxTime
      100: 5);
    - job 2 in short, no limit: no DefaultTime, its MaxTime 50: 10;
    - job 3 in batch,short: its first, batch, gives it 20 minutes at submission, in both
      rows: 25 (fs: 5);
    - job 4, its own hour: 500 / 60 = 8.3, shown 8.
    """
    jobs = [
        _job("1"),
        _job("2", partition="short"),
        _job("3", partition="batch,short"),
        _job("4", time_limit="1:00:00"),
    ]
    res = run("sprio", "-o", "%.5i %9r %.10J", *sprio_files(tmp_path, jobs, POOL))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        "JOBID PARTITION    JOBSIZE",
        "    1 batch             25",
        "    2 short             10",
        "    3 batch             25",
        "    3 short             25",
        "    4 batch              8",
    ]


def test_default_time_above_max_time_is_refused(tmp_path: Path, run: Run) -> None:
    """slurmctld ignores such a DefaultTime ("DefaultTime exceeds MaxTime":
    ``_build_single_partitionline_info``); fs says so rather than guess."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL.replace('default_time = "20"', 'default_time = "2:00:00"'))
    refused(
        run("config", "check", "--config", str(config)),
        "partitions.batch.default_time: 02:00:00 exceeds max_time 01:40:00; slurmctld "
        "ignores such a DefaultTime: lower it or remove it",
    )


def test_default_time_zero_refuses_a_job_of_no_limit(tmp_path: Path, run: Run) -> None:
    """``DefaultTime=0`` makes users give a limit: sbatch is refused
    (``ESLURM_INVALID_TIME_LIMIT``); fs submit queued the job."""
    files = sprio_files(tmp_path, [], POOL.replace('default_time = "20"', "default_time = 0"))
    state = tmp_path / "state.json"
    before = state.read_text()
    submit = ("submit", "--owner", "alice", "--account", "hep", *files[:4], "--now", NOW)
    refused(
        run(*submit),
        'fs submit: job 1: sets no time limit and partition "batch" has DefaultTime 0; Slurm '
        'refuses it ("Requested time limit is invalid (missing or exceeds some limit)"): '
        "give it a time_limit",
    )
    assert state.read_text() == before
    assert run(*submit, "--time-limit", "10").exit_code == 0
