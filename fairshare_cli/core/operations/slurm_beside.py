"""Slurm jobs a negotiation cycle left idle, started beside the work on a node's slots
(``fs negotiate``, and ``fs simulate``'s HTCondor cycles).

For Slurm a ``[[machines]]`` machine is a node of ``slots × Cpus`` CPUs, which runs jobs up
to its CPUs (``select/cons_tres`` with ``CR_CPU``; slurmctld's scheduler, main or backfill,
starts a pending job wherever the nodes of its partition have the CPUs free:
``_build_node_list`` ANDs the node sets with the partition's ``node_bitmap``, and a node's
idle CPUs are the ones its running jobs leave). HTCondor's negotiator, which ``fs
negotiate`` runs over the queue the schedulers share, gives a job a whole slot: on a
one-slot node of 2 CPUs, a 1-CPU Slurm job takes the slot and a second waits, where
slurmctld runs both.

After the cycle, the idle Slurm jobs it left unmatched (one sbatch queued:
:func:`sbatch_job`; but one its autocluster counted into a slot, ``depth_first``) are
tried in the order slurmctld's schedulers walk their queue: a record a job and partition
(and QOS), by the partition's ``priority_tier`` (highest first), then the job's priority
there as of the last decay pass (highest first), then its submit time, then its job id
(``build_job_queue``, ``sort_job_queue2``; 22.05 and today alike;
:func:`~fairshare_cli.core.operations.slurm_pending.job_records` makes the records, as
``fs simulate --scheduler slurm`` walks them). A record runs its job on the first node
(configuration order) of its partition whose slots are all held and whose CPUs hold it
beside the work there
(:meth:`~fairshare_cli.core.htcondor.node_placement.SlurmNodes.place_beside`), as running
work that comes in is placed; a job started by an earlier record is passed. A partition
whose limits hold the job back gives it no record, as slurmctld passes it. A node with a
free slot is left to the negotiator, which gives that slot out. The job holds no claim and
is charged nothing by HTCondor's accountant; its Slurm usage accrues from the cycle, as a
matched job's does. A job of several nodes is not placed so. Without ``[accounts]`` (no
priority to sort by) the jobs go in the cycle's order, each in its partitions highest
tier first, and so does a job with no association after the others. A record whose job
finds no node fails its partition for the rest of the walk, as slurmctld's main scheduler
(``_schedule`` in ``src/slurmctld/job_scheduler.c``, 22.05 and today alike) fails it on
``ESLURM_NODES_BUSY``: no lower record starts in that partition, nor on a node of it in
another (``avail_node_bitmap`` loses its nodes). Not modelled: backfill, which then starts
a lower job where it delays no higher one, and the main scheduler's exceptions to the
rule (``bf_min_age_reserve``, ``bf_min_prio_reserve``, a QOS's ``MinPrioThreshold``,
reservations, ``--nodelist``, a job held by an association or QOS limit, which fails its
partition only with ``assoc_limit_stop``).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace as dc_replace
from operator import itemgetter
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult
from fairshare_cli.core.htcondor.negotiator.results import Match, UnmatchedRun
from fairshare_cli.core.htcondor.node_placement import SlurmNodes
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.names import job_sort_key
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.operations.slurm_pending import Score, Scorer, job_records
from fairshare_cli.core.operations.slurm_series import SlurmSeries
from fairshare_cli.core.slurm.partition import NoDefaultPartition
from fairshare_cli.core.state import State
from fairshare_cli.errors import InputError

#: The ``reason`` of such a start in the cycle's matches (docs/json.md).
BESIDE = "slurm_beside"


def start_beside(
    config: Config,
    claims: Iterable[Claim],
    batches: Sequence[JobBatch],
    result: CycleResult,
    now: float,
    explain_job: str | None = None,
    score: Scorer | None = None,
) -> CycleResult:
    """``result`` with the idle Slurm jobs it left that run beside the work on a node's
    slots moved from its unmatched jobs to its matches (reason :data:`BESIDE`, the node's
    first slot, no charge); ``result`` itself when none does.

    Args:
        claims: the claims the cycle started from.
        batches: the queue the cycle read (its running jobs use their nodes' CPUs).
        explain_job: the job whose story the cycle told: a ``slurm_beside`` event ends
            it when it starts so.
        score: the jobs' records as of the last decay pass (:func:`queue_scorer`), which
            order them; None: the cycle's order.
    """
    if not may_start_beside(config, result):
        return result
    fit = NodeFit(config)
    held = {c.slot: c for c in claims}
    for m in result.matches:
        held[m.slot] = Claim(m.slot, m.submitter, m.job_id, now, m.weight, m.resources)
    matched = {m.job_id for m in result.matches}
    running = [(job, part) for job, part in _running(fit, batches, matched) if part is not None]
    nodes = SlurmNodes(config.machines, held, running)
    room = nodes.most_free_beside(held)
    segments = _segments(fit, result)
    if all(s.batch.job.request_cpus > room for s in segments):
        return result  # (none fits anywhere: nothing starts, and nothing need be scored)
    started: list[Match] = []
    failed = _FailedParts(nodes)
    for segment, parts in _order(fit, segments, score):
        _start(fit, nodes, held, segment, parts, started, failed)
    if not started:
        return result
    kept: list[UnmatchedRun] = []
    for k, run in enumerate(result.unmatched):
        left = [(b, first) for b, first in run.segments]
        for segment in segments:
            if segment.run == k:
                left[segment.index] = (segment.batch, segment.next)
        left = [(b, first) for b, first in left if first < b.count]
        if left:
            kept.append(UnmatchedRun(run.submitter, run.reason, left))
    story = result.explain
    beside = next((m for m in started if m.job_id == explain_job), None)
    if beside is not None:
        story = [*story, {"event": BESIDE, "slot": beside.slot}]
    return dc_replace(result, matches=[*result.matches, *started], unmatched=kept, explain=story)


def may_start_beside(config: Config, result: CycleResult) -> bool:
    """Whether ``result`` left an idle job sbatch queued (:func:`sbatch_job`) that may
    run beside the work on a node (a cheap test: :func:`start_beside` does the rest)."""
    if not config.machines:
        return False
    runs = (r for r in result.unmatched if r.reason != "depth_first")
    return any(sbatch_job(b.job) for r in runs for b, _ in r.segments)


def _running(
    fit: NodeFit, batches: Sequence[JobBatch], matched: set[str]
) -> Iterator[tuple[Job, str | None]]:
    """The queue's running jobs and the jobs the cycle matched, each with the partition it
    runs in (None: not Slurm's)."""
    for batch in batches:
        job = batch.job
        if job.status != "running" and (job.status != "idle" or not matched):
            continue
        for i in range(batch.count):
            job_id = batch.job_id(i)
            if job.status == "running" or job_id in matched:
                yield (job if batch.count == 1 else replace(job, id=job_id)), fit.runs_in(job)


class _Segment:
    """Idle jobs of a batch that a cycle left (``run``: its unmatched run, ``index``: the
    segment's place in it), that Slurm may start from ``next`` on in ``parts``."""

    __slots__ = ("batch", "index", "next", "parts", "run", "submitter")

    def __init__(
        self, run: int, index: int, submitter: str, segment: tuple[JobBatch, int],
        parts: tuple[str, ...],
    ) -> None:  # fmt: skip
        self.run, self.index, self.submitter = run, index, submitter
        self.batch, self.next = segment
        self.parts = parts


def _segments(fit: NodeFit, result: CycleResult) -> list[_Segment]:
    """The segments of ``result``'s unmatched runs whose jobs Slurm may start beside the
    work (one-node Slurm jobs not counted into a slot by their autocluster), in the
    cycle's order."""
    out: list[_Segment] = []
    for k, run in enumerate(result.unmatched):
        if run.reason == "depth_first":
            continue
        for n, segment in enumerate(run.segments):
            parts = _partitions(fit, segment[0].job)
            if parts is not None:
                out.append(_Segment(k, n, run.submitter, segment, parts))
    return out


def _order(
    fit: NodeFit, segments: list[_Segment], score: Scorer | None
) -> list[tuple[_Segment, tuple[str, ...]]]:
    """The segments with the partitions each is tried in, in slurmctld's queue order: one
    entry per record (partition and QOS) of a scored job, sorted by tier, priority, submit
    time, then job id and record order (``sort_job_queue2``); then the jobs with no
    record, in the cycle's order, in all their partitions. The jobs of a batch ask alike
    and their ids follow one another: they keep their places in one entry."""
    records = _records(score, [s.batch.job for s in segments]) if score is not None else {}
    keyed: list[tuple[tuple[Any, ...], _Segment, tuple[str, ...]]] = []
    rest: list[tuple[_Segment, tuple[str, ...]]] = []
    specs = fit.config.partitions
    for n, segment in enumerate(segments):
        job = segment.batch.job
        own = records.get(job.id)
        if not own:
            rest.append((segment, segment.parts))
            continue
        submitted = job.submit_time if job.submit_time is not None else math.inf
        first_id = job_sort_key(segment.batch.job_id(segment.next))
        for r, (tier, priority, part, _) in enumerate(own):
            key = (-tier, -priority, submitted, first_id, n, r)
            keyed.append((key, segment, (part if part in specs else "",)))
    keyed.sort(key=itemgetter(0))
    return [(segment, parts) for _, segment, parts in keyed] + rest


def _records(score: Scorer, jobs: list[Job]) -> dict[str, Score]:
    """``score`` of the jobs; a job it refuses (an association, partition or QOS the
    config lacks, in a jobs file) is left out (tried after the others)."""
    try:
        return score(jobs)
    except InputError:
        out: dict[str, Score] = {}
        for job in jobs:
            with contextlib.suppress(InputError):
                out.update(score([job]))
        return out


class _FailedParts:
    """The partitions where a record's job found no node this pass, and their machines,
    which no later record uses (``_schedule``'s ``fail_by_part`` on ``ESLURM_NODES_BUSY``:
    the partition is marked ``PART_FLAG_SCHED_FAILED`` and its nodes are taken out of
    ``avail_node_bitmap``; ``failed_parts`` in 22.05)."""

    __slots__ = ("machines", "nodes", "parts")

    def __init__(self, nodes: SlurmNodes) -> None:
        self.nodes = nodes
        self.parts: set[str] = set()
        self.machines: set[str] = set()

    def add(self, part: str) -> None:
        self.parts.add(part)
        self.machines.update(self.nodes.machines_of(part))


def _start(
    fit: NodeFit,
    nodes: SlurmNodes,
    held: dict[str, Claim],
    segment: _Segment,
    parts: tuple[str, ...],
    started: list[Match],
    failed: _FailedParts,
) -> None:
    """Start the jobs of ``segment`` from its ``next`` on that find a node in ``parts``,
    in order, appending them to ``started``. The jobs of a batch ask alike: once one finds
    no node, the rest find none."""
    batch = segment.batch
    submitter = segment.submitter
    for i in range(segment.next, batch.count):
        slot = _place(fit, nodes, held, batch.job, parts, failed)
        if slot is None:
            return
        started.append(Match(batch.job_id(i), submitter, slot, BESIDE, None, 0.0, None))
        segment.next = i + 1


def sbatch_job(job: Job) -> bool:
    """Whether ``job`` is one sbatch queued: it names an account, a partition or a QOS,
    and no HTCondor accounting group, nice user or DIRAC group. A job Slurm's views take as
    Slurm's only for its owner's association may be HTCondor's, whose negotiator gives it a
    whole slot."""
    named = job.account is not None or job.partition is not None or job.qos is not None
    return named and job.accounting_group is None and not job.nice_user and not job.dirac_group


def _partitions(fit: NodeFit, job: Job) -> tuple[str, ...] | None:
    """The partitions a one-node Slurm job may start in, in the order slurmctld tries
    them; None for a job that is not Slurm's, asks several nodes, or names no partition
    where none is the default."""
    if not sbatch_job(job) or (job.num_nodes or 1) > 1:
        return None
    try:
        parts = fit.parts(job) or ("",)
    except NoDefaultPartition:
        return None
    specs = fit.config.partitions
    return tuple(sorted(parts, key=lambda p: -specs[p].priority_tier if p in specs else 0))


def _place(
    fit: NodeFit,
    nodes: SlurmNodes,
    held: dict[str, Claim],
    job: Job,
    parts: tuple[str, ...],
    failed: _FailedParts,
) -> str | None:
    """The first slot of the node ``job`` runs beside the work on, in the first of
    ``parts`` that has one, is not ``failed`` and whose limits do not hold it back; None
    when none has. A partition tried in vain is failed: slurmctld's main scheduler tries
    no lower record there, nor on its nodes (a partition whose limits hold the job back
    is passed, failing nothing: ``job_limits_check``)."""
    for part in parts:
        if part in failed.parts or (part and fit.held(job, part) is not None):
            continue
        slot = nodes.place_beside(part, job.request_cpus, held, failed.machines)
        if slot is not None:
            return slot
        failed.add(part)
    return None


def queue_scorer(config: Config, state: State, now: float) -> Scorer | None:
    """The records of the state's pending jobs as of the last decay pass before ``now``
    (:func:`job_records`), with the priorities ``fs sprio`` shows: the state's Slurm usage
    with its queue's running jobs ended at their limits. None without ``[accounts]``."""
    if not config.accounts:
        return None
    return tree_scorer(config, lambda: _state_tree(config, state, now))


def series_scorer(config: Config, series: SlurmSeries | None, t: float) -> Scorer | None:
    """:func:`queue_scorer` for a simulation at ``t``: the tree of ``series`` (None: no
    ``[accounts]``, no scorer)."""
    return None if series is None else tree_scorer(config, lambda: series.tree(t))


def tree_scorer(config: Config, pass_tree: Callable[[], tuple[float, Any]]) -> Scorer:
    """Scores jobs (:func:`job_records`) by the tree ``pass_tree`` gives with the time of
    its decay pass, made when first asked (:func:`queue_scorer`, :func:`series_scorer`,
    and the tests' reference simulation); under ``priority/basic`` first in, first out
    (:class:`~fairshare_cli.core.slurm.basic_priority.BasicPriorities`)."""
    from fairshare_cli.core.slurm.basic_priority import BasicPriorities
    from fairshare_cli.core.slurm.model import priority_context

    fit = NodeFit(config)
    made: list[tuple[float, Any]] = []
    multi: dict[str, bool] = {}
    basic = config.priority.type == "basic"

    def score(jobs: list[Job]) -> dict[str, Score]:
        if not made:
            when, tree = pass_tree()
            made.append((when, priority_context(config, tree)))
        when, ctx = made[0]
        if basic:  # (first in, first out: the jobs by id, their dumps' priorities kept)
            fifo = BasicPriorities(jobs)
            jobs = [fifo.queued(job) for job in jobs]
        return job_records(jobs, ctx, when, fit.held, multi, basic=basic)

    return score


def _state_tree(config: Config, state: State, now: float) -> tuple[float, Any]:
    """The last decay pass before ``now`` and the association tree then.

    Raises:
        SectionError: a malformed ``slurm`` section; InputError: a malformed job.
    """
    from fairshare_cli.core.slurm.limit_ends import charged_ids, charged_queue, ended_at_limits
    from fairshare_cli.core.slurm.tree_usage import evaluate
    from fairshare_cli.core.slurm.usage import usage_from_json

    usage = usage_from_json(state.section("slurm"))
    queue = charged_queue(charged_ids(usage), state.section("jobs"), "state: jobs")
    return evaluate(config, ended_at_limits(usage, queue, config), now)
