"""The slots of a pool (and the autoclusters' ads), built once for the many cycles of a
simulation.

Between two cycles of ``fs simulate`` only the claims on the slots change (claims started,
claims ended); the slots themselves (names, stanzas, the per-slot attributes that split
slot classes) do not. :class:`FrozenPool` keeps them, and each cycle's snapshot
(:mod:`.snapshot`) takes them with that cycle's claims. A pool with partitionable slots
keeps their dynamic slots too (:mod:`.frozen_pslots`).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Compiled
from fairshare_cli.core.htcondor.negotiator.pool_size import pool_size
from fairshare_cli.core.htcondor.negotiator.queue import KeptAds
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs
from fairshare_cli.core.htcondor.negotiator.slots import Slot, SlotClass, expand_slots
from fairshare_cli.core.jobs import Job

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
    pool. Pools with partitionable slots use the subclass
    :class:`~.frozen_pslots.FrozenPslots` (:func:`~.frozen_pslots.frozen_pool` picks).
    """

    #: whether the pool has partitionable slots (a cycle then carves dynamic slots)
    partitionable = False

    def __init__(self, machines: Sequence[MachineSpec]) -> None:
        self.machines = machines
        self.slots = [Slot(i, *where) for i, where in enumerate(expand_slots(machines))]
        #: the configured slots (the first of :attr:`slots`, whose index never changes)
        self.configured = len(self.slots)
        self._by_name = {slot.name.lower(): slot for slot in self.slots}
        #: pool index -> claim, for the slots the last cycle's claims held
        self._held: dict[int, Claim] = {}
        #: a claim's slot name as written -> its slot (None: not configured)
        self._slot_of_name: dict[str, Slot | None] = {}
        #: the expressions every cycle's evaluator compiled, by (text, MY names)
        self.compiled: dict[tuple[str, frozenset[str]], Compiled] = {}
        #: the autoclusters' ads, from one cycle to the next (none with a consumption
        #: policy, which reads a job's ad beyond its autocluster key)
        self.autoclusters = None if any(spec.consumption_policy for spec in machines) else KeptAds()
        #: the held slots per holder, and how many held claims carry concurrency limits
        self.holders: dict[str, int] = {}
        self.limited = 0
        #: the claims the caller told of (ended, started) since the last cycle (:meth:`tell`)
        self._told: tuple[list[Claim], list[Claim]] | None = None
        #: a claim held now is not on its slot (another claim on it came later): the
        #: claims told of next cannot say who holds that slot once the other ends
        self._shadowed = False
        #: (by holder, per-slot attributes) -> the claimed slots by :func:`held_key`, and
        #: their keys by slot
        self._held_groups: dict[
            tuple[bool, tuple[str, ...]], tuple[dict[SlotKey, list[Slot]], dict[Slot, SlotKey]]
        ] = {}
        self._unclaimed_keys: dict[tuple[str, ...], list[SlotKey]] = {}
        self._free: dict[tuple[str, ...], dict[SlotKey, list[Slot]]] = {}

    def claimed_slots(self, claims: list[Claim], running: Mapping[str, Job] | None = None) -> None:
        """Give the slots this cycle's claims (:meth:`held_slots` lists the claimed ones).

        As a fresh pool takes them (:func:`~.pool_size.add_dynamic_slots`): by slot
        name, the last of two claims on one slot holding it, a claim on a slot not
        configured ignored. A pool told of its claims as they start and end (:meth:`tell`)
        applies only those, else it compares every claim with the last cycle's; either way
        only the slots whose claim changed move between the groups of :meth:`free_slots`
        and :meth:`held_groups`. (``running``, the running jobs by id, serves the
        partitionable pool's claims that record no resources.)
        """
        told = self._told
        if told is not None:
            self._told = ([], [])
            if self._moved(*net_changes(*told)):
                return
        self._compare(claims)

    def _compare(self, claims: list[Claim]) -> None:
        """Give the slots ``claims`` by comparing each with the last cycle's."""
        found = self._holding(claims)
        slots, before = self.slots, self._held
        self._move(
            [slots[i] for i in before if found.get(i) is not before[i]],
            [(slots[i], c) for i, c in found.items() if before.get(i) is not c],
        )

    def _holding(self, claims: list[Claim]) -> dict[int, Claim]:
        """Pool index -> the claim that holds the slot: of two on one slot, the last (as a
        fresh pool takes them); a claim on a slot not configured is ignored."""
        found: dict[int, Claim] = {}
        resolved = 0
        for claim in claims:
            target = self._slot_of(claim.slot)
            if target is not None:
                found[target.index] = claim
                resolved += 1
        self._shadowed = resolved > len(found)
        return found

    def tell(self, ended: Claim | None = None, started: Claim | None = None) -> None:
        """Keep the pool told of the caller's claims as each ends and starts (``fs
        simulate``): the next :meth:`claimed_slots` applies them instead of comparing every
        claim given with the last cycle's. Only for a caller whose claims given each cycle
        are exactly those it told of."""
        if self._told is None:
            self._told = ([], [])
        if ended is not None:
            self._told[0].append(ended)
        if started is not None:
            self._told[1].append(started)

    def _slot_of(self, name: str) -> Slot | None:
        """The configured slot a claim names (None: not configured)."""
        slot_of = self._slot_of_name
        if name in slot_of:
            return slot_of[name]
        found = slot_of[name] = self._by_name.get(name.lower())
        return found

    def _moved(self, ended: list[Claim], started: list[Claim]) -> bool:
        """Apply the claims that ended and started since the last cycle (in the order
        given) when each ended one held its slot and no slot gets two; else False, and
        nothing changed."""
        if self._shadowed:
            return False
        held = self._held
        freed: list[Slot] = []
        for claim in ended:
            slot = self._slot_of(claim.slot)
            if slot is None:
                continue
            if held.get(slot.index) is not claim:
                return False  # it did not hold its slot: there were two on it
            freed.append(slot)
        ended_here = {slot.index for slot in freed}
        taken: list[tuple[Slot, Claim]] = []
        taken_here: set[int] = set()
        for claim in started:
            slot = self._slot_of(claim.slot)
            if slot is None:
                continue
            if slot.index in taken_here or (slot.index in held and slot.index not in ended_here):
                return False  # a second claim on one slot
            taken_here.add(slot.index)
            taken.append((slot, claim))
        self._move(freed, taken)
        return True

    def _move(self, released: list[Slot], taken: list[tuple[Slot, Claim]]) -> None:
        """Slots whose claim ended (``released``) and slots given a new claim (``taken``,
        some perhaps among the released); the free and held groups follow."""
        held = self._held
        retaken = {slot.index for slot, _ in taken}
        for slot in released:
            if slot.index not in retaken:
                self._leave_groups(slot)
                del held[slot.index]
                slot.claim = None
                self._join_groups(slot)
        for slot, claim in taken:
            self._leave_groups(slot)  # its free group, or its old claim's
            held[slot.index] = claim
            slot.claim = claim
            self._join_groups(slot)

    def _leave_groups(self, slot: Slot) -> None:
        if slot.claim is None:
            for per_slot, free in self._free.items():
                group = free[self._unclaimed_keys[per_slot][slot.index]]
                del group[bisect_left(group, slot.index, key=_INDEX)]
            return
        holder = slot.claim.submitter
        self.holders[holder] -= 1
        if not self.holders[holder]:
            del self.holders[holder]
        self.limited -= slot.claim.concurrency_limits is not None
        for groups, keys in self._held_groups.values():
            group = groups[keys.pop(slot)]
            del group[bisect_left(group, slot.index, key=_INDEX)]

    def _join_groups(self, slot: Slot) -> None:
        if slot.claim is None:
            for per_slot, free in self._free.items():
                key = self._unclaimed_keys[per_slot][slot.index]
                insort(free.setdefault(key, []), slot, key=_INDEX)
            return
        holder = slot.claim.submitter
        self.holders[holder] = self.holders.get(holder, 0) + 1
        self.limited += slot.claim.concurrency_limits is not None
        for (by_holder, per_slot), (groups, keys) in self._held_groups.items():
            key = keys[slot] = held_key(slot, per_slot, by_holder)
            insort(groups.setdefault(key, []), slot, key=_INDEX)

    def held_slots(self) -> list[Slot]:
        """The claimed slots, in pool order."""
        slots = self.slots
        return [slots[i] for i in sorted(self._held)]

    def held_groups(
        self, per_slot: list[str], by_holder: bool
    ) -> tuple[dict[SlotKey, list[Slot]], dict[Slot, SlotKey]]:
        """The claimed slots by :func:`held_key` (each group in pool order; a group may be
        empty), and each claimed slot's key. Built on the first ask, then kept up to date
        by :meth:`claimed_slots`. Read, never change."""
        spec = (by_holder, tuple(per_slot))
        found = self._held_groups.get(spec)
        if found is None:
            groups: dict[SlotKey, list[Slot]] = {}
            keys: dict[Slot, SlotKey] = {}
            for slot in self.held_slots():
                key = keys[slot] = held_key(slot, per_slot, by_holder)
                groups.setdefault(key, []).append(slot)
            found = self._held_groups[spec] = (groups, keys)
        return found

    def unclaimed_keys(self, per_slot: list[str]) -> list[SlotKey]:
        """Each configured slot's class key when unclaimed (see :func:`unclaimed_key`), by
        pool index, for the per-slot attributes the cycle reads."""
        found = self._unclaimed_keys.get(tuple(per_slot))
        if found is None:
            found = [unclaimed_key(slot, per_slot) for slot in self.slots[: self.configured]]
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
            for slot in self.slots[: self.configured]:
                if slot.claim is None:
                    found.setdefault(keys[slot.index], []).append(slot)
            self._free[tuple(per_slot)] = found
        return found

    def pool_size(self, claims: list[Claim], knobs: NegotiatorKnobs, now: float) -> float:
        """The pool size group quotas share with ``claims`` held
        (:func:`~.pool_size.pool_size`)."""
        return pool_size(self.machines, claims, knobs, now)

    def claims_on(self, claims: list[Claim], dslots: Iterable[str]) -> dict[str, Claim]:
        """The claims among ``claims`` (those the pool holds) on the partitionable slots of
        the dynamic slots ``dslots``, by slot name: none in a pool of static slots."""
        return {}

    def parents_of(self, dslots: Iterable[str]) -> list[tuple[int, str, int]]:
        """The partitionable slots of the dynamic slots ``dslots``, as (stanza, machine,
        slot id): none in a pool of static slots."""
        return []

    def counts(self) -> tuple[int, float]:
        """What :func:`~.pool_size.slot_counts` gives for the pool: no partitionable
        slot, every slot counting 1."""
        return 0, float(len(self.slots))


class ClassOfSlot(dict[int, SlotClass]):
    """Pool index -> slot class in a cycle on a :class:`FrozenPool`: a slot's class is
    found from its class key when first asked (so a cycle does not visit every slot):
    its :func:`held_key` when claimed (``held``) and its class was made by that key,
    else its :func:`unclaimed_key`."""

    def __init__(
        self,
        keys: list[SlotKey],
        classes: dict[SlotKey, SlotClass],
        held: dict[Slot, SlotKey],
        slots: list[Slot],
    ) -> None:
        super().__init__()
        self._keys = keys
        self._classes = classes
        self._held = held
        self._slots = slots

    def __missing__(self, index: int) -> SlotClass:
        key = self._held.get(self._slots[index])
        found = self[index] = self._classes[self._keys[index] if key is None else key]
        return found


def held_key(slot: Slot, per_slot: Sequence[str], by_holder: bool) -> SlotKey:
    """The class key of a claimed slot when no claim attribute is read: its stanza, its
    holder (None unless ``by_holder``), its resources and the per-slot attributes read
    (``per_slot``)."""
    assert slot.claim is not None
    holder = slot.claim.submitter if by_holder else None
    key: SlotKey = (slot.stanza, holder, (), slot.resources)
    if per_slot:
        key = (*key, tuple(getattr(slot, SLOT_FIELD[a]) for a in per_slot))
    return key


def unclaimed_key(slot: Slot, per_slot: list[str]) -> SlotKey:
    """The class key of an unclaimed slot: its stanza, its resources and the per-slot
    attributes read (``per_slot``, names of :data:`PER_SLOT`)."""
    key: SlotKey = (slot.stanza, None, slot.resources)
    if per_slot:
        key = (*key, tuple(getattr(slot, SLOT_FIELD[a]) for a in per_slot))
    return key


def net_changes(ended: list[Claim], started: list[Claim]) -> tuple[list[Claim], list[Claim]]:
    """The claims that ended and started, less those that started and then ended between
    two cycles (the same object in both)."""
    fresh = {id(c): c for c in started}
    gone = [c for c in ended if fresh.pop(id(c), None) is None]
    return gone, list(fresh.values())
