"""``fs simulate --scheduler slurm`` walks the queue as slurmctld's scheduler does: a record
a job, partition and QOS (``build_job_queue`` in ``src/slurmctld/job_scheduler.c``:
``_build_job_queue_for_part`` over the job's partitions, ``_build_job_queue_for_qos`` over
its QOS, each with the priority of that pair, ``priority_array``), sorted by the partition's
``PriorityTier`` (highest first), then that priority, then submit time, then job id
(``sort_job_queue2``).
Each record tries its job in its partition only; a job started by an earlier record is
passed (``IS_JOB_PENDING``), and a job of several QOS runs under its record's.

The pool, by hand: node n1 (8 CPUs) in batch, express and tiered; n2 (8 CPUs) in batch
only. Weights: partition 1000, QOS 400, the others 0, so a record's priority is
1000 × PriorityJobFactor / 2 (the largest) + 400 × the QOS's priority / 10 (the largest):
batch 500, express 1000, tiered 0 (floored to 1: ``priority_p_set`` keeps 0 for held jobs),
QOS mid + 200, high + 400. Cycles of 5 minutes; each job runs 10 minutes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

T0 = 1795303800  # 2026-11-21T23:30:00Z
POOL = """\
[pool]
name = "records"

[priority]
fairshare = "fair_tree"

[priority.weights]
age = 0
fairshare = 0
jobsize = 0
partition = 1000
qos = 400

[[machines]]
name = "n1"
partitions = ["batch", "express", "tiered"]
attributes = { Cpus = 8 }

[[machines]]
name = "n2"
partitions = ["batch"]
attributes = { Cpus = 8 }

[partitions.batch]
priority_job_factor = 1
default = true

[partitions.express]
priority_job_factor = 2

[partitions.tiered]
priority_job_factor = 0
priority_tier = 2

[qos.normal]
priority = 0

[qos.mid]
priority = 5

[qos.high]
priority = 10
usage_factor = 2.0

[accounts.a]
users = { u1 = 1, u2 = 1, u3 = 1 }
"""


def _simulate(
    tmp_path: Path,
    run: Callable[..., Any],
    jobs: list[dict[str, Any]],
    pool: str = POOL,
    until: str = "10:00",
) -> Any:
    """Per cycle time (HH:MM), each user's (CPUs in use, pending jobs, fair-share factor)."""
    config = tmp_path / "pool.toml"
    config.write_text(pool)
    work = tmp_path / "work.json"
    common = {"account": "a", "request_cpus": 8, "run_time": 600, "submit_time": T0}
    work.write_text(json.dumps([{**common, **job} for job in jobs]))
    result = run("simulate", "--config", str(config), "--state", str(tmp_path / "s.json"),
                 "--now", "2026-11-21T23:30:00Z", "--workload", str(work), "--scheduler",
                 "slurm", "--until", until, "--cycle", "300", "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out: dict[str, dict[str, tuple[float, int, float]]] = {}
    for row in json.loads(result.stdout):
        if row["kind"] == "slurm_user":
            at = out.setdefault(row["time"][11:16], {})
            at[row["name"]] = (row["slots"], row["pending"], round(row["fairshare"], 6))
    return out


def test_a_record_of_lower_priority_waits_for_the_records_above_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Records: job 1 express 1000, job 2 express 1000, job 3 batch 700 (mid), job 2 batch
    500. At 23:30 job 1 takes n1; job 2's express record finds n1 full (express blocked);
    job 3 takes n2; job 2's batch record finds both full: job 2 starts at 23:40, when jobs
    1 and 3 end. fs tried job 2 at its best priority in all its partitions: it took n2
    and job 3 (700, above job 2's batch 500) waited."""
    held = _simulate(tmp_path, run, [
        {"id": "1", "owner": "u1", "partition": "express"},
        {"id": "2", "owner": "u2", "partition": "batch,express"},
        {"id": "3", "owner": "u3", "partition": "batch", "qos": "mid"},
    ])  # fmt: skip
    assert {u: v[:2] for u, v in held["23:30"].items()} == {
        "u1": (8, 0), "u2": (0, 1), "u3": (8, 0)
    }  # fmt: skip
    assert {u: v[:2] for u, v in held["23:40"].items()} == {
        "u1": (0, 0), "u2": (8, 0), "u3": (0, 0)
    }  # fmt: skip


def test_a_higher_tier_goes_first_whatever_its_priority(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Job 1 (batch, 2 nodes, 16 CPUs: priority 500) and job 2 (tiered, 8 CPUs: priority
    1, tier 2). The tier sorts first: job 2 takes n1 at 23:30 and job 1, needing n1 and
    n2, starts at 23:40. fs started job 1 first, by priority, and job 2 waited."""
    held = _simulate(tmp_path, run, [
        {"id": "1", "owner": "u1", "partition": "batch", "num_nodes": 2, "request_cpus": 16},
        {"id": "2", "owner": "u2", "partition": "tiered"},
    ])  # fmt: skip
    assert (held["23:30"]["u1"][:2], held["23:30"]["u2"][:2]) == ((0, 1), (8, 0))
    assert (held["23:40"]["u1"][:2], held["23:40"]["u2"][:2]) == ((16, 0), (0, 0))


@pytest.mark.parametrize(
    ("qos", "factors"), [("normal,high", (0.666667, 0.666667)), ("normal", (0.666667, 0.333333))]
)
def test_a_job_of_several_qos_runs_under_its_records(
    tmp_path: Path, run: Callable[..., Any], qos: str, factors: tuple[float, float]
) -> None:
    """Job 1 (u1) of QOS ``normal,high`` has records high (batch: 900) then normal (500);
    the first starts it, under high, whose usage factor is 2: at the 23:35 decay pass u1
    was charged what u2's job of QOS high was (8 CPUs × 2), and Fair Tree ranks u1 and u2
    alike below u3 (no usage, rank 3 of 3): 2/3 each (a tie takes the higher rank). Under
    normal alone u1 has half u2's usage and ranks between: 2/3 and 1/3. fs refused a job
    of several QOS ("fs simulate runs a job under one QOS")."""
    held = _simulate(tmp_path, run, [
        {"id": "1", "owner": "u1", "partition": "batch", "qos": qos},
        {"id": "2", "owner": "u2", "partition": "batch", "qos": "high"},
    ])  # fmt: skip
    assert (held["23:30"]["u1"][:2], held["23:30"]["u2"][:2]) == ((8, 0), (8, 0))
    assert (held["23:35"]["u1"][2], held["23:35"]["u2"][2]) == factors
    assert held["23:35"]["u3"][2] == 1.0


def test_a_job_its_partition_limits_hold_back_never_starts(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``MaxNodes=1`` on batch: job 1 (u1, 2 nodes, 16 CPUs) would fit n1 and n2, but
    ``job_limits_check`` holds it back there (``PartitionNodeLimit``) and
    ``_job_runnable_test2`` leaves its record out of the queue: it pends at every cycle,
    and job 2 (u2, one node) runs. fs ran job 1 at 23:30. So with ``MaxTime=10`` (minutes)
    and job 1's time limit 11 minutes (``PartitionTimeLimit``)."""
    pool = POOL.replace("default = true\n", "default = true\nmax_nodes = 1\n", 1)
    held = _simulate(tmp_path, run, [
        {"id": "1", "owner": "u1", "partition": "batch", "num_nodes": 2, "request_cpus": 16},
        {"id": "2", "owner": "u2", "partition": "batch", "num_nodes": 1},
    ], pool)  # fmt: skip
    assert (held["23:30"]["u1"][:2], held["23:30"]["u2"][:2]) == ((0, 1), (8, 0))
    assert (held["23:40"]["u1"][:2], held["23:40"]["u2"][:2]) == ((0, 1), (0, 0))
    pool = POOL.replace("default = true\n", 'default = true\nmax_time = "10"\n', 1)
    held = _simulate(tmp_path, run, [
        {"id": "1", "owner": "u1", "partition": "batch", "num_nodes": 2, "request_cpus": 16,
         "time_limit": 660},
        {"id": "2", "owner": "u2", "partition": "batch", "num_nodes": 1, "time_limit": 600},
    ], pool)  # fmt: skip
    assert (held["23:30"]["u1"][:2], held["23:30"]["u2"][:2]) == ((0, 1), (8, 0))


def test_a_job_of_several_qos_in_one_partition_sorts_at_its_lowest(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Job 0 (u3, 16 CPUs on n1 and n2) runs 23:30-23:40. Jobs 1 (u1, QOS ``normal,high``)
    and 2 (u2, QOS mid), each 16 CPUs on 2 nodes, come at 23:31. From the 23:35 pass on,
    ``sort_job_queue2`` puts job 1's two records (one partition: no ``part_ptr_list``) at
    the job's priority, which the pass computed under the QOS slurmctld last tried it
    under, normal (its lowest): 500 (batch) + 0; job 2's is 500 + 200 = 700. At 23:40
    job 2 starts and job 1 waits for 23:50. fs sorted job 1's high record at its own 900
    and started job 1 first."""
    late = T0 + 60
    held = _simulate(tmp_path, run, [
        {"id": "0", "owner": "u3", "partition": "batch", "num_nodes": 2, "request_cpus": 16},
        {"id": "1", "owner": "u1", "partition": "batch", "qos": "normal,high", "num_nodes": 2,
         "request_cpus": 16, "submit_time": late},
        {"id": "2", "owner": "u2", "partition": "batch", "qos": "mid", "num_nodes": 2,
         "request_cpus": 16, "submit_time": late},
    ], until="20:00")  # fmt: skip
    assert {u: v[:2] for u, v in held["23:40"].items()} == {
        "u1": (0, 1), "u2": (16, 0), "u3": (0, 0)
    }  # fmt: skip
    assert {u: v[:2] for u, v in held["23:50"].items()} == {
        "u1": (16, 0), "u2": (0, 0), "u3": (0, 0)
    }  # fmt: skip


def test_records_of_one_priority_go_by_submit_time_then_job_id(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Jobs 2 (u2) and 3 (u3), express, priority 1000 each (age weight 0), for n1's 8
    CPUs; job 3 was submitted 10 minutes before job 2 (both queued when the run starts at
    23:30). ``sort_job_queue2`` takes the earlier submit time before the lower job id
    (22.05 and today alike): job 3 runs first, 23:30 to 23:40, then job 2. Before: job 2,
    the lower id, ran first."""
    held = _simulate(tmp_path, run, [
        {"id": "2", "owner": "u2", "partition": "express"},
        {"id": "3", "owner": "u3", "partition": "express", "submit_time": T0 - 600},
    ])  # fmt: skip
    assert (held["23:30"]["u2"][:2], held["23:30"]["u3"][:2]) == ((0, 1), (8, 0))
    assert (held["23:40"]["u2"][:2], held["23:40"]["u3"][:2]) == ((8, 0), (0, 0))


def test_a_failed_partition_closes_its_nodes_to_lower_records(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Records at 23:30 (no backfill): job 0 (u3, tiered: tier 2 first) takes 4 of n1's 8
    CPUs; job 1 (u1, express 1000, 8 CPUs) finds n1 short: ``_schedule`` fails express and
    takes its node n1 out of ``avail_node_bitmap``; job 2 (u2, batch, QOS high: 900, 8
    CPUs) takes n2; job 3 (u3, batch 500, 4 CPUs) would fit n1's 4 free CPUs, but n1 is
    closed and n2 full: it waits, and starts at 23:40 when job 0 ends. fs started it on n1
    at 23:30 (u3 8 CPUs, nothing pending)."""
    held = _simulate(tmp_path, run, [
        {"id": "0", "owner": "u3", "partition": "tiered", "request_cpus": 4},
        {"id": "1", "owner": "u1", "partition": "express"},
        {"id": "2", "owner": "u2", "partition": "batch", "qos": "high"},
        {"id": "3", "owner": "u3", "partition": "batch", "request_cpus": 4},
    ])  # fmt: skip
    assert {u: v[:2] for u, v in held["23:30"].items()} == {
        "u1": (0, 1), "u2": (8, 0), "u3": (4, 1)
    }  # fmt: skip
