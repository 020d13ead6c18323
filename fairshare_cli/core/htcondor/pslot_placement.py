"""Running work on partitionable slots: the dynamic slot it holds, carved as a match would.

:func:`~fairshare_cli.core.htcondor.placement.place_running` asks this for work that names
a dynamic slot (``slot1_2@host``, as ``condor_status`` shows claimed ones) or a partitionable
slot of the pool, and for work without a slot once no static slot is free: the dynamic slot
is carved out of what the existing claims leave (:mod:`.negotiator.partitionable`), with
the resources the source recorded, else the job's rounded request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import Claim, expand_slots
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    Resources,
    add_dynamic_slots,
    carve,
    exhausted,
    minus,
    next_number,
    parent_name,
)
from fairshare_cli.core.htcondor.negotiator.queue import DEFAULT_REQUEST_DISK
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.jobs import Job

#: ``SLOT_WEIGHT`` of a dynamic slot: (its stanza, the slot with its resources) -> weight.
DynamicWeigher = Callable[[MachineSpec, Slot], float]


class Work(Protocol):
    """What placement knows of a piece of running work (``placement.Running``)."""

    @property
    def slot(self) -> str | None: ...
    @property
    def job(self) -> Job | None: ...
    @property
    def cpus(self) -> int: ...
    @property
    def resources(self) -> Resources: ...


def request_of(work: Work) -> dict[str, object]:
    """The work's request by resource: its job's, else its CPUs."""
    if work.job is None:
        return {"Cpus": work.cpus}
    job = work.job
    return {"Cpus": job.request_cpus, "Memory": job.request_memory, "Disk": DEFAULT_REQUEST_DISK}


class PartitionablePool:
    """The pool's partitionable slots with what the claims given leave of each."""

    def __init__(
        self,
        machines: Sequence[MachineSpec],
        claims: Mapping[str, Claim],
        weigh: DynamicWeigher,
        only: Iterable[tuple[int, str, int]] | None = None,
    ) -> None:
        """``only``: the (stanza, machine, slot id) of the slots to take, when not every
        slot of ``machines`` (the claims given hold no dynamic slot of the others)."""
        self.machines = machines
        self.weigh = weigh
        where = expand_slots(machines) if only is None else only
        slots = [Slot(i, *at) for i, at in enumerate(where)]
        add_dynamic_slots(slots, machines, claims.values(), lambda c: {})
        self.parents = {s.name.lower(): s for s in slots if s.partitionable}
        self.held = {s.name.lower() for s in slots if s.parent is not None}

    def __bool__(self) -> bool:
        return bool(self.parents)

    def is_partitionable(self, name: str) -> bool:
        """Whether ``name`` is a partitionable slot of the pool (work never holds one whole)."""
        return name.lower() in self.parents

    def named(self, work: Work) -> tuple[str, Resources] | None:
        """The dynamic slot for work that names one of a configured partitionable slot (or
        the partitionable slot itself: the next free number); None when it names neither
        or it does not fit what is left."""
        if not work.slot:
            return None
        found = parent_name(work.slot)
        if found is not None:
            parent = self.parents.get(found[0].lower())
            if parent is not None:
                return self._take(parent, found[1], work)
            return None
        parent = self.parents.get(work.slot.lower())
        return self._take(parent, None, work) if parent is not None else None

    def first_free(self, work: Work, fits: Callable[[Slot], bool]) -> tuple[str, Resources] | None:
        """A dynamic slot on the first partitionable slot (configuration order) that the
        work fits (``fits`` checks its requirements and the slot's ``start``)."""
        for parent in self.parents.values():
            if fits(parent):
                taken = self._take(parent, None, work)
                if taken is not None:
                    return taken
        return None

    def weight(self, name: str, resources: Resources) -> float:
        """``SLOT_WEIGHT`` of the dynamic slot ``name`` with ``resources``."""
        found = parent_name(name)
        assert found is not None
        parent = self.parents[found[0].lower()]
        probe = Slot(-1, parent.stanza, parent.machine, parent.slot_id)
        probe.name, probe.parent, probe.resources = name, parent, resources
        return self.weigh(self.machines[parent.stanza], probe)

    def _take(self, parent: Slot, number: int | None, work: Work) -> tuple[str, Resources] | None:
        name = None if number is None else f"slot{parent.slot_id}_{number}@{parent.machine}"
        if name is not None and name.lower() in self.held:
            # already carved (a newer source takes it over): what was carved stays
            return name, work.resources or carve(parent.resources, request_of(work))
        known = {r for r, _ in parent.resources}
        carved = tuple((r, v) for r, v in work.resources if r in known) or carve(
            parent.resources, request_of(work)
        )
        left = dict(parent.resources)
        if exhausted(parent.resources) or any(v > left[r] for r, v in carved):
            return None
        number = next_number(parent) if number is None else number
        parent.children.add(number)
        parent.resources = minus(parent.resources, carved)
        name = f"slot{parent.slot_id}_{number}@{parent.machine}"
        self.held.add(name.lower())
        return name, carved
