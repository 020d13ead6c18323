"""fs simulate --scheduler htcondor runs a Slurm job on the machines of its partitions only.

``fs negotiate`` bounds a Slurm job to the machines of its partitions (slurmctld gives a job
nodes of its partition alone: ``_build_node_list`` ANDs every node set with the
partition's ``node_bitmap``); the simulation's negotiation cycles, run forward, do the same.
Before, the simulated cycles matched Slurm jobs on any machine of the pool.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_running_slurm_nodes import TWO_PARTITIONS

Run = Callable[..., Any]
NOW = "2026-11-21T12:00:00Z"

#: Two one-slot machines of 4 CPUs, one in partition a (the default), one in b.
POOL = TWO_PARTITIONS


def _rows(stdout: str) -> dict[str, list[str]]:
    """The summary's rows by kind: the words after the name."""
    return {line.split()[0]: line.split()[2:] for line in stdout.splitlines()[2:]}


def _simulate(tmp_path: Path, run: Run, jobs: str, *extra: str) -> Any:
    cfg, workload = tmp_path / "pool.toml", tmp_path / "wl.json"
    cfg.write_text(POOL)
    workload.write_text(jobs)
    return run(
        "simulate", "--workload", str(workload), "--until", "60", "--cycle", "60",
        "--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW, *extra,
    )  # fmt: skip


def test_slurm_jobs_of_one_partition_wait_for_its_machine(tmp_path: Path, run: Run) -> None:
    """Two 4-CPU jobs of partition b: only nb (one slot, 4 CPUs) is b's, so one runs and
    one waits, cycle after cycle: 1 slot, 4 CPUs for u1, 1 pending. Before, the second
    ran on na, of partition a: 2 slots, 8 CPUs, none pending. ``--scheduler slurm`` agrees
    (4 CPUs, 1 pending)."""
    jobs = '[{"id": "1", "owner": "u1", "account": "acc", "partition": "b",'
    jobs += ' "request_cpus": 4, "run_time": 3600, "count": 2}]'
    res = _simulate(tmp_path, run, jobs)
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["submitter"][:3] == ["1.00", "1", "1"]
    assert rows["submitter"][-1] == "1"
    assert rows["slurm_user"][:3] == ["4.00", "4", "4"]
    assert rows["pool"] == ["1.00", "1", "1", "1"]
    res = _simulate(tmp_path, run, jobs, "--scheduler", "slurm")
    assert res.exit_code == 0, res.stderr
    assert _rows(res.stdout)["pool"] == ["4.00", "4", "4", "1"]


def test_a_job_of_two_partitions_runs_on_either(tmp_path: Path, run: Run) -> None:
    """Jobs of ``b,a`` may take both machines: 2 slots, 8 CPUs, none pending; an HTCondor
    job (no account, partition or QOS, owner with no association) any machine too."""
    jobs = '[{"id": "1", "owner": "u1", "account": "acc", "partition": "b,a",'
    jobs += ' "request_cpus": 4, "run_time": 3600, "count": 2}]'
    res = _simulate(tmp_path, run, jobs)
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["slurm_user"][:3] == ["8.00", "8", "8"]
    assert rows["pool"] == ["2.00", "2", "2", "0"]
    jobs = '[{"id": "1", "owner": "zed", "request_cpus": 4, "run_time": 3600, "count": 2}]'
    res = _simulate(tmp_path, run, jobs)
    assert res.exit_code == 0, res.stderr
    assert _rows(res.stdout)["pool"] == ["2.00", "2", "2", "0"]


def test_slurm_jobs_share_a_node_as_in_fs_negotiate(tmp_path: Path, run: Run) -> None:
    """Two 1-CPU jobs of partition b on nb (one slot, 4 CPUs): the first takes the slot,
    the second runs beside it on the node's free CPUs with no claim (``slurm_beside``, as
    ``fs negotiate`` starts it): 1 slot, 2 CPUs, none pending. Before: 1 slot, 1 CPU, 1
    pending. ``--scheduler slurm`` agrees (2 CPUs, none pending)."""
    jobs = '[{"id": "1", "owner": "u1", "account": "acc", "partition": "b",'
    jobs += ' "request_cpus": 1, "run_time": 3600, "count": 2}]'
    res = _simulate(tmp_path, run, jobs)
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["submitter"][:3] == ["1.00", "1", "1"]
    assert rows["submitter"][-1] == "0"
    assert rows["slurm_user"][:3] == ["2.00", "2", "2"]
    assert rows["pool"] == ["1.00", "1", "1", "0"]
    res = _simulate(tmp_path, run, jobs, "--scheduler", "slurm")
    assert res.exit_code == 0, res.stderr
    assert _rows(res.stdout)["pool"] == ["2.00", "2", "2", "0"]


def test_a_job_beside_ends_and_frees_its_cpus(tmp_path: Path, run: Run) -> None:
    """Job 2 runs beside job 1 and ends after its 60 seconds; job 1's claim holds the
    slot throughout (1 slot at every cycle). Cycles at 0, 60 and 120 s: 2 CPUs, then 1
    (job 2 ended at 60 s, seen at that cycle), then 1: mean 4/3, largest 2, last 1."""
    jobs = '[{"id": "1", "owner": "u1", "account": "acc", "partition": "b",'
    jobs += ' "request_cpus": 1, "run_time": 3600},'
    jobs += ' {"id": "2", "owner": "u1", "account": "acc", "partition": "b",'
    jobs += ' "request_cpus": 1, "run_time": 60}]'
    cfg, workload = tmp_path / "pool.toml", tmp_path / "wl.json"
    cfg.write_text(POOL)
    workload.write_text(jobs)
    res = run(
        "simulate", "--workload", str(workload), "--until", "120", "--cycle", "60",
        "--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["submitter"][:3] == ["1.00", "1", "1"]
    assert rows["slurm_user"][:3] == ["1.33", "2", "1"]
