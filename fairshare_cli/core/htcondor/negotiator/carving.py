"""Matches on partitionable slots during a cycle: carving, the charge, consumption policies.

What a match on a partitionable slot does in 25.0 (:mod:`.partitionable` has the startd's
rules; ``Matchmaker::negotiate`` and ``Accountant::AddMatch`` in ``matchmaker.cpp`` and
``Accountant.cpp``):

* without a consumption policy the negotiator removes the matched ad for the rest of the
  cycle ("Delete ad from list"): a partitionable slot takes one match per cycle, charged
  its own ``SLOT_WEIGHT`` (what is left of it, ``Cpus`` by default; 1 without slot
  weights: ``Accountant::GetSlotWeight``). The startd carves the job's (rounded) request;
  the leftover waits for the next cycle, or for the claiming schedd
  (``CLAIM_PARTITIONABLE_LEFTOVERS``, which ``fs simulate`` plays);
* with ``CONSUMPTION_POLICY`` (``consumption_policy.cpp``) the slot stays: each match
  consumes ``CONSUMPTION_<resource>`` (MY = the slot, TARGET = the job), needs every
  resource to have that much left and one to be above 0 (``cp_sufficient_assets``), and
  is charged ``SlotWeight`` before less after (``cp_deduct_assets``), slot weights on or
  off; one match per claim id, ``NUM_CLAIMS`` (default its ``Cpus``) per cycle.

The dynamic slot then counts for its holder at its own ``SLOT_WEIGHT`` (the next cycle's
``CheckMatches``): that is the weight the match's claim keeps (:attr:`Carver.own`).
"""

from __future__ import annotations

import bisect
import math

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Compiled
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    Resources,
    amount,
    carve,
    dynamic_slot,
    exhausted,
    minus,
    next_number,
    stanza_resources,
)
from fairshare_cli.core.htcondor.negotiator.slots import (
    Slot,
    SlotClass,
    compile_knob,
    slot_ad,
    slot_values,
    slot_weight,
    stanza_slot_names,
)
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot
from fairshare_cli.errors import ConfigError, InputError


class Policy:
    """A stanza's consumption policy, compiled: ``CONSUMPTION_<resource>`` by resource,
    ``SlotWeight`` (evaluated on the slot whatever ``use_slot_weights`` says) and
    ``NUM_CLAIMS``."""

    __slots__ = ("consumption", "num_claims", "weight")

    def __init__(self, snap: Snapshot, spec: MachineSpec) -> None:
        names = stanza_slot_names(spec, False)
        texts = {
            "Cpus": spec.consumption_cpus,
            "Memory": spec.consumption_memory,
            "Disk": spec.consumption_disk,
        }
        self.consumption: list[tuple[str, Compiled]] = [
            (r, snap.ev.compile(texts[r], names, f"machine {spec.name} consumption", ConfigError))
            for r in stanza_resources(spec)
        ]
        self.weight = compile_knob(snap.ev, snap.knobs.slot_weight, names, "slot_weight")
        cpus = spec.attribute("Cpus")
        self.num_claims = spec.num_claims or math.ceil(cpus if type(cpus) in (int, float) else 1)


class Carver:
    """Carves dynamic slots out of a snapshot's partitionable slots (changing it).

    Attributes:
        own: pool index of a dynamic slot carved this cycle -> its own ``SLOT_WEIGHT``
            (what its holder is charged from the next cycle on).
    """

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.own: dict[int, float] = {}
        #: stanza -> its consumption policy (None: none)
        self._policies: dict[int, Policy | None] = {}
        #: partitionable slot (pool index) -> matches it took this cycle (claim ids used)
        self._claims_used: dict[int, int] = {}
        #: (stanza, carved resources) -> the dynamic slot's SLOT_WEIGHT
        self._weights: dict[tuple[int, Resources], float] = {}
        #: (stanza, carved resources, charge) -> the class of this cycle's dynamic slots
        self._carved: dict[tuple[int, Resources, float], SlotClass] = {}
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

    def policy(self, stanza: int) -> Policy | None:
        """The stanza's consumption policy (None without one)."""
        if stanza not in self._policies:
            spec = self.snap.machines[stanza]
            found = Policy(self.snap, spec) if spec.consumption_policy else None
            self._policies[stanza] = found
        return self._policies[stanza]

    def carved(self, cls: SlotClass, job_ad: Ad) -> Resources | None:
        """What a job of ``job_ad`` would carve out of the class's next slot (None: its
        consumption policy finds too little left, ``cp_sufficient_assets``)."""
        pslot = cls.slots[cls.head]
        policy = self.policy(pslot.stanza)
        if policy is None:
            return carve(pslot.resources, self.request(job_ad))
        return self._consumed(policy, cls, job_ad)

    def _consumed(self, policy: Policy, cls: SlotClass, job_ad: Ad) -> Resources | None:
        """``cp_compute_consumption`` then ``cp_sufficient_assets``: every resource has at
        least what the job consumes (``EvalFloat``: a boolean is 1 or 0; a non-number or a
        negative value fails), one is above 0."""
        left = dict(cls.slots[cls.head].resources)
        out: list[tuple[str, float]] = []
        for resource, expr in policy.consumption:
            value = self.snap.ev.evaluate(expr, cls.ad, job_ad)
            if value is True or value is False:
                value = int(value)
            elif type(value) not in (int, float):
                return None
            if not math.isfinite(value) or value < 0 or left[resource] < value:  # type: ignore[operator, arg-type]
                return None
            out.append((resource, amount(value)))  # type: ignore[arg-type]
        return tuple(out) if any(v > 0 for _, v in out) else None

    def matching_ad(self, cls: SlotClass, job_ad: Ad) -> Ad | None:
        """The job ad ``IsAMatch`` sees with the class's next slot: with a consumption
        policy, the job's ``Request<resource>`` (those it has) replaced by what it would
        consume (``cp_override_requested``); None when too little is left
        (``cp_sufficient_assets``). Ranks still see the job's own ad."""
        if cls.head >= len(cls.slots):
            return job_ad
        policy = self.policy(cls.slots[cls.head].stanza)
        if policy is None:
            return job_ad
        consumed = self._consumed(policy, cls, job_ad)
        if consumed is None:
            return None
        values = {k: v for k, v in job_ad.values.values()}
        exprs = {k: c.text for k, c in job_ad.exprs.values()}
        for resource, value in consumed:
            key = f"request{resource.lower()}"
            found = job_ad.values.get(key) or job_ad.exprs.get(key)
            if found is not None:
                exprs.pop(found[0], None)
                values[found[0]] = value
        return Ad(values, exprs, self.snap.ev, "job", InputError)

    def cost(self, cls: SlotClass, job_ad: Ad) -> float | None:
        """What a match of a job on the class's next slot is charged (None: it cannot
        take it): the slot's ``SLOT_WEIGHT`` (1 without slot weights), or with a
        consumption policy the ``SlotWeight`` the match takes away (``cp_deduct_assets``)."""
        pslot = cls.slots[cls.head]
        policy = self.policy(pslot.stanza)
        if policy is None:
            return cls.weight
        consumed = self._consumed(policy, cls, job_ad)
        if consumed is None:
            return None
        before = slot_weight(self.snap.ev, policy.weight, cls.ad, self.snap.empty)
        probe = Slot(-1, pslot.stanza, pslot.machine, pslot.slot_id)
        probe.partitionable = True
        probe.resources = minus(pslot.resources, consumed)
        after = slot_weight(self.snap.ev, policy.weight, self._ad(probe), self.snap.empty)
        return before - after

    def _weight(self, pslot: Slot, carved: Resources) -> float:
        """``SLOT_WEIGHT`` of a dynamic slot of ``pslot`` with ``carved`` resources."""
        key = (pslot.stanza, carved)
        found = self._weights.get(key)
        if found is None:
            probe = Slot(-1, pslot.stanza, pslot.machine, pslot.slot_id)
            probe.parent = pslot
            probe.resources = carved
            expr = self.snap.slot_exprs[(pslot.stanza, False)].weight
            found = slot_weight(self.snap.ev, expr, self._ad(probe), self.snap.empty)
            self._weights[key] = found
        return found

    def take(self, cls: SlotClass, job_ad: Ad, alone: bool = False) -> Slot:
        """Match the class's next partitionable slot: carve the dynamic slot (returned, in
        a class of its own whose weight is the match's charge), and put the slot back as
        a candidate when its consumption policy lets it take more this cycle (``alone``:
        in a class of its own, which no autocluster's ranked list holds yet)."""
        snap = self.snap
        charge = self.cost(cls, job_ad)
        carved = self.carved(cls, job_ad)
        assert charge is not None
        assert carved is not None
        pslot = cls.slots[cls.head]
        cls.head += 1
        dslot = dynamic_slot(len(snap.slots), pslot, next_number(pslot))
        dslot.resources = carved
        snap.slots.append(dslot)
        snap.slot_class[dslot.index] = self._dynamic_class(dslot, charge)
        self.own[dslot.index] = self._weight(pslot, carved)
        pslot.resources = minus(pslot.resources, carved)
        self._claims_used[pslot.index] = self._claims_used.get(pslot.index, 0) + 1
        if cls.head >= len(cls.slots):  # used up: no longer a candidate
            snap.unclaimed_classes.remove(cls)
        if not self._spent(pslot):  # a new candidate: the autoclusters' lists go stale
            self._put_back(pslot, alone)
            snap.generation += 1
        return dslot

    def _spent(self, pslot: Slot) -> bool:
        """Whether ``pslot`` takes no more match this cycle: it has no consumption policy,
        nothing left, or no claim id left."""
        policy = self.policy(pslot.stanza)
        return (
            policy is None
            or exhausted(pslot.resources)
            or self._claims_used.get(pslot.index, 0) >= policy.num_claims
        )

    def _dynamic_class(self, dslot: Slot, charge: float) -> SlotClass:
        """The class holding the just-carved dynamic slots of one stanza, size and charge
        (not a candidate again this cycle: it carries the charge for the accountant)."""
        key = (dslot.stanza, dslot.resources, charge)
        found = self._carved.get(key)
        if found is None:
            found = self._carved[key] = self._new_class(dslot, dslot.resources)
            found.weight = charge
        else:
            found.slots.append(dslot)
        return found

    def _put_back(self, pslot: Slot, alone: bool) -> None:
        """The partitionable slot's leftover becomes a candidate: in the class of the
        slots of its stanza with as much left (in pool order), or a new one."""
        snap = self.snap
        key = (pslot.stanza, pslot.resources)
        left = self._leftovers.get(key)
        if alone or left is None or left.head >= len(left.slots):
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
        the cycle (see :meth:`_spent`)."""
        parent = dslot.parent
        return parent is None or self._spent(parent)

    def _ad(self, slot: Slot) -> Ad:
        """An unclaimed ad of ``slot`` (with its resources)."""
        snap = self.snap
        spec = snap.machines[slot.stanza]
        return slot_ad(spec, slot_values(spec, slot, snap.now), snap.ev)

    def _new_class(self, slot: Slot, resources: Resources) -> SlotClass:
        """A class of one slot (unclaimed) with ``resources``, its ad and its weight."""
        snap = self.snap
        slot.resources = resources
        ad = self._ad(slot)
        expr = snap.slot_exprs[(slot.stanza, False)].weight
        cls = SlotClass(len(snap.classes), ad, slot_weight(snap.ev, expr, ad, snap.empty), False)
        cls.slots.append(slot)
        snap.classes.append(cls)
        return cls
