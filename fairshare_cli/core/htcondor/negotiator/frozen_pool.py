"""The slots of a pool of static slots, built once for the many cycles of a simulation.

Between two cycles of ``fs simulate`` only the claims on the slots change (claims started,
claims ended); the slots themselves (names, stanzas, the per-slot attributes that split
slot classes) do not. :class:`FrozenPool` keeps them, and each cycle's snapshot
(:mod:`.snapshot`) takes them with that cycle's claims.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from operator import attrgetter

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator.results import Claim
from fairshare_cli.core.htcondor.negotiator.slots import Slot, SlotClass, expand_slots

#: A slot class key: stanza, claim (None: unclaimed), resources, and the per-slot values read.
SlotKey = tuple[object, ...]
_INDEX = attrgetter("index")

#: The :class:`Slot` field of each per-slot attribute (``PER_SLOT``).
SLOT_FIELD = {"name": "name", "machine": "machine", "slotid": "slot_id"}


class FrozenPool:
    """The slots of a pool of static slots, built once and reused by every cycle of a
    simulation: between two cycles only the claims on them change.

    A cycle given one (:attr:`.snapshot.CycleInputs.frozen`) takes its slots from here instead of
    expanding the ``[[machines]]`` stanzas again. The pool also keeps its unclaimed slots
    grouped by class key (:meth:`free_slots`), updated by the slots whose claim started or
    ended, so that a cycle's work grows with its claims and its slot classes, not with the
    pool. Pools with partitionable slots (whose cycles carve and append dynamic slots) are
    built afresh each cycle: :meth:`of` gives None for them.
    """

    def __init__(self, machines: Sequence[MachineSpec]) -> None:
        self.machines = machines
        self.slots = [Slot(i, *where) for i, where in enumerate(expand_slots(machines))]
        self._by_name = {slot.name.lower(): slot for slot in self.slots}
        #: pool index -> claim, for the slots the last cycle's claims held
        self._held: dict[int, Claim] = {}
        #: a claim's slot name as written -> its slot (None: not configured)
        self._slot_of_name: dict[str, Slot | None] = {}
        self._unclaimed_keys: dict[tuple[str, ...], list[SlotKey]] = {}
        self._free: dict[tuple[str, ...], dict[SlotKey, list[Slot]]] = {}

    @classmethod
    def of(cls, machines: Sequence[MachineSpec]) -> FrozenPool | None:
        """A frozen pool of ``machines``, or None when a stanza is partitionable."""
        if any(spec.partitionable for spec in machines):
            return None
        return cls(machines)

    def claimed_slots(self, claims: list[Claim]) -> list[Slot]:
        """Give the slots this cycle's claims and return the claimed ones, in pool order (a
        fresh pool gives them as :func:`~.partitionable.add_dynamic_slots` does: by slot
        name, the last of two claims on one slot holding it, a claim on a slot not
        configured ignored). Only the slots whose claim started or ended move between
        the groups of :meth:`free_slots`.

        Hot loop: once per claim per cycle (``benchmarks/bench_simulate.py`` busy-week).
        """
        found: dict[int, Claim] = {}
        slot_of = self._slot_of_name
        for claim in claims:  # in their order: of two on one slot, the last holds it
            target = slot_of.get(claim.slot)
            if target is None:
                if claim.slot in slot_of:
                    continue  # a slot not configured
                target = slot_of[claim.slot] = self._by_name.get(claim.slot.lower())
                if target is None:
                    continue
            found[target.index] = claim
        slots, before = self.slots, self._held
        released = [slots[i] for i in before if i not in found]
        taken = [slots[i] for i in found if i not in before]
        for slot in released:
            slot.claim = None
            slot.remote_group = None
        for i, claim in found.items():
            slots[i].claim = claim
        for per_slot, free in self._free.items():
            keys = self._unclaimed_keys[per_slot]
            for slot in released:
                insort(free.setdefault(keys[slot.index], []), slot, key=_INDEX)
            for slot in taken:
                group = free[keys[slot.index]]
                del group[bisect_left(group, slot.index, key=_INDEX)]
        self._held = found
        return [slots[i] for i in sorted(found)]

    def unclaimed_keys(self, per_slot: list[str]) -> list[SlotKey]:
        """Each slot's class key when unclaimed (see :func:`unclaimed_key`), by pool index,
        for the per-slot attributes the cycle reads."""
        found = self._unclaimed_keys.get(tuple(per_slot))
        if found is None:
            found = [unclaimed_key(slot, per_slot) for slot in self.slots]
            self._unclaimed_keys[tuple(per_slot)] = found
        return found

    def free_slots(self, per_slot: list[str]) -> dict[SlotKey, list[Slot]]:
        """The unclaimed slots by class key (for the per-slot attributes the cycle reads),
        each group in pool order; a group may be empty. Built on the first ask, then kept
        up to date by :meth:`claimed_slots`. The lists are the pool's: read, never change."""
        found = self._free.get(tuple(per_slot))
        if found is None:
            keys = self.unclaimed_keys(per_slot)
            found = {}
            for slot in self.slots:
                if slot.claim is None:
                    found.setdefault(keys[slot.index], []).append(slot)
            self._free[tuple(per_slot)] = found
        return found


class ClassOfSlot(dict[int, SlotClass]):
    """Pool index -> slot class in a cycle on a :class:`FrozenPool`: the claimed slots are
    entered as their classes are made; an unclaimed slot's class is found from its class
    key when first asked (so a cycle does not visit every free slot)."""

    def __init__(self, keys: list[SlotKey], classes: dict[SlotKey, SlotClass]) -> None:
        super().__init__()
        self._keys = keys
        self._classes = classes

    def __missing__(self, index: int) -> SlotClass:
        found = self[index] = self._classes[self._keys[index]]
        return found


def unclaimed_key(slot: Slot, per_slot: list[str]) -> SlotKey:
    """The class key of an unclaimed slot: its stanza, its resources and the per-slot
    attributes read (``per_slot``, names of :data:`PER_SLOT`)."""
    key: SlotKey = (slot.stanza, None, slot.resources)
    if per_slot:
        key = (*key, tuple(getattr(slot, SLOT_FIELD[a]) for a in per_slot))
    return key
