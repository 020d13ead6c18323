"""A job of several partitions asking a TRES one of them counts none of: sprio's row there
keeps the job's weighted factor and weighs it again; slurmctld's own order does not.

Hand-derived from ``priority_multifactor.c``: the job's factors are computed in its own
partition (``set_priority_factors``, ``job_ptr->part_ptr``) and weighted in place
(``_get_priority_internal``); sprio's row copies them, ``_get_tres_factors`` overwrites a
TRES entry only where the row's partition counts it, and ``_get_tres_prio_weighted``
weighs all. With 2 GPUs in gpu, none in cpu, ``GRES/gpu=10`` and ``cpu=2`` (8 CPUs a
partition), PriorityWeightPartition 100 and PriorityJobFactor 1 in gpu, 4 in cpu, a job of
1 GPU and 4 CPUs in ``cpu,gpu``: gpu's terms are 1/4 * 100 + 4/8 * 2 + 1/2 * 10 = 31,
cpu's 100 + 1 = 101, so the schedulers pop its gpu record last and leave it there: its
own partition (``sizing_partition``). cpu row: cpu 1 (counted there), gpu kept 5 and
weighed again, 50: 151. ``_priority_each_partition`` (the controller's
``priority_array``) starts each partition from zero: 101 there.
"""

from __future__ import annotations

from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.core.slurm.assoc_tree import AccountDef, build_tree
from fairshare_cli.core.slurm.fairshare import compute_fairshare
from fairshare_cli.core.slurm.priority import PartitionInfo, PriorityContext, QosInfo, Weights
from fairshare_cli.core.slurm.priority_table import compute_rows, compute_table

NOW = 8_640_000.0


def _context() -> PriorityContext:
    tree = build_tree([AccountDef("a", shares=1, users={"u1": 1})])
    compute_fairshare(tree, "fair_tree", capacity=1.0)
    return PriorityContext(
        weights=Weights(partition=100, tres={"cpu": 2.0, "gres/gpu": 10.0}),
        max_age=7 * 86400.0,
        favor_small=False,
        flags=frozenset({"FAIR_TREE"}),
        algorithm="fair_tree",
        tree=tree,
        partitions={
            "gpu": PartitionInfo("gpu", 1, tres={"cpu": 8.0, "gres/gpu": 2.0}),
            "cpu": PartitionInfo("cpu", 4, tres={"cpu": 8.0}),
        },
        qos={"normal": QosInfo("normal", 0)},
        node_count=2,
        cluster_cpus=16,
        default_partition="cpu",
    )


def _jobs() -> list[Job]:
    job = {"id": "1", "owner": "u1", "account": "a", "partition": "cpu,gpu", "request_cpus": 4,
           "submit_time": NOW - 3600, "attributes": {"gres/gpu": 1}}  # fmt: skip
    return parse_jobs([job], "jobs")


def test_sprios_row_weighs_the_jobs_gpu_factor_again() -> None:
    rows = compute_table(_jobs(), _context(), NOW).rows()
    assert [(r.partition, r.tres_f, r.tres_w, r.priority) for r in rows] == [
        ("cpu", {"cpu": 0.5, "gres/gpu": 5.0}, {"cpu": 1.0, "gres/gpu": 50.0}, 151),
        ("gpu", {"cpu": 0.5, "gres/gpu": 0.5}, {"cpu": 1.0, "gres/gpu": 5.0}, 31),
    ]


def test_the_controllers_rows_weigh_nothing_twice() -> None:
    rows = compute_rows(_jobs(), _context(), NOW)
    assert [(r.partition, r.tres_w, r.priority) for r in rows] == [
        ("cpu", {"cpu": 1.0, "gres/gpu": 0.0}, 101),
        ("gpu", {"cpu": 1.0, "gres/gpu": 5.0}, 31),
    ]
