"""One negotiation cycle, run and committed: the library call behind ``fs negotiate``.

``negotiate(config, state, now)`` reads the queue, the accountant and the claims from the
state, runs one cycle and returns the state with the cycle committed: matched jobs run on
their slots, claims change hands with the slot weight each was charged, the accountant
``AddMatch``es every match and ``RemoveMatch``es every preempted claim (by the weight that
claim was charged), and DIRAC's running-jobs history counts the jobs that started and
stopped. The command line, scripts and tests make the same calls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace

from msgspec.structs import replace

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    accounted_jobless,
    charged_weight,
    checked_claim,
    claim_weight,
    current_claims,
    displaced_holder,
    negotiator_from_json,
    negotiator_to_json,
    own_preemption,
    passed_on,
    slot_weigher,
    unchecked_matches,
)
from fairshare_cli.core.htcondor.cycle_accounting import MatchChange
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult, negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.partitionable import held_slot, pool_slots
from fairshare_cli.core.htcondor.pool import (
    check_jobs,
    group_tree,
    negotiator_knobs,
    priorities_at,
    submitter_of,
)
from fairshare_cli.core.jobs import Job, job_to_json, parse_jobs
from fairshare_cli.core.names import shown
from fairshare_cli.core.operations.partition_nodes import PartitionNodes, restrict_batches
from fairshare_cli.core.operations.slurm_beside import BESIDE, queue_scorer, start_beside
from fairshare_cli.core.state import State
from fairshare_cli.errors import InputError


@dataclass
class CycleInputs:
    """The queue and the state sections a negotiation reads."""

    jobs: list[Job]
    batches: list[JobBatch]
    jobs_source: str
    accountant: acct.AccountantState
    negotiator: NegotiatorState
    claims: list[Claim]
    state: State | None = None  # (its Slurm usage orders the jobs Slurm starts beside)


def read_inputs(
    config: Config,
    state: State,
    now: float,
    source: str,
    batches: Sequence[JobBatch] | None = None,
) -> CycleInputs:
    """The queue (``batches`` when given, else the state's ``jobs``), accountant and claims.

    Args:
        source: names the queue in messages (``state file …: jobs``, ``jobs file …``).

    Raises:
        InputError: a malformed job, or an accounting group without a configured parent.
        SectionError: a malformed state section.
    """
    if batches is None:
        raw = state.section("jobs")
        jobs = parse_jobs([] if raw is None else raw, source)
        batches = [JobBatch(j) for j in jobs]
    else:
        jobs = [b.job for b in batches]  # one per batch: enough for checks and claims
    check_jobs(jobs, config, source)
    accountant = acct.accountant_from_json(state.section("accountant"))
    negotiator = negotiator_from_json(state.section("negotiator"))
    claims = current_claims(negotiator, jobs, config, now, _grouped_status(batches, negotiator))
    return CycleInputs(jobs, list(batches), source, accountant, negotiator, claims, state)


def _grouped_status(batches: Sequence[JobBatch], negotiator: NegotiatorState) -> dict[str, str]:
    """The status of each job a claim names that an :class:`IdBatch` holds past its first."""
    wanted = {c.job_id for c in negotiator.claims.values()}
    status: dict[str, str] = {}
    for batch in batches if wanted else ():
        if type(batch) is IdBatch and batch.count > 1:
            status.update(dict.fromkeys(wanted.intersection(batch.ids), batch.job.status))
    return status


def checked_accountant(config: Config, inputs: CycleInputs, now: float) -> acct.AccountantState:
    """The accountant as the cycle at ``now`` finds it after ``UpdatePriorities`` and
    ``CheckMatches``: each customer's counts those of the claims it holds.

    The claims are the state's (those whose job ended included: the cycle's
    ``RemoveMatch`` takes them off) and those of running jobs that name a slot the state
    lacks. An accountant that already agrees is returned as it is (nothing brought up to
    ``now``); one that disagrees (a stale ``condor_userprio -l`` beside a fresh
    ``condor_status``) is updated to ``now`` with the stale usage, then corrected (see
    :func:`cycle_accounting.check_matches`).
    """
    held = dict(inputs.negotiator.claims)
    for c in inputs.claims:
        held.setdefault(c.slot, c)
    on_pool = in_pool(config)  # (CheckMatches: a claim on a slot gone from the pool ends)
    held = {slot: c for slot, c in held.items() if on_pool(slot)}
    weigh = slot_weigher(config)
    unchecked = unchecked_matches(held.values(), weigh)
    pairs = [(c.submitter, claim_weight(checked_claim(c), weigh)) for c in held.values()]
    # the counts are what an update leaves them: an agreeing accountant needs no update
    if (
        not unchecked
        and not inputs.negotiator.jobless
        and cycle_accounting.check_matches(inputs.accountant, config, pairs, now)
        is inputs.accountant
    ):
        return inputs.accountant
    updated = cycle_accounting.update_priorities(inputs.accountant, config, now)
    checked = {slot: checked_claim(c) for slot, c in held.items()}
    updated = released_jobless(updated, config, inputs.negotiator.jobless, checked, weigh, now)
    updated = cycle_accounting.check_partitionable_matches(updated, config, unchecked, now)
    return cycle_accounting.check_matches(updated, config, pairs, now)


def released_jobless(
    state: acct.AccountantState,
    config: Config,
    jobless: Sequence[Claim],
    claims: Mapping[str, Claim],
    weigh: Callable[[str, float], float],
    now: float,
) -> acct.AccountantState:
    """``CheckMatches`` at ``now`` (right after ``UpdatePriorities``) finds the slot of each
    of the last cycle's matches no job took unclaimed, or claimed by another: its record is
    ``RemoveMatch``ed, in the order they were made, with no uncharged time (the update
    charged each up to ``now``); a slot's holder in ``claims``, whom that match's
    ``AddMatch`` took off the accountant, is ``AddMatch``ed back at ``now`` (a slot claimed
    but unregistered) and, from then on, charged again."""
    if not jobless:
        return state
    changes: list[MatchChange] = [(c.submitter, c.weight or 0.0, c.start_time) for c in jobless]
    holders = (claims.get(c.slot) for c in jobless)
    changes += [(h.submitter, claim_weight(h, weigh), None) for h in holders if h is not None]
    return cycle_accounting.change_matches_at(state, config, changes, now)


def readded_holders(
    claims: Mapping[str, Claim], jobless: Sequence[Claim], now: float
) -> dict[str, Claim]:
    """The claims the last cycle's matches no job took displaced (each on a slot another
    submitter held), as the cycle at ``now`` puts them back: ``CheckMatches``' ``AddMatch``
    sets their resource records' ``StartTime`` to ``now`` (``accountant_start``), which
    ``condor_userprio -getreslist`` shows from then on."""
    out: dict[str, Claim] = {}
    for match in jobless:
        holder = displaced_holder(claims, match)
        if holder is not None:
            out[match.slot] = dc_replace(holder, accountant_start=now)
    return out


def _ended_claims(
    claims: dict[str, Claim], jobs: Sequence[Job], config: Config
) -> tuple[list[Claim], set[str]]:
    """CheckMatches: the claims that ended (their job in the queue but no longer running,
    or their slot gone from the pool), and the running jobs on a slot gone (idle again)."""
    status = {job.id: job.status for job in jobs}
    on_pool = in_pool(config)
    ended = [
        c
        for c in claims.values()
        if status.get(c.job_id, "running") != "running" or not on_pool(c.slot)
    ]
    gone = (j.id for j in jobs if j.status == "running" and j.slot and not on_pool(j.slot))
    return ended, set(gone)


def in_pool(config: Config) -> Callable[[str], bool]:
    """Whether a claim's slot is one of the pool's: configured, or a dynamic slot of a
    configured partitionable slot (``Accountant::CheckMatches`` removes the matches of a
    slot whose ad the collector no longer has: a machine taken out of the config)."""
    configured, partitionable, _ = pool_slots(config)
    return lambda slot: held_slot(slot, partitionable) in configured


def _idle_ids(idle: Sequence[JobBatch], most: int = 5, why: bool = True) -> str:
    """The idle jobs ``--explain`` takes, the first ``most`` named: ``idle jobs: 1.0, 1.1
    and 3 more``; ``it holds no idle job`` when there is none (and ``why``, when the
    message has not said it yet: only an idle job is negotiated for)."""
    total = sum(b.count for b in idle)
    if not total:
        return "it holds no idle job" + (" (only an idle job is negotiated for)" if why else "")
    ids = [b.job_id(i) for b in idle for i in range(min(b.count, most))][:most]
    more = f" and {total - len(ids)} more" if total > len(ids) else ""
    return f"idle job{'s' if total > 1 else ''}: {', '.join(map(shown, ids))}{more}"


def _refuse_explain(explain_job: str, inputs: CycleInputs, idle: list[JobBatch]) -> None:
    """Refuse an ``--explain`` id that is no idle job of the queue: what it is (a job
    not idle, or none), and the idle jobs there are; a bare cluster ``106`` whose job
    ``106.0`` is idle is told that id (a job id is HTCondor's ``CLUSTER.PROC``).

    Raises:
        InputError: always.
    """
    held = next((b.job.status for b in inputs.batches if b.holds(explain_job)), None)
    first = f"{explain_job}.0"
    if held is not None:
        what = (
            f"job {shown(explain_job)} is {held}, not idle, in {inputs.jobs_source} (only an "
            "idle job is negotiated for)"
        )
    elif "." not in explain_job and any(b.holds(first) for b in idle):
        what = (
            f"no idle job with that id in {inputs.jobs_source} (a job id is CLUSTER.PROC:"
            f" give {shown(first)} for the first job of cluster {shown(explain_job)})"
        )
    else:
        what = f"no idle job with that id in {inputs.jobs_source}"
    idle_ids = _idle_ids(idle, why=held is None)
    raise InputError(f"--explain {shown(explain_job)}: {what}; {idle_ids}")


def run_cycle(
    config: Config,
    inputs: CycleInputs,
    now: float,
    *,
    explain_job: str | None = None,
    progress: Callable[[float], None] | None = None,
) -> CycleResult:
    """One negotiation cycle over ``inputs`` at ``now`` (nothing committed).

    Raises:
        InputError: ``explain_job`` is not an idle job of the queue.
        ConfigError: bad groups or expressions in the config.
    """
    idle = [b for b in inputs.batches if b.job.status == "idle"]
    if explain_job is not None and not any(b.holds(explain_job) for b in idle):
        _refuse_explain(explain_job, inputs, idle)
    batches = restrict_batches(config, inputs.batches) if config.partitions else inputs.batches
    result = negotiate_cycle(
        config.machines,
        inputs.claims,
        batches,
        submitter_of(config),
        priorities_at(checked_accountant(config, inputs, now), config, now),
        group_tree(config),
        negotiator_knobs(config),
        now,
        explain_job=explain_job,
        rr_times=inputs.negotiator.rr_times,
        progress=progress,
        last_quotas=inputs.negotiator.group_quotas,
    )
    score = None if inputs.state is None else queue_scorer(config, inputs.state, now)
    return start_beside(config, inputs.claims, inputs.batches, result, now, explain_job, score)


def apply_matches(
    result: CycleResult,
    jobs: Sequence[Job],
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    config: Config,
    now: float,
) -> tuple[list[Job], acct.AccountantState, NegotiatorState]:
    """Apply a cycle's matches: jobs start, claims change hands, the accountant charges.

    The accountant is updated to ``now`` (``UpdatePriorities``, every record), the last
    cycle's partitionable-slot matches re-weighted and its counts made those of the claims
    (``CheckMatches``, see :func:`checked_accountant`); claims whose job is in the queue
    but no longer running are removed (charged up to now); each match is then
    ``AddMatch`` of its cost for its submitter (on a partitionable slot, the whole slot's
    ``SlotWeight`` or a consumption policy's cost, held until the next cycle's
    ``CheckMatches``: :func:`~fairshare_cli.core.htcondor.claims.match_claim`), and the
    new claim stores what it was charged; a preemption first ``RemoveMatch``es the slot's
    previous holder, whose job goes back to idle (see :mod:`cycle_accounting`). Every
    release gives back the weight the accountant holds for its claim. A match no job takes
    (``CycleResult.jobless``) is ``AddMatch``ed in its turn too, kept in the section until
    the next cycle ``RemoveMatch``es it (:func:`released_jobless`).

    Returns:
        The new job list, accountant state and negotiator section.
    """
    weigh = slot_weigher(config)
    unchecked = unchecked_matches(negotiator.claims.values(), weigh)
    # CheckMatches: the last cycle's partitionable-slot matches are held at their own weight
    claims = {slot: checked_claim(c) for slot, c in negotiator.claims.items()}
    ended, stranded = _ended_claims(claims, jobs, config)
    for c in ended:
        del claims[c.slot]
    claims.update(readded_holders(claims, negotiator.jobless, now))
    by_id = {m.job_id: m for m in result.matches}
    idle_again = {m.preempted_job for m in result.matches if m.preempted_job} | stranded
    new_jobs: list[Job] = []
    nodes = PartitionNodes(config)  # (a Slurm job of several partitions: the one it runs in
    for job in jobs:  # first, one of its node's)
        m = by_id.get(job.id)
        if m is not None and m.reason == BESIDE:  # (Slurm: on a node's CPUs, no claim)
            started = nodes.started(replace(job, status="running", start_time=now), m.slot)
            new_jobs.append(replace(started, slot=None))
        elif m is not None:
            started = replace(job, status="running", slot=m.slot, start_time=now)
            new_jobs.append(nodes.started(started, m.slot))
        elif job.id in idle_again and job.status == "running":
            new_jobs.append(replace(job, status="idle", slot=None, start_time=None))
        else:
            new_jobs.append(job)
    # the ended claims, seen now: charged up to now by the update
    changes: list[MatchChange] = [
        (c.submitter, claim_weight(c, weigh), c.start_time) for c in ended
    ]
    changes += _match_changes(result, claims, weigh, now)
    # UpdatePriorities at the cycle's time, then CheckMatches, then each match (and
    # preemption) at that time.
    state = cycle_accounting.update_priorities(accountant, config, now)
    checked = {slot: checked_claim(c) for slot, c in negotiator.claims.items()}
    state = released_jobless(state, config, negotiator.jobless, checked, weigh, now)
    state = cycle_accounting.check_partitionable_matches(state, config, unchecked, now)
    held = [
        (c.submitter, claim_weight(checked_claim(c), weigh)) for c in negotiator.claims.values()
    ]
    state = cycle_accounting.check_matches(state, config, held, now)
    if changes:
        state = cycle_accounting.change_matches_at(state, config, changes, now)
    rr = dict(negotiator.rr_times)
    rr.update({k: v for k, v in result.rr_times.items() if math.isfinite(v)})
    quotas = result.group_quotas or None  # (none without groups)
    seen = tuple(sorted({*negotiator.limits_seen, *result.limits_seen}))
    held_jobless = tuple(
        Claim(j.slot, j.submitter, "", now, j.weight, concurrency_limits=j.limits)
        for j in accounted_jobless(result.jobless, claims)
    )
    return new_jobs, state, NegotiatorState(claims, rr, now, quotas, seen, held_jobless)


def _match_changes(
    result: CycleResult,
    claims: dict[str, Claim],
    weigh: Callable[[str, float], float],
    now: float,
) -> list[MatchChange]:
    """The cycle's ``AddMatch``es in the order it made them (a preemption ``RemoveMatch``es
    the slot's holder first; a match no job takes is charged in its turn, and on a claimed
    slot it too ``RemoveMatch``es the holder, whose claim stays), each new claim put into
    ``claims`` with what it was charged."""
    changes: list[MatchChange] = []
    jobless: list[tuple[int, MatchChange]] = []
    for j in accounted_jobless(result.jobless, claims):
        holder = claims.get(j.slot)
        if holder is not None:
            jobless.append((j.after, (holder.submitter, claim_weight(holder, weigh), now)))
        jobless.append((j.after, (j.submitter, j.weight, None)))
    for i, m in enumerate(result.matches):
        changes += [change for after, change in jobless if after == i]
        if m.reason == BESIDE:
            continue
        old = claims.get(m.slot)
        claims[m.slot] = passed_on(old, m, now)
        if old is not None and m.preempted_job:
            if own_preemption(old, m):  # (nothing charged or released)
                continue
            changes.append((old.submitter, claim_weight(old, weigh), now))
        changes.append((m.submitter, charged_weight(claims[m.slot], weigh), None))
    changes += [change for after, change in jobless if after >= len(result.matches)]
    return changes


def _dirac_changes(
    result: CycleResult, jobs: Sequence[Job]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The (DIRAC group, owner) of every job the cycle started, and of every job it stopped."""
    by_id = {j.id: j for j in jobs}

    def entity(job_id: str | None) -> tuple[str, str] | None:
        job = by_id.get(job_id) if job_id else None
        return (job.dirac_group, job.owner) if job and job.dirac_group else None

    started = [e for m in result.matches if (e := entity(m.job_id))]
    stopped = [e for m in result.matches if (e := entity(m.preempted_job))]
    return started, stopped


def _slurm_changes(
    config: Config,
    state: State,
    before: Sequence[Job],
    after: Sequence[Job],
    result: CycleResult,
    now: float,
) -> State:
    """Slurm's usage: the jobs the cycle started accrue from ``now``, as running work
    ``fs submit`` queues does, and the running jobs it sent back to idle (preempted, or on
    a slot the config no longer has) stop, as ``fs rm`` stops them. ``fs simulate``
    charges its cycles' work the same way.

    Raises:
        SectionError: a malformed ``slurm`` section.
    """
    from fairshare_cli.core.operations.queue import slurm_charges

    if not config.accounts:
        return state
    matched = {m.job_id for m in result.matches}
    still = {j.id for j in after if j.status == "running"}
    stopped = [j for j in before if j.status == "running" and j.id not in still]
    state = slurm_charges(config, state, stopped, now, stop=True)
    started = [j for j in after if j.id in matched]
    return slurm_charges(config, state, started, now, stop=False, queue=after)


def commit(
    config: Config, state: State, inputs: CycleInputs, result: CycleResult, now: float
) -> State:
    """The state with ``result`` committed (jobs, accountant, claims, DIRAC history).

    Raises:
        SectionError: the ``dirac`` section is malformed.
    """
    jobs, accountant, negotiator = apply_matches(
        result, inputs.jobs, inputs.accountant, inputs.negotiator, config, now
    )
    state = (
        state.with_section("jobs", [job_to_json(j) for j in jobs])
        .with_section("accountant", acct.accountant_to_json(accountant))
        .with_section("negotiator", negotiator_to_json(negotiator))
    )
    state = _slurm_changes(config, state, inputs.jobs, jobs, result, now)
    # DIRAC's running-jobs history (share correction) counts the jobs that started.
    started, stopped = _dirac_changes(result, inputs.jobs)
    if started or stopped:
        from fairshare_cli.core.dirac.correction import record_cycle

        state = state.with_section(
            "dirac", record_cycle(state.section("dirac"), started, stopped, now)
        )
    return state


def negotiate(
    config: Config,
    state: State,
    now: float,
    *,
    source: str = "state: jobs",
    explain_job: str | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[State, CycleResult]:
    """Run one cycle over the state's queue at ``now`` and commit it.

    Returns:
        The new state and what the cycle did.

    Raises:
        FairshareError: bad jobs or config; SectionError: a malformed state section.
    """
    inputs = read_inputs(config, state, now, source)
    result = run_cycle(config, inputs, now, explain_job=explain_job, progress=progress)
    return commit(config, state, inputs, result, now), result
