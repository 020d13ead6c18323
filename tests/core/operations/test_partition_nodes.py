"""Slurm jobs in ``fs negotiate``'s cycle (core/operations/partition_nodes.py): only their
partitions' machines match them, and a job of several partitions started on a node runs in
one of that node's partitions. Hand-made pools; the rule is slurmctld's (a job's nodes come
from its partition's node bitmap: ``_build_node_list`` in ``src/slurmctld/node_scheduler.c``,
each partition tried in turn by ``_select_nodes_parts`` in ``job_mgr.c``, 22.05 and 26.05
alike).
"""

from __future__ import annotations

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config, MachineSpec, PartitionSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.partition_nodes import PartitionNodes

MACHINES = (
    MachineSpec("na", count=2, attributes={"Cpus": 4}, partitions=("a",)),
    MachineSpec("nb", attributes={"Cpus": 4}, partitions=("b",)),
    MachineSpec("any", attributes={"Cpus": 1}),  # lists none: in every partition
)
PARTITIONS = {
    "a": PartitionSpec("a", default=True),
    "b": PartitionSpec("b"),
}


def _config(machines: tuple[MachineSpec, ...] = MACHINES) -> Config:
    return Config(machines=machines, partitions=PARTITIONS)


def test_a_slurm_jobs_requirements_name_its_partitions_machines() -> None:
    nodes = PartitionNodes(_config())
    job = Job(id="1", owner="u", partition="b", requirements="TARGET.Cpus >= 2")
    got = nodes.restricted(JobBatch(job, 3))
    assert got.count == 3
    assert got.job.requirements == (
        '(TARGET.Cpus >= 2) && member(TARGET.Machine, {"nb001", "any001"})'
    )
    # naming none: the default partition, a
    plain = nodes.restricted(JobBatch(Job(id="2", owner="u", account="x")))
    assert plain.job.requirements == 'member(TARGET.Machine, {"na001", "na002", "any001"})'


def test_htcondor_jobs_and_partitions_of_every_machine_are_left_alone() -> None:
    nodes = PartitionNodes(_config())
    condor = JobBatch(Job(id="1.0", owner="h", requirements="true"))
    assert nodes.restricted(condor) is condor
    both = JobBatch(Job(id="2", owner="u", partition="a,b"))  # a and b: every machine
    assert nodes.restricted(both) is both


def test_a_job_of_two_partitions_runs_in_the_one_its_node_is_in() -> None:
    """a,b started on nb001 (only in b): stored b,a; on na001: a,b as named; on any001
    (in both): the first of them slurmctld tries, a (:meth:`NodeFit.started`)."""
    nodes = PartitionNodes(_config())
    job = Job(id="1", owner="u", partition="a,b", status="running")
    assert nodes.started(job, "slot1@nb001").partition == "b,a"
    assert nodes.started(job, "slot1@na002").partition == "a,b"
    assert nodes.started(job, "slot1@any001").partition == "a,b"
