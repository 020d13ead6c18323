"""A cycle on a :class:`FrozenPool` (slots built once, reused cycle after cycle with new
claims, as ``fs simulate`` runs them) equals a cycle built from scratch on the same state:
matches, preemptions, unmatched jobs, limits, priorities, spins and evaluations.

Each example runs several cycles on one frozen pool whose claims change between cycles
(claims start, end, move to another submitter, or stay as they were while the cycle time
moves on), so a slot claimed in one cycle and free in the next must be seen free, and the
pool's free slots, kept grouped by class key from cycle to cycle, must be the ones a fresh
pool finds. Slot weights that are whole numbers are summed by class, fractional ones
slot by slot; a job reading ``SlotID`` splits the free slots into one class per slot id.
The autoclusters' ads are kept from cycle to cycle too (an ad made for another job of the
same key, of equal values of another type: ``512`` and ``512.0``).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from negotiation_helpers import (
    CURRENT,
    LEGACY,
    NOW,
    J,
    assert_same_cycle,
    frozen_cycle,
    submitter_of,
)

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    SubmitterPrio,
    negotiate_cycle,
)
from fairshare_cli.core.htcondor.negotiator.frozen_pool import FrozenPool
from fairshare_cli.core.htcondor.negotiator.frozen_pslots import FrozenPslots, frozen_pool

USERS = ["u0", "u1", "u2", "group_a.u3", "group_b.u4"]
PREEMPTION_REQUIREMENTS = [
    "false",
    "RemoteUserPrio > SubmitterUserPrio * 1.2",
    "TotalJobRuntime > 1800 && RemoteUserPrio > SubmitterUserPrio",
    "RemoteGroupResourcesInUse > RemoteGroupQuota || RemoteUserPrio > 10",
]
#: machine ranks: none, a constant (``CurrentRank`` evaluated once), one reading the job
MACHINE_RANKS = [None, "5", 'TARGET.Owner == "u0"']
LIMITS = [None, None, "lic", "lic:2"]
#: job requirements: one that reads only the stanza's memory, one a per-slot attribute
REQUIREMENTS = [
    "TARGET.Memory >= MY.RequestMemory",
    "TARGET.Memory >= MY.RequestMemory && TARGET.SlotID != 2",
]
#: slot weights: whole numbers (summed by class) and fractions (summed slot by slot)
SLOT_WEIGHTS = ["Cpus", "Memory / 3000.0", "SlotID"]


def _machines(draw: st.DrawFn) -> list[MachineSpec]:
    return [
        MachineSpec(
            name=f"m{i}-",
            count=draw(st.integers(1, 3)),
            slots=draw(st.integers(1, 3)),
            attributes={"Cpus": 1, "Memory": draw(st.sampled_from([1024, 2048, 4096]))},
            rank=draw(st.sampled_from(MACHINE_RANKS)),
        )
        for i in range(draw(st.integers(1, 2)))
    ]


def _slot_names(machines: list[MachineSpec]) -> list[str]:
    return [
        f"slot{k}@m{i}-{m:03d}"
        for i, spec in enumerate(machines)
        for m in range(1, spec.count + 1)
        for k in range(1, spec.slots + 1)
    ]


def _state(
    draw: st.DrawFn, names: list[str], cycle: int, before: dict[str, tuple[Claim, J]]
) -> tuple[list[Claim], list[J]]:
    """One cycle's claims (a random part of the pool, a stale slot name now and then; a
    claim of the cycle ``before`` kept as it was now and then) and queue (the claims'
    running jobs, then idle clusters)."""
    claims: list[Claim] = []
    queue: list[J] = []
    requirements = draw(st.sampled_from(REQUIREMENTS))
    for n, slot in enumerate([*names, "slot9@gone"]):
        if draw(st.integers(0, 2)) == 0:
            continue
        kept = before.get(slot)
        if kept is not None and draw(st.booleans()):
            claims.append(kept[0])
            queue.append(kept[1])
            continue
        holder = draw(st.sampled_from(USERS))
        group, _, owner = holder.rpartition(".")
        job_id = f"{900 + cycle}.{n}"
        start = NOW - draw(st.sampled_from([600, 2400, 7200]))
        claims.append(Claim(slot, f"{holder}@example.org", job_id, start))
        queue.append(
            J(
                job_id,
                owner,
                accounting_group=holder if group else None,
                status="running",
                concurrency_limits=draw(st.sampled_from(LIMITS)),
            )
        )
    for cluster, user in enumerate(USERS, start=1):
        group, _, owner = user.rpartition(".")
        for p in range(draw(st.integers(0, 3))):
            queue.append(
                J(
                    f"{cluster}.{p}",
                    owner,
                    accounting_group=user if group else None,
                    request_memory=draw(st.sampled_from([512, 512.0, 1500, 3000])),
                    requirements=requirements,
                    concurrency_limits=draw(st.sampled_from(LIMITS)),
                )
            )
    return claims, queue


@st.composite
def runs(draw: st.DrawFn) -> tuple[object, ...]:
    machines = _machines(draw)
    names = _slot_names(machines)
    states: list[tuple[list[Claim], list[J]]] = []
    before: dict[str, tuple[Claim, J]] = {}
    for c in range(draw(st.integers(2, 4))):
        claims, queue = _state(draw, names, c, before)
        states.append((claims, queue))
        running = {j.id: j for j in queue if j.status == "running"}
        before = {claim.slot: (claim, running[claim.job_id]) for claim in claims}
    prios = {f"{u}@example.org": draw(st.sampled_from([0.5, 1.0, 5.0, 20.0])) for u in USERS}
    knobs = draw(st.sampled_from([LEGACY, CURRENT]))
    knobs = replace(
        knobs,
        preemption_requirements=draw(st.sampled_from(PREEMPTION_REQUIREMENTS)),
        concurrency_limits={"lic": 2.0},
        slot_weight=draw(st.sampled_from(SLOT_WEIGHTS)),
    )
    groups = draw(st.booleans())
    return machines, states, prios, knobs, groups


def _cycle(
    run: tuple[object, ...],
    claims: list[Claim],
    queue: list[J],
    frozen: FrozenPool | None,
    now: float = NOW,
) -> CycleResult:
    machines, _, prios, knobs, groups = run
    return frozen_cycle(
        machines,  # type: ignore[arg-type]
        knobs,  # type: ignore[arg-type]
        groups,  # type: ignore[arg-type]
        claims,
        queue,
        prios,  # type: ignore[arg-type]
        frozen,
        now,
    )


@settings(max_examples=120, deadline=None)
@given(runs())
def test_a_cycle_on_the_frozen_pool_equals_one_built_from_scratch(run: tuple[object, ...]) -> None:
    machines, states, *_ = run
    frozen = frozen_pool(machines)  # type: ignore[arg-type]
    assert frozen is not None
    assert isinstance(states, list)
    claims: list[Claim]
    queue: list[J]
    for cycle, (claims, queue) in enumerate(states):
        now = NOW + 60 * cycle  # kept claims' TotalJobRuntime moves on
        reused = _cycle(run, claims, queue, frozen, now)
        fresh = _cycle(run, claims, queue, None, now)
        assert_same_cycle(reused, fresh)
        assert reused.evaluations == fresh.evaluations


def test_a_pool_with_a_partitionable_stanza_keeps_its_dynamic_slots() -> None:
    """``frozen_pool`` gives a pool of static slots a :class:`FrozenPool`, and a pool with a
    partitionable stanza (mixed or not) a :class:`FrozenPslots` (its cycles carve)."""
    static = MachineSpec(name="s", count=1, slots=2, attributes={"Cpus": 1})
    carved = MachineSpec(
        name="p", count=1, slots=1, partitionable=True, attributes={"Cpus": 4, "Memory": 8192}
    )
    assert type(frozen_pool([static])) is FrozenPool
    assert type(frozen_pool([static, carved])) is FrozenPslots
    assert type(frozen_pool([carved])) is FrozenPslots


def test_a_frozen_pool_frees_the_slots_of_claims_that_ended() -> None:
    """Three one-slot machines: the first cycle's claims hold two, the next cycle's none,
    so its single user's three idle jobs take all three (not only the one left free)."""
    machines = [MachineSpec(name="m0-", count=3, slots=1, attributes={"Cpus": 1})]
    frozen = frozen_pool(machines)
    assert frozen is not None
    claims = [
        Claim("slot1@m0-001", "u1@example.org", "50.0", NOW - 60),
        Claim("slot1@m0-002", "u1@example.org", "50.1", NOW - 60),
    ]
    running = [J("50.0", "u1", status="running"), J("50.1", "u1", status="running")]
    idle = [J(f"7.{p}", "u0") for p in range(3)]
    run: tuple[object, ...] = (machines, [], {}, LEGACY, False)
    first = _cycle(run, claims, [*running, *idle], frozen)
    assert [m.slot for m in first.matches] == ["slot1@m0-003"]
    second = _cycle(run, [], idle, frozen)
    assert sorted(m.slot for m in second.matches) == [
        "slot1@m0-001",
        "slot1@m0-002",
        "slot1@m0-003",
    ]


def test_of_two_claims_on_one_slot_the_last_holds_it_on_a_frozen_pool_too() -> None:
    """Two claims name one slot (spelt differently): a fresh pool gives the slot the last
    one (``add_dynamic_slots`` goes through the claims by slot name, in their order), and
    so does a frozen pool, cycle after cycle, the stale claim's holder not charged."""
    machines = [MachineSpec(name="m0-", count=2, slots=1, attributes={"Cpus": 1})]
    frozen = frozen_pool(machines)
    assert frozen is not None
    first = Claim("slot1@m0-001", "u1@example.org", "50.0", NOW - 60)
    second = Claim("SLOT1@m0-001", "u2@example.org", "51.0", NOW - 60)
    running = [J("50.0", "u1", status="running"), J("51.0", "u2", status="running")]
    idle = [J(f"7.{p}", "u0") for p in range(2)]
    run: tuple[object, ...] = (machines, [], {}, CURRENT, False)
    for claims in ([first, second], [second, first], [first, second]):
        reused = _cycle(run, claims, [*running, *idle], frozen)
        fresh = _cycle(run, claims, [*running, *idle], None)
        assert reused.matches == fresh.matches
        assert reused.submitters == fresh.submitters
        assert frozen.slots[0].claim is claims[-1]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 3), st.integers(1, 3), st.sampled_from([1000, 1024, 3000, 4097])),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from([("Memory", 1.0), ("Memory / 3000.0", 3000.0), ("Memory / 7.0", 7.0)]),
)
def test_the_pool_weight_is_the_sum_slot_by_slot(
    stanzas: list[tuple[int, int, int]], weight: tuple[str, float]
) -> None:
    """The pool's weight is Σ SLOT_WEIGHT over the slot ads in pool order, as
    ``Matchmaker::sumSlotWeights`` (matchmaker.cpp) adds them ad by ad: a frozen pool sums
    whole-number weights by class (exact at every step, so the same sum) and fractional
    ones slot by slot. By hand: each slot weighs its stanza's ``Memory`` (divided)."""
    text, divisor = weight
    machines = [
        MachineSpec(name=f"m{i}-", count=c, slots=s, attributes={"Cpus": 1, "Memory": m})
        for i, (c, s, m) in enumerate(stanzas)
    ]
    by_hand = 0.0
    for c, s, m in stanzas:
        for _ in range(c * s):
            by_hand += float(m) if divisor == 1.0 else m / divisor
    frozen = frozen_pool(machines)
    assert frozen is not None
    result = negotiate_cycle(
        machines,
        [],
        [],
        submitter_of,  # type: ignore[arg-type]
        lambda name: SubmitterPrio(0.5, 0.0),
        None,
        replace(CURRENT, slot_weight=text),
        NOW,
        frozen=frozen,
    )
    assert result.pool_size == by_hand


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.booleans(), st.integers(0, 5)), max_size=6), max_size=6))
def test_a_pool_told_of_its_claims_holds_what_one_given_them_holds(
    cycles: list[list[tuple[bool, int]]],
) -> None:
    """``fs simulate`` tells its frozen pool of each claim as it starts and ends (a claim
    may start and end between two cycles); the pool then holds what a pool that compares
    every claim given with the last cycle's holds."""
    machines = [MachineSpec(name="m", count=6, slots=1, attributes={"Cpus": 1})]
    told, compared = frozen_pool(machines), frozen_pool(machines)
    assert told is not None and compared is not None
    claims: dict[str, Claim] = {}
    serial = 0
    for steps in cycles:
        for start, k in steps:
            slot = f"slot1@m{k + 1:03d}"
            old = claims.pop(slot, None)
            if old is not None:
                told.tell(old, None)
            if start:
                serial += 1
                claims[slot] = Claim(slot, f"u{serial % 3}@example.org", f"{serial}.0", NOW)
                told.tell(None, claims[slot])
        told.claimed_slots(list(claims.values()))
        compared.claimed_slots(list(claims.values()))
        assert [(s.name, s.claim) for s in told.held_slots()] == [
            (s.name, s.claim) for s in compared.held_slots()
        ]
        assert told.holders == compared.holders


def test_a_told_pool_gives_a_slot_back_to_the_claim_an_ended_one_hid() -> None:
    """Two claims on one slot (spelt differently): the last holds it. When that one ends
    and the first stays, a fresh pool gives the slot to the first; so does a pool told of
    the end (it cannot know from the end alone, so it compares the claims given)."""
    machines = [MachineSpec(name="m0-", count=1, slots=1, attributes={"Cpus": 1})]
    told = frozen_pool(machines)
    first = Claim("slot1@m0-001", "u1@example.org", "50.0", NOW - 60)
    second = Claim("SLOT1@m0-001", "u2@example.org", "51.0", NOW - 60)
    told.tell(None, first)
    told.tell(None, second)
    told.claimed_slots([first, second])
    assert [s.claim for s in told.held_slots()] == [second]
    told.tell(second, None)
    told.claimed_slots([first])
    assert [s.claim for s in told.held_slots()] == [first]
    assert told.holders == {"u1@example.org": 1}
