"""Running Slurm work on the pool's machines as Slurm nodes (core/htcondor/node_placement.py).

Hand-made pools; each number is a node's CPUs (``slots × Cpus``) less what runs there,
as slurmctld's ``select/cons_tres`` with ``CR_CPU`` counts them (jobs share a node up to
its CPUs; only the nodes of the job's partition: ``_build_node_list`` in
``src/slurmctld/node_scheduler.c``, 22.05 and 26.05 alike).
"""

from __future__ import annotations

from fairshare_cli.core.config import MachineSpec, in_partition
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.node_placement import SlurmNodes
from fairshare_cli.core.htcondor.placement import Running, place_running
from fairshare_cli.core.jobs import Job

#: x001 and x002: 2 slots of 2 CPUs (4-CPU nodes) in "a"; y001: one 8-CPU slot in "b";
#: z001: one 1-CPU slot in every partition (it lists none).
MACHINES = (
    MachineSpec("x", count=2, slots=2, attributes={"Cpus": 2}, partitions=("a",)),
    MachineSpec("y", attributes={"Cpus": 8}, partitions=("b",)),
    MachineSpec("z", attributes={"Cpus": 1}),
)


def test_a_stanza_listing_no_partitions_is_in_every_one() -> None:
    assert [in_partition(MACHINES[2], p) for p in ("a", "b", "")] == [True, True, True]
    assert [in_partition(MACHINES[1], p) for p in ("a", "b", "")] == [False, True, True]


def test_cpus_in_use_count_claims_whole_and_queue_jobs_by_their_cpus() -> None:
    """slot1@x001 held by an HTCondor claim: its 2 CPUs. slot2@x001 held by Slurm job 7
    of 1 CPU: 1. Job 8 (1 CPU) names slot1@x002 with no claim: 1 there. Job 9 (2 CPUs,
    no claim, no slot: it ran beside) is placed again: the first node of "a" with 2 CPUs
    free, x002 (x001 has 4 - 3 = 1). So x001 has 1 CPU free and x002 4 - 3 = 1: a 2-CPU
    job of "a" fits no node; a 1-CPU one goes beside x001's held slots."""
    claims = {
        "slot1@x001": Claim("slot1@x001", "h@d", "1.0", 0.0),
        "slot2@x001": Claim("slot2@x001", "s@d", "7", 0.0),
    }
    queue = [
        (Job(id="7", owner="s", partition="a", status="running", request_cpus=1), "a"),
        (Job(id="8", owner="s", partition="a", status="running", request_cpus=1,
             slot="slot1@x002"), "a"),
        (Job(id="9", owner="s", partition="a", status="running", request_cpus=2), "a"),
    ]  # fmt: skip
    nodes = SlurmNodes(MACHINES, claims, queue)
    assert nodes.used == {"x001": 3, "x002": 3}
    assert nodes.place("a", 2, claims) is None
    assert nodes.place("a", 1, claims) == ("slot1@x001", False)  # beside; its first slot
    assert nodes.used == {"x001": 4, "x002": 3}


def test_slurm_work_fills_its_partitions_nodes_cpu_by_cpu() -> None:
    """Partition "b" is y001 alone (8 CPUs, one slot): 5 + 3 CPUs run there (the first
    holds the slot, the second beside it); 1 more does not fit, though z001 (in every
    partition) is free: it goes there. HTCondor work takes the first free slot."""
    work = [
        Running("s@d", "1", 0.0, cpus=5, partition="b"),
        Running("s@d", "2", 0.0, cpus=3, partition="b"),
        Running("s@d", "3", 0.0, cpus=1, partition="b"),
        Running("s@d", "4", 0.0, cpus=2, partition="b"),  # z001 has 1 CPU: nothing fits
        Running("h@d", "5.0", 0.0),
    ]
    placed = place_running(work, {}, MACHINES, 100.0)
    assert {c.job_id: c.slot for c in placed.new} == {
        "1": "slot1@y001",
        "3": "slot1@z001",
        "5.0": "slot1@x001",
    }
    assert [(w.job_id, slot) for w, slot in placed.beside] == [("2", "slot1@y001")]
    assert [w.job_id for w in placed.unplaced] == ["4"]


def test_most_free_beside_counts_nodes_whose_slots_are_all_held() -> None:
    """x001: both slots held (an HTCondor claim, 2 CPUs; Slurm job 7, 1 CPU): 4 - 3 = 1
    free beside them. x002 has a free slot (the negotiator's to give): not counted; y001
    (8 CPUs) held by a claim of its whole slot: 0 free. The most: 1, so a 2-CPU job can
    run beside no node and needs no priority to order it."""
    claims = {
        "slot1@x001": Claim("slot1@x001", "h@d", "1.0", 0.0),
        "slot2@x001": Claim("slot2@x001", "s@d", "7", 0.0),
        "slot1@y001": Claim("slot1@y001", "h@d", "2.0", 0.0),
    }
    queue = [(Job(id="7", owner="s", partition="a", status="running", request_cpus=1), "a")]
    nodes = SlurmNodes(MACHINES, claims, queue)
    assert nodes.most_free_beside(claims) == 1
    assert nodes.most_free_beside({}) == 0
