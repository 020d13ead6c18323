"""One submitter's turn (``Matchmaker::negotiate``): its limits and what it has used, the
test ``SubmitterLimitPermits`` makes of a candidate's cost, and the concurrency-limit test
of a ``ConcurrencyLimits`` expression evaluated with each candidate."""

from __future__ import annotations

from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.concurrency import LimitCounts, Limits, parse_limits
from fairshare_cli.core.htcondor.negotiator.claimed import ClaimedList
from fairshare_cli.core.htcondor.negotiator.common import PRIO_PREEMPTION
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster, Submitter
from fairshare_cli.core.htcondor.negotiator.slots import Slot, SlotClass

#: A candidate's rank key (pre-job rank, job rank, post-job rank, preemption state, rank).
Key = tuple[float, ...]


def permits(used: float, allowed: float, cost: float) -> bool:
    """``SubmitterLimitPermits``: fits, or the first match of a spin may round up."""
    return used + cost <= allowed or (used <= 0 and allowed > 0)


class LimitTest:
    """A ``ConcurrencyLimits`` expression evaluated with each candidate (MY = job, TARGET =
    slot; ``EvalString`` in ``matchmakingAlgorithm``): a candidate whose limits would go
    over is skipped (``rejForConcurrencyLimit``); one that gives no string takes none."""

    __slots__ = ("counts", "ev", "expr", "found", "job_ad", "refused")

    def __init__(self, ev: Evaluator, expr: Compiled, job_ad: Ad, counts: LimitCounts) -> None:
        self.ev = ev
        self.expr = expr
        self.job_ad = job_ad
        self.counts = counts
        self.found: dict[int, Limits] = {}
        self.refused = False

    def of(self, cls: SlotClass) -> Limits:
        """The limits a match with a slot of ``cls`` holds (``MatchedConcurrencyLimits``)."""
        found = self.found.get(cls.index)
        if found is None:
            value = self.ev.evaluate(self.expr, self.job_ad, cls.ad)
            found = self.found[cls.index] = parse_limits(value) if isinstance(value, str) else ()
        return found

    def allows(self, cls: SlotClass) -> bool:
        """Whether a slot of ``cls`` passes ``rejectForConcurrencyLimits``."""
        limits = self.of(cls)
        if limits and self.counts.refuses(limits):
            self.refused = True
            return False
        return True


class Returned:
    """The consumption-policy slots a live match list got back (:mod:`.match_list`),
    around its sorted rest.

    Attributes:
        front: (slot, rank key) handed back before the rest, in list order.
        back: the same, behind the rest.
        group: the index of the unclaimed rank group of the list's last match from its
            rest (the entries of the groups before it were popped).
        last: the rank key of that match, unclaimed or claimed (the rest's entries ranked
            above it were popped; None: no match yet; ``()``: the rest popped to its end).
    """

    __slots__ = ("back", "front", "group", "last")

    def __init__(self) -> None:
        self.front: list[tuple[Slot, Key]] = []
        self.back: list[tuple[Slot, Key]] = []
        self.group = 0
        self.last: Key | None = None

    def insert(self, slot: Slot, key: Key, rest: Key | None) -> None:
        """``MatchListType::insert_candidate``: ``slot`` (ranked ``key``) goes before the
        first entry it does not rank strictly above (``sort_compare``); ``rest`` is the key
        of the rest's next entry (None: none is left)."""
        for i, (_, k) in enumerate(self.front):
            if not key > k:
                self.front.insert(i, (slot, key))
                return
        if rest is not None and not key > rest:
            self.front.append((slot, key))
            return
        for i, (_, k) in enumerate(self.back):
            if not key > k:
                self.back.insert(i, (slot, key))
                return
        self.back.append((slot, key))


class Turn:
    """One submitter's turn (``Matchmaker::negotiate``): its limits, what it has used, and
    the job ads and candidates found for it (on first use, kept for the turn).

    Attributes:
        limit: ``submitterLimit`` (capped by what is left of the pie).
        limit_unclaimed: ``submitterLimitUnclaimed`` (capped by the group quota).
        used: ``limitUsed``, the slot weight matched this turn.
        used_unclaimed: ``limitUsedUnclaimed``, the part of it on unclaimed slots.
        list_key: the autocluster and ``only_consider_startd_rank`` of the live match list
            (``MatchList``, ``NEGOTIATOR_MATCHLIST_CACHING``): a search with the same key
            pops that list; None: none built yet this turn.
        list_used: ``limitUsed`` when that list was built.
        list_used_unclaimed: ``limitUsedUnclaimed`` then.
        returned: the consumption-policy slots handed back to that list.
        list_refused_limit: whether building that list refused a candidate for a
            concurrency limit (``m_rejForConcurrencyLimit``, see :mod:`.match_list`).
        cached: whether the search under way pops the live list (see :func:`preempt_permits`).
    """

    __slots__ = (
        "acs",
        "ads",
        "cached",
        "claimed",
        "limit",
        "limit_unclaimed",
        "list_key",
        "list_refused_limit",
        "list_used",
        "list_used_unclaimed",
        "returned",
        "sub",
        "used",
        "used_unclaimed",
    )

    def __init__(self, sub: Submitter, limit: float, limit_unclaimed: float) -> None:
        self.sub = sub
        self.limit = limit
        self.limit_unclaimed = limit_unclaimed
        self.used = 0.0
        self.used_unclaimed = 0.0
        self.list_key: tuple[int, bool] | None = None
        self.list_used = 0.0
        self.list_used_unclaimed = 0.0
        self.returned = Returned()
        self.list_refused_limit = False
        self.cached = False
        self.ads: dict[int, Ad] = {}
        self.acs: dict[int, AutoCluster] = {}
        self.claimed: dict[int, ClaimedList] = {}

    def start_search(self, ac_index: int, only_rank: bool, caching: bool = True) -> None:
        """A job of autocluster ``ac_index`` is searched for (``matchmakingAlgorithm``): it
        pops the live match list when that list is this autocluster's and was built with the
        same ``only_consider_startd_rank``, else a new list is built for it, now; without
        ``caching`` (``NEGOTIATOR_MATCHLIST_CACHING``) every search is a build."""
        key = (ac_index, only_rank)
        self.cached = caching and self.list_key == key
        if not self.cached:
            self.list_key = key
            self.list_used = self.used
            self.list_used_unclaimed = self.used_unclaimed
            self.returned = Returned()


def preempt_permits(turn: Turn, tier: int, cost: float) -> bool:
    """Whether the submitter limits let ``turn`` preempt a claimed slot of weight ``cost``.

    Mirrors both paths of ``matchmakingAlgorithm``. Building the match list (a job whose
    autocluster has no live list): a priority preemption must fit ``limitUsed`` under
    ``submitterLimit``; a machine-rank one is not checked ("startd rank preemptions should be
    allowed regardless of user priorities"). Popping the list (the next jobs of that
    autocluster in the turn): a candidate that preempts, of either kind, is taken when it
    fits either ``limitUsed`` under ``submitterLimit`` or ``limitUsedUnclaimed`` under
    ``submitterLimitUnclaimed``, and a priority one is in the list only if it fitted when
    the list was built.
    """
    if not turn.cached:
        return tier != PRIO_PREEMPTION or permits(turn.used, turn.limit, cost)
    if tier == PRIO_PREEMPTION and not permits(turn.list_used, turn.limit, cost):
        return False
    return permits(turn.used, turn.limit, cost) or permits(
        turn.used_unclaimed, turn.limit_unclaimed, cost
    )
