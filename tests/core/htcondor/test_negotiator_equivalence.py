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
    names = [
        f"slot{k}@m{i}-{m:03d}"
        for i, spec in enumerate(machines)
        for m in range(1, spec.count + 1)
        for k in range(1, spec.slots + 1)
    ]
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
