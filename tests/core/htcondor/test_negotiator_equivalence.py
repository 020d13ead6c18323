"""The fast claimed-slot search (bounds from PREEMPTION_REQUIREMENTS, grouped classes,
skipped used-up claims) gives the same cycle as the plain one on small random full pools."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from negotiation_helpers import CURRENT, LEGACY, NOW, J, submitter_of

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    NegotiatorKnobs,
    SubmitterPrio,
    negotiate_cycle,
)

USERS = ["u0", "u1", "u2", "u3", "group_a.u4", "group_b.u5"]

PREEMPTION_REQUIREMENTS = [
    "TotalJobRuntime > 3600 && RemoteUserPrio > SubmitterUserPrio * 1.2",
    "RemoteUserPrio >= SubmitterUserPrio + 1",
    "SubmitterUserPrio * 2 < RemoteUserPrio && RemoteUserResourcesInUse > 1",
    "RemoteUserPrio > 3",
    "TotalJobRuntime > 1800",
    "RemoteGroupResourcesInUse > RemoteGroupQuota || RemoteUserPrio > 10",
    "RemoteUserPrio > SubmitterUserPrio && Memory < TARGET.RequestMemory * 4",
    "undefinedthing > SubmitterUserPrio",
]


JOB_RANKS = [
    None,
    "TARGET.Memory",
    "ifThenElse(SubmitterUserPrio < 2, TARGET.Memory, -TARGET.Memory)",
    "ifThenElse(SubmitterAutoregroup, -TARGET.Memory, TARGET.Memory)",
]


def slot_names(machines: list[MachineSpec]) -> list[str]:
    """The slots' names, as the snapshot names the slots of these stanzas."""
    return [
        f"slot{k}@m{i}-{m:03d}"
        for i, spec in enumerate(machines)
        for m in range(1, spec.count + 1)
        for k in range(1, spec.slots + 1)
    ]


@st.composite
def pools(draw: st.DrawFn) -> tuple[object, ...]:
    stanzas = draw(st.integers(1, 3))
    machines = [
        MachineSpec(
            name=f"m{i}-",
            count=draw(st.integers(1, 3)),
            slots=draw(st.integers(1, 2)),
            attributes={"Cpus": 1, "Memory": draw(st.sampled_from([1024, 2048, 4096]))},
            rank=draw(st.sampled_from([None, None, 'TARGET.Owner == "u0"'])),
        )
        for i in range(stanzas)
    ]
    names = slot_names(machines)
    claims: list[Claim] = []
    running: list[J] = []
    for n, slot in enumerate(names):
        if draw(st.integers(0, 9)) < 8:  # mostly full
            holder = draw(st.sampled_from(USERS))
            group, _, owner = holder.rpartition(".")
            job_id = f"900.{n}"
            start = NOW - draw(st.sampled_from([600, 2400, 4000, 7200, 9000]))
            claims.append(Claim(slot, f"{holder}@example.org", job_id, start))
            running.append(
                J(job_id, owner, accounting_group=holder if group else None, status="running")
            )
    queue: list[J] = list(running)
    rank = draw(st.sampled_from(JOB_RANKS))
    cluster = 1
    for user in USERS:
        group, _, owner = user.rpartition(".")
        for _ in range(draw(st.integers(0, 2))):
            for p in range(draw(st.integers(1, 3))):
                queue.append(
                    J(
                        f"{cluster}.{p}",
                        owner,
                        accounting_group=user if group else None,
                        job_prio=draw(st.integers(0, 2)),
                        request_memory=draw(st.sampled_from([512, 1500, 3000])),
                        requirements="TARGET.Memory >= MY.RequestMemory",
                        rank=rank,
                    )
                )
            cluster += 1
    prios = {f"{u}@example.org": draw(st.sampled_from([0.5, 1.0, 2.0, 5.0, 20.0])) for u in USERS}
    preq = draw(st.sampled_from(PREEMPTION_REQUIREMENTS))
    knobs = draw(st.sampled_from([LEGACY, CURRENT]))
    knobs = replace(knobs, preemption_requirements=preq)
    groups = draw(st.sampled_from([None, False, True]))  # none, groups, with autoregroup
    return machines, claims, queue, prios, knobs, groups


def _cycle(
    machines: list[MachineSpec],
    claims: list[Claim],
    queue: list[J],
    prios: dict[str, float],
    knobs: NegotiatorKnobs,
    groups: bool | None,
    reference: bool,
) -> CycleResult:
    usage: dict[str, float] = {}
    for c in claims:
        usage[c.submitter] = usage.get(c.submitter, 0.0) + 1.0
    tree = (
        None
        if groups is None
        else build_group_tree(
            [
                GroupConfig("group_a", quota=2, autoregroup=groups),
                GroupConfig("group_b", quota=1),
            ]
        )
    )
    return negotiate_cycle(
        machines,
        claims,
        queue,
        submitter_of,
        lambda name: SubmitterPrio(prios.get(name, 0.5), usage.get(name, 0.0)),
        tree,
        knobs,
        NOW,
        reference=reference,
    )


@settings(max_examples=150, deadline=None)
@given(pools())
def test_fast_claimed_search_equals_the_plain_one(pool: tuple[object, ...]) -> None:
    machines, claims, queue, prios, knobs, groups = pool
    fast = _cycle(machines, claims, queue, prios, knobs, groups, False)  # type: ignore[arg-type]
    plain = _cycle(machines, claims, queue, prios, knobs, groups, True)  # type: ignore[arg-type]
    assert fast.matches == plain.matches
    assert list(fast.iter_unmatched()) == list(plain.iter_unmatched())
    assert fast.submitters == plain.submitters
    assert fast.spins == plain.spins


UNCLAIMED_REQUIREMENTS = [
    None,
    "TARGET.Memory >= MY.RequestMemory",
    "TARGET.Memory >= MY.RequestMemory && TARGET.SlotID != 2",
    "Memory > 1500 || RequestMemory < 1000",
    "TARGET.Disk =?= UNDEFINED",
]
UNCLAIMED_RANKS = [None, "TARGET.Memory", "-TARGET.SlotID", "TARGET.Memory > MY.RequestMemory"]


@st.composite
def unclaimed_pools(draw: st.DrawFn) -> tuple[object, ...]:
    """Pools with few or no claims and many autoclusters that see the classes alike or not
    (requests, requirements and ranks reading the slot's memory or id), for the shared
    unclaimed candidate lists and the search that stops at the submitter limit."""
    stanzas = draw(st.integers(1, 3))
    machines = [
        MachineSpec(
            name=f"m{i}-",
            count=draw(st.integers(1, 3)),
            slots=draw(st.integers(1, 3)),
            attributes={
                "Cpus": draw(st.sampled_from([1, 2])),
                "Memory": draw(st.sampled_from([1024, 2048, 2048.0, 4096])),
            },
            start=draw(st.sampled_from([None, None, "TARGET.RequestMemory < 3000"])),
        )
        for i in range(stanzas)
    ]
    names = slot_names(machines)
    claims: list[Claim] = []
    queue: list[J] = []
    for n, slot in enumerate(names):
        if draw(st.integers(0, 9)) == 0:
            job_id = f"900.{n}"
            claims.append(Claim(slot, "u0@example.org", job_id, NOW - 4000))
            queue.append(J(job_id, "u0", status="running"))
    cluster = 1
    for user in USERS[:4]:
        for _ in range(draw(st.integers(0, 3))):
            fields = {
                "job_prio": draw(st.integers(0, 1)),
                "request_memory": draw(st.sampled_from([512, 1024, 1500, 2048, 2048.0, 3000])),
                "requirements": draw(st.sampled_from(UNCLAIMED_REQUIREMENTS)),
                "rank": draw(st.sampled_from(UNCLAIMED_RANKS)),
            }
            queue += [J(f"{cluster}.{p}", user, **fields) for p in range(draw(st.integers(1, 4)))]  # type: ignore[arg-type]
            cluster += 1
    prios = {f"{u}@example.org": draw(st.sampled_from([0.5, 1.0, 2.0, 5.0])) for u in USERS}
    knobs = draw(st.sampled_from([LEGACY, CURRENT]))
    return machines, claims, queue, prios, knobs, draw(st.sampled_from([None, False]))


@settings(max_examples=150, deadline=None)
@given(unclaimed_pools())
def test_shared_unclaimed_candidates_equal_the_plain_search(pool: tuple[object, ...]) -> None:
    """Autoclusters sharing one ranked list of unclaimed classes, and the search without
    claimed candidates that stops once the limit refuses the cheapest slot, give the cycle
    the plain search (``reference``: every class ranked for every autocluster, every rank
    group walked) gives."""
    machines, claims, queue, prios, knobs, groups = pool
    fast = _cycle(machines, claims, queue, prios, knobs, groups, False)  # type: ignore[arg-type]
    plain = _cycle(machines, claims, queue, prios, knobs, groups, True)  # type: ignore[arg-type]
    assert fast.matches == plain.matches
    assert list(fast.iter_unmatched()) == list(plain.iter_unmatched())
    assert fast.submitters == plain.submitters
    assert fast.spins == plain.spins


def test_a_cheaper_slot_further_down_is_still_taken_after_a_limit_refusal() -> None:
    """The search may stop at a limit refusal only when the cheapest unclaimed slot is
    refused too. Slot weights are Cpus: m0 has two 2-CPU slots, m1 two 1-CPU slots (pool
    weight 6); u0 and u1 at the same priority each get a limit of 6 / 2 = 3. u0's jobs
    rank by Memory, so m0 first: its first job takes slot1@m0-001 (used 2); for the
    second, another m0 slot would make 4 > 3 (refused), but an m1 slot makes 3 <= 3 and
    is taken (``SubmitterLimitPermits``)."""
    machines = [
        MachineSpec(name="m0-", count=1, slots=2, attributes={"Cpus": 2, "Memory": 4096}),
        MachineSpec(name="m1-", count=1, slots=2, attributes={"Cpus": 1, "Memory": 1024}),
    ]
    knobs = replace(CURRENT, pre_job_rank="0", post_job_rank="0")
    queue = [J(f"1.{p}", "u0", rank="TARGET.Memory") for p in range(2)]
    prios = {"u0@example.org": 1.0, "u1@example.org": 1.0}
    queue.append(J("2.0", "u1"))
    fast = _cycle(machines, [], queue, prios, knobs, None, False)
    plain = _cycle(machines, [], queue, prios, knobs, None, True)
    assert fast.matches == plain.matches
    assert [(m.job_id, m.slot) for m in fast.matches if m.submitter == "u0@example.org"] == [
        ("1.0", "slot1@m0-001"),
        ("1.1", "slot1@m1-001"),
    ]
