"""What a command charged, as usage history: the claims it opened and the claims it closed.

Every command that charges the accountant does so through slot claims: ``fs negotiate``
opens one per match (``AddMatch``) and closes the preempted ones and those whose job
stopped running (``RemoveMatch``), ``fs rm`` closes the claims of the running jobs it
removes, ``fs submit`` of running work and ``fs import condor-q``/``condor-status`` open
and close claims. So the usage a command adds to the history is the difference between
the claims before and after it: a claim that appears is work that starts being charged
now (a record with no end), a claim that disappears is work that stops now (an end for
that record). Replaying those records (``fs whatif``) charges what the command charged.

A match on a partitionable slot is charged the whole slot's ``SlotWeight`` (or a
consumption policy's cost) until the next cycle's ``CheckMatches`` holds it at its dynamic
slot's own weight (``Accountant::AddMatch``, the claim's ``match_cost``). Its history says
so: from the match to that cycle a record of its own, whose ``charged_cpus`` are the CPUs
that charge was weighed on (the slot's free CPUs), then the dynamic slot's record. Slurm
and DIRAC read both records' ``cpus``: the CPUs carved, all along.

A match no job takes (``NEGOTIATOR_DEPTH_FIRST``'s re-offer, the section's
``jobless_matches``) is charged by HTCondor's accountant from the cycle that made it to
the next: a record of its own for that interval, of no CPUs (no work ran: Slurm and DIRAC
charge nothing) whose ``charged_cpus`` weigh it as the accountant charged it. On a slot
another submitter holds, ``AddMatch`` first ``RemoveMatch``es the holder, whom the next
cycle's ``CheckMatches`` ``AddMatch``es back: the holder's job runs on all along (its
record stays open for Slurm and DIRAC), but the accountant does not charge the holder for
that slot meanwhile. The history says so with a record of -1 slot of no CPUs for the
holder over that interval (ended too when the holder's claim ends first), weighed as the
accountant weighed the holder's claim.

Claims of usage-history records (``history:`` job ids) start with no record: ``fs import
history`` writes those records itself (the rows carry no claim key). When such a claim
ends (preempted, its slot gone), the accountant ``RemoveMatch``es it while the record it
holds a slot of runs on in the store: the history says so with a record of -1 slot of no
CPUs for its submitter from ``now``, weighed as the claim was charged, as for a displaced
holder. Slurm's usage and DIRAC's running-jobs history do not stop that work when its
claim ends, and the record (no CPUs, no DIRAC group) leaves them so too. An import leaves
the history claims it drops (``--rebuild``) unrecorded: its own records are the history;
the slots of a running record it finds no slot for, whose charge the accountant stops
then, it records so too (:func:`unheld_records`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor.claims import (
    claim_weight,
    displaced_holder,
    negotiator_from_json,
    slot_weigher,
)
from fairshare_cli.core.htcondor.customer_record import as_stored
from fairshare_cli.core.htcondor.negotiator import Claim, expand_slots
from fairshare_cli.core.htcondor.placement import HISTORY_PREFIX, Running
from fairshare_cli.core.htcondor.replay import record_weigher
from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.core.slurm.billing import job_tres
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import UsageRecord


@dataclass(frozen=True)
class ClaimUsage:
    """What one command adds to the usage history.

    Attributes:
        started: records of work charged from now on, each with the key of its claim.
        ended: ``(claim key, now)`` for every claim released.
    """

    started: tuple[tuple[UsageRecord, str], ...] = ()
    ended: tuple[tuple[str, float], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.started or self.ended)


def claim_key(claim: Claim) -> str:
    """The store's key for one claim: its job, slot and start (unique over the pool's life)."""
    return f"{claim.job_id} {claim.slot} {claim.start_time!r}"


#: The end of the store's key of a claim's record while the claim is held at its
#: ``match_cost`` (until the next cycle re-weights it).
MATCH_COST_KEY = " match_cost"
#: The end of the store's key of a match no job takes (until the next cycle ends it).
JOBLESS_KEY = " jobless"
#: The end of the store's key of the charge a match no job takes took off its slot's
#: holder (after the match's own key).
DISPLACED_KEY = " displaced"
#: The end of the store's key of the charge a usage-history record's claim stopped
#: taking when it ended (after the claim's own key).
HISTORY_END_KEY = " history_end"


def open_key(claim: Claim) -> str:
    """The store's key of the record ``claim`` holds open: its match-cost record while it
    is held at its ``match_cost``, else its own (:func:`claim_key`)."""
    key = claim_key(claim)
    return key + MATCH_COST_KEY if claim.match_cost is not None else key


def claim_usage(
    config: Config, before: State, after: State, now: float, history_ends: bool = True
) -> ClaimUsage:
    """The claims ``after`` has that ``before`` lacks (started) and the reverse (ended);
    a claim held at its ``match_cost`` in ``before`` and at its own weight in ``after``
    (the cycle's ``CheckMatches`` re-weighted it) ends its match-cost record and starts
    its own.

    A started claim becomes a record from ``now`` (the accountant charges it from the
    command's time, ``AddMatch`` at ``now``) of one slot of the slot's ``Cpus`` (a dynamic
    slot's: the CPUs carved for it), so that a ``Cpus`` slot weight replays to the weight
    charged; its owner, groups, account, partition and QOS are its job's, and so is its
    TRES (the job's CPUs, memory, nodes and GRES: what a Slurm partition's
    ``billing_weights`` bill, :func:`~.slurm.billing.job_tres`). A claim whose job is not
    in the queue is charged to its submitter's name as the owner.

    A claim of a usage-history record that ends (unless not ``history_ends``: an import,
    whose records are the history) becomes a record of -1 slot from ``now``
    (:func:`_displaced_record`): the accountant's ``RemoveMatch``.

    Raises:
        SectionError: a malformed ``negotiator`` or ``jobs`` section.
    """
    old, old_jobless, old_displaced, old_history = _claims(before)
    new, new_jobless, new_displaced, new_history = _claims(after)
    history_ended = [k for k in old_history if k not in new_history] if history_ends else []
    if (
        old.keys() == new.keys()
        and old_jobless.keys() == new_jobless.keys()
        and old_displaced.keys() == new_displaced.keys()
        and not history_ended
    ):
        return ClaimUsage()
    jobs = _jobs_by_id(after, before, {c.job_id for k, c in new.items() if k not in old})
    cpus_of = _slot_cpus(config)
    charged = _charged_cpus(config)
    started = tuple(
        (_record(c, jobs.get(c.job_id), cpus_of, now, charged), k)
        for k, c in new.items()
        if k not in old
    )
    started += tuple(
        (_jobless_record(c, cpus_of, now, charged), k)
        for k, c in new_jobless.items()
        if k not in old_jobless
    )
    gone = [(k, c) for k, c in new_displaced.items() if k not in old_displaced]
    gone += [(k + HISTORY_END_KEY, old_history[k]) for k in history_ended]
    if gone:  # (the accountant's RemoveMatch of a claim whose work runs on in its record)
        weigh = slot_weigher(config)
        started += tuple(
            (_displaced_record(c, claim_weight(c, weigh), cpus_of, now, charged), k)
            for k, c in gone
        )
    ended = tuple((k, now) for k in old if k not in new)
    ended += tuple((k, now) for k in old_jobless if k not in new_jobless)
    ended += tuple((k, now) for k in old_displaced if k not in new_displaced)
    return ClaimUsage(started, ended)


_Claims = dict[str, Claim]


def _claims(state: State) -> tuple[_Claims, _Claims, _Claims, _Claims]:
    """The claims of ``state`` by the key of the record each holds open (:func:`open_key`),
    its matches no job takes by theirs (:func:`jobless_key`), the claims such a match
    displaced (on a slot another submitter holds) by the key of the charge it took off
    (the match's, then :data:`DISPLACED_KEY`), and the claims of usage-history records by
    their own keys (:func:`claim_key`)."""
    negotiator = negotiator_from_json(state.section("negotiator"))
    claims: _Claims = {}
    history: _Claims = {}
    for c in negotiator.claims.values():
        if c.job_id.startswith(HISTORY_PREFIX):
            history[claim_key(c)] = c
        else:
            claims[open_key(c)] = c
    jobless = {jobless_key(i, c): c for i, c in enumerate(negotiator.jobless)}
    displaced: dict[str, Claim] = {}
    for key, match in jobless.items():
        holder = displaced_holder(negotiator.claims, match)
        if holder is not None:
            displaced[key + DISPLACED_KEY] = holder
    return claims, jobless, displaced, history


def reopened_claims(
    config: Config, state: State, now: float
) -> tuple[tuple[UsageRecord, str], ...]:
    """What an import that forgets the usage history (``--rebuild``) writes for the claims
    the state holds that no record of its file opened (a cycle's, running work ``fs
    submit`` or an import of the queue put on a slot): the accountant the import rebuilt
    charges them from ``now`` on, so each is a record from ``now`` under its claim's key
    (a later cycle ends it) of no CPUs, weighed as the claim (Slurm's and DIRAC's usage,
    rebuilt from the file alone, charge none of it, as the state's do not). The last
    cycle's matches no job takes are left to the next cycle, as the rebuilt accountant
    leaves them."""
    empty = state.with_section("negotiator", {})
    started = claim_usage(config, empty, state, now, history_ends=False).started
    return tuple(
        (r._replace(cpus=0, charged_cpus=r.charged_cpus or r.cpus), key)
        for r, key in started
        if not key.endswith((JOBLESS_KEY, DISPLACED_KEY))  # (the next cycle's to make)
    )


def unheld_records(unplaced: Iterable[Running], now: float) -> tuple[UsageRecord, ...]:
    """What an import adds to the history for running record pieces that found no slot,
    whose charge the accountant stopped at ``now`` (``uncharge_unplaced``): -slots of its
    submitter from ``now``, of no CPUs (Slurm and DIRAC charge the record on), each slot
    weighed by its record's CPUs (the weight the replay charged it)."""
    return tuple(
        UsageRecord(owner=w.submitter, start=now, slots=-w.slots, cpus=0, charged_cpus=w.cpus)
        for w in unplaced
    )


def jobless_key(index: int, match: Claim) -> str:
    """The store's key of the ``index``-th match no job takes that a cycle made (several
    may name one partitionable slot): its place, slot and time, then :data:`JOBLESS_KEY`."""
    return f"{index} {match.slot} {match.start_time!r}{JOBLESS_KEY}"


def _jobless_record(
    match: Claim,
    cpus_of: Callable[[str], int | None],
    now: float,
    charged_cpus: Callable[[float], int | None],
) -> UsageRecord:
    """The record of a match no job takes: its submitter's (the submitter name read as an
    owner names that submitter again), from ``now``, of no CPUs (no work ran), charged the
    CPUs whose slot weight is the weight ``AddMatch`` charged (else the slot's own)."""
    charged = charged_cpus(match.weight) if match.weight is not None else None
    if charged is None:
        charged = cpus_of(match.slot) or 1
    return UsageRecord(owner=match.submitter, start=now, cpus=0, charged_cpus=charged)


def _displaced_record(
    holder: Claim,
    weight: float,
    cpus_of: Callable[[str], int | None],
    now: float,
    charged_cpus: Callable[[float], int | None],
) -> UsageRecord:
    """The charge a match no job takes took off its slot's holder (``RemoveMatch`` of the
    ``weight`` the accountant holds for the claim): -1 slot of the holder's submitter
    (read as an owner, it names that submitter again), from ``now``, of no CPUs (the
    holder's job runs on: Slurm and DIRAC charge its own record), charged the CPUs whose
    slot weight is ``weight`` (else the CPUs its slot holds)."""
    charged = charged_cpus(weight)
    if charged is None:
        carved = dict(holder.resources).get("Cpus")
        charged = int(carved) if carved else (cpus_of(holder.slot) or 1)
    return UsageRecord(owner=holder.submitter, start=now, slots=-1, cpus=0, charged_cpus=charged)


def _jobs_by_id(after: State, before: State, wanted: set[str]) -> dict[str, Job]:
    """The jobs named in ``wanted`` (from ``after``'s queue, else ``before``'s)."""
    found: dict[str, Job] = {}
    for state in (after, before):
        raw = state.section("jobs")
        if not raw or not wanted - found.keys():
            continue
        for job in parse_jobs([o for o in raw if o.get("id") in wanted], "state: jobs"):
            found.setdefault(job.id, job)
    return found


def _slot_cpus(config: Config) -> Callable[[str], int | None]:
    """The ``Cpus`` of the configured slot named (None: not configured or no count)."""
    index: dict[str, int | None] = {}

    def cpus(slot: str) -> int | None:
        if not index:
            for stanza, machine, slot_id in expand_slots(config.machines):
                cpus = config.machines[stanza].attribute("Cpus")
                index[f"slot{slot_id}@{machine}".lower()] = (
                    cpus if type(cpus) is int and cpus > 0 else None
                )
        return index.get(slot.lower())

    return cpus


def _charged_cpus(config: Config) -> Callable[[float], int | None]:
    """The CPUs a history record's slot must have for the accountant's replay to weigh it
    ``cost`` (:func:`~.htcondor.replay.record_weigher`: ``slot_weight`` over ``Cpus``
    alone): for a partitionable slot's whole-slot charge, the CPUs it had free at the
    match. The largest count from 1 to the pool's largest ``Cpus`` (at most
    :data:`MOST_CPUS_TRIED`) whose weight the accountant stores as it stores ``cost``;
    None when none does (a ``slot_weight`` over more than ``Cpus``, slot weights off with
    a consumption policy's cost): the record is then charged its own CPUs."""
    weigh = record_weigher(config)
    found: dict[float, int | None] = {}
    most = 1
    for spec in config.machines:
        cpus = spec.attribute("Cpus")
        if type(cpus) is int and cpus > most:
            most = min(cpus, MOST_CPUS_TRIED)

    def charged(cost: float) -> int | None:
        if cost not in found:
            want = as_stored(cost)
            whole = int(cost) if cost.is_integer() and 1 <= cost <= MOST_CPUS_TRIED else None
            tried = ([whole] if whole is not None else []) + list(range(most, 0, -1))
            found[cost] = next((c for c in tried if as_stored(weigh(c)) == want), None)
        return found[cost]

    return charged


#: The most CPUs :func:`_charged_cpus` tries.
MOST_CPUS_TRIED = 4096


def _record(
    claim: Claim,
    job: Job | None,
    cpus_of: Callable[[str], int | None],
    now: float,
    charged_cpus: Callable[[float], int | None],
) -> UsageRecord:
    carved = dict(claim.resources).get("Cpus")  # a dynamic slot: the CPUs carved for it
    cpus = (
        int(carved)
        if carved
        else (cpus_of(claim.slot) or (job.request_cpus if job is not None else 1))
    )
    # (held at its match cost until the next cycle: the whole slot's SlotWeight)
    charged = None if claim.match_cost is None else charged_cpus(claim.match_cost)
    if job is None:
        return UsageRecord(
            owner=claim.submitter, start=now, cpus=max(int(cpus), 1), charged_cpus=charged
        )
    return UsageRecord(
        owner=job.owner,
        start=now,
        accounting_group=job.accounting_group,
        nice_user=job.nice_user,
        account=job.account,
        partition=job.partition,
        qos=job.qos,
        dirac_group=job.dirac_group,
        cpus=max(int(cpus), 1),
        tres=job_tres(job),  # (what a partition's TRESBillingWeights bill of it)
        charged_cpus=charged,
    )
