"""The slots of a pool of static slots, built once for the many cycles of a simulation.

Between two cycles of ``fs simulate`` only the claims on the slots change (claims started,
claims ended); the slots themselves (names, stanzas, the per-slot attributes that split
slot classes) do not. :class:`FrozenPool` keeps them, and each cycle's snapshot
(:mod:`.snapshot`) takes them with that cycle's claims.
"""

from __future__ import annotations

from collections.abc import Sequence

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator.results import Claim
from fairshare_cli.core.htcondor.negotiator.slots import Slot, expand_slots

#: The :class:`Slot` field of each per-slot attribute (``PER_SLOT``).
SLOT_FIELD = {"name": "name", "machine": "machine", "slotid": "slot_id"}


class FrozenPool:
    """The slots of a pool of static slots, built once and reused by every cycle of a
    simulation: between two cycles only the claims on them change.

    A cycle given one (:attr:`.snapshot.CycleInputs.frozen`) takes its slots from here instead of
    expanding the ``[[machines]]`` stanzas again; the slots the last cycle claimed are
    cleared first. Pools with partitionable slots (whose cycles carve and append dynamic
    slots) are built afresh each cycle: :meth:`of` gives None for them.
    """

    def __init__(self, machines: Sequence[MachineSpec]) -> None:
        self.machines = machines
        self.slots = [Slot(i, *where) for i, where in enumerate(expand_slots(machines))]
        self._by_name = {slot.name.lower(): slot for slot in self.slots}
        self._held: list[Slot] = []
        self._unclaimed_keys: dict[tuple[str, ...], list[tuple[object, ...]]] = {}

    @classmethod
    def of(cls, machines: Sequence[MachineSpec]) -> FrozenPool | None:
        """A frozen pool of ``machines``, or None when a stanza is partitionable."""
        if any(spec.partitionable for spec in machines):
            return None
        return cls(machines)

    def claimed_slots(self, claims: list[Claim]) -> list[Slot]:
        """Every slot, in pool order, holding its claim (as a fresh pool gives them, see
        :func:`~.partitionable.add_dynamic_slots`: by slot name, a claim on a slot not
        configured ignored)."""
        for slot in self._held:
            slot.claim = None
            slot.remote_group = None
        held: list[Slot] = []
        for claim in sorted(claims, key=lambda c: c.slot.lower()):
            target = self._by_name.get(claim.slot.lower())
            if target is not None:
                target.claim = claim
                held.append(target)
        self._held = held
        return list(self.slots)

    def unclaimed_keys(self, per_slot: list[str]) -> list[tuple[object, ...]]:
        """Each slot's class key when unclaimed (see :func:`unclaimed_key`), by pool index,
        for the per-slot attributes the cycle reads."""
        found = self._unclaimed_keys.get(tuple(per_slot))
        if found is None:
            found = [unclaimed_key(slot, per_slot) for slot in self.slots]
            self._unclaimed_keys[tuple(per_slot)] = found
        return found


def unclaimed_key(slot: Slot, per_slot: list[str]) -> tuple[object, ...]:
    """The class key of an unclaimed slot: its stanza, its resources and the per-slot
    attributes read (``per_slot``, names of :data:`PER_SLOT`)."""
    key: tuple[object, ...] = (slot.stanza, None, slot.resources)
    if per_slot:
        key = (*key, tuple(getattr(slot, SLOT_FIELD[a]) for a in per_slot))
    return key
