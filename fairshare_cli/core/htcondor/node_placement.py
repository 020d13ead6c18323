"""Running Slurm work on the pool's machines, as slurmctld places it: on a node of the
partition it runs in whose CPUs hold it beside the work already there, several jobs a node.

For Slurm each ``[[machines]]`` machine is a node of ``slots × Cpus`` CPUs in the
partitions its stanza lists (none listed: in every one). slurmctld gives a job CPUs of a
node (``select/cons_tres`` with ``CR_CPU``: a node runs jobs up to its CPUs), and only a
node of the job's partition (``_build_node_list`` in ``src/slurmctld/node_scheduler.c``
ANDs every node set with ``part_ptr->node_bitmap``); the HTCondor slot model
of the same machine (one claim a slot) does not enter into it. A piece of Slurm work holds
the first free static slot of the node it is placed on (so the negotiator does not hand
that slot out again); where the node's slots are all held, it runs beside the work on them
with no claim of its own. Partitionable machines are left to the carving of
:mod:`~fairshare_cli.core.htcondor.pslot_placement`, on the partition's machines only.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence

from fairshare_cli.core.config import MachineSpec, in_partition
from fairshare_cli.core.htcondor.negotiator import Claim, expand_slots
from fairshare_cli.core.jobs import Job


class SlurmNodes:
    """The pool's static machines as Slurm nodes: CPUs, partitions, CPUs in use, slots.

    CPUs in use on a node: a running Slurm job of the queue (``running``: with the
    partition it runs in) uses its ``request_cpus`` on the node of the slot its claim
    holds, else of the slot it names; one with neither (it ran beside the work on a
    node's slots) is placed again, in queue order, as it was placed; any other claim
    (HTCondor's, a usage record's) holds its slot's whole ``Cpus``; a piece placed here
    uses its own CPUs.
    """

    def __init__(
        self,
        machines: Sequence[MachineSpec],
        claims: Mapping[str, Claim],
        running: Iterable[tuple[Job, str]] = (),
    ) -> None:
        self.machines = machines
        #: machine -> (stanza, its slots' names in slot id order), configuration order
        self.nodes: dict[str, tuple[int, list[str]]] = {}
        #: machine -> CPUs in use
        self.used: dict[str, int] = {}
        self.node_of: dict[str, str] = {}  # slot (lower case) -> its machine
        for stanza, host, slot_id in expand_slots(machines):
            if machines[stanza].partitionable:
                continue
            name = f"slot{slot_id}@{host}"
            self.nodes.setdefault(host, (stanza, []))[1].append(name)
            self.node_of[name.lower()] = host
        #: machine -> its CPUs (``slots × Cpus``), read once: placing a history's running
        #: work asks them of every node for each piece (``benchmarks/run.py --rows import``)
        self.capacity = {
            host: machines[stanza].node_cpus() for host, (stanza, _) in self.nodes.items()
        }
        #: partition -> its nodes (machine, slots) in configuration order, made when asked
        self.of_partition: dict[str, list[tuple[str, list[str]]]] = {}
        jobs = {job.id: (job, partition) for job, partition in running}
        for slot, claim in claims.items():
            machine = self.node_of.get(slot.lower())
            if machine is not None:
                job = jobs.pop(claim.job_id, (None, ""))[0]
                stanza = self.nodes[machine][0]
                self._use(machine, job.request_cpus if job else machines[stanza].slot_cpus())
        for job, partition in jobs.values():
            machine = self.node_of.get(job.slot.lower()) if job.slot else None
            if machine is not None:
                self._use(machine, job.request_cpus)
            elif not job.slot:  # beside the work on a node: where it went
                self.place(partition, job.request_cpus, claims)

    def may_hold(self, slot: str, partition: str | None) -> bool:
        """Whether the static slot named may hold work of ``partition`` (None: HTCondor
        work, any slot): a slot of a node of that partition."""
        if partition is None:
            return True
        machine = self.node_of.get(slot.lower())
        return machine is None or in_partition(self.machines[self.nodes[machine][0]], partition)

    def _use(self, machine: str, cpus: int) -> None:
        self.used[machine] = self.used.get(machine, 0) + cpus

    def place(
        self, partition: str, cpus: int, claims: Mapping[str, Claim]
    ) -> tuple[str, bool] | None:
        """On the first node (configuration order) of ``partition`` with ``cpus`` CPUs
        free: its first slot no claim holds and True, or, all held, its first slot and
        False (the work runs beside the work there); None when no node of the partition
        has the CPUs free. The CPUs are taken."""
        capacity, used = self.capacity, self.used
        for machine, slots in self._in_partition(partition):
            if capacity[machine] - used.get(machine, 0) < cpus:
                continue
            self._use(machine, cpus)
            free = next((s for s in slots if s not in claims), None)
            return (free, True) if free is not None else (slots[0], False)
        return None

    def place_beside(
        self,
        partition: str,
        cpus: int,
        claims: Mapping[str, Claim],
        closed: Container[str] = (),
    ) -> str | None:
        """On the first node (configuration order) of ``partition`` whose slots every one
        is held and whose CPUs hold ``cpus`` more: its first slot (the work runs beside the
        work there, with no claim); None when no such node has them. A node with a free
        slot is passed: the negotiator gives that slot out; so is a machine ``closed``
        names. The CPUs are taken."""
        for machine, slots in self._in_partition(partition):
            if machine in closed or any(s not in claims for s in slots):
                continue
            if self.capacity[machine] - self.used.get(machine, 0) >= cpus:
                self._use(machine, cpus)
                return slots[0]
        return None

    def most_free_beside(self, claims: Mapping[str, Claim]) -> int:
        """The most CPUs free on a node whose slots are all held (what the largest job
        :meth:`place_beside` may place asks at most; 0: none)."""
        most = 0
        for machine, (_, slots) in self.nodes.items():
            if all(s in claims for s in slots):
                most = max(most, self.capacity[machine] - self.used.get(machine, 0))
        return most

    def machines_of(self, partition: str) -> list[str]:
        """The static machines of ``partition``, in configuration order."""
        return [machine for machine, _ in self._in_partition(partition)]

    def _in_partition(self, partition: str) -> list[tuple[str, list[str]]]:
        """The nodes of ``partition`` (machine, its slots), in configuration order."""
        nodes = self.of_partition.get(partition)
        if nodes is None:
            nodes = self.of_partition[partition] = [
                (machine, slots)
                for machine, (stanza, slots) in self.nodes.items()
                if in_partition(self.machines[stanza], partition)
            ]
        return nodes
