"""Partitionable slots: dynamic slots carved out of them, and what is left.

A ``[[machines]]`` stanza with ``partitionable = true`` makes each of its slots a
partitionable slot (``slot1@host``) whose ``attributes`` are its totals. What HTCondor does
with one (``src/condor_startd.V6/Resource.cpp`` ``create_dslot``,
``src/condor_negotiator.V6/matchmaker.cpp``):

* a match carves a dynamic slot (``slot1_1@host``, the lowest free number: the startd's
  ``IdDispenser``) of the job's request out of it. The startd first rounds the request with
  ``MODIFY_REQUEST_EXPR_REQUEST*`` (25.0's defaults: ``quantize(RequestCpus,{1})``,
  ``quantize(RequestMemory,{128})``, ``quantize(RequestDisk - CATALOG_SPACE,{1024})``,
  with no catalogs ``CATALOG_SPACE`` is 0) and, when the rounded request no longer fits the
  partitionable slot, carves the request as it came (``MUST_MODIFY_REQUEST_EXPRS`` false);
* the partitionable slot publishes what is left (``Cpus``, ``Memory``, ``Disk``), so its
  ``Requirements`` (``WithinResourceLimits``: ``MY.Cpus > 0 && TARGET.RequestCpus <=
  MY.Cpus`` ...) decide whether another job still fits: in a later cycle, in the same one
  with a consumption policy, or on the claiming schedd's leftover (:mod:`.carving`);
* a dynamic slot is an ordinary claimed slot: ``SLOT_WEIGHT`` is evaluated on its own
  attributes (``Cpus`` = the carved CPUs), what its holder counts for from the next cycle;
* the pool size counts every slot ad: the partitionable slot with its leftover, each
  dynamic slot (:mod:`.pool_size`).

The carved resources travel with the claim (:attr:`Claim.resources`); a claim that ends
gives them back because the leftover is rebuilt from the claims a cycle is given (all of
them, or on a frozen pool those of the partitionable slots whose claims changed:
:mod:`.frozen_pslots`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from fairshare_cli.core.config import Config, MachineSpec
from fairshare_cli.core.htcondor.job_weight import running_weigher
from fairshare_cli.core.htcondor.negotiator.queue import DEFAULT_REQUEST_DISK
from fairshare_cli.core.htcondor.negotiator.results import Claim
from fairshare_cli.core.htcondor.negotiator.slots import (
    RESOURCES,
    Slot,
    expand_slots,
    slot_values,
)
from fairshare_cli.core.jobs import Job

Resources = tuple[tuple[str, float], ...]

#: ``MODIFY_REQUEST_EXPR_REQUEST*`` quanta (25.0 defaults), by resource.
QUANTA = {"Cpus": 1, "Memory": 128, "Disk": 1024}

_DSLOT = re.compile(r"^slot(\d+)_(\d+)@(.+)$", re.IGNORECASE)


def stanza_resources(spec: MachineSpec) -> list[str]:
    """The resources a partitionable stanza carves (those its ``attributes`` configure)."""
    configured = {k.lower() for k in spec.attributes}
    return [r for r in RESOURCES if r.lower() in configured]


def totals(spec: MachineSpec) -> Resources:
    """A partitionable slot's totals, from the stanza's attributes (any case)."""
    lowered = {k.lower(): v for k, v in spec.attributes.items()}
    return tuple((r, lowered[r.lower()]) for r in stanza_resources(spec))


def parent_name(name: str) -> tuple[str, int] | None:
    """``slot1_3@host`` -> (``slot1@host``, 3); None for any other name."""
    m = _DSLOT.match(name)
    if m is None:
        return None
    return f"slot{m.group(1)}@{m.group(3)}", int(m.group(2))


def quantize(value: float, quantum: int) -> float:
    """ClassAd ``quantize(value, {quantum})`` assigned as an integer: the quantum when the
    value is no larger, else the next multiple of it (``fnCall.cpp`` ``doMath2``)."""
    if value <= quantum:
        return float(quantum)
    return float(math.ceil(value / quantum) * quantum)


def carve(leftover: Resources, request: Mapping[str, object]) -> Resources:
    """The dynamic slot a job's ``Request*`` carves out of ``leftover`` (a partitionable
    slot's free resources): the rounded request if it fits, else the request as it is.

    ``request`` maps ``Cpus``/``Memory``/``Disk`` to the job's ``RequestCpus`` ... (a
    missing or non-numeric one counts as 0, as the startd's ``EvalInteger`` fails)."""
    raw = {r: _number(request.get(r)) for r, _ in leftover}
    rounded = {r: quantize(v, QUANTA[r]) for r, v in raw.items()}
    free = dict(leftover)
    if all(rounded[r] <= free[r] for r in rounded):
        return tuple((r, amount(rounded[r])) for r, _ in leftover)
    return tuple((r, amount(int(raw[r]))) for r, _ in leftover)


def amount(value: float) -> float:
    """A resource amount, whole ones as ``int`` (as the startd publishes and JSON shows)."""
    return int(value) if float(value).is_integer() else value


def _number(value: object) -> float:
    if type(value) in (int, float) and math.isfinite(value):  # type: ignore[arg-type]
        return max(0.0, float(value))  # type: ignore[arg-type]
    return 0.0


def minus(left: Resources, taken: Resources) -> Resources:
    """``left`` less ``taken`` (resource by resource, never below 0)."""
    used = dict(taken)
    return tuple((r, amount(max(0, v - used.get(r, 0)))) for r, v in left)


def exhausted(resources: Resources) -> bool:
    """Whether a partitionable slot has nothing left to carve (``MY.Cpus > 0`` and the
    other configured resources' ``> 0`` fail)."""
    return any(v <= 0 for _, v in resources)


def add_dynamic_slots(
    slots: list[Slot],
    machines: Sequence[MachineSpec],
    claims: Iterable[Claim],
    request_of: Callable[[Claim], Mapping[str, object]],
) -> list[Claim]:
    """Give the partitionable slots among ``slots`` their totals, and append a dynamic slot
    (claimed) for each claim that names one of theirs, its resources taken from the
    partitionable slot. Returns the other claims (on static slots, or on nothing known).

    ``request_of`` gives the request of a claim that has no recorded resources (a running
    job placed on ``slot1_2@host`` by hand or an older state): it is carved as a match would.
    """
    parents = partitionable_slots(slots, machines)
    rest: list[Claim] = []
    for claim in sorted(claims, key=lambda c: c.slot.lower()):
        found = parent_name(claim.slot)
        parent = parents.get(found[0].lower()) if found is not None else None
        if parent is None or found is None:
            rest.append(claim)
            continue
        dslot = dynamic_slot(len(slots), parent, found[1])
        dslot.name = claim.slot
        dslot.claim = claim
        dslot.resources = held_resources(parent.resources, claim, request_of)
        parent.resources = minus(parent.resources, dslot.resources)
        slots.append(dslot)
    return rest


def partitionable_slots(slots: Iterable[Slot], machines: Sequence[MachineSpec]) -> dict[str, Slot]:
    """The partitionable slots among ``slots`` by lower-case name, marked as such and given
    their totals (nothing carved out of them yet)."""
    parents: dict[str, Slot] = {}
    whole: dict[int, Resources] = {}  # by stanza
    for slot in slots:
        spec = machines[slot.stanza]
        if spec.partitionable:
            found = whole.get(slot.stanza)
            if found is None:
                found = whole[slot.stanza] = totals(spec)
            slot.partitionable = True
            slot.resources = found
            parents[slot.name.lower()] = slot
    return parents


def held_resources(
    leftover: Resources, claim: Claim, request_of: Callable[[Claim], Mapping[str, object]]
) -> Resources:
    """What a claim on a dynamic slot holds of its partitionable slot's ``leftover``: the
    resources it records, else its job's request carved as a match would (the resources
    the partitionable slot does not configure dropped)."""
    carved = claim.resources or carve(leftover, request_of(claim))
    known = {r for r, _ in leftover}
    return tuple((r, amount(v)) for r, v in carved if r in known)


def dynamic_slot(index: int, parent: Slot, number: int) -> Slot:
    """A dynamic slot of ``parent`` numbered ``number`` (``slot1_<number>@host``); it keeps
    the parent's ``SlotID``, as the startd's dynamic slots do."""
    dslot = Slot(index, parent.stanza, parent.machine, parent.slot_id)
    dslot.name = f"slot{parent.slot_id}_{number}@{parent.machine}"
    dslot.parent = parent
    parent.children.add(number)
    return dslot


def next_number(parent: Slot) -> int:
    """The lowest dynamic slot number not in use on ``parent`` (``IdDispenser::next``)."""
    n = 1
    while n in parent.children:
        n += 1
    return n


def request_from(running: Mapping[str, Job]) -> Callable[[Claim], dict[str, object]]:
    """The request of the running job a claim holds (for a dynamic slot whose claim does
    not record what was carved)."""

    def request(claim: Claim) -> dict[str, object]:
        job = running.get(claim.job_id)
        if job is None:
            return {}
        return {
            "Cpus": job.request_cpus,
            "Memory": job.request_memory,
            "Disk": DEFAULT_REQUEST_DISK,
        }

    return request


def fresh_slots(
    machines: Sequence[MachineSpec], claims: list[Claim], running: dict[str, Job]
) -> list[Slot]:
    """Every slot of the stanzas with its claim, dynamic slots appended."""
    slots = [
        Slot(index, stanza, machine, slot_id)
        for index, (stanza, machine, slot_id) in enumerate(expand_slots(machines))
    ]
    by_name = {slot.name.lower(): slot for slot in slots} if claims else {}
    for held in add_dynamic_slots(slots, machines, claims, request_from(running)):
        target = by_name.get(held.slot.lower())
        if target is None:
            continue  # a claim on a slot no longer configured: ignored, like a stale ad
        target.claim = held
    return slots


def pool_slots(config: Config) -> tuple[set[str], set[str], int]:
    """The configured slot names and the partitionable ones among them (lower case), and
    the pool row's capacity: one per static slot, and a partitionable slot's total CPUs
    (the most dynamic slots it can hold)."""
    names: set[str] = set()
    partitionable: set[str] = set()
    capacity = 0
    for stanza, machine, k in expand_slots(config.machines):
        name = f"slot{k}@{machine}".lower()
        names.add(name)
        spec = config.machines[stanza]
        if spec.partitionable:
            partitionable.add(name)
            capacity += int(dict(totals(spec))["Cpus"])
        else:
            capacity += 1
    return names, partitionable, capacity


def held_slot(name: str, partitionable: set[str]) -> str:
    """The configured slot a claim holds, lower case: a dynamic slot's partitionable slot
    (one of ``partitionable``), else the slot named."""
    found = parent_name(name)
    if found is not None and found[0].lower() in partitionable:
        return found[0].lower()
    return name.lower()


def held_slot_weigher(
    machines: Sequence[MachineSpec], slot_weight_text: str, now: float
) -> Callable[[Claim | None, Job], float]:
    """What a running job on ``claim`` adds to its submitter's ``WeightedRunningJobs`` at
    ``now``: :func:`~fairshare_cli.core.htcondor.job_weight.running_weigher` over the ad of
    the slot the claim holds (None: no claim, or a slot no machine stanza defines).

    That ad is a static slot's own; on a dynamic slot the claim's carved resources (the
    claimed dynamic slot's ad), else the job's request carved as a match would.

    Raises:
        InputError: (when called) ``slot_weight_text`` does not parse.
    """
    weigh = running_weigher(slot_weight_text)
    index: dict[str, tuple[int, str, int]] = {}
    found: dict[tuple[object, ...], float] = {}

    def held(claim: Claim | None, job: Job) -> float:
        if claim is None:
            return weigh(None, job)
        key = (claim.slot.lower(), claim.resources, job.request_cpus, job.request_memory)
        weight = found.get(key)
        if weight is None:
            if not index:
                index.update(
                    (f"slot{k}@{m}".lower(), (i, m, k)) for i, m, k in expand_slots(machines)
                )
            weight = found[key] = weigh(_held_ad(machines, index, claim, job, now), job)
        return weight

    return held


def held_claim_weigher(
    machines: Sequence[MachineSpec], slot_weight_text: str, now: float
) -> Callable[[Claim], float]:
    """What a claim whose job the queue does not hold adds to its submitter's
    ``WeightedRunningJobs`` at ``now``: as :func:`held_slot_weigher`, the ``SLOT_WEIGHT`` of
    the ad of the slot it holds (a dynamic slot with no recorded resources carved for a
    request of nothing, as the pool size carves it); a slot no machine stanza defines: the
    weight the claim was charged (1 when it records none).

    Raises:
        InputError: (when called) ``slot_weight_text`` does not parse.
    """
    weigh = running_weigher(slot_weight_text)
    index: dict[str, tuple[int, str, int]] = {}

    def held(claim: Claim) -> float:
        if not index:
            index.update((f"slot{k}@{m}".lower(), (i, m, k)) for i, m, k in expand_slots(machines))
        job = Job(id=claim.job_id or "0", owner=claim.submitter)
        ad = _held_ad(machines, index, claim, job, now)
        if ad is None:
            return claim.weight if claim.weight is not None else 1.0
        return weigh(ad, job)

    return held


def claims_weigher(
    claims: Iterable[Claim], machines: Sequence[MachineSpec], slot_weight_text: str, now: float
) -> Callable[[str, Job], float]:
    """A running job's weight by its id (:class:`~.running.RunningJobs`' ``weigh``): that
    of :func:`held_slot_weigher` on the claim that runs it (no claim: None)."""
    by_job = {c.job_id: c for c in claims if c.job_id}
    held = held_slot_weigher(machines, slot_weight_text, now)
    return lambda job_id, job: held(by_job.get(job_id), job)


def _held_ad(
    machines: Sequence[MachineSpec],
    index: Mapping[str, tuple[int, str, int]],
    claim: Claim,
    job: Job,
    now: float,
) -> dict[str, object] | None:
    """The ad of the slot ``claim`` holds (see :func:`held_slot_weigher`), else None."""
    dynamic = parent_name(claim.slot)
    where = index.get((dynamic[0] if dynamic is not None else claim.slot).lower())
    if where is None:
        return None
    stanza, machine, slot_id = where
    spec = machines[stanza]
    slot = Slot(0, stanza, machine, slot_id)
    if dynamic is not None:
        if not spec.partitionable:
            return None
        slot = dynamic_slot(0, slot, dynamic[1])
        request = {"Cpus": job.request_cpus, "Memory": job.request_memory}
        slot.resources = held_resources(
            totals(spec), claim, lambda _: {**request, "Disk": DEFAULT_REQUEST_DISK}
        )
    elif spec.partitionable:
        slot.resources = totals(spec)
    slot.claim = claim
    return slot_values(spec, slot, now)
