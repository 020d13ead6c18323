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

After the cycle, each idle Slurm job it left unmatched (one sbatch queued:
:func:`sbatch_job`; but one its autocluster counted into a slot, ``depth_first``), in the
order the cycle left them, runs on the first node
(configuration order) of one of its partitions (highest ``priority_tier`` first, then as
named; one whose limits hold the job back is passed, as slurmctld passes it) whose slots
are all held and whose CPUs hold it beside the work there
(:meth:`~fairshare_cli.core.htcondor.node_placement.SlurmNodes.place_beside`), as running
work that comes in is placed. A node with a free slot is left to the negotiator, which
gives that slot out. The job holds no claim and is charged nothing by HTCondor's
accountant; its Slurm usage accrues from the cycle, as a matched job's does. A job of
several nodes is not placed so. Simplified: slurmctld's main scheduler walks the jobs by
priority and stops a partition's lower jobs at one that does not fit (backfill then starts
those that delay no higher one); here every job left is tried, in the cycle's order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace as dc_replace

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult
from fairshare_cli.core.htcondor.negotiator.results import Match, UnmatchedRun
from fairshare_cli.core.htcondor.node_placement import SlurmNodes
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.slurm.partition import NoDefaultPartition

#: The ``reason`` of such a start in the cycle's matches (docs/json.md).
BESIDE = "slurm_beside"


def start_beside(
    config: Config,
    claims: Sequence[Claim],
    batches: Sequence[JobBatch],
    result: CycleResult,
    now: float,
    explain_job: str | None = None,
) -> CycleResult:
    """``result`` with the idle Slurm jobs it left that run beside the work on a node's
    slots moved from its unmatched jobs to its matches (reason :data:`BESIDE`, the node's
    first slot, no charge); ``result`` itself when none does.

    Args:
        claims: the claims the cycle started from.
        batches: the queue the cycle read (its running jobs use their nodes' CPUs).
        explain_job: the job whose story the cycle told: a ``slurm_beside`` event ends
            it when it starts so.
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
    started: list[Match] = []
    kept: list[UnmatchedRun] = []
    for run in result.unmatched:
        if run.reason == "depth_first":
            kept.append(run)
            continue
        rests = (_start(fit, nodes, held, run, segment, started) for segment in run.segments)
        left = [rest for rest in rests if rest is not None]
        if left:
            kept.append(UnmatchedRun(run.submitter, run.reason, left))
    if not started:
        return result
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


def _start(
    fit: NodeFit,
    nodes: SlurmNodes,
    held: dict[str, Claim],
    run: UnmatchedRun,
    segment: tuple[JobBatch, int],
    started: list[Match],
) -> tuple[JobBatch, int] | None:
    """Start the jobs of one segment of ``run`` (a batch from its ``start``-th job) that
    find a node, in order, appending them to ``started``; the segment of the rest (None:
    every one started). The jobs of a batch ask alike: once one finds no node, the rest
    find none."""
    batch, first = segment
    parts = _partitions(fit, batch.job)
    if parts is None:
        return segment
    for i in range(first, batch.count):
        slot = _place(fit, nodes, held, batch.job, parts)
        if slot is None:
            return batch, i
        started.append(Match(batch.job_id(i), run.submitter, slot, BESIDE, None, 0.0, None))
    return None


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
    fit: NodeFit, nodes: SlurmNodes, held: dict[str, Claim], job: Job, parts: tuple[str, ...]
) -> str | None:
    """The first slot of the node ``job`` runs beside the work on, in the first of
    ``parts`` with one whose limits do not hold it back; None when none has."""
    for part in parts:
        if part and fit.held(job, part) is not None:
            continue
        slot = nodes.place_beside(part, job.request_cpus, held)
        if slot is not None:
            return slot
    return None
