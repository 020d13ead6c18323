"""A cycle on a frozen pool with partitionable slots equals a cycle built from scratch.

A fresh pool (``partitionable.fresh_slots``) expands the stanzas and appends a dynamic slot
for each claim on a partitionable slot, in the order of the claims' lower-case slot names,
each taking its recorded resources (or its job's request carved as a match would) out of
its partitionable slot, never below 0 (``partitionable.add_dynamic_slots``, after the
startd's ``Resource.cpp`` ``create_dslot`` and ``IdDispenser``). A :class:`FrozenPslots`
keeps that pool from cycle to cycle and applies only the claims that ended and started.

Each example runs several cycles on frozen pools, one told of the claims as they end and
start (as ``fs simulate`` tells it), one comparing each cycle's claims with the last's.
The next cycle's claims are the last cycle's, some ended, plus most of its matches (a
match carved last cycle is a claim now), plus claims drawn at random (on dynamic slots
of any number, with or without recorded resources, on static slots, on slots no longer
configured). Before each cycle the pools' slots (order, names, resources, claims,
dynamic slot numbers in use) are a fresh pool's; each cycle's matches, preemptions,
unmatched jobs, limits, priorities and pool size are a fresh cycle's, and after the cycle
the pools' size (``fs simulate``'s group rows) is ``pool_size.pool_size``'s. What a
cycle carves must not leak into the next one.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from negotiation_helpers import CURRENT, LEGACY, NOW, J, assert_same_cycle, frozen_cycle

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    NegotiatorKnobs,
)
from fairshare_cli.core.htcondor.negotiator.frozen_pool import FrozenPool
from fairshare_cli.core.htcondor.negotiator.frozen_pslots import FrozenPslots, frozen_pool
from fairshare_cli.core.htcondor.negotiator.partitionable import fresh_slots
from fairshare_cli.core.htcondor.negotiator.pool_size import pool_size
from fairshare_cli.core.htcondor.negotiator.slots import Slot, machine_names

USERS = ["u0", "u1", "group_a.u2", "group_b.u3"]
KNOBS = [
    LEGACY,
    CURRENT,
    replace(CURRENT, use_slot_weights=False),
    replace(CURRENT, preemption_requirements="RemoteUserPrio > SubmitterUserPrio * 1.2"),
    replace(LEGACY, preemption_requirements="TotalJobRuntime > 1800"),
    replace(CURRENT, slot_weight="Cpus + SlotID / 4.0"),  # weighed slot by slot
    replace(CURRENT, slot_weight="Memory / 1000.0"),  # fractional, once per resources
    # the pool size counts only some slot ads: by what a shape fixes, or slot by slot
    replace(CURRENT, slot_poolsize_constraint="Cpus >= 2 || DynamicSlot =?= true"),
    replace(LEGACY, slot_poolsize_constraint='State =!= "Claimed" && SlotID != 2'),
]
REQUIREMENTS = [None, "TARGET.SlotID != 2", "TARGET.Memory >= 2048"]
#: what a claim on a dynamic slot records: nothing (its job's request is carved) or one of these
RESOURCES: list[tuple[tuple[str, float], ...]] = [
    (),
    (("Cpus", 1), ("Memory", 1024)),
    (("Cpus", 2), ("Memory", 2048), ("Disk", 1024)),
    (("Cpus", 1), ("Memory", 640)),
]


@st.composite
def pools(draw: st.DrawFn) -> list[MachineSpec]:
    """One or two partitionable stanzas (a consumption policy now and then), a static
    stanza now and then."""
    stanzas = []
    for i in range(draw(st.integers(1, 2))):
        attrs: dict[str, object] = {
            "Cpus": draw(st.integers(2, 5)),
            "Memory": draw(st.sampled_from([4096, 6144])),
        }
        if draw(st.booleans()):
            attrs["Disk"] = 8192
        policy = {"consumption_policy": True} if draw(st.integers(0, 4)) == 0 else {}
        stanzas.append(
            MachineSpec(
                name=f"p{i}-",
                count=draw(st.integers(1, 3)),
                slots=draw(st.integers(1, 2)),
                attributes=attrs,
                partitionable=True,
                **policy,  # type: ignore[arg-type]
            )
        )
    if draw(st.booleans()):  # a mixed pool: static slots too, before or after
        static = MachineSpec(name="s-", count=2, slots=2, attributes={"Cpus": 1, "Memory": 4096})
        stanzas.insert(draw(st.integers(0, len(stanzas))), static)
    return stanzas


def _names(machines: list[MachineSpec]) -> tuple[list[str], list[str]]:
    """Names of dynamic slots a claim may hold (numbers 1 to 4), and of static slots."""
    dynamic: list[str] = []
    static: list[str] = []
    for spec in machines:
        for host in machine_names(spec):
            for k in range(1, spec.slots + 1):
                if spec.partitionable:
                    dynamic += [f"slot{k}_{n}@{host}" for n in range(1, 5)]
                else:
                    static.append(f"slot{k}@{host}")
    return dynamic, static


def _running(claim: Claim) -> J:
    group, _, owner = claim.submitter.split("@")[0].rpartition(".")
    cpus = dict(claim.resources).get("Cpus", 1)
    return J(
        claim.job_id,
        owner,
        accounting_group=f"{group}.{owner}" if group else None,
        status="running",
        request_cpus=cpus,
    )


def _next_claims(
    data: st.DataObject, names: tuple[list[str], list[str]], cycle: int, before: list[Claim]
) -> list[Claim]:
    """The last cycle's claims, some ended, and claims drawn at random."""
    claims = [c for c in before if data.draw(st.integers(0, 3))]
    dynamic, static = names
    for n in range(data.draw(st.integers(0, 4))):
        slot = data.draw(st.sampled_from([*dynamic, *static, "slot1_1@gone", "slot9@gone"]))
        taken = {c.slot.lower() for c in claims}
        if slot.lower() in taken and data.draw(st.integers(0, 7)):
            continue  # now and then a second claim on one slot
        if data.draw(st.integers(0, 5)) == 0:
            slot = slot.upper().replace("SLOT", "slot")  # spelt in another case
        holder = data.draw(st.sampled_from(USERS))
        start = NOW - data.draw(st.sampled_from([600, 2400, 7200]))
        resources = data.draw(st.sampled_from(RESOURCES)) if "_" in slot else ()
        claims.append(
            Claim(slot, f"{holder}@example.org", f"{800 + cycle}.{n}", start, None, resources)
        )
    return claims


def _queue(data: st.DataObject, claims: list[Claim], cycle: int) -> list[J]:
    queue = [_running(c) for c in claims]
    requirements = data.draw(st.sampled_from(REQUIREMENTS))
    for k, user in enumerate(USERS, start=1):
        group, _, owner = user.rpartition(".")
        for p in range(data.draw(st.integers(0, 3))):
            queue.append(
                J(
                    f"{10 * cycle + k}.{p}",
                    owner,
                    accounting_group=user if group else None,
                    request_cpus=data.draw(st.integers(1, 3)),
                    request_memory=data.draw(st.sampled_from([512, 1024, 3000])),
                    requirements=requirements,
                )
            )
    return queue


def _cycle(
    machines: list[MachineSpec],
    knobs: NegotiatorKnobs,
    groups: bool,
    claims: list[Claim],
    queue: list[J],
    frozen: FrozenPool | None,
    now: float,
) -> CycleResult:
    prios = {f"{u}@example.org": 1.0 + 3 * i for i, u in enumerate(USERS)}
    return frozen_cycle(machines, knobs, groups, claims, queue, prios, frozen, now)


def _shape(slots: list[Slot]) -> list[tuple[object, ...]]:
    """What a cycle reads of the pool's slots, claims by identity."""
    return [
        (s.index, s.name, s.stanza, s.resources, id(s.claim), sorted(s.children), s.partitionable)
        for s in slots
    ]


def _matched_claims(result: CycleResult, now: float, data: st.DataObject) -> list[Claim]:
    """Most of a cycle's matches, as claims (``fs simulate`` records them so)."""
    return [
        Claim(m.slot, m.submitter, m.job_id, now, m.weight, m.resources)
        for m in result.matches
        if m.preempted_job is None and data.draw(st.integers(0, 3))
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_cycles_on_a_frozen_partitionable_pool_equal_cycles_built_from_scratch(
    data: st.DataObject,
) -> None:
    machines = data.draw(pools())
    knobs = data.draw(st.sampled_from(KNOBS))
    groups = data.draw(st.booleans())
    names = _names(machines)
    told, compared = frozen_pool(machines), frozen_pool(machines)
    assert isinstance(told, FrozenPslots)
    before: list[Claim] = []  # the last cycle's claims and the claims its matches opened
    given: list[Claim] = []  # the last cycle's claims
    for cycle in range(data.draw(st.integers(2, 5))):
        now = NOW + 60 * cycle
        claims = _next_claims(data, names, cycle, before)
        queue = _queue(data, claims, cycle)
        kept, held = {id(c) for c in claims}, {id(c) for c in given}
        for c in given:
            if id(c) not in kept:
                told.tell(c, None)
        for c in claims:
            if id(c) not in held:
                told.tell(None, c)
        running = {j.id: j for j in queue if j.status == "running"}
        fresh_pool = _shape(fresh_slots(machines, claims, running))
        for pool in (told, compared):
            pool.claimed_slots(claims, running)
            assert _shape(pool.slots) == fresh_pool
        fresh = _cycle(machines, knobs, groups, claims, queue, None, now)
        for pool in (told, compared):
            reused = _cycle(machines, knobs, groups, claims, queue, pool, now)
            assert_same_cycle(reused, fresh)
        for pool in (told, compared):  # after a cycle carved: as ``fs simulate``'s rows ask
            assert pool.pool_size(claims, knobs, now) == pool_size(machines, claims, knobs, now)
        given, before = claims, claims + _matched_claims(fresh, now, data)


def test_claims_that_end_and_start_move_dynamic_slots_and_leftovers_by_hand() -> None:
    """One partitionable slot of 4 CPUs and 4096 MB (``Resource.cpp`` ``create_dslot``,
    ``IdDispenser``). Claims on ``slot1_1`` (1 CPU, 1024 MB) and ``slot1_3`` (2 CPUs,
    1024 MB) leave 1 CPU and 2048 MB, numbers 1 and 3 in use (the next is 2). When
    ``slot1_1`` ends, its CPU and memory come back (2 CPUs, 3072 MB left) and number 1 is
    free again; a claim on ``slot1_2`` (1 CPU, 512 MB) then takes its place in name order,
    before ``slot1_3`` (indices 1 and 2 after the partitionable slot's 0)."""
    machines = [
        MachineSpec(name="p", count=1, partitionable=True, attributes={"Cpus": 4, "Memory": 4096})
    ]
    pool = frozen_pool(machines)
    first = Claim("slot1_1@p001", "u0@d", "1.0", NOW, 1.0, (("Cpus", 1), ("Memory", 1024)))
    third = Claim("slot1_3@p001", "u1@d", "3.0", NOW, 2.0, (("Cpus", 2), ("Memory", 1024)))
    second = Claim("slot1_2@p001", "u2@d", "2.0", NOW, 1.0, (("Cpus", 1), ("Memory", 512)))
    for claim in (third, first):
        pool.tell(None, claim)
    pool.claimed_slots([third, first])
    parent = pool.slots[0]
    assert [(s.index, s.name) for s in pool.slots] == [
        (0, "slot1@p001"),
        (1, "slot1_1@p001"),
        (2, "slot1_3@p001"),
    ]
    assert parent.resources == (("Cpus", 1), ("Memory", 2048))
    assert sorted(parent.children) == [1, 3]
    assert pool.counts() == (1, 1 + 2)  # one slot with some left; its 1 CPU and 2 slots
    pool.tell(first, None)
    pool.claimed_slots([third])
    assert parent.resources == (("Cpus", 2), ("Memory", 3072))
    assert sorted(parent.children) == [3]
    pool.tell(None, second)
    pool.claimed_slots([third, second])
    assert [(s.index, s.name, s.resources) for s in pool.slots] == [
        (0, "slot1@p001", (("Cpus", 1), ("Memory", 2560))),
        (1, "slot1_2@p001", (("Cpus", 1), ("Memory", 512))),
        (2, "slot1_3@p001", (("Cpus", 2), ("Memory", 1024))),
    ]
    assert [s.claim for s in pool.held_slots()] == [second, third]
    assert pool.holders == {"u2@d": 1, "u1@d": 1}


def test_what_a_cycle_carves_is_undone_when_the_next_one_starts() -> None:
    """A cycle on the pool carves ``slot1_1`` for an idle job (its leftover 3 CPUs, number
    1 taken). The claims given next do not hold it (the job did not start): the pool is
    again the partitionable slot alone, whole, no number in use."""
    machines = [
        MachineSpec(name="p", count=1, partitionable=True, attributes={"Cpus": 4, "Memory": 4096})
    ]
    pool = frozen_pool(machines)
    result = _cycle(machines, CURRENT, False, [], [J("1.0", "u0")], pool, NOW)
    assert [m.slot for m in result.matches] == ["slot1_1@p001"]
    assert len(pool.slots) == 2  # as the cycle left it: the carved slot appended
    pool.claimed_slots([])
    assert [(s.name, s.resources, sorted(s.children)) for s in pool.slots] == [
        ("slot1@p001", (("Cpus", 4), ("Memory", 4096)), [])
    ]
