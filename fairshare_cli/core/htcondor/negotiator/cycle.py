"""One HTCondor negotiation cycle (``Matchmaker::negotiationTime``), from inputs to result.

The parts: :mod:`.snapshot` takes the cycle's frozen inputs (slots and slot classes,
autoclusters, compiled expressions), :mod:`.preemption` reads what claimed slots allow,
:mod:`.candidates` and :mod:`.matchmaking` find slots for jobs, :mod:`.pie` spins the pie
over the changing :mod:`.state` (after a floor round for the submitters below their
floor), group by group when group quotas are configured (the
quotas of :mod:`fairshare_cli.core.htcondor.quotas` decide how many slots each group
negotiates for), and :mod:`.explain` records one job's story.

Ties: the groups go as GCC's ``std::sort`` leaves them (HTCondor sorts a breadth-first list
whose order is fixed: :func:`fairshare_cli.core.htcondor.quotas.negotiation_order`), and so
do the submitters (:func:`.pie.sort_submitters`), from the queue's order of them
(:func:`.queue.arrival_order`) where HTCondor's is the collector's; slots in configuration
order (stanza, machine, slot id).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import ROOT, GroupNode, GroupTree
from fairshare_cli.core.htcondor.negotiator.candidates import Candidates
from fairshare_cli.core.htcondor.negotiator.common import INT_MAX
from fairshare_cli.core.htcondor.negotiator.depth_first import LEFT_TO_SCHEDD
from fairshare_cli.core.htcondor.negotiator.explain import Explainer
from fairshare_cli.core.htcondor.negotiator.frozen_pool import FrozenPool
from fairshare_cli.core.htcondor.negotiator.job_constraint import JOB_CONSTRAINT
from fairshare_cli.core.htcondor.negotiator.matchmaking import Matchmaker
from fairshare_cli.core.htcondor.negotiator.pie import Pie
from fairshare_cli.core.htcondor.negotiator.preemption import analyse_claimed
from fairshare_cli.core.htcondor.negotiator.queue import Submitter
from fairshare_cli.core.htcondor.negotiator.results import (
    Claim,
    CycleResult,
    NegotiatorKnobs,
    SubmitterPrio,
    SubmitterSummary,
    UnmatchedRun,
)
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.negotiator.runs import Run, RunList
from fairshare_cli.core.htcondor.negotiator.snapshot import CycleInputs, Snapshot
from fairshare_cli.core.htcondor.negotiator.state import CycleState
from fairshare_cli.core.htcondor.negotiator.submitter_constraint import SUBMITTER_CONSTRAINT
from fairshare_cli.core.htcondor.quotas import (
    group_sort_value,
    negotiate_groups,
    prepare_groups,
    updated_rr_times,
)
from fairshare_cli.core.jobs import Job


def negotiate_cycle(  # noqa: PLR0913  the public entry point: every input is an argument
    machines: Sequence[MachineSpec],
    claims: Iterable[Claim],
    jobs: Iterable[Job | JobBatch],
    submitter_of: Callable[[Job], str],
    priorities: Callable[[str], SubmitterPrio],
    tree: GroupTree | None,
    knobs: NegotiatorKnobs,
    now: float,
    *,
    explain_job: str | None = None,
    rr_times: Mapping[str, float] | None = None,
    progress: Callable[[float], None] | None = None,
    reference: bool = False,
    frozen: FrozenPool | None = None,
    running: RunningJobs | None = None,
    last_quotas: Mapping[str, float] | None = None,
) -> CycleResult:
    """Run one negotiation cycle and return its matches, summaries and unmatched jobs.

    Args:
        machines: the ``[[machines]]`` stanzas (expanded to slots here).
        claims: slots currently held by running jobs.
        jobs: the queue (jobs or batches of identical jobs); idle jobs negotiate, running
            jobs count as demand.
        submitter_of: the accountant's submitter name of a job (``owner@domain``,
            ``group.owner@domain``, ``nice-user.owner@domain``).
        priorities: the accountant's view of a submitter at ``now``.
        tree: the group tree, or None without groups.
        knobs: negotiator settings.
        now: the cycle time (epoch seconds).
        explain_job: a job id whose story is recorded in ``CycleResult.explain``.
        rr_times: persisted group round-robin times.
        progress: called with the fraction of slots matched, now and then.
        reference: search claimed slots the plain way (every class alone, every candidate's
            ``PREEMPTION_REQUIREMENTS`` evaluated, no pruning), for tests of the fast path.
        frozen: the pool's slots built once for many cycles (``fs simulate``), reused
            here with this cycle's claims; None builds them.
        running: the running jobs, kept from cycle to cycle by the caller (``fs
            simulate``); ``jobs`` then holds the idle ones. None: the running jobs of
            ``jobs``.
        last_quotas: the last cycle's group quotas (claimed slots' ``RemoteGroupQuota``).

    Raises:
        ConfigError: a machine or negotiator expression does not parse.
        InputError: a job expression does not parse.
    """
    inputs = CycleInputs(machines, claims, jobs, submitter_of, priorities, tree, knobs, now)
    inputs = replace(inputs, frozen=frozen, running=running, last_quotas=last_quotas)
    snap = Snapshot(inputs, reference)
    plan = analyse_claimed(snap)
    state = CycleState(snap)
    subs = snap.submitters
    explainer = Explainer(explain_job)
    explainer.find_submitter(subs.values())
    pie = Pie(snap, state, Matchmaker(snap, plan, Candidates(snap), state), explainer, progress)
    rr: dict[str, float] = {}
    group_limits: dict[str, int | None] = {}
    if snap.tree is None:
        arrived = [subs[name] for name in snap.arrival]
        pie.floor_round(list(arrived), INT_MAX, None)
        pie.negotiate_with_group(arrived, INT_MAX, None)
    else:
        rr, group_limits = _negotiate_groups(snap.tree, pie, subs, rr_times or {})
    return CycleResult(
        matches=state.matches,
        submitters=sorted((s.summary for s in subs.values()), key=_by_priority),
        unmatched=_unmatched(subs.values(), state, explainer, snap.unoffered),
        explain=explainer.events,
        pool_size=snap.quota_pool,
        spins=state.spins,
        evaluations=snap.ev.evaluations,
        rr_times=rr,
        group_limits=group_limits,
        demand=snap.demand,
        group_quotas=dict(state.group_quota),
        notes=state.notes.lines(),
        limits_seen=tuple(sorted(state.limits.counts)),
        jobless=state.jobless,
    )


def _by_priority(summary: SubmitterSummary) -> tuple[float, str]:
    """The order of the summaries: by effective priority, then by name."""
    return summary.effective_priority, summary.name


def _negotiate_groups(
    tree: GroupTree, pie: Pie, subs: dict[str, Submitter], rr_times: Mapping[str, float]
) -> tuple[dict[str, float], dict[str, int | None]]:
    """Each group's pie spins, in the order and with the limits group quotas give
    (``negotiationTime``'s group loop). Returns the new round-robin times and each
    group's first limit."""
    snap, state = pie.snap, pie.state
    members: dict[str, list[str]] = {}
    demand: dict[str, float] = {}
    for sub in subs.values():
        if sub.stop_reason == SUBMITTER_CONSTRAINT:
            continue  # (its ad was not sent: no demand)
        g = sub.group or ROOT
        demand[g] = demand.get(g, 0.0) + snap.demand.get(sub.name, 0.0)
    for name in snap.arrival:  # each group's list in the order the submitters arrived
        members.setdefault(subs[name].group or ROOT, []).append(name)
    quota_pool = snap.quota_pool
    usage = state.group_usage
    quotas = snap.knobs.quotas
    prepare_groups(
        tree, quota_pool, demand, members, lambda name: usage.get(name, 0.0), quotas, rr_times
    )
    for node in tree.groups:
        state.group_quota[node.name] = node.quota
    if tree.autoregroup:  # the root negotiates for the whole pool
        state.group_quota[ROOT] = quota_pool
    group_subs = {g.name: [subs[n] for n in g.submitters] for g in tree.groups}
    explained = pie.explainer.submitter

    def negotiate(group: GroupNode, limit: int) -> None:
        if explained is not None and explained in group_subs[group.name]:
            pie.explainer.note("group", group=group.name, limit=limit, quota=group.quota)
        members = group_subs[group.name]
        pie.floor_round(members, float(limit), group.name)
        pie.negotiate_with_group(members, float(limit), group.name)
        # the submitters done are gone from the group's list, as from its submitterAds:
        # a group left with none is skipped in later passes and rounds ("no submitters")
        group.submitters = [s.name for s in members]

    negotiate_groups(
        tree,
        quota_pool,
        quotas,
        lambda name: usage.get(name, 0.0),
        negotiate,
        group_sort_value,
    )
    group_limits = {g.name: g.first_limit for g in tree.groups}
    for sub in subs.values():  # never negotiated: its group had nothing allocated
        if sub.stop_reason is None and not group_limits.get(sub.group or ROOT):
            sub.stop_reason = "group_quota"
    return updated_rr_times(tree, snap.now), group_limits


def _unmatched(
    subs: Iterable[Submitter],
    state: CycleState,
    explainer: Explainer,
    unoffered: frozenset[int] = frozenset(),
) -> list[UnmatchedRun]:
    """The idle jobs left, by submitter and reason, in queue order; each submitter's runs
    are dropped once read (the cycle is over: a million-job queue's memory). Those a
    depth-first match left to the schedd come first, with their reason; those of the
    ``unoffered`` autoclusters have :data:`.JOB_CONSTRAINT`'s."""
    default = "pool_exhausted" if state.available <= 0 else "not_reached"
    unmatched: list[UnmatchedRun] = []
    left: dict[str, list[tuple[JobBatch, int]]] = {}
    for name, batch in state.left_to_schedd:
        if state.rematched and any(i in state.rematched for i in batch.ids):
            ids = [i for i in batch.ids if i not in state.rematched]  # (re-offers took them)
            if not ids:
                continue
            batch = IdBatch(job=batch.job, count=len(ids), ids=ids)
        left.setdefault(name, []).append((batch, 0))
        if explainer.job_id is not None and batch.holds(explainer.job_id):
            explainer.note("unmatched", reason=LEFT_TO_SCHEDD)
    for sub in subs:
        if sub.name in left:
            unmatched.append(UnmatchedRun(sub.name, LEFT_TO_SCHEDD, left.pop(sub.name)))
        runs, sub.runs = _left_runs(sub.runs, unoffered), []
        for run in runs:
            if not run.left:
                continue
            reason = run.reason or sub.stop_reason or default
            if unoffered and run.ac.index in unoffered and reason != SUBMITTER_CONSTRAINT:
                reason = JOB_CONSTRAINT
            if explainer.job_id is not None and run.holds(explainer.job_id):
                explainer.note("unmatched", reason=reason)
            segments = run.segments()
            last = unmatched[-1] if unmatched else None
            if last is not None and last.submitter == sub.name and last.reason == reason:
                last.segments.extend(segments)
            else:
                unmatched.append(UnmatchedRun(sub.name, reason, segments))
    return unmatched


def _left_runs(runs: list[Run], unoffered: frozenset[int]) -> list[Run]:
    """A submitter's runs as :func:`_unmatched` reads them: those no turn reached as one
    run, or, with ``unoffered`` autoclusters, every run made (each has its own reason)."""
    if not isinstance(runs, RunList):
        return runs
    if unoffered:
        return list(runs)
    rest = runs.rest()
    return list.copy(runs) if rest is None else [*list.__iter__(runs), rest]
