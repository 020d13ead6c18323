"""The pending jobs' order: merging groups as the order is read equals sorting every job's
records (one a partition) by tier, then priority (ties: earlier submit time first, then
lower job id, then queue order, then the job's record order), as ``schedule()`` in ``src/slurmctld/job_scheduler.c``
walks the queue (``build_job_queue``: a record a job and partition; ``sort_job_queue2``:
the partition's ``PriorityTier``, the record's priority, then submit time, then id), when a record's priority
never falls as its job ages (sprio's factors: age's weight times a factor that grows with
the seconds since the job accrued, plus factors the job shares with its group)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.names import cluster_proc
from fairshare_cli.core.operations.slurm_pending import PendingJobs, Record, Score

NOW = 10_000.0


#: Partitions: (tier, what a job gains in its priority there).
PARTS = {"batch": (1, 0), "express": (1, 7), "urgent": (2, -40)}


def _scorer(base: dict[str, int], step: int, calls: list[int]) -> Any:
    """Priority = the owner's base + whole ``step`` seconds of age (equal for jobs close
    in age: runs of equal priority) + the partition's gain, a record a partition (in tier
    order, as slurmctld keeps them); owner ``nobody`` gets no row."""

    def score(jobs: list[Job]) -> dict[str, Score]:
        calls.append(len(jobs))
        out: dict[str, Score] = {}
        for job in jobs:
            if job.owner == "nobody":
                continue
            age = NOW - (job.submit_time or NOW)
            prio = base[job.owner] + int(age // step)
            parts = sorted(job.partitions or ("batch",), key=lambda p: -PARTS[p][0])
            out[job.id] = tuple((PARTS[p][0], prio + PARTS[p][1], p, None) for p in parts)
        return out

    return score


def _sorted(batches: list[JobBatch], scores: dict[str, Score]) -> list[tuple[JobBatch, Record]]:
    """Every scored batch's records, sorted as ``sort_job_queue2`` sorts them."""
    records = [
        (b, r, record)
        for b in batches
        if b.job.id in scores
        for r, record in enumerate(scores[b.job.id])
    ]

    def key(item: tuple[JobBatch, int, Record]) -> tuple[Any, ...]:
        job = item[0].job
        submitted = job.submit_time if job.submit_time is not None else float("inf")
        return (-item[2][0], -item[2][1], submitted, cluster_proc(job.id), item[1])

    records.sort(key=key)
    return [(b, record) for b, _, record in records]


_jobs = st.lists(
    st.tuples(
        st.sampled_from(["u1", "u2", "u3", "nobody"]),
        st.sampled_from([1, 2, 4]),
        st.integers(0, 40).map(lambda k: NOW - 25.0 * k),
        st.sampled_from([None, "batch,express", "express,urgent", "batch,urgent,express"]),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_jobs, st.integers(0, 3), st.sampled_from([1, 60, 400]), st.integers(0, 30))
def test_ordered_equals_sorting_every_job(
    specs: list[tuple[str, int, float, str | None]], shift: int, step: int, read: int
) -> None:
    base = {"u1": 100, "u2": 100 + shift, "u3": 90}
    calls: list[int] = []
    queue = PendingJobs(_scorer(base, step, calls))
    ids = list(range(1, len(specs) + 1))
    batches = []
    for k, (owner, cpus, submit, parts) in zip(ids, specs, strict=True):
        job = Job(id=str(k), owner=owner, request_cpus=cpus, submit_time=submit, partition=parts)
        batches.append(JobBatch(job))
        queue.add(batches[-1])
    queue.new_pass()
    everything = _scorer(base, step, [])([b.job for b in batches])
    expected = _sorted(batches, everything)
    got = list(itertools.islice(queue.ordered(), read))
    assert got == expected[:read]
    assert all(queue.score[b.job.id] == everything[b.job.id] for b, _ in got)
    assert list(queue.ordered()) == expected
    # the next cycle of the same pass: the jobs read started, two more were queued
    started = {b.job.id: b for b, _ in got}
    for b in started.values():
        queue.settle(b, None)
    for k in (len(specs) + 1, len(specs) + 2):
        batches.append(JobBatch(Job(id=str(k), owner="u1", submit_time=NOW - 7.0 * k)))
        queue.add(batches[-1])
    everything = _scorer(base, step, [])([b.job for b in batches])
    rest = [b for b in batches if b.job.id not in started]
    assert list(queue.ordered()) == _sorted(rest, everything)


def test_a_pass_scores_the_oldest_of_each_group_and_what_is_read() -> None:
    """Three groups (owners u1, u2, u3) of ten jobs each: reading the first two jobs scores
    the three oldest, then the next jobs of the group read (in chunks), not all thirty."""
    calls: list[int] = []
    queue = PendingJobs(_scorer({"u1": 300, "u2": 200, "u3": 100}, 1, calls))
    for k in range(30):
        owner = ("u1", "u2", "u3")[k % 3]
        queue.add(JobBatch(Job(id=str(k + 1), owner=owner, submit_time=NOW - 100 + k)))
    queue.new_pass()
    first = list(itertools.islice(queue.ordered(), 2))
    assert [b.job.id for b, _ in first] == ["1", "4"]  # u1's oldest two (base 300)
    assert sum(calls) < 30
    assert calls[0] == 3


def test_settle_drops_a_started_batch_and_puts_the_rest_in_its_place() -> None:
    """Batch 7.0 (three jobs) started its first: 7.1 and 7.2 keep its place and score;
    job 8 started: it leaves the queue."""
    queue = PendingJobs(_scorer({"u1": 50}, 1, []))
    batch = JobBatch(Job(id="7.0", owner="u1", submit_time=NOW - 10), 3)
    single = JobBatch(Job(id="8", owner="u1", submit_time=NOW - 5))
    queue.add(batch)
    queue.add(single)
    queue.new_pass()
    assert [b for b, _ in queue.ordered()] == [batch, single]
    rest = JobBatch(Job(id="7.1", owner="u1", submit_time=NOW - 10), 2)
    queue.settle(batch, rest)
    queue.settle(single, None)
    assert [b for b, _ in queue.ordered()] == [rest]
    assert queue.score["7.1"] == ((1, 60, "batch", None),)
