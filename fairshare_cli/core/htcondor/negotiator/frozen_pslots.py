"""A pool with partitionable slots, built once for the many cycles of a simulation.

A fresh pool (:func:`~.pool_size.fresh_slots`) expands the ``[[machines]]`` stanzas,
then appends a dynamic slot for each claim on one (``slot1_3@host``), in the order of the
claims' lower-case slot names, each carving its resources out of its partitionable slot
(:func:`~.pool_size.add_dynamic_slots`). :class:`FrozenPslots` keeps that pool from
cycle to cycle and applies only the claims that ended and started since the last one:

* a claim that ended takes its dynamic slot out of the pool (its number free again), a claim
  that started puts one in at its place in name order; the dynamic slots after it move
  up or down one place (their index is their place, as in a fresh pool);
* a partitionable slot whose claims changed has its leftover and its dynamic slot numbers
  rebuilt from the claims it holds, in name order, by the fresh pool's own rules
  (:func:`~.pool_size.held_resources`, :func:`~.pool_size.minus`), and moves to
  the group of free slots its new leftover keys;
* what a cycle's carving does (:mod:`.carving`: dynamic slots appended, leftovers and
  slot numbers taken) is undone as the next cycle starts: the pool then holds only what
  the claims it is told of hold.

Anything a fresh pool would do that this bookkeeping does not follow (two claims naming
one dynamic slot) rebuilds the pool from the claims given, with the fresh pool's rule.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator.frozen_pool import (
    FrozenPool,
    net_changes,
    unclaimed_key,
)
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    Resources,
    add_dynamic_slots,
    dynamic_slot,
    exhausted,
    held_resources,
    minus,
    parent_name,
    partitionable_slots,
    request_from,
    totals,
)
from fairshare_cli.core.htcondor.negotiator.pool_size import (
    effective_slots,
    pool_size,
    shape_key,
    weigh_pool,
    weigh_shapes,
)
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.jobs import Job

_INDEX = attrgetter("index")
#: a claim on a dynamic slot: the claim, its partitionable slot, its slot number
Carving = tuple[Claim, Slot, int]
Request = Callable[[Claim], Mapping[str, object]]


def _name(slot: Slot) -> str:
    return slot.name.lower()


def frozen_pool(machines: Sequence[MachineSpec]) -> FrozenPool:
    """The frozen pool of ``machines``: :class:`FrozenPslots` when a stanza is
    partitionable, else a :class:`FrozenPool` of static slots."""
    if any(spec.partitionable for spec in machines):
        return FrozenPslots(machines)
    return FrozenPool(machines)


class FrozenPslots(FrozenPool):
    """A :class:`FrozenPool` whose stanzas may be partitionable: it keeps the dynamic slots
    of the claims on them (after the configured slots, in name order) and each
    partitionable slot's leftover (see the module docstring)."""

    partitionable = True

    def __init__(self, machines: Sequence[MachineSpec]) -> None:
        super().__init__(machines)
        #: partitionable slot by lower-case name (its totals given)
        self._parents = partitionable_slots(self.slots, machines)
        #: a partitionable stanza's totals, by stanza
        self._totals = {p.stanza: totals(machines[p.stanza]) for p in self._parents.values()}
        #: a claim's slot name as written -> (its partitionable slot, number), or None
        self._parent_of_name: dict[str, tuple[Slot, int] | None] = {}
        #: id of a claim -> its dynamic slot; lower-case names of the dynamic slots
        self._dslot_of: dict[int, Slot] = {}
        self._names: set[str] = set()
        #: partitionable slot (pool index) -> its dynamic slots in name order
        self._carved: dict[int, list[Slot]] = {}
        #: partitionable slot (pool index) -> its leftover as its claims leave it
        self._left: dict[int, Resources] = {p.index: p.resources for p in self._parents.values()}
        #: partitionable slots holding a claim that records no resources (its job's request
        #: is read again every cycle, as a fresh pool reads it)
        self._volatile: set[int] = set()
        #: the pool's length as the last cycle started (the slots a cycle carved follow)
        self._length = len(self.slots)
        #: a rebuild found two claims on one dynamic slot: rebuild again next cycle
        self._irregular = False
        #: partitionable slots with something left; Σ their count_effective_slots
        self._open = 0
        self._pcpus = 0
        self._count_parents()
        #: how many slots of each shape (:func:`~.pool_size.shape_key`) the pool has
        self._shapes = Counter(map(shape_key, self.slots))

    def counts(self) -> tuple[int, float]:
        """What :func:`~.pool_size.slot_counts` gives for the pool as the cycle starts."""
        others = self._length - len(self._parents)
        return self._open, float(others + self._pcpus)

    def pool_size(self, claims: list[Claim], knobs: NegotiatorKnobs, now: float) -> float:
        """The pool size group quotas share with ``claims`` held (the claims the pool was
        told of: :func:`~.pool_size.pool_size`), from the pool's slots. A claim that
        records no resources (:func:`~.pool_size.pool_size` carves it as a request
        of nothing) or one on a partitionable slot itself: the fresh count."""
        self.claimed_slots(claims)
        parents = self._parents.values()
        if self._volatile or any(p.claim is not None for p in parents):
            return pool_size(self.machines, claims, knobs, now)
        plain = knobs.slot_poolsize_constraint is None and knobs.slot_constraint is None
        if plain and not knobs.use_slot_weights:
            return self.counts()[1]
        found = weigh_shapes(self.machines, self._shapes, knobs, now, self.compiled)
        if found is not None:
            return found
        return weigh_pool(self.machines, self.slots, knobs, now, self.compiled).quota

    def claims_on(self, claims: list[Claim], dslots: Iterable[str]) -> dict[str, Claim]:
        """The claims on the partitionable slots of the dynamic slots ``dslots``, by slot
        name, once ``claims`` (the claims the pool was told of) are applied: what the
        schedd filling those slots' leftovers needs to know of the pool."""
        self.claimed_slots(claims)
        out: dict[str, Claim] = {}
        for name in dslots:
            found = self._parent_of(name)
            for dslot in self._carved.get(found[0].index, ()) if found is not None else ():
                assert dslot.claim is not None
                out[dslot.claim.slot] = dslot.claim
        return out

    def parents_of(self, dslots: Iterable[str]) -> list[tuple[int, str, int]]:
        """The partitionable slots of the dynamic slots ``dslots`` (once each, in pool
        order), as (stanza, machine, slot id)."""
        found = {p[0].index: p[0] for p in map(self._parent_of, dslots) if p is not None}
        return [(s.stanza, s.machine, s.slot_id) for _, s in sorted(found.items())]

    def held_slots(self) -> list[Slot]:
        """The claimed slots in pool order: configured ones, then the dynamic slots."""
        slots = self.slots
        return [
            *(slots[i] for i in sorted(self._held)),
            *slots[self.configured : self._length],
        ]

    def claimed_slots(self, claims: list[Claim], running: Mapping[str, Job] | None = None) -> None:
        """Give the pool this cycle's claims (see :meth:`FrozenPool.claimed_slots`), after
        undoing what the last cycle carved. ``running`` (the running jobs by id) gives
        the request of a claim on a dynamic slot that records no resources."""
        self._undo()
        request = request_from(running or {})
        told = self._told
        if told is not None:
            self._told = ([], [])
            applied = self._changed(*net_changes(*told), request)
        else:
            applied = self._compared(claims, request)
        if self._irregular or not applied:
            self._rebuild(claims, request)
        self._length = len(self.slots)

    def _undo(self) -> None:
        """Take out the dynamic slots the last cycle carved, and give their partitionable
        slots back their leftover and slot numbers as the claims left them."""
        slots = self.slots
        for dslot in slots[self._length :]:
            parent = dslot.parent
            found = parent_name(dslot.name)
            if parent is not None and found is not None:
                parent.resources = self._left[parent.index]
                parent.children.discard(found[1])
        del slots[self._length :]

    def _parent_of(self, name: str) -> tuple[Slot, int] | None:
        """The partitionable slot and number of a claim's dynamic slot (None: the claim
        does not name a dynamic slot of a configured partitionable slot)."""
        cache = self._parent_of_name
        if name in cache:
            return cache[name]
        found = parent_name(name)
        parent = self._parents.get(found[0].lower()) if found is not None else None
        out = cache[name] = (parent, found[1]) if parent is not None and found else None
        return out

    def _split(self, claims: list[Claim]) -> tuple[list[Carving], list[Claim]]:
        """The claims on dynamic slots (with their partitionable slot and number), and
        the others (on configured slots, or on nothing known)."""
        carving: list[Carving] = []
        rest: list[Claim] = []
        for claim in claims:
            found = self._parent_of(claim.slot)
            if found is None:
                rest.append(claim)
            else:
                carving.append((claim, *found))
        return carving, rest

    def _changed(self, ended: list[Claim], started: list[Claim], request: Request) -> bool:
        """Apply the claims told of since the last cycle; False (nothing changed but what
        a rebuild redoes) when they do not follow from the pool's claims."""
        if self._irregular:
            return False
        gone, ended_rest = self._split(ended)
        new, started_rest = self._split(started)
        held = self._dslot_of
        dslots = [held[id(claim)] for claim, _, _ in gone if id(claim) in held]
        names = self._names - {_name(d) for d in dslots}
        fresh = {c.slot.lower() for c, _, _ in new}
        if len(dslots) < len(gone) or len(fresh) < len(new) or fresh & names:
            return False  # a claim not held, or a second claim on one dynamic slot
        if not self._moved(ended_rest, started_rest):
            return False
        self._carve(dslots, new, request)
        return True

    def _compared(self, claims: list[Claim], request: Request) -> bool:
        """Apply ``claims`` by comparing them with the last cycle's; False when two of
        them name one dynamic slot (a rebuild follows)."""
        new, rest = self._split(claims)
        if self._irregular or len({c.slot.lower() for c, _, _ in new}) < len(new):
            return False
        given = {id(c) for c, _, _ in new}
        held = self._dslot_of
        self._compare(rest)
        gone = [d for k, d in held.items() if k not in given]
        self._carve(gone, [x for x in new if id(x[0]) not in held], request)
        return True

    def _carve(self, gone: list[Slot], new: list[Carving], request: Request) -> None:
        """Take out the dynamic slots of the claims that ended (``gone``), put in those of
        the claims that started (``new``), renumber the dynamic slots from the first place
        that changed, and rebuild the partitionable slots whose claims changed."""
        slots = self.slots
        changed: dict[int, Slot] = {}
        low = len(slots)
        for dslot in sorted(gone, key=_INDEX, reverse=True):
            assert dslot.claim is not None
            assert dslot.parent is not None
            del self._dslot_of[id(dslot.claim)]
            self._names.discard(_name(dslot))
            self._leave_groups(dslot)
            self._carved[dslot.parent.index].remove(dslot)
            del slots[dslot.index]
            low = dslot.index
            changed[dslot.parent.index] = dslot.parent
        added: set[int] = set()
        for claim, parent, number in new:
            dslot = dynamic_slot(-1, parent, number)
            dslot.name = claim.slot
            dslot.claim = claim
            at = bisect_left(slots, _name(dslot), lo=self.configured, key=_name)
            slots.insert(at, dslot)
            low = min(low, at)
            insort(self._carved.setdefault(parent.index, []), dslot, key=_name)
            self._dslot_of[id(claim)] = dslot
            self._names.add(_name(dslot))
            changed[parent.index] = parent
            added.add(id(dslot))
        for i in range(low, len(slots)):
            slots[i].index = i
        for index in self._volatile:
            changed[index] = slots[index]
        for parent in changed.values():
            self._recarve(parent, request, added)

    def _recarve(self, parent: Slot, request: Request, added: set[int]) -> None:
        """Rebuild a partitionable slot's leftover and slot numbers from its dynamic slots'
        claims in name order, as a fresh pool takes them (a dynamic slot just ``added``
        joins the claimed slots' groups here, its resources known)."""
        left = self._totals[parent.stanza]
        numbers: set[int] = set()
        volatile = False
        for dslot in self._carved.get(parent.index, ()):
            assert dslot.claim is not None
            found = parent_name(dslot.name)
            assert found is not None
            numbers.add(found[1])
            volatile = volatile or not dslot.claim.resources
            carved = held_resources(left, dslot.claim, request)
            left = minus(left, carved)
            if id(dslot) in added:
                dslot.resources = carved
                self._join_groups(dslot)
            elif carved != dslot.resources:
                self._leave_groups(dslot)
                dslot.resources = carved
                self._join_groups(dslot)
        parent.children = numbers
        if volatile:
            self._volatile.add(parent.index)
        else:
            self._volatile.discard(parent.index)
        self._leftover(parent, left)

    def _leftover(self, parent: Slot, left: Resources) -> None:
        """Give a partitionable slot a new leftover: it moves to the group its key gives."""
        self._left[parent.index] = left
        if left == parent.resources:
            return
        self._open -= not exhausted(parent.resources)
        self._pcpus -= effective_slots(parent)
        self._leave_groups(parent)
        parent.resources = left
        for per_slot, keys in self._unclaimed_keys.items():
            keys[parent.index] = unclaimed_key(parent, list(per_slot))
        self._join_groups(parent)
        self._open += not exhausted(parent.resources)
        self._pcpus += effective_slots(parent)

    def _rebuild(self, claims: list[Claim], request: Request) -> None:
        """Build the pool again from ``claims``, as a fresh pool is built
        (:func:`~.pool_size.add_dynamic_slots`); the groups are made again on the
        next ask."""
        slots = self.slots
        del slots[self.configured :]
        for slot in slots:
            slot.claim = None
            slot.children = set()
        for cache in (self._held, self._held_groups, self._free, self._unclaimed_keys):
            cache.clear()
        for state in (self._dslot_of, self._names, self._carved, self._volatile):
            state.clear()
        self.holders.clear()
        self.limited = 0
        rest = add_dynamic_slots(slots, self.machines, claims, request)
        for dslot in slots[self.configured :]:
            assert dslot.claim is not None
            assert dslot.parent is not None
            self._dslot_of[id(dslot.claim)] = dslot
            self._names.add(_name(dslot))
            self._carved.setdefault(dslot.parent.index, []).append(dslot)
            if not dslot.claim.resources:
                self._volatile.add(dslot.parent.index)
            self._join_groups(dslot)
        self._irregular = len(self._names) < len(slots) - self.configured
        for index, claim in self._holding(rest).items():
            slots[index].claim = self._held[index] = claim
            self._join_groups(slots[index])
        self._left = {p.index: p.resources for p in self._parents.values()}
        self._count_parents()
        self._shapes = Counter(map(shape_key, slots))

    def _leave_groups(self, slot: Slot) -> None:
        super()._leave_groups(slot)
        key = shape_key(slot)
        self._shapes[key] -= 1
        if not self._shapes[key]:
            del self._shapes[key]

    def _join_groups(self, slot: Slot) -> None:
        super()._join_groups(slot)
        self._shapes[shape_key(slot)] += 1

    def _count_parents(self) -> None:
        self._open = sum(not exhausted(p.resources) for p in self._parents.values())
        self._pcpus = sum(effective_slots(p) for p in self._parents.values())
