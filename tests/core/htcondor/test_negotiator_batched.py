"""A run of identical jobs matched to one slot class in one step (``Pie._same_class``) gives
the cycle that one job at a time gives: the queue as ``count`` batches through the fast
path against one object per job through the plain search (``reference``, which matches
each job on its own), on small random pools with slot weights, ceilings, floors, groups
and preemption on or off."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs
from negotiation_helpers import CURRENT, LEGACY, NOW, submitter_of

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    SubmitterPrio,
    negotiate_cycle,
)
from fairshare_cli.core.jobs import Job

USERS = ["u0", "u1", "u2", "group_a.u3", "group_b.u4"]
RANKS = [None, None, "TARGET.Memory", "-TARGET.SlotID", "TARGET.Memory > MY.RequestMemory"]


@st.composite
def queues(draw: st.DrawFn) -> tuple[object, ...]:
    stanzas = draw(st.integers(1, 4))
    machines = [
        MachineSpec(
            name=f"m{i}-",
            count=draw(st.integers(1, 4)),
            slots=draw(st.integers(1, 3)),
            attributes={
                # fractional weights (slot weights are Cpus in CURRENT) test the order
                # of the charges' float sums
                "Cpus": draw(st.sampled_from([1, 1, 2, 0.1, 0.7, 1.3])),
                "Memory": draw(st.sampled_from([1024, 2048, 4096])),
            },
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
    running: list[Job] = []
    for n, slot in enumerate(names):
        if draw(st.integers(0, 9)) == 0:
            holder = draw(st.sampled_from(USERS[:3]))
            claims.append(Claim(slot, f"{holder}@example.org", f"900.{n}", NOW - 4000))
            running.append(Job(f"900.{n}", holder, status="running"))
    batches: list[JobBatch] = []
    cluster = 1
    for user in USERS:
        group, _, owner = user.rpartition(".")
        for _ in range(draw(st.integers(0, 3))):
            job = Job(
                f"{cluster}.0",
                owner,
                accounting_group=user if group else None,
                job_prio=draw(st.integers(0, 1)),
                submit_time=NOW - draw(st.integers(0, 3)),
                request_memory=draw(st.sampled_from([512, 1500, 3000])),
                requirements="TARGET.Memory >= MY.RequestMemory",
                rank=draw(st.sampled_from(RANKS)),
            )
            batches.append(JobBatch(job, draw(st.integers(1, 12))))
            cluster += 1
    prios = {
        f"{u}@example.org": SubmitterPrio(
            draw(st.sampled_from([0.5, 1.0, 2.0, 5.0, 20.0])),
            ceiling=draw(st.sampled_from([-1, -1, 1, 3])),
            floor=draw(st.sampled_from([0, 0, 2])),
        )
        for u in USERS
    }
    knobs = draw(st.sampled_from([LEGACY, CURRENT]))
    knobs = replace(knobs, consider_preemption=draw(st.booleans()))
    groups = draw(st.sampled_from([None, False, True]))
    return machines, claims, running, batches, prios, knobs, groups


def _cycle(
    pool: tuple[object, ...], queue: list[Job] | list[JobBatch], reference: bool
) -> CycleResult:
    machines, claims, running, _, prios, knobs, groups = pool
    usage: dict[str, float] = {}
    for c in claims:  # type: ignore[attr-defined]
        usage[c.submitter] = usage.get(c.submitter, 0.0) + 1.0
    tree = (
        None
        if groups is None
        else build_group_tree(
            [
                GroupConfig("group_a", quota=4, autoregroup=bool(groups)),
                GroupConfig("group_b", quota=2),
            ]
        )
    )

    def priorities(name: str) -> SubmitterPrio:
        prio = prios.get(name, SubmitterPrio(0.5))  # type: ignore[attr-defined]
        return replace(prio, weighted_in_use=usage.get(name, 0.0))

    return negotiate_cycle(
        machines,  # type: ignore[arg-type]
        claims,  # type: ignore[arg-type]
        [*running, *queue],  # type: ignore[misc]
        submitter_of,  # type: ignore[arg-type]
        priorities,
        tree,
        knobs,  # type: ignore[arg-type]
        NOW,
        reference=reference,
    )


def one_per_job(batches: list[JobBatch]) -> list[Job]:
    return [structs.replace(b.job, id=b.job_id(i)) for b in batches for i in range(b.count)]


@settings(max_examples=200, deadline=None)
@given(queues())
def test_runs_matched_in_steps_equal_one_job_at_a_time(pool: tuple[object, ...]) -> None:
    batches: list[JobBatch] = pool[3]  # type: ignore[assignment]
    fast = _cycle(pool, batches, False)
    plain = _cycle(pool, one_per_job(batches), True)
    assert fast.matches == plain.matches
    assert list(fast.iter_unmatched()) == list(plain.iter_unmatched())
    assert fast.submitters == plain.submitters
    assert (fast.spins, fast.pool_size, fast.group_limits) == (
        plain.spins,
        plain.pool_size,
        plain.group_limits,
    )


def test_a_run_moves_to_the_next_class_where_its_slots_come_first() -> None:
    """Two stanzas of one rank group: slots are taken in pool order, so a run of 5 on two
    2-slot classes takes m0's two slots, then m1's two, and the fifth job waits; the same
    queue one job per object gives the same matches."""
    machines = [
        MachineSpec(name="m0-", count=1, slots=2, attributes={"Cpus": 1, "Memory": 4096}),
        MachineSpec(name="m1-", count=1, slots=2, attributes={"Cpus": 1, "Memory": 2048}),
    ]
    batch = JobBatch(Job("1.0", "u0", request_memory=1024), 5)
    prios = {"u0@example.org": SubmitterPrio(1.0)}
    pool: tuple[object, ...] = (machines, [], [], [batch], prios, LEGACY, None)
    fast = _cycle(pool, [batch], False)
    assert [(m.job_id, m.slot) for m in fast.matches] == [
        ("1.0", "slot1@m0-001"),
        ("1.1", "slot2@m0-001"),
        ("1.2", "slot1@m1-001"),
        ("1.3", "slot2@m1-001"),
    ]
    assert fast.matches == _cycle(pool, one_per_job([batch]), True).matches


def test_new_match_is_the_dataclass() -> None:
    """The quick constructor sets every field, in order: equal, same ``vars``, frozen."""
    from fairshare_cli.core.htcondor.negotiator.results import Match, new_match

    fields = ("1.0", "u0@example.org", "slot1@m0-001", "rank", "9.0", 0.5, "g", (("Cpus", 1.0),))
    quick, plain = new_match(*fields), Match(*fields)
    assert quick == plain and list(vars(quick).items()) == list(vars(plain).items())
    assert hash(quick) == hash(plain)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.lists(st.integers(1, 5), max_size=6))
def test_run_take_names_jobs_as_head_id_and_advance(counts: list[int], takes: list[int]) -> None:
    """``Run.take(n)``: the ids and position ``n`` steps of ``head_id`` + ``advance`` give."""
    from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster
    from fairshare_cli.core.htcondor.negotiator.runs import Run

    ac = AutoCluster(0, None)  # type: ignore[arg-type]
    batches = [JobBatch(Job(f"{c}.{c % 2}", "u0"), n) for c, n in enumerate(counts, 1)]
    bulk, step = Run(ac, 0, batches[0]), Run(ac, 0, batches[0])
    for b in batches[1:]:
        bulk.add(b)
        step.add(b)
    for n in takes:
        n = min(n, bulk.left)
        expected = []
        for _ in range(n):
            expected.append(step.head_id())
            step.advance()
        assert bulk.take(n) == expected
        assert (bulk.left, bulk.bi, bulk.off) == (step.left, step.bi, step.off)
        assert bulk.segments() == step.segments()
