"""A job that names no partition: one rule for every Slurm reader (core/slurm/partition.py).

slurmctld (22.05.11 and 26.05.3 alike) makes the *last* ``Default=YES`` partition the
default (``_build_single_partitionline_info`` in ``read_config.c`` moves
``default_part_loc`` to each ``Default=YES`` line, clearing the one before), and refuses a
job naming no partition when none is (``_get_job_parts`` in ``job_mgr.c``:
``ESLURM_DEFAULT_PARTITION_NOT_SET``). ``fs sprio`` took the *first* ``Default=YES``, and
with none the first partition; billing the first ``Default=YES``; ``fs simulate`` every
``Default=YES`` partition, else all of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, sprio_files

Run = Callable[..., Any]
NOW_EPOCH = 1795262400
#: Two partitions on the same 2 nodes of 2 CPUs; the PARTITION factor alone.
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
priority_job_factor = 1
[partitions.short]
priority_job_factor = 2
[qos.normal]
priority = 0
[priority]
max_age = "7-0"
[priority.weights]
age = 0
partition = 1000
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
"""
BOTH_DEFAULT = POOL.replace("[partitions.batch]\n", "[partitions.batch]\ndefault = true\n").replace(
    "[partitions.short]\n", "[partitions.short]\ndefault = true\n"
)
JOB = {"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH}
REFUSAL = (
    "job 1: names no partition, and no partition (batch, short) is the default; Slurm "
    'refuses it ("No partition specified or system default partition"): give the job a '
    "partition, or set default = true on one"
)


def test_sprio_refuses_a_job_of_no_partition_where_none_is_default(
    tmp_path: Path, run: Run
) -> None:
    """``fs sprio --jobs-file jobs.json`` listed the job in batch, the first partition
    (PRIORITY 500: factor 1 of the largest 2, × 1000), where sbatch refuses it."""
    refused(run("sprio", *sprio_files(tmp_path, [JOB], POOL)), f"jobs.json: {REFUSAL}")


def test_sprio_puts_a_job_of_no_partition_in_the_last_default(tmp_path: Path, run: Run) -> None:
    """Two ``Default=YES`` partitions: the job is short's (factor 2 of 2, × 1000 = 1000);
    fs took batch, the first (500)."""
    res = run("sprio", *sprio_files(tmp_path, [JOB], BOTH_DEFAULT))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        "          JOBID PARTITION   PRIORITY       SITE  PARTITION",
        "              1 short           1000          0       1000",
    ]


def test_simulate_slurm_refuses_it_and_the_htcondor_views_take_it(tmp_path: Path, run: Run) -> None:
    """``fs simulate --scheduler slurm`` ran the job on any node of either partition; now
    it is refused as sbatch refuses it. The same jobs file still serves HTCondor's views:
    ``fs negotiate --jobs-file`` matches the job, ``fs simulate --scheduler htcondor``
    runs it."""
    files = sprio_files(tmp_path, [JOB], POOL)
    work = tmp_path / "work.json"
    work.write_text(json.dumps([{**JOB, "run_time": 600}]), encoding="utf-8")
    simulate = ("simulate", "--workload", str(work), "--until", "0:10:00", "--cycle", "300")
    refused(run(*simulate, "--scheduler", "slurm", *files[:4], "--now", NOW), REFUSAL)
    res = run(*simulate, "--scheduler", "htcondor", "--json", *files[:4], "--now", NOW)
    assert res.exit_code == 0, res.stderr
    res = run("negotiate", "--dry-run", "--json", *files)
    assert res.exit_code == 0, res.stderr
    assert [m["job_id"] for m in json.loads(res.stdout)["matches"]] == ["1"]


def test_submit_refuses_a_slurm_job_of_no_partition_where_none_is_default(
    tmp_path: Path, run: Run
) -> None:
    """``fs submit --owner alice --account hep`` queued it; sbatch refuses it. A job that
    names no account, QOS or partition may be HTCondor's or DIRAC's: it is queued (the
    Slurm views refuse it)."""
    files = sprio_files(tmp_path, [], POOL)[:4]
    state = tmp_path / "state.json"
    before = state.read_text()
    res = run("submit", "--owner", "alice", "--account", "hep", *files, "--now", NOW)
    refused(res, f"fs submit: {REFUSAL}")
    assert state.read_text() == before
    res = run("submit", "--owner", "alice", *files, "--now", NOW)
    assert res.exit_code == 0, res.stderr
    assert [job["id"] for job in json.loads(state.read_text())["jobs"]] == ["1"]


def test_simulate_slurm_names_the_file_the_job_came_from(tmp_path: Path, run: Run) -> None:
    """``fs simulate --scheduler slurm --workload work.json`` said ``job 1: names no
    partition, ...`` (and so for a job of the state's queue), where ``fs sprio`` names its
    file first: it says ``work.json: job 1: ...`` and ``state file state.json: jobs: job 1:
    ...`` too, before the first cycle, a job submitted an hour into the run included."""
    files = sprio_files(tmp_path, [], POOL)[:4]
    work = tmp_path / "work.json"
    later = {**JOB, "submit_time": NOW_EPOCH + 3600, "time_limit": 600}
    work.write_text(json.dumps([later]), encoding="utf-8")
    simulate = ("simulate", "--scheduler", "slurm", "--until", "2:00:00", "--cycle", "300")
    res = run(*simulate, "--workload", str(work), *files, "--now", NOW)
    refused(res, f"{work}: {REFUSAL}")
    res = run("submit", "--owner", "alice", *files, "--now", NOW)  # (queued, with a warning)
    assert res.exit_code == 0, res.stderr
    refused(run(*simulate, *files, "--now", NOW), f"state file {files[3]}: jobs: {REFUSAL}")
