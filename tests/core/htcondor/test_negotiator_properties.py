"""Invariants of a negotiation cycle, checked on random pools and queues."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from negotiation_helpers import CURRENT, LEGACY, J, run

from fairshare_cli.core.config import MachineSpec

MEMORY = [1024, 2048, 4096, 8192]

pools = st.lists(
    st.tuples(st.integers(1, 4), st.integers(1, 3), st.sampled_from(MEMORY)),
    min_size=1,
    max_size=3,
)
queues = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", "d"]),
        st.integers(1, 5),
        st.integers(0, 2),
        st.sampled_from([0, 1000, 3000, 6000, 10000]),
    ),
    min_size=1,
    max_size=8,
)
eups = st.fixed_dictionaries(
    {o: st.floats(0.5, 50) for o in "abcd"},
)


def build(pool: list[tuple[int, int, int]], queue: list[tuple[str, int, int, int]]):  # type: ignore[no-untyped-def]
    machines = [
        MachineSpec(name=f"m{i}-", count=count, slots=slots, attributes={"Cpus": 1, "Memory": mem})
        for i, (count, slots, mem) in enumerate(pool)
    ]
    jobs = []
    for cluster, (owner, n, prio, mem) in enumerate(queue, start=1):
        jobs += [
            J(
                f"{cluster}.{p}",
                owner,
                job_prio=prio,
                request_memory=mem,
                requirements="TARGET.Memory >= MY.RequestMemory",
                submit_time=float(cluster),
            )
            for p in range(n)
        ]
    return machines, jobs


@settings(max_examples=60, deadline=None)
@given(pool=pools, queue=queues, prios=eups, legacy=st.booleans(), seed=st.integers(0, 99))
def test_cycle_invariants(pool, queue, prios, legacy, seed) -> None:  # type: ignore[no-untyped-def]
    machines, jobs = build(pool, queue)
    knobs = LEGACY if legacy else CURRENT
    eup = {f"{o}@example.org": p for o, p in prios.items()}
    result = run(machines, jobs, prios=eup, knobs=knobs)
    slots = [m.slot for m in result.matches]
    ids = [m.job_id for m in result.matches]
    assert len(set(slots)) == len(slots)  # a slot is matched at most once
    assert len(set(ids)) == len(ids)  # a job at most once
    unmatched = [j for j, _, _ in result.iter_unmatched()]
    assert sorted(ids + unmatched) == sorted(j.id for j in jobs)  # every job accounted for
    memory = {
        f"slot{k}@m{i}-{n:03d}": mem
        for i, (c, s, mem) in enumerate(pool)
        for n in range(1, c + 1)
        for k in range(1, s + 1)
    }
    by_id = {j.id: j for j in jobs}
    for m in result.matches:  # requirements hold
        assert memory[m.slot] >= by_id[m.job_id].request_memory
    # input order does not matter, but for the order in which submitters of equal priority
    # arrive (the collector's order of submitter ads, which fs takes from the queue)
    shuffled = list(jobs)
    random.Random(seed).shuffle(shuffled)
    arrival = [list(dict.fromkeys(j.owner for j in js)) for js in (jobs, shuffled)]
    if arrival[0] != arrival[1] and len(set(prios.values())) < len(prios):
        return
    again = run(machines, shuffled, prios=eup, knobs=knobs)
    assert [(m.job_id, m.slot) for m in again.matches] == [
        (m.job_id, m.slot) for m in result.matches
    ]


@settings(max_examples=40, deadline=None)
@given(pool=pools, queue=queues, prios=eups)
def test_a_job_left_idle_has_no_free_matching_slot_or_hit_a_limit(pool, queue, prios) -> None:  # type: ignore[no-untyped-def]
    machines, jobs = build(pool, queue)
    eup = {f"{o}@example.org": p for o, p in prios.items()}
    result = run(machines, jobs, prios=eup, knobs=CURRENT)
    used = {m.slot for m in result.matches}
    free_memory = [
        mem
        for i, (c, s, mem) in enumerate(pool)
        for n in range(1, c + 1)
        for k in range(1, s + 1)
        if f"slot{k}@m{i}-{n:03d}" not in used
    ]
    by_id = {j.id: j for j in jobs}
    for job_id, _, reason in result.iter_unmatched():
        fits = any(mem >= by_id[job_id].request_memory for mem in free_memory)
        if reason in ("no_matching_slot", "matching_slots_taken", "pool_exhausted"):
            assert not fits


@settings(max_examples=60, deadline=None)
@given(queue=queues, prios=eups, extra=st.integers(0, 5), legacy=st.booleans())
def test_enough_slots_for_everyone_runs_every_job(queue, prios, extra, legacy) -> None:  # type: ignore[no-untyped-def]
    _, jobs = build([], [(o, n, p, 0) for o, n, p, _ in queue])
    machines = [MachineSpec(name="m", count=len(jobs) + extra, attributes={"Memory": 1024})]
    eup = {f"{o}@example.org": p for o, p in prios.items()}
    result = run(machines, jobs, prios=eup, knobs=LEGACY if legacy else CURRENT)
    assert len(result.matches) == len(jobs)
