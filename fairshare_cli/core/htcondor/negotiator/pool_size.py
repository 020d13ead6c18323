"""The pool size: the slots the pie spins share, and those the group quotas share.

What 25.0's ``Matchmaker::negotiationTime`` counts before the groups negotiate, over
every slot ad the collector gave (claimed ones, each partitionable slot with what is left,
each dynamic slot), before the negotiator adds ``RemoteUserPrio`` and the like:

* the pie's slot total (``weightedPoolsize``, :attr:`PoolSize.pie`): ``Σ SLOT_WEIGHT`` with
  slot weights, else the number of slot ads;
* the pool group quotas share (``hgq_total_quota``, :attr:`PoolSize.quota`):
  ``Σ SLOT_WEIGHT`` with slot weights, else ``count_effective_slots`` (a partitionable slot
  counts its ``Cpus`` left, any other slot ad 1);
* with ``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT`` (``[negotiator] slot_poolsize_constraint``)
  only the slot ads it is true on count in both (``EvalExprBool``: the ad as ``MY``, no
  target; true or a non-zero number, undefined and errors not); none: both are 0. Every slot
  is still matched and charged, and the smallest slot weight is taken over all of them.

With ``NEGOTIATOR_SLOT_CONSTRAINT`` (:mod:`.slot_constraint`) "every slot" is every slot the
collector sends: those it leaves out count nowhere.

One computation, :func:`weigh_pool`, over the slots with their claims and resources; the
others are faster forms of it, taken only without a constraint, where they give the same
sum: by stanza (:func:`pool_size` of static slots), by shape (:func:`weigh_shapes`, a frozen
pool's), by slot class (:func:`class_sizes`, a cycle's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    Resources,
    add_dynamic_slots,
    exhausted,
    request_from,
)
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs, SubmitterPrio
from fairshare_cli.core.htcondor.negotiator.slot_constraint import left_out
from fairshare_cli.core.htcondor.negotiator.slots import (
    BASE_SLOT_NAMES,
    CLAIM_ATTRS,
    PARTITION_NAMES,
    RESOURCES,
    Slot,
    SlotClass,
    claimed_values,
    compile_knob,
    expand_slots,
    machine_names,
    slot_ad,
    slot_values,
    slot_weight,
    stanza_slot_names,
)
from fairshare_cli.core.jobs import Job


class PoolSize(NamedTuple):
    """A pool's size as a cycle starts (see the module docstring)."""

    #: the pie's slot total: Σ slot weights, else the number of slot ads
    pie: float
    #: what group quotas share: Σ slot weights, else ``count_effective_slots``
    quota: float


def class_sizes(
    classes: Sequence[SlotClass],
    slots: Sequence[Slot],
    class_of: Mapping[int, SlotClass],
    effective: float,
    use_weights: bool,
) -> PoolSize:
    """The :class:`PoolSize` of a cycle's ``slots`` with no constraint, from the weights of
    their ``classes`` (``class_of``: pool index -> class); ``effective``: their
    ``count_effective_slots``. Σ slot weights added slot by slot in pool order; by class
    when every weight is a whole number (then each partial sum is exact, and so the same)."""
    if not use_weights:
        return PoolSize(float(len(slots)), effective)
    total = None
    if classes and all(c.weight.is_integer() for c in classes):
        total = sum(c.weight * len(c.slots) for c in classes)
    if total is None or total >= _EXACT_SUM:
        total = sum(class_of[s.index].weight for s in slots)
    return PoolSize(total, total)


#: Below this, a sum of whole numbers is exact in a double.
_EXACT_SUM = 2.0**53


def effective_slots(slot: Slot) -> int:
    """``count_effective_slots``: a partitionable slot counts its ``Cpus``, any other 1."""
    if not slot.partitionable:
        return 1
    return int(dict(slot.resources).get("Cpus", 0))


def slot_counts(slots: Iterable[Slot]) -> tuple[int, float]:
    """How many partitionable slots have something left to carve (each stays matchable),
    and the pool's ``count_effective_slots`` (:func:`effective_slots` summed)."""
    open_slots = 0
    effective = 0
    for slot in slots:
        effective += effective_slots(slot)
        open_slots += slot.partitionable and not exhausted(slot.resources)
    return open_slots, float(effective)


def pool_size(
    machines: Sequence[MachineSpec],
    claims: Iterable[Claim],
    knobs: NegotiatorKnobs,
    now: float,
    running: Mapping[str, Job] | None = None,
) -> float:
    """The pool size group quotas share, without a cycle: :attr:`PoolSize.quota` of
    :func:`weigh_pool` over the pool's slots (a partitionable slot with what is left, each
    dynamic slot with its own resources), ``claims`` held. A dynamic slot whose claim
    records no resources holds the request of the job it runs (``running``: job id -> the
    queue's running job), carved as a match would, as a cycle carves it; with no such job,
    a request of nothing.

    Raises:
        ConfigError: ``slot_poolsize_constraint``, or with slot weights on ``slot_weight``
            or a machine's ``start`` or ``rank``, does not parse.
    """
    constrained = knobs.slot_poolsize_constraint is not None or knobs.slot_constraint is not None
    if not constrained and not any(s.partitionable for s in machines):
        return _static_size(machines, claims, knobs, now)
    claims = list(claims)
    slots = [Slot(i, *where) for i, where in enumerate(expand_slots(machines))]
    request = request_from(running or {})
    held = {c.slot.lower(): c for c in add_dynamic_slots(slots, machines, claims, request)}
    for slot in slots:
        if slot.parent is None and not slot.partitionable:
            slot.claim = held.get(slot.name.lower())
    return weigh_pool(machines, slots, knobs, now).quota


def weigh_pool(
    machines: Sequence[MachineSpec],
    slots: Iterable[Slot],
    knobs: NegotiatorKnobs,
    now: float,
    compiled: dict[tuple[str, frozenset[str]], Compiled] | None = None,
    not_sent: frozenset[int] | None = None,
) -> PoolSize:
    """The :class:`PoolSize` of ``slots`` (their claims and resources given), the slots the
    constraint keeps summed in pool order.

    The constraint and ``SLOT_WEIGHT`` are evaluated once per (stanza, claimed, kind,
    resources) when they read only what those fix (the stanza's attributes, ``Cpus``,
    ``Memory``, ``Disk``, ``SlotType`` ...), else on every slot's ad. ``compiled``: a
    compile cache to reuse. ``not_sent``: the slots ``slot_constraint`` leaves out, where
    the caller found them already (None: found here).

    Raises:
        ConfigError: ``slot_poolsize_constraint``, or with slot weights on ``slot_weight``
            or a machine's ``start`` or ``rank``, does not parse.
    """
    use_weights = knobs.use_slot_weights
    ev = Evaluator(compiled)
    if knobs.slot_constraint is not None:
        slots = list(slots)
        out = not_sent
        if out is None:
            out = left_out(ev, machines, knobs.slot_constraint, slots, now)
        slots = [slot for slot in slots if slot.index not in out]
    if not use_weights and knobs.slot_poolsize_constraint is None:
        slots = list(slots)
        return PoolSize(float(len(slots)), float(sum(map(effective_slots, slots))))
    empty = Ad({}, {}, ev, "empty")
    exprs: dict[tuple[int, bool], tuple[Compiled | None, Compiled | None, bool]] = {}
    seen: dict[ShapeKey, tuple[bool, float]] = {}
    count = effective = 0
    total = 0.0
    for slot in slots:
        spec = machines[slot.stanza]
        shape = (slot.stanza, slot.claim is not None)
        found = exprs.get(shape)
        if found is None:
            found = exprs[shape] = _size_exprs(ev, knobs, spec, shape[1])
        key = shape_key(slot) if found[2] else None
        got = seen.get(key) if key is not None else None
        if got is None:
            ad = slot_ad(spec, pool_size_values(spec, slot, now), ev)
            kept = found[1] is None or ev.is_true(found[1], ad, empty, cached=False)
            got = (kept, slot_weight(ev, found[0], ad, empty) if kept else 0.0)
            if key is not None:
                seen[key] = got
        if got[0]:
            count += 1
            effective += effective_slots(slot)
            total += got[1]
    if not use_weights:
        return PoolSize(float(count), float(effective))
    return PoolSize(total, total)


def _size_exprs(
    ev: Evaluator, knobs: NegotiatorKnobs, spec: MachineSpec, claimed: bool
) -> tuple[Compiled | None, Compiled | None, bool]:
    """``SLOT_WEIGHT`` (None without slot weights) and the constraint, compiled for the
    stanza's slot ads (claimed or not), and whether both read only what a shape fixes."""
    names = stanza_slot_names(spec, claimed)
    weight = knobs.slot_weight if knobs.use_slot_weights else None
    expr = compile_knob(ev, weight, names, "slot_weight")
    keep = compile_knob(ev, knobs.slot_poolsize_constraint, names, "slot_poolsize_constraint")
    fixed = _fixed_names(spec)
    return expr, keep, all(e is None or set(e.my_refs) <= fixed for e in (expr, keep))


def weigh_shapes(
    machines: Sequence[MachineSpec],
    shapes: Mapping[ShapeKey, int],
    knobs: NegotiatorKnobs,
    now: float,
    compiled: dict[tuple[str, frozenset[str]], Compiled] | None = None,
) -> float | None:
    """:func:`weigh_pool` of a pool with ``shapes[k]`` slots of each :func:`shape_key`
    ``k``, when ``SLOT_WEIGHT`` reads only what a shape fixes and is a whole number on every
    one (then the sum is exact in any order, so the same); else None, and with a
    constraint."""
    if not knobs.use_slot_weights or knobs.slot_poolsize_constraint is not None:
        return None
    if knobs.slot_constraint is not None:
        return None
    ev = Evaluator(compiled)
    empty = Ad({}, {}, ev, "empty")
    total = 0.0
    for (stanza, claimed, whole, resources), count in shapes.items():
        spec = machines[stanza]
        names = stanza_slot_names(spec, claimed)
        expr = compile_knob(ev, knobs.slot_weight, names, "slot_weight")
        if expr is not None and not set(expr.my_refs) <= _fixed_names(spec):
            return None
        probe = Slot(-1, stanza, "", 0)  # the values a shape does not fix are never read
        probe.resources = resources
        if not whole:
            probe.parent = Slot(-1, stanza, "", 0)
        if claimed:
            probe.claim = Claim("", "", "", now)
        ad = slot_ad(spec, pool_size_values(spec, probe, now), ev)
        weight = slot_weight(ev, expr, ad, empty)
        if not weight.is_integer():
            return None
        total += weight * count
    return total if total < 2.0**53 else None


#: What fixes a slot ad's values but its name, its claim's and the time: its stanza,
#: whether it is claimed, whether it is a dynamic slot (else whole), its resources.
ShapeKey = tuple[int, bool, bool, Resources]


def shape_key(slot: Slot) -> ShapeKey:
    """The slot's :data:`ShapeKey`."""
    return (slot.stanza, slot.claim is not None, slot.parent is None, slot.resources)


def _fixed_names(spec: MachineSpec) -> set[str]:
    """The attributes of a slot ad of ``spec`` whose values its stanza, claim state, kind
    (partitionable or dynamic) and resources fix."""
    own = {k.lower() for k in spec.attributes} | {r.lower() for r in RESOURCES}
    return (own | PARTITION_NAMES | {"state", "activity"}) - _VARYING


#: Slot ad attributes that differ between slots of one stanza, claim state and resources.
_VARYING = frozenset(
    {"name", "machine", "slotid", "currenttime", "mycurrenttime", "enteredcurrentstate"}
    | set(CLAIM_ATTRS)
    | {"requirements", "rank"}
)


def _static_size(
    machines: Sequence[MachineSpec], claims: Iterable[Claim], knobs: NegotiatorKnobs, now: float
) -> float:
    """:func:`pool_size` of a pool of static slots with no constraint: Σ slot weights with
    weights on, else slot count.

    The number a cycle finds (``CycleResult.pool_size``), without building one:
    ``SLOT_WEIGHT`` is evaluated once per stanza when it reads only the stanza's own
    attributes (``Cpus``, ``Memory``, …), else once per slot over the ad a cycle gives
    that slot (a claimed slot's holder taken at priority 0.5, running no known job). A
    size that reads no slot's own values is kept for the next call on the same machines.

    Raises:
        ConfigError: with slot weights on, ``slot_weight`` or a machine's ``start`` or
            ``rank`` does not parse.
    """
    if not knobs.use_slot_weights:
        return float(sum(_slot_count(spec) for spec in machines))
    found = _fixed_sizes.get(id(machines))
    if found is not None and found[0] is machines and found[1] == knobs:
        return found[2]
    ev = Evaluator()
    empty = Ad({}, {}, ev, "empty")
    held: dict[str, Claim] | None = None  # made when a weight reads a slot's own values
    weights: list[float] = []
    for i, spec in enumerate(machines):
        compiled = {
            claimed: compile_knob(
                ev, knobs.slot_weight, stanza_slot_names(spec, claimed), "slot_weight"
            )
            for claimed in (False, True)
        }
        own = {k.lower() for k in spec.attributes} - BASE_SLOT_NAMES - set(CLAIM_ATTRS)
        probe = compiled[True]
        if probe is None or set(probe.my_refs) <= own:  # the same on every slot
            ad = slot_ad(spec, dict(spec.attributes), ev)
            weights.extend([slot_weight(ev, probe, ad, empty)] * _slot_count(spec))
            continue
        if held is None:
            held = {c.slot.lower(): c for c in claims}
        for machine in machine_names(spec):
            for k in range(1, spec.slots + 1):
                slot = Slot(0, i, machine, k)
                slot.claim = held.get(slot.name.lower())
                ad = slot_ad(spec, pool_size_values(spec, slot, now), ev)
                weights.append(slot_weight(ev, compiled[slot.claim is not None], ad, empty))
    size = sum(weights)
    if held is None and type(machines) is tuple:  # no weight read a claim or the time
        _fixed_sizes.clear()
        _fixed_sizes[id(machines)] = (machines, knobs, size)
    return size


#: The last pool whose size reads no claim and no time: ``id(machines)`` -> (the machines
#: tuple itself, kept so that its id is not reused, the knobs, the size); ``fs simulate``
#: asks it for the same pool every cycle.
_fixed_sizes: dict[int, tuple[tuple[MachineSpec, ...], NegotiatorKnobs, float]] = {}


def _slot_count(spec: MachineSpec) -> int:
    """How many slots :func:`expand_slots` gives a stanza."""
    return max(0, spec.count) * max(0, spec.slots)


def pool_size_values(spec: MachineSpec, slot: Slot, now: float) -> dict[str, object]:
    """A slot's literal attributes as the pool size sees them (the ad the
    constraint and ``SLOT_WEIGHT`` are evaluated on)."""
    if slot.claim is None:
        return slot_values(spec, slot, now)
    owner = slot.claim.submitter.split("@")[0]
    values = claimed_values(spec, slot, slot.claim, SubmitterPrio(0.5), owner, now)
    values["CurrentRank"] = 0.0
    return values
