"""sprio's rows of a job of several partitions whose priority an admin set, under Slurm
22.05's rules (``PriorityContext.admin_parts_zeroed``), and the controller's order of it.

Hand-derived from 22.05's ``priority_multifactor.c``: ``_get_priority_internal`` zeroes a
``direct_set_prio`` job's factors at each pass; ``_filter_job`` gives such a job of one
partition its ``direct_prio`` but one of several the zeroed factors with each partition's
``norm_priority * weight_part``: batch 1/4 * 1000 = 250, express 4/4 * 1000 = 1000; its
site and nice are ``0 - NICE_OFFSET`` (-2^31); sprio's PRIORITY is their sum, 250 and
1000. slurmctld itself still orders the job by the admin's priority (``update_job`` sets
every ``priority_array`` entry to it, and the pass leaves them), as ``compute_rows`` does.
"""

from __future__ import annotations

from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.core.slurm.assoc_tree import AccountDef, build_tree
from fairshare_cli.core.slurm.fairshare import compute_fairshare
from fairshare_cli.core.slurm.priority import PartitionInfo, PriorityContext, QosInfo, Weights
from fairshare_cli.core.slurm.priority_table import TableBuilder, compute_rows

NOW = 8_640_000.0


def _context(zeroed: bool) -> PriorityContext:
    tree = build_tree([AccountDef("a", shares=1, users={"u1": 1})])
    compute_fairshare(tree, "fair_tree", capacity=1.0)
    return PriorityContext(
        weights=Weights(age=1000, fairshare=10000, jobsize=1000, partition=1000),
        max_age=7 * 86400.0,
        favor_small=False,
        flags=frozenset({"FAIR_TREE"}),
        algorithm="fair_tree",
        tree=tree,
        partitions={
            "batch": PartitionInfo("batch", 1, tres={"cpu": 32.0}),
            "express": PartitionInfo("express", 4, tres={"cpu": 32.0}),
        },
        qos={"normal": QosInfo("normal", 0)},
        node_count=4,
        cluster_cpus=32,
        default_partition="batch",
        admin_parts_zeroed=zeroed,
    )


def _jobs(partition: str) -> list[Job]:
    job = {"id": "5", "owner": "u1", "account": "a", "partition": partition, "nice": 10,
           "submit_time": NOW - 3600, "admin_priority": 100000}  # fmt: skip
    return parse_jobs([job], "jobs")


def _listed(ctx: PriorityContext, partition: str) -> list[tuple[object, ...]]:
    builder = TableBuilder(ctx, NOW)
    builder.add(_jobs(partition))
    table = builder.table()
    return [
        (r.partition, r.priority, r.site, r.nice, r.admin, r.wt, r.tres_w) for r in table.rows()
    ]


def test_22_05_sprio_shows_each_partitions_factor_and_zeroed_rest() -> None:
    zeros = (0.0, 0.0, 0.0, 0.0)
    assert _listed(_context(True), "batch,express") == [
        ("batch", 250, -(2**31), -(2**31), False, (*zeros[:4], 250.0, 0.0), {}),
        ("express", 1000, -(2**31), -(2**31), False, (*zeros[:4], 1000.0, 0.0), {}),
    ]


def test_22_05_sprio_shows_the_admins_priority_for_one_partition() -> None:
    assert _listed(_context(True), "express") == [
        ("express", 100000, 0, 0, True, (0.0,) * 6, {}),
    ]


def test_today_and_the_controllers_order_keep_the_admins_priority() -> None:
    admin = [("batch", 100000, True), ("express", 100000, True)]
    assert [(p, pr, a) for p, pr, _, _, a, _, _ in _listed(_context(False), "batch,express")] == (
        admin
    )
    rows = compute_rows(_jobs("batch,express"), _context(True), NOW)
    assert [(r.partition, r.priority, r.admin) for r in rows] == admin
