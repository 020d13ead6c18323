"""Matches on partitionable slots during a cycle: carving, the leftover, the match cost.

What a match on a partitionable slot does (:mod:`.partitionable` has the startd's rules):
a dynamic slot of the job's (rounded) request is carved out, charged the ``SLOT_WEIGHT``
of its own ad (``Cpus`` = the carved CPUs), and the partitionable slot's leftover goes
back among the candidates as a slot class of its own.

With slot weights off (``NEGOTIATOR_USE_SLOT_WEIGHTS = False``) 25.0 does not claim
leftovers (``CLAIM_PARTITIONABLE_LEFTOVERS`` defaults to the slot-weights knob) and the
negotiator, without a consumption policy, removes a matched slot from the cycle
(``Matchmaker::negotiate``, "Delete ad from list"): the partitionable slot then takes one
match per cycle, its leftover waits for the next one.
"""

from __future__ import annotations

import bisect

from fairshare_cli.core.htcondor.classads import Ad
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    Resources,
    carve,
    dynamic_slot,
    exhausted,
    minus,
    next_number,
)
from fairshare_cli.core.htcondor.negotiator.slots import (
    Slot,
    SlotClass,
    slot_ad,
    slot_values,
    slot_weight,
)
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot


class Carver:
    """Carves dynamic slots out of a snapshot's partitionable slots (changing it)."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.leftovers_matchable = snap.knobs.use_slot_weights
        #: (stanza, carved resources) -> the dynamic slot's SLOT_WEIGHT
        self._weights: dict[tuple[int, Resources], float] = {}
        #: (stanza, carved resources) -> the class of this cycle's dynamic slots of that size
        self._carved: dict[tuple[int, Resources], SlotClass] = {}
        #: (stanza, leftover) -> the class of partitionable slots with that much left
        self._leftovers: dict[tuple[int, Resources], SlotClass] = {}

    @staticmethod
    def request(job_ad: Ad) -> dict[str, object]:
        """The job's ``RequestCpus``, ``RequestMemory`` and ``RequestDisk`` by resource."""
        return {
            "Cpus": job_ad.get("requestcpus"),
            "Memory": job_ad.get("requestmemory"),
            "Disk": job_ad.get("requestdisk"),
        }

    def carved(self, cls: SlotClass, job_ad: Ad) -> Resources:
        """What a job of ``job_ad`` would carve out of the class's next slot."""
        return carve(cls.slots[cls.head].resources, self.request(job_ad))

    def cost(self, cls: SlotClass, job_ad: Ad) -> float:
        """The match cost of a job on the class's next slot: the carved slot's weight."""
        if not self.leftovers_matchable:
            return cls.weight  # slot weights off: every match costs 1
        slot = cls.slots[cls.head]
        return self._weight(slot, self.carved(cls, job_ad))

    def _weight(self, pslot: Slot, carved: Resources) -> float:
        """``SLOT_WEIGHT`` of a dynamic slot of ``pslot`` with ``carved`` resources."""
        key = (pslot.stanza, carved)
        found = self._weights.get(key)
        if found is None:
            probe = Slot(-1, pslot.stanza, pslot.machine, pslot.slot_id)
            probe.parent = pslot
            probe.resources = carved
            found = self._weights[key] = self._ad_weight(probe)[1]
        return found

    def take(self, cls: SlotClass, job_ad: Ad) -> Slot:
        """Match the class's next partitionable slot: carve the dynamic slot (returned,
        with a class of its own holding its ad and weight) and put the leftover back."""
        snap = self.snap
        carved = self.carved(cls, job_ad)
        pslot = cls.slots[cls.head]
        cls.head += 1
        dslot = dynamic_slot(len(snap.slots), pslot, next_number(pslot))
        dslot.resources = carved
        snap.slots.append(dslot)
        snap.slot_class[dslot.index] = self._dynamic_class(dslot)
        pslot.resources = minus(pslot.resources, carved)
        if cls.head >= len(cls.slots):  # used up: no longer a candidate
            snap.unclaimed_classes.remove(cls)
        if self.leftovers_matchable and not exhausted(pslot.resources):
            self._put_back(pslot)
        snap.generation += 1
        return dslot

    def _dynamic_class(self, dslot: Slot) -> SlotClass:
        """The class holding the just-carved dynamic slots of one stanza and size (not a
        candidate again this cycle: it carries their weight for the accountant)."""
        key = (dslot.stanza, dslot.resources)
        found = self._carved.get(key)
        if found is None:
            found = self._carved[key] = self._new_class(dslot, dslot.resources)
            self._weights.setdefault(key, found.weight)
        else:
            found.slots.append(dslot)
        return found

    def _put_back(self, pslot: Slot) -> None:
        """The partitionable slot's leftover becomes a candidate: in the class of the
        slots of its stanza with as much left (in pool order), or a new one."""
        snap = self.snap
        key = (pslot.stanza, pslot.resources)
        left = self._leftovers.get(key)
        if left is None or left.head >= len(left.slots):
            left = self._new_class(pslot, pslot.resources)
            left.partitionable = True
            self._leftovers[key] = left
            snap.unclaimed_classes.append(left)
        else:
            free = left.slots[left.head :]
            bisect.insort(free, pslot, key=lambda s: s.index)
            left.slots[left.head :] = free
        snap.slot_class[pslot.index] = left

    def spent(self, dslot: Slot) -> bool:
        """Whether the match on ``dslot`` (just carved) took its partitionable slot out of
        the cycle: nothing left of it, or leftovers wait for the next cycle."""
        parent = dslot.parent
        return parent is None or not self.leftovers_matchable or exhausted(parent.resources)

    def _ad_weight(self, slot: Slot) -> tuple[Ad, float]:
        """An unclaimed ad of ``slot`` (with its resources) and its ``SLOT_WEIGHT``."""
        snap = self.snap
        spec = snap.machines[slot.stanza]
        ad = slot_ad(spec, slot_values(spec, slot, snap.now), snap.ev)
        expr = snap.slot_exprs[(slot.stanza, False)].weight
        return ad, slot_weight(snap.ev, expr, ad, snap.empty)

    def _new_class(self, slot: Slot, resources: Resources) -> SlotClass:
        """A class of one slot (unclaimed) with ``resources``, its ad and its weight."""
        snap = self.snap
        slot.resources = resources
        ad, weight = self._ad_weight(slot)
        cls = SlotClass(len(snap.classes), ad, weight, False)
        cls.slots.append(slot)
        snap.classes.append(cls)
        return cls
