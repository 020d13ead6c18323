"""``fs simulate --scheduler slurm``: pending jobs start in multifactor priority order
(under ``priority/basic``, first in, first out:
:mod:`~fairshare_cli.core.slurm.basic_priority`).

Each cycle at ``t`` (the scheduling interval): jobs whose run time (cut at their time limit
plus ``OverTimeLimit``, as Slurm kills them there) is up end and free their CPUs; workload
jobs whose submit time has come are queued; the usage charged so far is advanced to the
last decay pass (:class:`~fairshare_cli.core.operations.slurm_series.SlurmSeries`:
``_apply_new_usage`` and the decay every ``PriorityCalcPeriod``), and the pending jobs'
priorities are those ``sprio`` shows then
(:func:`~fairshare_cli.core.slurm.priority_table.compute_rows` with the tree of that pass:
one a row, a job in one of its partitions under one of its QOS). Then the main scheduler
(``schedule()`` in ``src/slurmctld/job_scheduler.c``) walks these records as
``build_job_queue`` makes them and ``sort_job_queue2`` sorts them (the partition's
``PriorityTier`` first, then the record's priority, ties: earlier submit time, then lower
job id;
:mod:`~fairshare_cli.core.operations.slurm_pending`) and starts each record's job on the
first node of its partition with enough free CPUs, under the record's QOS (a job started by
an earlier record is passed); a record whose job does not fit blocks its partition for the
rest of the pass (no later record starts there, nor on any of its nodes through another
partition: ``avail_node_bitmap`` loses them); a job whose begin time (``eligible_time``)
is still to come is not in the queue (``job_independent``), with or without
``ACCRUE_ALWAYS``. With ``backfill`` (``src/plugins/sched/backfill/backfill.c``) the
records left are walked again in that order against a map of when CPUs free up (running
jobs end at their start plus time limit, its partition's for one of none, a year for an
UNLIMITED one, as Slurm plans with limits, not with the run times it cannot know): a job
that can start now on CPUs no earlier record's job is planned to use starts; one that
cannot reserves the CPUs at its earliest start for its time limit, so no later job delays
it.

The backfill pass is bounded as ``_attempt_backfill`` bounds it (``[priority]`` keys named
after the ``SchedulerParameters``): it runs at a cycle when ``bf_interval`` seconds have
passed since the last pass (every cycle when cycles are longer); it tests at most
``bf_max_job_test`` jobs, the rest waiting for the next pass; a job whose earliest start is
more than ``bf_window`` minutes after the pass gets no reservation; a reservation's start
is rounded down and its end up (22.05: down) to a multiple of ``bf_resolution`` seconds.

Simplified against Slurm: jobs start only at cycle times (Slurm also schedules on job
events); a job with ``num_nodes`` > 1 takes ``ceil(cpus / nodes)`` CPUs on each of that many
nodes; one naming no node count runs on one node when a node of its partitions could hold
it, else its CPUs are spread over the nodes in config order (Slurm spreads it whenever no
one node has its CPUs free); memory, GRES, licences, QOS and association limits and
preemption are not modelled; in backfill, the jobs of a batch after the first that cannot
start now are not tested (nor counted against ``bf_max_job_test``); a job of several QOS
but one partition sorts
at its highest QOS's priority until the first decay pass after its submission, though in
Slurm the first walk of its records already leaves it at its last record's.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config, PartitionSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit, cluster_nodes
from fairshare_cli.core.operations.sim_row import NEVER_QUEUED, JobStart, SimRow
from fairshare_cli.core.operations.slurm_pending import (
    PendingJobs,
    Record,
    Score,
    begun,
    job_of,
    job_records,
    raise_kept,
    under_qos,
)
from fairshare_cli.core.operations.slurm_series import SlurmSeries, user_rows
from fairshare_cli.core.slurm import partition as slurm_part
from fairshare_cli.core.slurm.basic_priority import basic_priorities
from fairshare_cli.core.slurm.factors import parse_flags
from fairshare_cli.core.slurm.node_space import (
    Alloc,
    Node,
    NodeSpace,
    OverdueEnds,
    Reservation,
    earliest_on_many,
    nodes_of,
    place,
    reservation,
)

INF = math.inf


@dataclass
class _Running:
    job: Job
    nodes: list[tuple[Node, int]]
    end: float | None
    name: str


class SlurmSim:
    """The Slurm cluster a simulation carries from cycle to cycle."""

    def __init__(
        self,
        config: Config,
        series: SlurmSeries,
        queue: Sequence[Job | JobBatch],
        workload: Sequence[Job | JobBatch],
        start: float,
        backfill: bool,
    ) -> None:
        self.config = config
        self.series = series
        self.backfill = backfill
        self.start = start
        self.nodes = cluster_nodes(config)
        self.space = NodeSpace(self.nodes)
        #: the partitions of some node (a job of none of them never starts)
        self.node_parts = frozenset().union(*(n.partitions for n in self.nodes))
        self.largest: dict[tuple[str, ...], int] = {}  # the most CPUs of a node, by partitions
        self.capacity = sum(n.cpus for n in self.nodes)
        self.fit = NodeFit(config)  # (a partition whose limits hold a job back: no record)
        batches = [b if isinstance(b, JobBatch) else JobBatch(b) for b in workload]
        self.pending_work = sorted(
            batches, key=lambda b: (self._submitted(b.job), b.job.cluster_proc)
        )
        self.next_work = 0
        self.basic = basic_priorities(config, queue)  # (priority/basic: first in, first out)
        self.queue = PendingJobs(self._score, self.basic is not None)
        series.pending = lambda: (b.job for g in self.queue.groups.values() for b in g)
        self.queued: list[Job] = []  # jobs queued since the last cycle (scored at once)
        #: the batches started this cycle, by id: (batch, what is left of it or None)
        self.left_of: dict[str, tuple[JobBatch, JobBatch | None]] = {}
        self.running: dict[str, _Running] = {}
        self.ends: list[tuple[float, str]] = []
        self.overdue = OverdueEnds(self.space, config.priority.kill_wait)  # (may outlive ends)
        self.multi: dict[str, bool] = {}  # job id -> several partitions or QOS
        #: under PriorityFlags=INCR_ONLY, job id -> its priority kept at its highest so far
        incr_only = "INCR_ONLY" in parse_flags(config.priority.flags)
        self.highest: dict[str, int] | None = (
            {} if incr_only and config.priority.type != "basic" else None
        )
        #: the decay pass (time, tree, priority context) priorities are of, and the cycle
        self.pass_time: float | None = None
        self.ctx: tuple[float, Any, Any] = (0.0, None, None)
        self.now = start
        self.last_backfill: float | None = None  # when the last backfill pass ran
        self.starts: list[JobStart] = []  # jobs started here (fs sweep's waits)
        self.finished = 0  # jobs ended here
        #: what the rows count, kept as jobs start and end: CPUs in use per (user, account)
        #: and in all, pending jobs per (user, account) and in all
        self.cpus_of: dict[tuple[str, str | None], int] = {}
        self.in_use = 0
        self.waiting: dict[tuple[str, str | None], int] = {}
        self.waiting_total = 0
        for item in queue:
            batch = item if isinstance(item, JobBatch) else JobBatch(item)
            if batch.job.status == "idle" and batch.job.admin_priority != 0:  # (0: held)
                batch = JobBatch(self._taken(batch.job), batch.count)
                self.queue.add(batch)
                self.queued.append(batch.job)
                self._count_waiting(batch.job, batch.count)
            elif batch.job.status == "running":
                for i in range(batch.count):
                    job = under_qos(replace(batch.job, id=batch.job_id(i)), None, config.qos)
                    began = job.start_time if job.start_time is not None else start
                    per = math.ceil(job.request_cpus / (job.num_nodes or 1))
                    alloc = self._fit(job, self.fit.parts(job))
                    alloc = alloc or [(n, per) for n in self.nodes[: job.num_nodes or 1]]
                    self._place(job, alloc, began, queued=True)

    def _count_waiting(self, job: Job, count: int) -> None:
        key = (job.owner.split("@", 1)[0], job.account)
        self.waiting[key] = self.waiting.get(key, 0) + count
        self.waiting_total += count

    def _submitted(self, job: Job) -> float:
        return job.submit_time if job.submit_time is not None else self.start

    def _taken(self, job: Job) -> Job:
        """The job as slurmctld takes it: of no time limit, its partition's ``DefaultTime``."""
        if self.basic is not None:
            job = self.basic.queued(job)
        spec = self._spec(job)
        limit = None if spec is None else slurm_part.submitted_time_limit(job, spec)
        return job if limit is None else replace(job, time_limit=limit)

    def _spec(self, job: Job) -> PartitionSpec | None:
        """The partition whose limits a job of no time limit takes (its first; else None)."""
        if job.time_limit is not None:  # (backfill's hot loop: nothing to look up)
            return None
        parts = job.partitions or self.fit.parts(job)
        return self.config.partitions.get(parts[0]) if parts else None

    # -- placing --------------------------------------------------------------------

    def _spread(self, job: Job, parts: tuple[str, ...]) -> int:
        """The job's CPUs when they go over several nodes (else 0): it names no node count
        and no node of its partitions has that many (docs/jobs.md)."""
        if job.num_nodes is not None:
            return 0
        most = self.largest.get(parts)
        if most is None:
            most = self.largest[parts] = max(
                (n.cpus for n in nodes_of(self.nodes, parts)), default=0
            )
        return job.request_cpus if job.request_cpus > most else 0

    def _fit(self, job: Job, parts: tuple[str, ...]) -> Alloc:
        """The first nodes (in config order) of the job's partitions with its CPUs free."""
        want = job.num_nodes or 1
        per = math.ceil(job.request_cpus / want)
        cpus = self._spread(job, parts)
        if want == 1 and not cpus:
            node = self.space.first_free(per, parts)
            return [(node, per)] if node is not None else []
        nodes = nodes_of(self.nodes, parts)
        if self.space.closed:
            nodes = [n for n in nodes if not self.space.is_closed(n)]
        return place(nodes, want, per, cpus, lambda n: n.cpus - n.used)

    def _try_start(self, job: Job, parts: tuple[str, ...], t: float) -> bool:
        alloc = self._fit(job, parts)
        if alloc:
            self._place(job, alloc, t)
        return bool(alloc)

    def _place(
        self, job: Job, alloc: Alloc, t: float, *, queued: bool = False, backfilled: bool = False
    ) -> None:
        """Start ``job`` at ``t`` on the nodes of ``alloc``; it ends after its run time or
        time limit: its own, else the partition's, or the one backfill planned when it
        starts it (``slurm_part.planned_time_limit``); planned to end at ``planned_end``
        (``queued``: running in the queue the simulation starts from)."""
        spec = self._spec(job)
        if backfilled and job.time_limit is None:
            limit: float | None = slurm_part.planned_time_limit(None, spec)
        else:
            limit = slurm_part.started_time_limit(job.time_limit, spec)
        over = slurm_part.over_time_limit(self.config, job.partition or self.fit.default)
        run = job.run_time
        last = min(run if run is not None else INF, slurm_part.killed_after(limit, over))
        end = t + last if math.isfinite(last) else None
        planned = slurm_part.planned_end(t, limit)
        if end is None or end > planned:
            self.overdue.add(planned, job.id, limit, over)
        for node, cpus in alloc:
            node.used += cpus
            node.planned[job.id] = (planned, cpus)
            self.space.changed(node)
            self.in_use += cpus
        name = job.owner.split("@", 1)[0]
        self.running[job.id] = _Running(job, alloc, end, name)
        key = (name, job.account)
        self.cpus_of[key] = self.cpus_of.get(key, 0) + job.request_cpus
        if end is not None:
            heapq.heappush(self.ends, (end, job.id))
        self.series.start(job.id, job, t)
        if not queued:
            self.starts.append(JobStart(job.id, name, self._submitted(job), t))
            self._count_waiting(job, -1)

    # -- one cycle ------------------------------------------------------------------

    def finish_jobs(self, t: float) -> None:
        """Jobs whose run time (or time limit) is up end and free their CPUs."""
        while self.ends and self.ends[0][0] <= t:
            end, job_id = heapq.heappop(self.ends)
            run = self.running.pop(job_id)
            self.finished += 1
            for node, per in run.nodes:
                node.used -= per
                del node.planned[job_id]
                self.in_use -= per
                self.space.changed(node)
            self.cpus_of[run.name, run.job.account] -= run.job.request_cpus
            self.series.end(job_id, end)

    def submit_due(self, t: float) -> None:
        """Queue the workload jobs due by ``t`` (never a held one: admin priority 0 too)."""
        work = self.pending_work
        k = self.next_work
        while k < len(work) and self._submitted(work[k].job) <= t:
            job = replace(work[k].job, status="idle", submit_time=self._submitted(work[k].job))
            if work[k].job.status not in NEVER_QUEUED and job.admin_priority != 0:
                job = self._taken(job)
                self.queue.add(JobBatch(job, work[k].count))
                self.queued.append(job)
                self._count_waiting(job, work[k].count)
            k += 1
        self.next_work = k

    def _score(self, jobs: list[Job]) -> dict[str, Score]:
        """The jobs' records as of the last decay pass, with the usage charged so far
        (:func:`~fairshare_cli.core.operations.slurm_pending.job_records`)."""
        when, _, ctx = self.ctx
        held, basic = self.fit.held, self.basic is not None
        return job_records(jobs, ctx, when, held, self.multi, self.highest, basic)

    def _priorities(self, t: float) -> None:
        """Priorities as of the last decay pass: all made again (as the order reaches them)
        when a pass has ran since; the jobs queued since the last cycle get theirs now."""
        from fairshare_cli.core.slurm.model import priority_context

        if self.highest is not None and self.pass_time is not None:  # (INCR_ONLY)
            self._raise_kept(t, self.highest)
        when, tree = self.series.tree(t)
        self.now = t
        new_pass = when != self.pass_time
        if new_pass:
            self.pass_time = when
            self.queue.new_pass()
        if self.ctx[1] is not tree:
            self.ctx = (when, tree, priority_context(self.config, tree))
        if new_pass and self.highest is not None:
            # INCR_ONLY: the pass raises every pending job's kept priority, reached or not
            self.queue.ensure([b.job for g in self.queue.groups.values() for b in g])
        self.queue.ensure(self.queued)
        self.queued = []

    def _raise_kept(self, t: float, highest: dict[str, int]) -> None:
        """Each pass since the last cycle's, up to ``t``'s, raises the kept priorities."""
        from fairshare_cli.core.slurm.model import priority_context

        when, _, ctx = self.ctx
        contexts = (
            (p, ctx if p == when else priority_context(self.config, self.series.pass_tree(p)))
            for p in self.series.passes_between(when, t)
        )
        jobs = [b.job for g in self.queue.groups.values() for b in g]  # (self.queued too)
        period = self.config.priority.calc_period
        raise_kept(jobs, contexts, period, self.fit.held, self.multi, highest)

    def schedule(self, t: float) -> None:
        """The main scheduler's pass, then (with backfill) the backfill pass, over the
        pending jobs' records in order (tier, priority, submit time, then lower job id): each
        tries its job in its partition; a job started by an earlier record is passed."""
        self._priorities(t)
        order = begun(self.queue.ordered(), t)
        blocked: set[str] = set()
        left: list[tuple[JobBatch, Record]] = []
        for batch, record in order:
            current = self._current(batch)
            if current is None:
                continue
            started = 0
            if record[2] not in blocked:
                started = self._start_batch(current, record, t)
            self._started(batch, current, started)
            if started < current.count:
                if record[2] not in blocked:  # (_schedule's fail_by_part: nor on its nodes)
                    blocked.add(record[2])
                    self.space.close(nodes_of(self.nodes, (record[2],)))
                left.append((batch, record))
                if blocked >= self.node_parts:  # no record later in the order can start
                    break
        self.space.end_main_pass()
        if self.backfill and self._backfill_due(t):
            self._backfill(itertools.chain(left, order), t)
        for batch, rest in self.left_of.values():
            self.queue.settle(batch, rest)
            if self.highest is not None and batch.job.id in self.highest:
                kept = self.highest.pop(batch.job.id)
                if rest is not None:  # (its jobs not started keep theirs)
                    self.highest[rest.job.id] = kept
        self.left_of = {}

    def _start_batch(self, batch: JobBatch, record: Record, t: float) -> int:
        started = 0
        while started < batch.count:
            if not self._try_start(job_of(batch, started, record), (record[2],), t):
                break
            started += 1
        return started

    def _current(self, batch: JobBatch) -> JobBatch | None:
        """What is left this cycle of a queued batch (None: all of it started)."""
        entry = self.left_of.get(batch.job.id)
        return batch if entry is None else entry[1]

    def _started(self, batch: JobBatch, current: JobBatch, started: int) -> None:
        """The first ``started`` jobs of what was left of ``batch`` (``current``) started:
        the rest is recorded for the queue at the end of the cycle."""
        if not started:
            return
        rest = None
        if started < current.count:
            first = replace(current.job, id=current.job_id(started))
            rest = JobBatch(first, current.count - started)
            self.queue.score[rest.job.id] = self.queue.score[batch.job.id]
        self.left_of[batch.job.id] = (batch, rest)

    def _backfill_due(self, t: float) -> bool:
        """Whether a backfill pass runs at ``t``: ``bf_interval`` seconds have passed since
        the last one (``backfill_agent``: it sleeps while the wait is shorter)."""
        last = self.last_backfill
        if last is not None and t - last < self.config.priority.bf_interval:
            return False
        self.last_backfill = t
        return True

    def _backfill(self, order: Iterable[tuple[JobBatch, Record]], t: float) -> None:
        """Start lower-priority jobs now where that delays no higher-priority job's planned
        start; reserve CPUs for each job that cannot start (``_attempt_backfill``): at most
        ``bf_max_job_test`` jobs are tested; none is reserved beyond ``bf_window``."""
        reserved: dict[str, list[Reservation]] = {}  # by node: (from, to, cpus)
        self.overdue.replan(t, self.running)
        self.space.begin_pass(t, reserved)
        try:
            self._backfill_jobs(order, t, reserved)
        finally:
            self.space.end_pass()

    def _backfill_jobs(
        self,
        order: Iterable[tuple[JobBatch, Record]],
        t: float,
        reserved: dict[str, list[Reservation]],
    ) -> None:
        """The jobs of a backfill pass (:meth:`_backfill`), in order, until
        ``bf_max_job_test`` were tested ("bf_max_job_test: limit reached")."""
        prio = self.config.priority
        window_end = t + prio.bf_window * 60
        tests_left = prio.bf_max_job_test
        for batch, record in order:
            if not tests_left:
                break
            current = self._current(batch)
            if current is None:
                continue
            parts = (record[2],)
            started = 0
            while started < current.count and tests_left:
                job = job_of(current, started, record)
                tests_left -= 1
                when, alloc = self._earliest(job, parts, t, reserved)
                if when == t and alloc:
                    self._place(job, alloc, t, backfilled=True)
                    started += 1
                    continue
                if alloc and when <= window_end:
                    self._reserve(job, alloc, when, reserved)
                break
            self._started(batch, current, started)

    def _reserve(
        self, job: Job, alloc: Alloc, when: float, reserved: dict[str, list[Reservation]]
    ) -> None:
        """Hold the job's CPUs on the nodes of ``alloc`` from ``when`` for its time limit
        (:func:`~fairshare_cli.core.slurm.node_space.reservation`)."""
        length = slurm_part.planned_time_limit(job.time_limit, self._spec(job))
        prio = self.config.priority
        span = reservation(when, length, prio.bf_resolution, prio.output_compat == "22.05")
        for n, cpus in alloc:
            reserved.setdefault(n.name, []).append((*span, cpus))

    def _earliest(
        self,
        job: Job,
        parts: tuple[str, ...],
        t: float,
        reserved: dict[str, list[Reservation]],
    ) -> tuple[float, Alloc]:
        """The earliest time the job's CPUs are free for its whole time limit on enough
        nodes, given the planned ends and the reservations, and where (the first nodes in
        config order that are free then).

        A one-node job asks the pass's node space (:mod:`~fairshare_cli.core.slurm.
        node_space`, which holds ``t`` and ``reserved``); a job of several nodes, or spread
        over them, tries the nodes at ``t`` and at every planned and reservation end.
        """
        want = job.num_nodes or 1
        per = math.ceil(job.request_cpus / want)
        length = slurm_part.planned_time_limit(job.time_limit, self._spec(job))
        cpus = self._spread(job, parts)
        if want == 1 and not cpus:
            best, found = self.space.earliest(per, parts, length)
            return (best, [(found, per)]) if found is not None else (INF, [])
        return earliest_on_many(self.nodes, parts, want, per, cpus, t, length, reserved)

    # -- rows -----------------------------------------------------------------------

    def rows(self, t: float) -> list[SimRow]:
        """Per user association: fair-share factor, CPUs in use, pending jobs; then the
        cluster: CPUs in use, CPUs, pending jobs."""
        out = user_rows(self.series, t, self.cpus_of, self.waiting)
        in_use = float(self.in_use)
        pending, capacity = self.waiting_total, float(self.capacity)
        out.append(SimRow(t, "pool", "pool", in_use, pending=pending, capacity=capacity))
        return out
