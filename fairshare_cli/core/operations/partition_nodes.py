"""Slurm jobs in ``fs negotiate``'s cycle: only the machines of their partitions match them,
and a started job runs in a partition of the node it got.

slurmctld gives a job nodes of its partition only (``_build_node_list`` in
``src/slurmctld/node_scheduler.c`` ANDs every node set with ``part_ptr->node_bitmap``),
trying the partitions it names in turn (``_select_nodes_parts`` in ``job_mgr.c``; 22.05
and 26.05 alike). HTCondor's negotiator, which ``fs negotiate`` runs over the queue
the three schedulers share, knows nothing of partitions: a Slurm job's ``Requirements``
gets a clause naming the machines of its partitions (a machine whose stanza lists no
partitions is in every one), where they are not the whole pool. An HTCondor or DIRAC job,
and a Slurm job in a pool without ``[partitions]``, is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config, MachineSpec, in_partition
from fairshare_cli.core.htcondor.negotiator.partitionable import parent_name
from fairshare_cli.core.htcondor.negotiator.slots import expand_slots, machine_names
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.slurm.partition import NoDefaultPartition


class PartitionNodes:
    """The machines of each partition set, as a ``Requirements`` clause; made once a cycle."""

    def __init__(self, config: Config, fit: NodeFit | None = None) -> None:
        self.config = config
        self.fit = fit or NodeFit(config)
        self.clauses: dict[tuple[str, ...], str | None] = {}
        self._stanza: dict[str, int] | None = None

    def clause(self, parts: tuple[str, ...]) -> str | None:
        """``member(TARGET.Machine, {...})`` over the machines of any of ``parts``; None
        when they are every machine of the pool (no clause needed)."""
        if parts not in self.clauses:
            specs = self.config.machines
            inside = [s for s in specs if any(in_partition(s, p) for p in parts)]
            if len(inside) == len(specs):
                self.clauses[parts] = None
            else:
                names = [n for s in inside for n in machine_names(s)]
                listed = ", ".join(f'"{_quoted(n)}"' for n in names)
                self.clauses[parts] = f"member(TARGET.Machine, {{{listed}}})"
        return self.clauses[parts]

    def restricted(self, batch: JobBatch) -> JobBatch:
        """``batch`` with its job's ``Requirements`` bounded to its partitions' machines
        (a job that is not Slurm's, or whose partitions hold every machine: as it is)."""
        job = batch.job
        if not self.config.partitions or not self.fit.is_slurm_job(job):
            return batch
        try:
            parts = self.fit.parts(job)
        except NoDefaultPartition:  # names none where none is the default: queued, warned
            return batch
        found = self.clause(parts) if parts else None
        if found is None:
            return batch
        own = job.requirements
        requirements = f"({own}) && {found}" if own else found
        return replace(batch, job=replace(job, requirements=requirements))

    def node_of(self, slot: str) -> MachineSpec | None:
        """The stanza of the machine a slot (or a dynamic slot) named is on."""
        if self._stanza is None:
            self._stanza = {
                f"slot{k}@{machine}".lower(): i
                for i, machine, k in expand_slots(self.config.machines)
            }
        found = parent_name(slot)
        index = self._stanza.get((found[0] if found else slot).lower())
        return None if index is None else self.config.machines[index]

    def started(self, job: Job, slot: str) -> Job:
        """A Slurm job started on ``slot``, stored as slurmctld keeps it: first of its
        partitions one the slot's node is in (:meth:`NodeFit.started` among those)."""
        node = self.node_of(slot)
        named = job.partitions
        if node is None or len(named) < 2 or not self.fit.is_slurm_job(job):
            return self.fit.started(job)
        inside = [p for p in named if in_partition(node, p)]
        if not inside or len(inside) == len(named):
            return self.fit.started(job)
        chosen = self.fit.started(replace(job, partition=",".join(inside)))
        first = chosen.partitions[0]
        return replace(job, partition=",".join([first, *(p for p in named if p != first)]))


def _quoted(name: str) -> str:
    """A machine name inside a ClassAd string literal."""
    return name.replace("\\", "\\\\").replace('"', '\\"')


def restrict_batches(config: Config, batches: Sequence[JobBatch]) -> list[JobBatch]:
    """The idle Slurm jobs of ``batches`` bounded to their partitions' machines."""
    nodes = PartitionNodes(config)
    return [nodes.restricted(b) if b.job.status == "idle" else b for b in batches]
