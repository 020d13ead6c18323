"""The pending jobs of ``fs simulate --scheduler slurm``, handed out in scheduling order.

slurmctld's scheduler walks not jobs but records: one a job in each of its partitions and
each of its QOS (``build_job_queue``), each with the priority of that partition and QOS,
sorted by the partition's ``PriorityTier`` (highest first), then that priority (highest
first), then submit time, then job id (``sort_job_queue2``). A pass of the main scheduler
stops at the first record that blocks the last partition and a backfill pass after
``bf_max_job_test`` jobs, so a cycle reads the head of the order only; yet every decay
pass changes every pending job's priority (age, fair share). Jobs alike in all but their
age (one owner, account, partitions, QOS, size, time limit, nice, site factor: sprio's
factors but age) form a group, kept oldest first, whose jobs have the same records; a
record's priority is the group's for the job's age, which never falls as the job ages
(each factor is a sum with age's weight times its factor, and the age factor grows with
the seconds since the job accrued), so a group's oldest job has its highest priority in
each record. A cycle merges the groups' records by tier and priority (ties: earlier submit
time first, then lower job id, then queue order, then the job's record order), scoring a
group's jobs only as the merge reaches them: per decay pass, each group's oldest job and
the jobs the passes read, not the whole queue. Tuned for ``benchmarks/bench_simulate.py
--case backfill-week``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.names import cluster_proc
from fairshare_cli.core.slurm.factors import running_qos

#: One record of a job: its partition's ``PriorityTier``, its priority there under one of
#: its QOS, the partition and the QOS.
Record = tuple[int, int, str, str | None]
#: A job's records, in the order slurmctld builds them (partitions by tier, then QOS).
Score = tuple[Record, ...]
#: Scores the jobs given at the current decay pass (a job with no row is left out).
Scorer = Callable[[list[Job]], dict[str, Score]]

#: How many jobs of a group are scored at once when the merge reaches them.
CHUNK = 8
#: A job's place among records of one tier and priority: its submit time (none: last),
#: then its id's (cluster, proc) (``sort_job_queue2``).
Tie = tuple[float, int, int]
_BEFORE_ALL: Tie = (-math.inf, -1, -1)  # a group's place before its next run is known
#: An entry of the merge: (-tier, -priority, the job's :data:`Tie`, queue order, record
#: number, (batch, record)) for a job's record; (-tier, -priority, _BEFORE_ALL, group
#: number, record number, (group, record number, index)) for a group's next run.
_Entry = tuple[int, int, Tie, int, int, Any]


def _group_key(job: Job, basic: bool = False) -> tuple[Any, ...]:
    """What a job's priority depends on but its age (its own key when it carries
    attributes, an admin priority, or no accrue time and a begin time other than its submit
    time: its age then need not follow its submission). Under ``priority/basic`` (``basic``)
    what its records depend on but its priority, which its ``slurm_priority`` carries."""
    if job.attributes or job.admin_priority is not None:
        return (job.id,)
    if job.slurm_priority is not None and not basic:
        return (job.id,)
    if job.accrue_time is None and job.eligible_time not in (None, job.submit_time):
        return (job.id,)
    return (job.owner, job.account, job.partition, job.qos, job.num_nodes, job.request_cpus,
            job.request_memory, job.time_limit, job.nice, job.site_factor, job.status)  # fmt: skip


def _tie(job: Job, job_id: str) -> Tie:
    """The job's :data:`Tie`: records of one tier and priority go by submit time, then by
    job id (``sort_job_queue2``, 22.05 and today alike)."""
    submitted = job.submit_time if job.submit_time is not None else math.inf
    return (submitted, *cluster_proc(job_id))


def _age_key(job: Job, basic: bool = False) -> float:
    """Oldest first: by the time the job accrues age from (none: last); under
    ``priority/basic`` (``basic``), highest priority first."""
    if basic:
        return -float(job.slurm_priority or 0)
    accrued = job.accrue_time if job.accrue_time is not None else job.submit_time
    return accrued if accrued is not None else float("inf")


class PendingJobs:
    """The pending batches by group, scored per decay pass as the order is read."""

    def __init__(self, scorer: Scorer, basic: bool = False) -> None:
        self.scorer = scorer
        self.basic = basic  # (priority/basic: the jobs carry theirs, in ``slurm_priority``)
        self.groups: dict[tuple[Any, ...], list[JobBatch]] = {}
        self.place: dict[str, tuple[float, Tie, int]] = {}  # id -> group order
        self.score: dict[str, Score] = {}  # this decay pass's scores
        self.unscored: set[str] = set()  # jobs this pass gave no row
        self.queued = 0  # queue order of the last job added
        self.serial: dict[tuple[Any, ...], int] = {}  # a number a group, for ties
        #: this pass's merge entries of each group's first run in each record, while the
        #: group is unchanged (none: no job of the group has a priority), and the groups to
        #: look at again
        self.heads: dict[tuple[Any, ...], list[_Entry]] = {}
        self.stale: set[tuple[Any, ...]] = set()

    def add(self, batch: JobBatch) -> None:
        """Queue ``batch`` (in its group, by age)."""
        self.queued += 1
        job = batch.job
        self.place[job.id] = (_age_key(job, self.basic), _tie(job, job.id), self.queued)
        key = _group_key(job, self.basic)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = []
            self.serial.setdefault(key, len(self.serial))
        self.heads.pop(key, None)
        self.stale.add(key)
        group.append(batch)
        if len(group) > 1 and self.place[group[-2].job.id] > self.place[job.id]:
            group.sort(key=lambda b: self.place[b.job.id])

    def new_pass(self) -> None:
        """A decay pass ran: every score is made again when next needed."""
        self.score = {}
        self.unscored = set()
        self.heads = {}
        self.stale = set(self.groups)

    def ensure(self, jobs: list[Job]) -> None:
        """Score the jobs not scored in this pass."""
        todo = [j for j in jobs if j.id not in self.score and j.id not in self.unscored]
        if todo:
            got = self.scorer(todo)
            self.score.update(got)
            self.unscored.update(j.id for j in todo if j.id not in got)

    def settle(self, batch: JobBatch, rest: JobBatch | None) -> None:
        """``batch`` started, all of it (``rest`` None) or its first jobs (``rest`` the others,
        which take its place)."""
        key = _group_key(batch.job, self.basic)
        group = self.groups[key]
        self.heads.pop(key, None)
        self.stale.add(key)
        k = group.index(batch)
        if rest is None:
            del group[k]
            if not group:
                del self.groups[key]
                self.stale.discard(key)
            return
        old = self.place[batch.job.id]
        self.place[rest.job.id] = (old[0], _tie(rest.job, rest.job.id), old[2])
        self.score[rest.job.id] = self.score[batch.job.id]
        group[k] = rest

    def ordered(self) -> Iterator[tuple[JobBatch, Record]]:
        """The scored batches' records by tier and priority, then submit time and job id,
        then queue order: the groups' runs of equal priority merged (a run is scored when the merge
        reaches its group). The groups must not change while this is read."""
        score, place, groups, heads = self.score, self.place, self.groups, self.heads
        if self.stale:
            todo = self.stale
            self.ensure([groups[k][0].job for k in todo if groups[k][0].job.id not in score])
            for key in todo:
                entries = self._entries(key)
                if entries:
                    heads[key] = entries
            self.stale = set()
        heap = [entry for entries in heads.values() for entry in entries]
        heapq.heapify(heap)
        while heap:
            neg_tier, neg, cp, _, r, item = heapq.heappop(heap)
            if cp is not _BEFORE_ALL:
                yield item
                continue
            key, _, start = item
            g = groups[key]
            end = self._run_end(g, start, r)
            for b in g[start:end]:
                got = score.get(b.job.id)
                if got is not None:
                    pl = place[b.job.id]
                    heapq.heappush(heap, (neg_tier, neg, pl[1], pl[2], r, (b, got[r])))
            nxt = self._entry(key, end, r)
            if nxt[5] is not None:
                heapq.heappush(heap, nxt)

    def _entries(self, key: tuple[Any, ...]) -> list[_Entry]:
        """The merge entries of the group's first run in each of its records (none: no job
        of the group is scored)."""
        first = self._entry(key, 0, 0)
        if first[5] is None:
            return []
        k = first[5][2]
        records = len(self.score[self.groups[key][k].job.id])
        return [first, *(self._entry(key, k, r) for r in range(1, records))]

    def _entry(self, key: tuple[Any, ...], start: int, r: int) -> _Entry:
        """The merge entry of the group's run in record ``r`` from its first scored batch
        at ``start`` or after (its item None: there is none)."""
        g = self.groups[key]
        k = self._next_scored(g, start)
        if k == len(g):
            return (0, 0, _BEFORE_ALL, self.serial[key], r, None)
        tier, prio, _, _ = self.score[g[k].job.id][r]
        return (-tier, -prio, _BEFORE_ALL, self.serial[key], r, (key, r, k))

    def _next_scored(self, group: list[JobBatch], k: int) -> int:
        """The first scored batch of the group from ``k`` on (its length: none)."""
        score, unscored = self.score, self.unscored
        while k < len(group):
            job_id = group[k].job.id
            if job_id in score:
                return k
            if job_id not in unscored:
                self.ensure([b.job for b in group[k : k + CHUNK]])
                continue
            k += 1
        return k

    def _run_end(self, group: list[JobBatch], start: int, r: int) -> int:
        """The end of the run of equal priority in record ``r`` that starts at ``start``
        (unscored batches inside it are skipped by the caller)."""
        score, unscored = self.score, self.unscored
        prio = score[group[start].job.id][r][1]
        k = start + 1
        while k < len(group):
            job_id = group[k].job.id
            got = score.get(job_id)
            if got is None and job_id not in unscored:
                self.ensure([b.job for b in group[k : k + CHUNK]])
                continue
            if got is not None and got[r][1] != prio:
                break
            k += 1
        return k


def kept_highest(computed: int, stored: int, admin: bool) -> int:
    """The priority slurmctld keeps under ``PriorityFlags=INCR_ONLY``: the one it stored
    where a pass computes a lower one (``decay_apply_weighted_factors``, 22.05 and 26.05
    alike); an admin-set priority is not recomputed."""
    return computed if admin else max(computed, stored)


def job_records(
    jobs: list[Job],
    ctx: Any,
    when: float,
    held: Callable[[Job, str], str | None],
    multi: dict[str, bool],
    highest: dict[str, int] | None = None,
    basic: bool = False,
) -> dict[str, Score]:
    """Each job's records as of the decay pass at ``when`` (``ctx``: the priority context
    of the tree then): a record per ``sprio`` row (partition and QOS), with its partition's
    tier and the priority slurmctld stores for it (``priority_array``), but the rows of a
    partition whose limits hold the job back (``held``; ``_job_runnable_test2``:
    ``job_limits_check`` keeps it out of the queue there). A job with no row is left out.
    Under ``PriorityFlags=INCR_ONLY`` a job of one partition and QOS keeps the priority a
    dump gave it (``slurm_priority``) where the pass computes a lower one
    (:func:`kept_highest`).

    Args:
        multi: job id -> whether the job names several partitions or QOS, a cache filled
            here (a job's partitions are split from its text each time).
        highest: under ``INCR_ONLY``, job id -> the priority kept for it at the passes
            scored before (the dump's ``slurm_priority`` until then), raised here: each
            pass keeps the higher of it and its own sum, as slurmctld keeps
            ``job_ptr->priority`` from pass to pass.
        basic: ``priority/basic``: every record has the job's ``slurm_priority``
            (:class:`~fairshare_cli.core.slurm.basic_priority.BasicPriorities`), no factors.
    """
    from fairshare_cli.core.slurm.priority import controller_priority
    from fairshare_cli.core.slurm.priority_table import compute_rows

    records: dict[str, list[Record]] = {}
    incr_only = "INCR_ONLY" in ctx.flags
    for job in jobs:
        if job.id not in multi:
            multi[job.id] = len(job.partitions) > 1 or "," in (job.qos or "")
    # Every queued job has a priority, one not yet eligible too (its age 0 until its
    # begin time, as slurmctld's at the pass); :func:`begun` holds it back.
    by_id = {job.id: job for job in jobs}
    ends: dict[str, list[Any]] = {}  # a job of several QOS in one partition: its rows
    for row in compute_rows(jobs, ctx, when, listed_at=float("inf")):
        job = by_id[row.job_id]
        if held(job, row.partition) is not None:
            continue
        tier = ctx.partitions[row.partition].priority_tier
        p = (job.slurm_priority or 1) if basic else controller_priority(row, multi[row.job_id])
        if incr_only and not multi[row.job_id] and not basic:
            floor = (
                job.slurm_priority if highest is None else highest.get(job.id, job.slurm_priority)
            )
            if floor is not None:
                p = kept_highest(p, floor, row.admin)
            if highest is not None and not row.admin:
                highest[job.id] = p
        records.setdefault(row.job_id, []).append((tier, p, row.partition, row.qos))
        if multi[row.job_id] and len(job.partitions) < 2 and not basic:
            ends.setdefault(row.job_id, []).append(row)
    for job_id, rows in ends.items():
        records[job_id] = at_job_priority(records[job_id], rows, by_id[job_id], when)
    return {job_id: tuple(own) for job_id, own in records.items()}


def raise_kept(
    jobs: list[Job],
    passes: Iterable[tuple[float, Any]],
    period: float,
    held: Callable[[Job, str], str | None],
    multi: dict[str, bool],
    highest: dict[str, int],
) -> None:
    """Under ``INCR_ONLY``, raise ``highest`` (:func:`job_records`) by each decay pass a
    cycle runs past (``passes``: its time and priority context, in order): slurmctld
    recomputes every pending job's priority at every pass and keeps the higher
    (``decay_apply_weighted_factors``), however many passes fall between two of fs's
    cycles. A job is scored at the pass before it was submitted too (its age 0): the
    priority slurmctld gives it at submission (``priority_p_set``), from that pass's
    tree; not at an earlier one."""
    for when, ctx in passes:
        due = [j for j in jobs if j.submit_time is None or j.submit_time < when + period]
        if due:
            job_records(due, ctx, when, held, multi, highest)


def at_job_priority(records: list[Record], rows: list[Any], job: Job, when: float) -> list[Record]:
    """The records of a job of several QOS in one partition, at the job's priority, as
    ``sort_job_queue2`` sorts them (no ``part_ptr_list``): its highest QOS's until the first
    decay pass after submission (``set_job_prio``), then its last record's (the pass uses
    the QOS slurmctld last tried, its lowest); their order kept (highest QOS first)."""
    from fairshare_cli.core.slurm.partition import submitted_since
    from fairshare_cli.core.slurm.priority import controller_priority

    p = controller_priority(rows[0] if submitted_since(job.submit_time, when) else rows[-1])
    return [(tier, p, part, qos) for tier, _, part, qos in records]


def begun(order: Iterable[tuple[JobBatch, Record]], t: float) -> Iterator[tuple[JobBatch, Record]]:
    """The records of ``order`` whose job's begin (eligible) time has come by ``t``: neither
    the main scheduler nor backfill tries a job before it, whatever ``PriorityFlags`` say
    (``job_independent``: ``begin_time > now`` is ``WAIT_TIME``, so ``build_job_queue``
    leaves the job out and it blocks no partition)."""
    for item in order:
        begin = item[0].job.eligible_time
        if begin is None or begin <= t:
            yield item


def job_of(batch: JobBatch, i: int, record: Record) -> Job:
    """The ``i``-th job of ``batch`` as its ``record`` runs it (its partition and QOS)."""
    job = batch.job if batch.count == 1 else replace(batch.job, id=batch.job_id(i))
    if "," in (job.partition or ""):  # (it bills by that partition's TRESBillingWeights)
        job = replace(job, partition=record[2])
    return under_qos(job, record[3])


def under_qos(job: Job, qos: str | None, defined: Any = None) -> Job:
    """A job of several QOS as it runs under ``qos``: slurmctld sets the QOS of the record
    it starts the job from; one running already (None) under the one ``_get_qos_info``
    gave it at submission (:func:`running_qos` over ``defined``, the config's QOS)."""
    if job.qos is None or "," not in job.qos:
        return job
    return replace(job, qos=qos or running_qos(job.qos, defined))
