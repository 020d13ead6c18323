"""What goes into a negotiation cycle besides slots and jobs, and what comes out of it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.htcondor.groups import QuotaKnobs


@dataclass(frozen=True)
class Claim:
    """A slot held by a running job (from the ``negotiator`` state section)."""

    slot: str
    submitter: str
    job_id: str
    start_time: float
    #: The slot weight ``AddMatch`` charged; a release subtracts it (None: an older state).
    weight: float | None = None
    #: On a dynamic slot (``slot1_1@...``): the resources carved out of its partitionable
    #: slot (``Cpus``, ``Memory``, ``Disk``), which go back to it when the claim ends.
    resources: tuple[tuple[str, float], ...] = ()
    #: The slot ad's ``ConcurrencyLimits`` (``condor_status``): the limits the claim holds
    #: (``Accountant::LoadLimits``); None: those of the job it runs.
    concurrency_limits: str | None = None
    #: What ``AddMatch`` charged for a partitionable slot's match when that is not
    #: ``weight`` (the slot's whole ``SlotWeight``, or a consumption policy's cost): the
    #: accountant holds it until the next cycle's ``CheckMatches`` re-weights the claim to
    #: its dynamic slot's own ``weight`` (None: nothing left to re-weight).
    match_cost: float | None = None
    #: When the accountant's record of the claim began, when not ``start_time``: a holder
    #: a match no job took displaced, put back by the next cycle's ``CheckMatches``, whose
    #: ``AddMatch`` set its ``StartTime`` then (``-getreslist``'s Start Time).
    accountant_start: float | None = None


@dataclass(frozen=True)
class SubmitterPrio:
    """What the accountant says about a submitter at ``now``.

    Attributes:
        effective_priority: EUP = max(RUP, 0.5) × factor.
        weighted_in_use: weighted resources in use (slot weights of the slots it holds).
        ceiling: ``Ceiling`` (-1 = unlimited; ``Accountant::GetCeiling``).
        floor: ``Floor`` (0 = none; ``Accountant::GetFloor``).
    """

    effective_priority: float
    weighted_in_use: float = 0.0
    ceiling: int = -1
    floor: int = 0


@dataclass(frozen=True)
class NegotiatorKnobs:
    """Negotiator settings (docs/config.md ``[negotiator]``), profile already applied."""

    profile: str = "legacy"
    use_slot_weights: bool = False
    slot_weight: str = "Cpus"
    preemption_requirements: str | None = None
    preemption_rank: str | None = None
    pre_job_rank: str | None = None
    post_job_rank: str | None = None
    use_weighted_demand: bool = True
    consider_preemption: bool = True
    #: ``NEGOTIATOR_DEPTH_FIRST``: a match counts as ``jobsInSlot`` jobs of its request.
    depth_first: bool = False
    #: ``NEGOTIATOR_MATCHLIST_CACHING``: a job pops the match list of its autocluster's
    #: first job in the turn (:mod:`.match_list`); false: every search is afresh.
    matchlist_caching: bool = True
    #: ``NEGOTIATOR_IGNORE_USER_PRIORITIES``: every submitter's limit is ``DBL_MAX``.
    ignore_user_priorities: bool = False
    #: ``NEGOTIATOR_SLOT_CONSTRAINT``: only the slot ads it is true on are in the cycle
    #: (:mod:`.slot_constraint`); None: every one.
    slot_constraint: str | None = None
    #: ``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT``: only the slot ads it is true on count in the
    #: pool size (:mod:`.pool_size`); None: every one.
    slot_poolsize_constraint: str | None = None
    #: ``NEGOTIATOR_SUBMITTER_CONSTRAINT``: only the submitters it is true on negotiate
    #: (:mod:`.submitter_constraint`); None: every one.
    submitter_constraint: str | None = None
    #: ``NEGOTIATOR_JOB_CONSTRAINT``: the schedd offers only the jobs it is true on (their
    #: autoclusters not in :attr:`.Snapshot.unoffered`); None: every one.
    job_constraint: str | None = None
    concurrency_limits: Mapping[str, float] = field(default_factory=dict)
    concurrency_limit_default: float = 2308032.0
    concurrency_limit_scope_defaults: Mapping[str, float] = field(default_factory=dict)
    quotas: QuotaKnobs = field(default_factory=QuotaKnobs)


@dataclass(frozen=True)
class Match:
    """One match of the cycle (docs/json.md ``negotiate.matches``)."""

    job_id: str
    submitter: str
    slot: str
    reason: str
    preempted_job: str | None
    weight: float
    group: str | None
    #: The dynamic slot's carved resources when ``slot`` is one (see :class:`Claim`).
    resources: tuple[tuple[str, float], ...] = ()
    #: What the cycle charged the match (``AddMatch``): ``weight``, but on a partitionable
    #: slot its whole ``SLOT_WEIGHT``, or the ``SlotWeight`` a consumption policy took
    #: (None: ``weight``).
    charge: float | None = None


@dataclass(frozen=True)
class JoblessMatch:
    """A match the cycle made that no job takes (``NEGOTIATOR_DEPTH_FIRST``'s re-offer of a
    request with no job left, :mod:`.depth_first`): ``AddMatch`` charged ``submitter``
    ``weight`` for ``slot`` (the accountant's resource: a partitionable slot's own name),
    after the cycle's first ``after`` matches, and counted the match's concurrency
    ``limits`` (``IncrementLimits`` of its ``MatchedConcurrencyLimits``; None: none)."""

    submitter: str
    slot: str
    weight: float
    after: int
    limits: str | None = None


_new = object.__new__


def new_match(  # noqa: PLR0913 -- one argument per Match field, as its __init__ has
    job_id: str,
    submitter: str,
    slot: str,
    reason: str,
    preempted_job: str | None,
    weight: float,
    group: str | None,
    resources: tuple[tuple[str, float], ...],
    charge: float | None = None,
) -> Match:
    """``Match(...)`` without the frozen dataclass's per-field ``__init__`` (a quarter of
    the cost: one per match, benchmarks row negotiate-batches). Every field is set."""
    match: Match = _new(Match)
    attrs = match.__dict__
    attrs["job_id"] = job_id
    attrs["submitter"] = submitter
    attrs["slot"] = slot
    attrs["reason"] = reason
    attrs["preempted_job"] = preempted_job
    attrs["weight"] = weight
    attrs["group"] = group
    attrs["resources"] = resources
    attrs["charge"] = charge
    return match


@dataclass
class SubmitterSummary:
    """One submitter's part of the cycle (docs/json.md ``negotiate.submitters``)."""

    name: str
    group: str | None
    effective_priority: float
    share: float | None = None
    limit: float | None = None
    matched: int = 0


@dataclass
class UnmatchedRun:
    """Idle jobs of one submitter left unmatched for one reason (kept as batch segments)."""

    submitter: str
    reason: str
    segments: list[tuple[JobBatch, int]]

    @property
    def count(self) -> int:
        """How many jobs."""
        return sum(b.count - start for b, start in self.segments)

    def iter_ids(self) -> Iterator[str]:
        """The job ids, in queue order."""
        for batch, start in self.segments:
            if type(batch) is IdBatch:
                yield from batch.ids[start:]
                continue
            if batch.count == 1:  # (benchmarks/run.py row negotiate-separate-json)
                if start == 0:
                    yield batch.job.id
                continue
            for i in range(start, batch.count):
                yield batch.job_id(i)

    def id_chunks(self, size: int) -> Iterator[list[str]]:
        """The job ids in queue order, in lists of ``size`` (the last one shorter), taken a
        slice at a time from an :class:`IdBatch`."""
        chunk: list[str] = []
        for batch, start in self.segments:
            if type(batch) is IdBatch:
                ids = batch.ids[start:]
            else:
                ids = [batch.job_id(i) for i in range(start, batch.count)]
            at = size - len(chunk)
            chunk += ids[:at]
            while len(chunk) == size:
                yield chunk
                chunk = ids[at : at + size]
                at += size
        if chunk:
            yield chunk

    @property
    def job_ids(self) -> list[str]:
        """The job ids as a list (for small results)."""
        return list(self.iter_ids())


@dataclass
class CycleResult:
    """Everything one cycle did."""

    matches: list[Match]
    submitters: list[SubmitterSummary]
    unmatched: list[UnmatchedRun]
    explain: list[dict[str, Any]]
    pool_size: float
    spins: int
    evaluations: int
    rr_times: dict[str, float]
    group_limits: dict[str, int | None]
    #: submitter -> running work + idle jobs as the cycle counted them at its start
    #: (the submitter ads' ``WeightedRunningJobs + WeightedIdleJobs``)
    demand: dict[str, float] = field(default_factory=dict)
    #: group -> the quota it negotiated with (``groupQuotasHash`` as the cycle leaves it);
    #: empty without groups
    group_quotas: dict[str, float] = field(default_factory=dict)
    #: where the cycle departs from HTCondor in a way fs does not model, one line each
    notes: list[str] = field(default_factory=list)
    #: the concurrency limits the cycle counted (``LoadLimits`` over the claims it found,
    #: ``AddMatch`` of its matches): the accountant's map keeps each, at 0 once no claim
    #: holds it, until the negotiator restarts (lower-case names, sorted)
    limits_seen: tuple[str, ...] = ()
    #: the matches no job takes, on slots no claim held, in order: the accountant charges
    #: each until the next cycle's ``CheckMatches`` finds its slot unclaimed
    jobless: list[JoblessMatch] = field(default_factory=list)

    def iter_unmatched(self) -> Iterator[tuple[str, str, str]]:
        """Yield ``(job_id, submitter, reason)`` for every unmatched idle job."""
        for run in self.unmatched:
            for job_id in run.iter_ids():
                yield job_id, run.submitter, run.reason
