"""A running Slurm job of several partitions keeps the one it runs in first
(``NodeFit.started``, core/operations/node_fit.py).

slurmctld, once a job of several partitions starts, rewrites ``job_ptr->partition`` with the
partition it runs in first and the others after (``rebuild_job_part_list``, 22.05 and 26.05
alike), and a restarted slurmctld reads the first back as the running one (26.05
``get_part_list``: ``prim_part_ptr``). It starts a job only in a partition whose nodes could
run it (``select_nodes``) and whose limits do not hold it back (``job_limits_check``), and
tries a job's partitions highest ``PriorityTier`` first (``_select_nodes_parts`` sorts them
with ``priority_sort_part_tier``).
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import AccountSpec, Config, MachineSpec, PartitionSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit

#: a: one node of 2 CPUs, MaxTime 1 hour; b: one node of 4 CPUs, MaxTime 2 hours; c: like
#: b, of a higher tier.
CONFIG = Config(
    machines=(
        MachineSpec(name="na", slots=2, attributes={"Cpus": 1}, partitions=("a",)),
        MachineSpec(name="nb", slots=4, attributes={"Cpus": 1}, partitions=("b", "c")),
    ),
    partitions={
        "a": PartitionSpec(name="a", max_time=3600.0),
        "b": PartitionSpec(name="b", max_time=7200.0),
        "c": PartitionSpec(name="c", max_time=7200.0, priority_tier=2),
    },
    accounts={"hep": AccountSpec(name="hep", users={"alice": 1})},
)


def _job(partition: str, time_limit: float = 1800.0, request_cpus: int = 1) -> Job:
    return Job(id="1", owner="alice", account="hep", status="running", partition=partition,
               time_limit=time_limit, request_cpus=request_cpus)  # fmt: skip


@pytest.mark.parametrize(
    ("job", "stored"),
    [
        pytest.param(_job("a,b", time_limit=5400.0), "b,a", id="a's-MaxTime-holds-it-back"),
        pytest.param(_job("a,b", request_cpus=3), "b,a", id="a's-nodes-cannot-run-it"),
        pytest.param(_job("a,b,c", request_cpus=3), "c,a,b", id="b-and-c-could:-c's-tier-first"),
        pytest.param(_job("a,b"), "a,b", id="both-could:-same-tier,-as-named"),
        pytest.param(_job("a,c"), "c,a", id="both-could:-the-higher-tier-first"),
        pytest.param(_job("a,b", request_cpus=9), "a,b", id="none-could:-as-named"),
        pytest.param(_job("b"), "b", id="one-partition"),
    ],
)
def test_the_partition_it_runs_in_comes_first(job: Job, stored: str) -> None:
    assert NodeFit(CONFIG).started(job).partition == stored


def test_a_job_not_slurms_or_a_pool_of_no_nodes_is_left_as_it_is() -> None:
    htcondor = Job(id="1", owner="carol", status="running")
    assert NodeFit(CONFIG).started(htcondor) is htcondor
    job = _job("a,b", time_limit=5400.0)
    assert NodeFit(Config(partitions=CONFIG.partitions)).started(job) is job
