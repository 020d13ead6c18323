"""``fs simulate --scheduler slurm``: pending jobs start in multifactor priority order.

Each cycle at ``t`` (the scheduling interval): jobs whose run time (cut at their time
limit, as Slurm kills them there) is up end and free their CPUs; workload jobs whose
submit time has come are queued; the usage charged so far is advanced to the last decay
pass (:class:`~fairshare_cli.core.operations.slurm_series.SlurmSeries`: ``_apply_new_usage``
and the decay every ``PriorityCalcPeriod``), and the pending jobs' priorities are those
``sprio`` shows then (:func:`~fairshare_cli.core.slurm.priority_table.compute_rows` with the
tree of that pass; a job's priority is its best partition's). Then the main scheduler
(``schedule()`` in ``src/slurmctld/job_scheduler.c``) walks the jobs by priority (ties:
lower job id first) and starts each on the first node of its partitions with enough free
CPUs; a job that does not fit blocks its partitions for the rest of the pass (no
lower-priority job starts there). With ``backfill`` (``src/plugins/sched/backfill/
backfill.c``) the jobs left are walked again in priority order against a map of when CPUs
free up (running jobs end at their start plus time limit, as Slurm plans with limits, not
with the run times it cannot know): a job that can start now on CPUs no higher-priority
job is planned to use starts; one that cannot reserves the CPUs at its earliest start for
its time limit, so no later job delays it.

The backfill pass is bounded as ``_attempt_backfill`` bounds it (``[priority]`` keys named
after the ``SchedulerParameters``): it runs at a cycle when ``bf_interval`` seconds have
passed since the last pass (every cycle when cycles are longer); it tests at most
``bf_max_job_test`` jobs, the rest waiting for the next pass; a job whose earliest start is
more than ``bf_window`` minutes after the pass gets no reservation; a reservation's start
is rounded down and its end up (22.05: down) to a multiple of ``bf_resolution`` seconds.

Simplified against Slurm: jobs start only at cycle times (Slurm also schedules on job
events); a job with ``num_nodes`` > 1 takes ``ceil(cpus / nodes)`` CPUs on each of that many
nodes; memory, GRES, licences, QOS and association limits and preemption are not modelled;
in backfill, the jobs of a batch after the first that cannot start now are not tested (nor
counted against ``bf_max_job_test``); a job with no time limit is planned as running for
ever (Slurm uses the partition's ``MaxTime``; here partitions have none).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor.negotiator import machine_names
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.sim_row import JobStart, SimRow
from fairshare_cli.core.operations.slurm_series import SlurmSeries

INF = math.inf

#: A backfill reservation on one node: CPUs held from, to.
Reservation = tuple[float, float, int]


@dataclass
class _Node:
    name: str
    cpus: int
    partitions: frozenset[str]
    used: int = 0
    #: (planned end, cpus) of the jobs running here (for backfill's map)
    planned: dict[str, tuple[float, int]] = field(default_factory=dict)


@dataclass
class _Running:
    job: Job
    nodes: list[tuple[_Node, int]]
    end: float | None
    name: str


def _nodes(config: Config) -> list[_Node]:
    """Every ``[[machines]]`` stanza is ``count`` nodes of ``slots × Cpus`` CPUs, in its
    ``partitions`` (none: every partition)."""
    out = []
    for spec in config.machines:
        value = spec.attribute("Cpus")
        cpus = int(value) if isinstance(value, (int, float)) else 1
        parts = frozenset(spec.partitions or config.partitions)
        for name in machine_names(spec):
            out.append(_Node(name, spec.slots * cpus, parts))
    return out


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
        self.nodes = _nodes(config)
        self.capacity = sum(n.cpus for n in self.nodes)
        self.default_parts = tuple(p for p, s in config.partitions.items() if s.default)
        batches = [b if isinstance(b, JobBatch) else JobBatch(b) for b in workload]
        self.pending_work = sorted(
            batches, key=lambda b: (self._submitted(b.job), b.job.cluster_proc)
        )
        self.next_work = 0
        self.pending: list[JobBatch] = []
        self.running: dict[str, _Running] = {}
        self.ends: list[tuple[float, str]] = []
        self.prio: dict[str, tuple[int, tuple[str, ...]]] = {}  # batch head id -> (prio, parts)
        self.pass_time: float | None = None
        self.last_backfill: float | None = None  # when the last backfill pass ran
        self.starts: list[JobStart] = []  # jobs started here (fs sweep's waits)
        self.finished = 0  # jobs ended here
        for item in queue:
            batch = item if isinstance(item, JobBatch) else JobBatch(item)
            if batch.job.status == "idle":
                self.pending.append(batch)
            elif batch.job.status == "running":
                for i in range(batch.count):
                    job = replace(batch.job, id=batch.job_id(i))
                    began = job.start_time if job.start_time is not None else start
                    nodes = self._fit(job, self._parts(job), {}) or self.nodes[: job.num_nodes]
                    self._place(job, nodes, began, queued=True)

    def _submitted(self, job: Job) -> float:
        return job.submit_time if job.submit_time is not None else self.start

    def _parts(self, job: Job) -> tuple[str, ...]:
        return job.partitions or self.default_parts or tuple(self.config.partitions)

    # -- placing --------------------------------------------------------------------

    def _fit(self, job: Job, parts: tuple[str, ...], node_free: dict[str, int]) -> list[_Node]:
        """The first nodes (in config order) of the job's partitions with its CPUs free."""
        want = max(job.num_nodes, 1)
        per = math.ceil(job.request_cpus / want)
        chosen = []
        for node in self.nodes:
            if node.partitions.isdisjoint(parts) and parts:
                continue
            if node_free.get(node.name, node.cpus - node.used) >= per:
                chosen.append(node)
                if len(chosen) == want:
                    return chosen
        return []

    def _try_start(self, job: Job, parts: tuple[str, ...], t: float) -> bool:
        nodes = self._fit(job, parts, {})
        if nodes:
            self._place(job, nodes, t)
        return bool(nodes)

    def _place(self, job: Job, nodes: list[_Node], t: float, *, queued: bool = False) -> None:
        """Start ``job`` at ``t`` on ``nodes``; it ends after its run time or time limit
        (``queued``: it was running in the queue the simulation starts from)."""
        per = math.ceil(job.request_cpus / max(job.num_nodes, 1))
        limit = job.time_limit
        run = job.run_time
        last = min(run if run is not None else INF, limit if limit is not None else INF)
        end = t + last if math.isfinite(last) else None
        planned = t + limit if limit is not None else INF
        for node in nodes:
            node.used += per
            node.planned[job.id] = (planned, per)
        name = job.owner.split("@", 1)[0]
        self.running[job.id] = _Running(job, [(n, per) for n in nodes], end, name)
        if end is not None:
            heapq.heappush(self.ends, (end, job.id))
        self.series.start(job.id, job, t)
        if not queued:
            self.starts.append(JobStart(job.id, name, self._submitted(job), t))

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
            self.series.end(job_id, end)

    def submit_due(self, t: float) -> None:
        """Workload jobs whose submit time has come are queued."""
        work = self.pending_work
        k = self.next_work
        while k < len(work) and self._submitted(work[k].job) <= t:
            job = replace(work[k].job, status="idle", submit_time=self._submitted(work[k].job))
            self.pending.append(JobBatch(job, work[k].count))
            k += 1
        self.next_work = k

    def _priorities(self, t: float) -> None:
        """Priorities as of the last decay pass (recomputed when a pass has run or jobs
        were queued since), with the usage charged so far."""
        from fairshare_cli.core.slurm.model import priority_context
        from fairshare_cli.core.slurm.priority import controller_priority
        from fairshare_cli.core.slurm.priority_table import compute_rows

        when, tree = self.series.tree(t)
        fresh = when != self.pass_time
        todo = [b.job for b in self.pending if fresh or b.job.id not in self.prio]
        self.pass_time = when
        if not todo:
            return
        ctx = priority_context(self.config, tree)
        best: dict[str, tuple[int, list[str]]] = {}
        by_id = {job.id: job for job in todo}
        for row in compute_rows(todo, ctx, when, listed_at=t):
            multi = len(by_id[row.job_id].partitions) > 1
            p = controller_priority(row, multi)
            prio, parts = best.setdefault(row.job_id, (p, []))
            best[row.job_id] = (max(prio, p), [*parts, row.partition])
        for job_id, (p, parts) in best.items():
            self.prio[job_id] = (p, tuple(parts))

    def schedule(self, t: float) -> None:
        """The main scheduler's pass, then (with backfill) the backfill pass."""
        self._priorities(t)
        order = sorted(
            (b for b in self.pending if b.job.id in self.prio),
            key=lambda b: (-self.prio[b.job.id][0], b.job.cluster_proc),
        )
        blocked: set[str] = set()
        left: list[JobBatch] = []
        for batch in order:
            parts = self.prio[batch.job.id][1]
            started = 0
            if blocked.isdisjoint(parts):
                started = self._start_batch(batch, parts, t)
            if started < batch.count:
                blocked.update(parts)
                left.append(self._rest(batch, started))
        if self.backfill and self._backfill_due(t) and left:
            left = self._backfill(left, t)
        unscored = [b for b in self.pending if b.job.id not in self.prio]
        self.pending = left + unscored

    def _start_batch(self, batch: JobBatch, parts: tuple[str, ...], t: float) -> int:
        started = 0
        while started < batch.count:
            job = batch.job if batch.count == 1 else replace(batch.job, id=batch.job_id(started))
            if not self._try_start(job, parts, t):
                break
            started += 1
        return started

    def _rest(self, batch: JobBatch, started: int) -> JobBatch:
        if not started:
            return batch
        rest = JobBatch(replace(batch.job, id=batch.job_id(started)), batch.count - started)
        self.prio[rest.job.id] = self.prio[batch.job.id]
        return rest

    def _backfill_due(self, t: float) -> bool:
        """Whether a backfill pass runs at ``t``: ``bf_interval`` seconds have passed since
        the last one (``backfill_agent``: it sleeps while the wait is shorter)."""
        last = self.last_backfill
        if last is not None and t - last < self.config.priority.bf_interval:
            return False
        self.last_backfill = t
        return True

    def _backfill(self, order: list[JobBatch], t: float) -> list[JobBatch]:
        """Start lower-priority jobs now where that delays no higher-priority job's planned
        start; reserve CPUs for each job that cannot start (``_attempt_backfill``): at most
        ``bf_max_job_test`` jobs are tested; none is reserved beyond ``bf_window``."""
        prio = self.config.priority
        window_end = t + prio.bf_window * 60
        tests_left = prio.bf_max_job_test
        reserved: dict[str, list[Reservation]] = {}  # by node: (from, to, cpus)
        left = []
        for k, batch in enumerate(order):
            if not tests_left:
                left.extend(order[k:])  # "bf_max_job_test: limit reached"
                break
            parts = self.prio[batch.job.id][1]
            started = 0
            while started < batch.count and tests_left:
                job = (
                    batch.job if batch.count == 1 else replace(batch.job, id=batch.job_id(started))
                )
                tests_left -= 1
                when, nodes = self._earliest(job, parts, t, reserved)
                if when == t and nodes:
                    self._place(job, nodes, t)
                    started += 1
                    continue
                if nodes and when <= window_end:
                    self._reserve(job, nodes, when, reserved)
                break
            if started < batch.count:
                left.append(self._rest(batch, started))
        return left

    def _reserve(
        self, job: Job, nodes: list[_Node], when: float, reserved: dict[str, list[Reservation]]
    ) -> None:
        """Hold the job's CPUs on ``nodes`` from ``when`` for its time limit, at whole
        seconds on the ``bf_resolution`` grid: the start rounded down; the end rounded up
        (``_set_slot_time``, today's Slurm) or, with ``output_compat = "22.05"``, down
        (22.05's ``_attempt_backfill``)."""
        res = self.config.priority.bf_resolution
        length = job.time_limit if job.time_limit is not None else INF
        start = math.floor(when) // res * res
        end = when + length
        if math.isfinite(end):
            up = 0 if self.config.priority.output_compat == "22.05" else res - 1
            end = (math.floor(end) + up) // res * res
        per = math.ceil(job.request_cpus / max(job.num_nodes, 1))
        for n in nodes:
            reserved.setdefault(n.name, []).append((start, end, per))

    def _earliest(
        self,
        job: Job,
        parts: tuple[str, ...],
        t: float,
        reserved: dict[str, list[Reservation]],
    ) -> tuple[float, list[_Node]]:
        """The earliest time the job's CPUs are free for its whole time limit on enough
        nodes, given the planned ends and the reservations, and those nodes (the first in
        config order that are free then).

        A node's free CPUs only rise at its own planned ends and reservation ends, so the
        earliest time one node can take the job is ``t`` or one of those: a one-node job
        asks each node for its own earliest time (no later than the best so far) instead
        of trying every node at every time of the cluster (benchmarks/bench_simulate.py
        backfill).
        """
        want = max(job.num_nodes, 1)
        per = math.ceil(job.request_cpus / want)
        length = job.time_limit if job.time_limit is not None else INF
        nodes = [n for n in self.nodes if not parts or not n.partitions.isdisjoint(parts)]
        if want == 1:
            best, found = INF, None
            for node in nodes:
                if node.cpus < per:
                    continue
                when = _node_earliest(node, per, t, length, reserved.get(node.name, ()), best)
                if when < best:
                    best, found = when, node
                    if when == t:
                        break
            return (best, [found]) if found is not None else (INF, [])
        times = {t}
        for node in self.nodes:
            times.update(end for end, _ in node.planned.values() if t < end < INF)
        for held in reserved.values():
            times.update(to for _, to, _ in held if t < to < INF)
        for when in sorted(times):
            chosen = [
                n
                for n in nodes
                if _free_during(n, when, when + length, reserved.get(n.name, ())) >= per
            ]
            if len(chosen) >= want:
                return when, chosen[:want]
        return INF, []

    # -- rows -----------------------------------------------------------------------

    def rows(self, t: float) -> list[SimRow]:
        """Per user association: fair-share factor, CPUs in use, pending jobs; then the
        cluster: CPUs in use, CPUs, pending jobs."""
        factors = self.series.factors(t)
        cpus: dict[str, int] = {}
        for run in self.running.values():
            cpus[run.name] = cpus.get(run.name, 0) + run.job.request_cpus
        waiting: dict[str, int] = {}
        for b in self.pending:
            user = b.job.owner.split("@", 1)[0]
            waiting[user] = waiting.get(user, 0) + b.count
        out = []
        for name, factor in sorted(factors.items()):
            user = name.split(" (", 1)[0]
            out.append(
                SimRow(
                    t, "slurm_user", name, float(cpus.get(user, 0)),
                    fairshare=factor, pending=waiting.get(user, 0),
                )
            )  # fmt: skip
        in_use = float(sum(n.used for n in self.nodes))
        pending = sum(b.count for b in self.pending)
        out.append(SimRow(t, "pool", "pool", in_use, pending=pending, capacity=self.capacity))
        return out


def _node_earliest(
    node: _Node,
    per: int,
    t: float,
    length: float,
    reserved: Sequence[Reservation],
    before: float,
) -> float:
    """The earliest time (``t``, a planned end or a reservation end, before ``before``)
    from which ``per`` CPUs of the node are free for ``length``; INF when none."""
    times = {t}
    times.update(end for end, _ in node.planned.values() if t < end < before)
    times.update(to for _, to, _ in reserved if t < to < before)
    for when in sorted(times):
        if when >= before:
            break
        if _free_during(node, when, when + length, reserved) >= per:
            return when
    return INF


def _free_during(node: _Node, lo: float, hi: float, reserved: Sequence[Reservation]) -> int:
    """The fewest CPUs free on the node at any moment of ``[lo, hi)`` (free CPUs only fall
    at a reservation's start)."""
    points = {lo} | {a for a, _, _ in reserved if lo < a < hi}
    worst = node.cpus
    for p in points:
        busy = sum(c for end, c in node.planned.values() if end > p)
        busy += sum(c for a, b, c in reserved if a <= p < b)
        worst = min(worst, node.cpus - busy)
    return worst
