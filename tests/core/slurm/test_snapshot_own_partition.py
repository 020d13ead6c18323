"""The printed priority of a job of several partitions is checked against its own
partition's, the one slurmctld sums it in (``_get_priority_internal``:
``job_ptr->part_ptr``), not its first named.

Hand-derived: the classic cluster of ``test_snapshot.py`` (u2's weighted fair share
10000 · 2^(-4/3) = 3968.50), PriorityWeightPartition 1000, PriorityJobFactor 1 in batch
and 4 in express (250 and 1000): a job of ``express,batch`` queued before the pass at T
is in batch there, whose priority the schedulers pop last (``sort_job_queue2``: of one
tier the higher priority first) and set: 3968.50 + 250, 4218. One queued after the pass
still has the priority ``job_allocate`` gave it in its first named, express: 4968. fs
compared both with express's 4968 and took the first's printed 4218 for a site factor of
-750 (``--site-factor-from-priority``).

A job of several QOS (Slurm 24.11 on) likewise: the schedulers try it under each, highest
priority first, setting ``job_ptr->qos_ptr`` and its priority to each record's, so once
a pass has run it is summed under its lowest: with QOS priorities 10 and 100 over 100,
weighted by 1000, ``high,low`` is 3968.50 + 100, 4068, not high's 4968 (fs's before).
"""

from __future__ import annotations

import math

import msgspec

from fairshare_cli.core.config import (
    AccountSpec,
    Config,
    PartitionSpec,
    PriorityWeights,
    QosSpec,
    SlurmPriorityConfig,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.snapshot import PriorityMismatch, priority_mismatches, site_factors
from fairshare_cli.core.slurm.usage import RunningCharge, SlurmUsage

T = 1_795_303_160.0  # a decay pass


def _cluster() -> tuple[Config, SlurmUsage]:
    config = Config(
        priority=SlurmPriorityConfig(
            fairshare="classic",
            decay_halflife=600.0,
            calc_period=60.0,
            weights=PriorityWeights(fairshare=10000, partition=1000),
        ),
        accounts={
            "A": AccountSpec("A", shares=1, users={"u1": 1, "u2": 1}),
            "B": AccountSpec("B", shares=1, users={"u3": 1}),
        },
        partitions={
            "batch": PartitionSpec("batch", default=True),
            "express": PartitionSpec("express", priority_job_factor=4),
        },
    )
    q = (1 - 0.693 / 600) ** 60
    state = SlurmUsage(
        last_decay_ran=T,
        usage={("A", "u1"): 600.0 * q, ("A", "u2"): 240.0 * q, ("B", "u3"): 600.0 * q},
        running=(RunningCharge("A", "u2", 4.0, T - 60),),
    )
    assert math.isclose(10000 * 2 ** (-4 / 3), 3968.5, abs_tol=0.01)
    return config, state


def _jobs() -> list[tuple[Job, int]]:
    old = Job(id="7", owner="u2", account="A", partition="express,batch", submit_time=T - 100)
    new = Job(id="8", owner="u2", account="A", partition="express,batch", submit_time=T + 2)
    return [(old, 4218), (new, 4968)]


def test_each_is_checked_against_its_own_partition() -> None:
    config, state = _cluster()
    assert priority_mismatches(config, state, _jobs(), T + 5) == []
    wrong = [(job, printed + 1) for job, printed in _jobs()]
    assert priority_mismatches(config, state, wrong, T + 5) == [
        PriorityMismatch("7", "batch", 4219, 4218),
        PriorityMismatch("8", "express", 4969, 4968),
    ]


def test_no_site_factor_is_read_off_the_partitions_difference() -> None:
    config, state = _cluster()
    assert site_factors(config, state, _jobs(), T + 5) == {}
    sited = [(job, printed + 300) for job, printed in _jobs()]
    assert site_factors(config, state, sited, T + 5) == {"7": 300, "8": 300}


def test_a_job_of_several_qos_is_checked_under_its_lowest() -> None:
    config, state = _cluster()
    weights = PriorityWeights(fairshare=10000, qos=1000)
    config = msgspec.structs.replace(
        config,
        priority=msgspec.structs.replace(config.priority, weights=weights),
        qos={"low": QosSpec("low", priority=10), "high": QosSpec("high", priority=100)},
    )
    old = Job(id="7", owner="u2", account="A", qos="high,low", submit_time=T - 100)
    new = Job(id="8", owner="u2", account="A", qos="high,low", submit_time=T + 2)
    jobs = [(old, 4068), (new, 4968)]
    assert priority_mismatches(config, state, jobs, T + 5) == []
    assert site_factors(config, state, [(j, p + 300) for j, p in jobs], T + 5) == {
        "7": 300,
        "8": 300,
    }
