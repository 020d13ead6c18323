"""The queue as a cycle negotiates it: job ads, autoclusters, job order and runs.

Jobs are grouped into autoclusters (identical values of every job attribute that any
expression reads); a submitter's queue is a list of :class:`Run` — consecutive jobs of one
autocluster (and one cluster, in the 7.x ``legacy`` profile) — so skipping a rejected
autocluster costs one step, not one per job.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.concurrency import Limits, parse_limits
from fairshare_cli.core.htcondor.job_weight import idle_weigher
from fairshare_cli.core.htcondor.negotiator.claimed import ClaimedList
from fairshare_cli.core.htcondor.negotiator.common import id_key, split_id
from fairshare_cli.core.htcondor.negotiator.results import (
    Claim,
    NegotiatorKnobs,
    SubmitterPrio,
    SubmitterSummary,
)
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.negotiator.runs import Run, RunList, ordered_runs
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import InputError

#: Job attributes set per submitter during negotiation (seed §3.4.3, reference §5.6).
SUBMITTER_ATTRS = (
    "submitteruserprio",
    "submittorprio",
    "submitteruserresourcesinuse",
    "submittergroup",
    "submittergroupresourcesinuse",
    "submittergroupquota",
    "submitternegotiatinggroup",
    "submitterautoregroup",
)
#: The attributes of a job ad (lower case): the fields of :class:`~fairshare_cli.core.jobs.Job`
#: the negotiator reads.
JOB_NAMES = frozenset(
    {
        "owner",
        "user",
        "accountinggroup",
        "niceuser",
        "jobprio",
        "qdate",
        "jobstatus",
        "requestcpus",
        "requestmemory",
        "requestdisk",
        "clusterid",
        "procid",
        "requirements",
        "rank",
    }
)

#: ``RequestDisk`` (KiB) of a job with no ``request_disk``: condor_submit's default
#: ``JOB_DEFAULT_REQUESTDISK = MAX({1024, (TransferInputSizeMB+1) * 1.25}) * 1024``, a real,
#: for a job with less than 818 MB of input (fs jobs have none).
DEFAULT_REQUEST_DISK = 1048576.0

#: A submitter's idle batch with its autocluster (its job-order key is made as the
#: submitter's batches are sorted: a million-job queue holds no key per batch).
Queued = tuple["AutoCluster", JobBatch]


class AutoCluster:
    """Idle jobs that agree on every attribute the cycle's expressions read.

    ``ad`` is fixed; ``groups``/``group_keys`` (unclaimed candidates) and ``claimed`` are
    found on first use; ``ptr`` skips the unclaimed candidate groups already used up.
    """

    __slots__ = (
        "ad",
        "claimed",
        "group_keys",
        "groups",
        "index",
        "limits",
        "limits_expr",
        "matching_slots",
        "ptr",
    )

    def __init__(
        self, index: int, ad: Ad, limits: Limits = (), limits_expr: Compiled | None = None
    ) -> None:
        self.index = index
        self.ad = ad
        #: the jobs' ``ConcurrencyLimits`` (a significant attribute: one string per cluster)
        self.limits = limits
        #: ``ConcurrencyLimits`` that is no string alone: evaluated against each candidate
        self.limits_expr = limits_expr
        self.groups: list[list[Any]] | None = None
        self.group_keys: list[tuple[float, ...]] = []
        self.claimed: ClaimedList | None = None
        self.ptr = 0
        self.matching_slots = 0


class Submitter:
    """A submitter with idle jobs: its runs, and how its turns went."""

    __slots__ = (
        "ceiling",
        "eup",
        "floor",
        "group",
        "idle",
        "name",
        "runs",
        "starvation",
        "stop_reason",
        "summary",
    )

    def __init__(
        self, name: str, eup: float, group: str | None, ceiling: int, floor: int = 0
    ) -> None:
        self.name = name
        self.eup = eup
        self.group = group
        self.ceiling = ceiling
        self.floor = floor
        self.runs: list[Run] = []
        self.idle = 0
        self.starvation = 0.0
        self.stop_reason: str | None = None
        self.summary = SubmitterSummary(name, group, eup)


#: The attributes of a job's ad read from the job alone, each with how (in ad order).
_OWN_VALUES: dict[str, tuple[str, Callable[[Job], object]]] = {
    "owner": ("Owner", lambda job: job.owner),
    "niceuser": ("NiceUser", lambda job: bool(job.nice_user)),
    "jobprio": ("JobPrio", lambda job: int(job.job_prio)),
    "qdate": ("QDate", lambda job: int(job.submit_time or 0)),
    "jobstatus": ("JobStatus", lambda job: 1 if job.status == "idle" else 2),
    "requestcpus": ("RequestCpus", lambda job: job.request_cpus),
    "requestmemory": ("RequestMemory", lambda job: job.request_memory),
    "requestdisk": ("RequestDisk", lambda job: DEFAULT_REQUEST_DISK),
}


def job_values(job: Job, submitter: str) -> dict[str, object]:
    """The literal attributes of a job's ad."""
    cluster, proc = split_id(job.id)
    values: dict[str, object] = {}
    for key, (name, get) in _OWN_VALUES.items():
        values[name] = get(job)
        if key == "owner":
            values["User"] = submitter
    values["ClusterId"] = cluster
    values["ProcId"] = proc
    if job.accounting_group:
        values["AccountingGroup"] = submitter
    values.update(getattr(job, "attributes", None) or {})  # an imported ad's (condor-q)
    return values


def _significant(job: Job, submitter: str, attrs: list[str]) -> tuple[object, ...]:
    """The values of ``attrs`` (lower case) in the job's ad (None: absent)."""
    getters = [_OWN_VALUES.get(a) for a in attrs]
    if None in getters or getattr(job, "attributes", None):  # the whole ad, then
        lowered = {k.lower(): v for k, v in job_values(job, submitter).items()}
        return tuple(lowered.get(a) for a in attrs)
    return tuple(g[1](job) for g in getters if g is not None)


def _own_getters(attrs: list[str]) -> list[Callable[[Job], object]] | None:
    """How to read each of ``attrs`` from a job alone (None: one needs the whole ad)."""
    getters = [_OWN_VALUES.get(a) for a in attrs]
    return [g[1] for g in getters if g is not None] if None not in getters else None


def job_names(idle: Iterable[JobBatch]) -> frozenset[str]:
    """:data:`JOB_NAMES` and the attributes imported jobs carry (``fs import condor-q``)."""
    extra = {k.lower() for b in idle for k in (getattr(b.job, "attributes", None) or {})}
    return JOB_NAMES | extra if extra else JOB_NAMES


def job_ad(ev: Evaluator, job: Job, submitter: str) -> Ad:
    """A job's ad: its literal attributes, ``Requirements`` and ``Rank``.

    Raises:
        InputError: the job's requirements or rank do not parse.
    """
    exprs = {"Requirements": job.requirements or "true", "Rank": job.rank or "0"}
    if job.concurrency_limits_expr:
        exprs["ConcurrencyLimits"] = job.concurrency_limits_expr
    return Ad(job_values(job, submitter), exprs, ev, f"job {job.id}", InputError)


def job_limits(ev: Evaluator, job: Job, ad: Ad) -> tuple[Limits, Compiled | None]:
    """The job's concurrency limits: its string, or its ``ConcurrencyLimits`` expression
    when that is a string evaluated alone (``ClassAd::LookupString`` in
    ``matchmakingAlgorithm``); else the expression, to evaluate with each candidate."""
    if job.concurrency_limits:
        return parse_limits(job.concurrency_limits), None
    found = ad.exprs.get("concurrencylimits")
    if found is None:
        return (), None
    value = ev.evaluate(found[1], ad, Ad({}, {}, ev, "no target"))
    if isinstance(value, str):
        return parse_limits(value), None
    return (), found[1]


def order_key(job: Job, legacy: bool) -> tuple[object, ...]:
    """Job order within a submitter (reference §5.4; seed §3.4.5 for legacy).

    The job id's :func:`id_key` ends the key flattened (``(0, 12), (0, 3)`` as ``0, 12,
    0, 3``: the same order, in a third of the memory for a million-job queue).
    """
    (c_kind, cluster), (p_kind, proc) = id_key(job.id)
    if legacy:
        return (-int(job.job_prio), float(job.submit_time or 0.0), c_kind, cluster, p_kind, proc)
    pre1 = getattr(job, "pre_job_prio1", None) or 0
    pre2 = getattr(job, "pre_job_prio2", None) or 0
    post1 = getattr(job, "post_job_prio1", None) or 0
    post2 = getattr(job, "post_job_prio2", None) or 0
    return (-pre1, -pre2, -int(job.job_prio), -post1, -post2, c_kind, cluster, p_kind, proc)


def scan_jobs(
    jobs: Iterable[Job | JobBatch], running: RunningJobs
) -> tuple[list[JobBatch], dict[tuple[str, str], str]]:
    """The idle batches and the idle jobs' distinct (requirements, rank) texts with the
    first job id showing each; the running jobs go into ``running``."""
    idle: list[JobBatch] = []
    texts: dict[tuple[str, str], str] = {}
    for item in jobs:
        batch = item if isinstance(item, JobBatch) else JobBatch(item)
        job = batch.job
        if job.status == "idle":
            idle.append(batch)
            texts.setdefault((job.requirements or "true", job.rank or "0"), job.id)
        elif job.status == "running":
            for i in range(batch.count):
                running.add(batch.job_id(i), job)
    return idle, texts


_JOB_ID = operator.attrgetter("job_id")


def add_running_demand(
    demand: dict[str, float],
    running: RunningJobs,
    claims: Iterable[Claim],
    weighted: bool,
) -> None:
    """Add each submitter's running work to ``demand`` (a submitter ad's running jobs).

    Mirrors ``Scheduler::count_jobs``: the schedd counts each claim on which one of its
    jobs runs (a match record with a shadow) as one of its submitter's ``RunningJobs`` and
    its slot weight into ``WeightedRunningJobs``, and ``hgq_prepare_for_matchmaking`` adds
    running and idle to the group's demand. A running job of the queue counts the weight
    ``running`` holds for it (the slot weight of the slot it holds: see
    :func:`~.partitionable.held_slot_weigher`; 1 without ``use_weighted_demand``); a claim
    that runs a job the queue does not hold (a running record of imported history, a
    ``condor_status`` slot's ``JobId``) counts the same, the slot weight of the slot it
    holds, whatever ``NEGOTIATOR_USE_SLOT_WEIGHTS`` says (``running.weigh_claim``:
    :func:`~.partitionable.held_claim_weigher`; the weight it was charged when no
    configured slot is the one it holds, 1 when it records none).
    A claim that runs no job (``JobId`` empty: claimed but idle, or held by another pool's
    schedd) is no running job, and no submitter ad.
    """
    for submitter, amount in (running.weights if weighted else running.count).items():
        demand[submitter] = demand.get(submitter, 0.0) + amount
    claims = list(claims)
    if running.keeps_claims:
        if not running.orphans:
            return  # every claim runs a job of the queue (kept as they change)
    elif all(map(running.jobs.__contains__, map(_JOB_ID, claims))):
        return  # every claim runs a job of the queue
    for claim in claims:
        if not claim.job_id or claim.job_id in running.jobs:
            continue
        if not weighted:
            weight = 1.0
        elif running.weigh_claim is not None:
            weight = running.weigh_claim(claim)
        else:
            weight = claim.weight if claim.weight is not None else 1.0
        demand[claim.submitter] = demand.get(claim.submitter, 0.0) + weight


#: An autocluster's ad with its concurrency limits (:func:`job_limits`), and what it was
#: made for besides the key (:func:`_fit`).
MadeAd = tuple[Ad, Limits, "Compiled | None", tuple[object, ...]]


class KeptAds:
    """The last cycle's autocluster ads by autocluster key, for the next cycle of a
    simulation (:attr:`.frozen_pool.FrozenPool.autoclusters`).

    A cycle reads of a job's ad only the attributes its expressions read (the autocluster
    key), so the ad an autocluster was made with in one cycle serves the same key in the
    next: it is kept while the key has idle jobs, and made again when the expressions read
    other attributes (:attr:`context`) or when the ad would have other names (which decide
    what an unqualified name in its expressions refers to). Pools with a
    consumption policy, which reads the job's ad outside those expressions, keep none.
    """

    __slots__ = ("_last", "context", "made")

    def __init__(self) -> None:
        self.context: tuple[object, ...] = ()
        #: this cycle's ads by key, and the last cycle's (what this one may take again)
        self.made: dict[tuple[object, ...], MadeAd] = {}
        self._last: dict[tuple[object, ...], MadeAd] = {}

    def start(self, context: tuple[object, ...]) -> None:
        """A new cycle whose autocluster keys hold the values of ``context``'s attributes:
        the last cycle's ads serve it only if theirs held the same."""
        self._last = self.made if context == self.context else {}
        self.context, self.made = context, {}

    def ad(
        self, ev: Evaluator, job: Job, submitter: str, key: tuple[object, ...]
    ) -> tuple[Ad, Limits, Compiled | None]:
        """:func:`new_ad`, or the last cycle's for ``key`` when it fits ``job``
        (:func:`_fit`)."""
        fit = _fit(job, key)
        found = self._last.get(key)
        if found is None or found[3] != fit:
            found = (*new_ad(ev, job, submitter, key), fit)
        self.made[key] = found
        return found[0], found[1], found[2]


def group_queue(
    idle: list[JobBatch],
    running: RunningJobs,
    claims: Iterable[Claim],
    ev: Evaluator,
    refs: frozenset[str],
    submitter_of: Callable[[Job], str],
    knobs: NegotiatorKnobs,
    kept: KeptAds | None = None,
) -> tuple[list[AutoCluster], dict[str, list[Queued]], dict[str, float]]:
    """Autoclusters, each submitter's idle batches (not yet in order) and demand per
    submitter (idle jobs by ``idle_weigher`` with ``use_weighted_demand``, plus the running work of
    :func:`add_running_demand`: the queue's running jobs and the ``claims``). Ads ``kept``
    from the last cycle are taken again (see :class:`KeptAds`).

    Raises:
        InputError: a job's requirements or rank do not parse.
    """
    weighted = knobs.use_weighted_demand
    weigh = idle_weigher(knobs.slot_weight)
    names = job_names(idle)
    sig_attrs = [a for a in names if a in refs and a not in ("requirements", "rank")]
    need_submitter = any(a in refs for a in SUBMITTER_ATTRS) or "user" in refs
    make_ad = new_ad
    if kept is not None:
        kept.start((tuple(sig_attrs), need_submitter))
        make_ad = kept.ad
    autoclusters: list[AutoCluster] = []
    ac_by_key: dict[tuple[object, ...], AutoCluster] = {}
    per_sub: dict[str, list[Queued]] = {}
    demand: dict[str, float] = {}
    own = _own_getters(sig_attrs)
    if "clusterid" in sig_attrs or "procid" in sig_attrs:  # each job's ad its own
        idle = [one for batch in idle for one in _single(batch)]
    # hot loop (benchmarks/run.py row negotiate-separate): one pass per idle batch
    for batch in idle:
        job = batch.job
        submitter = submitter_of(job)
        limits = parse_limits(job.concurrency_limits) if job.concurrency_limits else ()
        if not sig_attrs:
            sig: tuple[object, ...] = ()
        elif own is not None and not getattr(job, "attributes", None):
            sig = tuple([get(job) for get in own])
        else:
            sig = _significant(job, submitter, sig_attrs)
        key: tuple[object, ...] = (
            job.requirements or "true",
            job.rank or "0",
            sig,
            submitter if need_submitter else None,
            limits,
            job.concurrency_limits_expr,
            tuple(map(type, sig)),  # (1, 1.0 and true print apart: the schedd's keys differ)
        )
        ac = ac_by_key.get(key)
        if ac is None:
            ac = AutoCluster(len(autoclusters), *make_ad(ev, job, submitter, key))
            autoclusters.append(ac)
            ac_by_key[key] = ac
        per_sub.setdefault(submitter, []).append((ac, batch))
        weight = weigh(job) if weighted else 1
        demand[submitter] = demand.get(submitter, 0.0) + weight * batch.count
    add_running_demand(demand, running, claims, weighted)
    return autoclusters, per_sub, demand


def new_ad(
    ev: Evaluator, job: Job, submitter: str, key: tuple[object, ...]
) -> tuple[Ad, Limits, Compiled | None]:
    """The ad and concurrency limits of the autocluster ``job`` opens (of key ``key``)."""
    ad = job_ad(ev, job, submitter)
    return (ad, *job_limits(ev, job, ad))


def _fit(job: Job, key: tuple[object, ...]) -> tuple[object, ...]:
    """What an ad made for ``job`` has besides its autocluster ``key``'s values (and
    their types, part of the key): the names :func:`job_values` gives some jobs only."""
    attributes = getattr(job, "attributes", None)
    return (
        bool(job.accounting_group),
        frozenset(k.lower() for k in attributes) if attributes else None,
    )


_first = operator.itemgetter(0)


def make_submitters(
    per_sub: dict[str, list[Queued]],
    demand: dict[str, float],
    priorities: Callable[[str], SubmitterPrio],
    group_of: Callable[[str], str | None],
    legacy: bool,
) -> dict[str, Submitter]:
    """The submitters, by name in order: those with idle jobs or running work (a running
    job or a claim that runs one), as HTCondor's submitter ads; their idle jobs in job
    order, as runs (``per_sub`` is emptied)."""
    subs: dict[str, Submitter] = {}
    for name in sorted(demand):
        prio = priorities(name)
        subs[name] = Submitter(
            name, prio.effective_priority, group_of(name), prio.ceiling, prio.floor
        )
    while per_sub:  # emptied as the runs take the batches (a million-job queue's memory)
        name, queued = per_sub.popitem()
        sub = subs[name]
        sub.idle = sum(batch.count for _, batch in queued)
        ordered = ordered_runs(queued, legacy, order_key)
        if ordered is not None:
            sub.runs = ordered
            continue
        entries = [
            (order_key(one.job, legacy), ac, one) for ac, batch in queued for one in _single(batch)
        ]
        del queued
        entries.sort(key=_first)
        runs = sub.runs
        for okey, ac, batch in entries:
            # legacy: the cluster, split_id(batch.job.id)[0], read from the order key
            # (benchmarks/run.py row negotiate-separate)
            skip_key: object = okey[3] if legacy else ac.index
            if runs and runs[-1].ac is ac and runs[-1].skip_key == skip_key:
                runs[-1].add(batch)
            else:
                runs.append(Run(ac, skip_key, batch))
    return subs


def arrival_order(subs: Mapping[str, Submitter]) -> list[str]:
    """The submitters in the order of their first idle jobs (each one's first in job
    order, by id), then those with running work alone, by name: the stand-in for the
    collector's order of submitter ads, which fs cannot know. A function of the queue, not
    of the order it is stored in (a jobs file's, or a simulation's after preemptions)."""
    firsts = {name: _first_id(sub.runs) for name, sub in subs.items()}
    keyed = sorted((id_key(first), name) for name, first in firsts.items() if first is not None)
    return [name for _, name in keyed] + sorted(n for n, first in firsts.items() if first is None)


def _first_id(runs: list[Run]) -> str | None:
    """The id of a submitter's first idle job in job order (None: it has none); a
    :class:`RunList` makes its runs as they are reached, and knows its ids."""
    if isinstance(runs, RunList):
        return runs.ids[0] if runs.ids else None
    return runs[0].head_id() if runs else None


def _single(batch: JobBatch) -> list[JobBatch]:
    """An :class:`IdBatch` as a batch per job (ordered job by job, or each job with its
    own ad); another as it is."""
    if type(batch) is not IdBatch:
        return [batch]
    return [JobBatch(replace(batch.job, id=job_id)) for job_id in batch.ids]
