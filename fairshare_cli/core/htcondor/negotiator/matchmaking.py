"""The best slot for a job (``Matchmaker::matchmakingAlgorithm``), or why there is none.

A submitter's turn sees each autocluster through the ad HTCondor gives its jobs during
negotiation (``SubmitterUserPrio``, ``SubmitterGroup``, … set by ``Matchmaker::negotiate``)
and walks its unclaimed and claimed candidates together, in rank order.
"""

from __future__ import annotations

from fairshare_cli.core.htcondor.classads import Ad
from fairshare_cli.core.htcondor.concurrency import Limits
from fairshare_cli.core.htcondor.negotiator.candidates import Candidates
from fairshare_cli.core.htcondor.negotiator.carving import Carver
from fairshare_cli.core.htcondor.negotiator.claimed import (
    NO_CLAIMED,
    Allowed,
    Bound,
    ClaimedList,
    Entry,
    PolicyScan,
    first_matching_held,
    last_held_by_other,
)
from fairshare_cli.core.htcondor.negotiator.common import (
    NO_PREEMPTION,
    PRIO_PREEMPTION,
    RANK_PREEMPTION,
    Number,
    number,
)
from fairshare_cli.core.htcondor.negotiator.match_list import find_live, hand_back, list_diagnostics
from fairshare_cli.core.htcondor.negotiator.preemption import (
    PreemptionPlan,
    all_short_held,
    preemption_allowed,
    short_of_margin,
)
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster, Submitter
from fairshare_cli.core.htcondor.negotiator.slots import Slot, SlotClass
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot
from fairshare_cli.core.htcondor.negotiator.state import CycleState
from fairshare_cli.core.htcondor.negotiator.submitter_ad import submitter_job_ad
from fairshare_cli.core.htcondor.negotiator.turn import LimitTest, Turn, permits, preempt_permits


class Matchmaker:
    """Finds slots for jobs over a snapshot, reading the cycle's changing state."""

    def __init__(
        self, snap: Snapshot, plan: PreemptionPlan, candidates: Candidates, state: CycleState
    ) -> None:
        self.snap = snap
        self.plan = plan
        self.candidates = candidates
        self.state = state
        self.ev = snap.ev
        self.legacy = snap.legacy
        self.reference = snap.reference
        self.claimed_classes = snap.claimed_classes
        self.min_weight = snap.min_weight
        self.rank_constant = plan.rank_constant
        self.preq_never = plan.preq_never
        #: (submitter, negotiating group, autocluster) -> the claimed candidates it may take
        self.allowed: dict[tuple[str, str, int], Allowed] = {}
        #: (submitter, negotiating group, slot class) -> PREEMPTION_REQUIREMENTS
        self.preemption_memo: dict[tuple[str, str, int], bool] = {}
        #: (submitter, negotiating group, autocluster) -> where :meth:`preemption_refusal`
        #: has got to in its claimed candidates
        self.policy_scan: dict[tuple[str, str, int], PolicyScan] = {}
        #: partitionable slots' carving (None in a pool without them)
        self.carver = Carver(snap) if snap.partitionable else None
        if self.carver is not None and any(m.consumption_policy for m in snap.machines):
            candidates.consumption = self.carver.matching_ad
        #: autocluster -> the snapshot generation its unclaimed candidates were found in
        self.seen_generation: dict[int, int] = {}
        #: the limit that also refused the last job rejected for ``PREEMPTION_REQUIREMENTS``
        #: (``rejForSubmitterLimit``), read and reset by the turn, which then resumes
        self.limit_behind: str | None = None
        #: the concurrency limits of the last match found (``IncrementLimits`` adds them)
        self.matched_limits: Limits = ()
        #: the rank group of the last slot :meth:`_find_unclaimed` found
        self.found_group: list[SlotClass] = []
        #: the smallest weight an unclaimed match can cost (None: not fixed, or the plain
        #: search of ``reference``): a limit that refuses it refuses every unclaimed slot
        weights = [c.weight for c in snap.unclaimed_classes]
        fixed = self.carver is None and not self.reference and all(w == w for w in weights)
        self.cheapest: float | None = min(weights) if (fixed and weights) else None

    # -- the turn's view of an autocluster -------------------------------------------

    def turn_ac(self, turn: Turn, ac: AutoCluster) -> AutoCluster:
        """The autocluster as this submitter's turn sees it: itself, or — when a job-side
        or machine-side expression reads the submitter's ephemeral attributes — a copy
        whose ad carries them (its candidates are then ranked for this turn only, as
        HTCondor rebuilds its match list for every submitter it negotiates with)."""
        if not self.snap.unclaimed_per_submitter:
            return ac
        found = turn.acs.get(ac.index)
        if found is None:
            ad = self.job_ad_for(turn, ac)
            expr = ad.exprs["concurrencylimits"][1] if ac.limits_expr is not None else None
            found = turn.acs[ac.index] = AutoCluster(ac.index, ad, ac.limits, expr)
        return found

    def job_ad_for(self, turn: Turn, ac: AutoCluster) -> Ad:
        """The autocluster's job ad for this turn (built on first use)."""
        found = turn.ads.get(ac.index)
        if found is None:
            found = turn.ads[ac.index] = submitter_job_ad(
                turn.sub, ac, self.state, self.snap.tree, self.legacy, self.ev
            )
        return found

    # -- claimed candidates ------------------------------------------------------------

    def claimed_for(self, turn: Turn, ac: AutoCluster) -> ClaimedList:
        """The claimed candidates, per autocluster (per submitter where expressions read it)."""
        if self.plan.claimed_per_submitter:
            found = turn.claimed.get(ac.index)
            if found is None:
                job_ad = self.job_ad_for(turn, ac)
                found = turn.claimed[ac.index] = self.candidates.claimed_entries(job_ad)
            return found
        if ac.claimed is None:
            ac.claimed = self.candidates.claimed_entries(ac.ad)
        return ac.claimed

    def _allowed_claimed(self, turn: Turn, ac: AutoCluster) -> Allowed:
        """The claimed candidates this submitter may take, filtered lazily: machine-rank ones,
        and those whose ``PREEMPTION_REQUIREMENTS`` allow it.

        Kept for the whole cycle per (submitter, autocluster), as HTCondor may with
        ``PREEMPTION_REQUIREMENTS_STABLE`` (the default); slots taken later are skipped by
        the walk.
        """
        key = (turn.sub.name, self.state.negotiating_group, ac.index)
        found = self.allowed.get(key)
        if found is None:
            found = self.allowed[key] = self._new_allowed(turn, ac)
        return found

    def _new_allowed(self, turn: Turn, ac: AutoCluster) -> Allowed:
        """A new filtered view for the submitter: its ``PREEMPTION_REQUIREMENTS`` test per
        candidate (memoised per slot class where it can be) and its sides of the bounds."""
        sub = turn.sub
        job_ad = self.job_ad_for(turn, ac)
        memo = self._memo()

        def allowed(entry: Entry) -> bool:
            cls, tier = entry[1], entry[2]
            if tier == RANK_PREEMPTION:  # (its own claim too: the machine prefers the job)
                return True
            if cls.remote == sub.name:
                return False
            return self._policy_allows(sub, cls, job_ad, memo)

        tests: list[tuple[int, Bound, Number]] = []
        for k, bound in enumerate(self.plan.bounds):
            if bound.job_expr is None:
                w: Number | None = sub.eup + 0.5
            else:
                assert bound.slot_ad is not None
                w = number(self.ev.evaluate(bound.job_expr, bound.slot_ad, job_ad))
            if w is not None:
                tests.append((k, bound, w))
        decided = self.plan.preq_covered and len(tests) == len(self.plan.bounds)
        claimed = self.claimed_for(turn, ac)
        return Allowed(claimed, allowed, tests, sub.name, decided, self.reference)

    def _memo(self) -> dict[tuple[str, str, int], bool]:
        """Where ``PREEMPTION_REQUIREMENTS`` answers are kept: reading only the submitter's
        attributes on the job side, it gives one answer per (submitter, slot class)
        whatever the autocluster; otherwise a fresh dict for one autocluster."""
        return self.preemption_memo if self.plan.preq_reads_submitter_only else {}

    def _policy_allows(
        self, sub: Submitter, cls: SlotClass, job_ad: Ad, memo: dict[tuple[str, str, int], bool]
    ) -> bool:
        """``PREEMPTION_REQUIREMENTS`` for ``sub`` on a slot of ``cls``, kept in ``memo``."""
        key = (sub.name, self.state.negotiating_group, cls.index)
        ok = memo.get(key)
        if ok is None:
            ok = memo[key] = preemption_allowed(self.snap, sub.name, sub.eup, cls, job_ad)
        return ok

    def preemption_refusal(self, turn: Turn, ac: AutoCluster) -> str | None:
        """Why the submitter may not preempt a claimed slot the job matches (None: nothing did):
        ``preemption_requirements`` (``rejPreemptForPolicy``), else ``insufficient_priority``."""
        key = (turn.sub.name, self.state.negotiating_group, ac.index)
        scan = self.policy_scan.get(key)
        if scan is None:
            scan = self.policy_scan[key] = PolicyScan()
        if scan.found is not None and scan.found.head <= scan.last:
            return "preemption_requirements"
        scan.found = None
        if self.preq_never and self.rank_constant and not self.legacy:
            # every claimed class it matches is refused: no candidate list needed
            held = first_matching_held(self.ev, self.claimed_classes, ac.ad, turn.sub.name, scan)
            return "preemption_requirements" if held else None
        claimed, sub = self.claimed_for(turn, ac), turn.sub
        short = all_short_held(self.snap, claimed, sub.name, sub.eup)
        if short is not None:  # (legacy) every holder short of 7.x's margin: no policy reached
            return "insufficient_priority" if short else None
        entries, others = claimed.entries, claimed.policy_only
        n, memo = len(entries), self._memo()
        while scan.pos < n + len(others):
            pos = claimed.find_live(scan.pos) if scan.pos < n else scan.pos  # used up: skipped
            if pos >= n + len(others):
                break
            scan.pos = pos + 1
            if pos < n:
                if entries[pos][2] != PRIO_PREEMPTION:
                    continue
                cls = entries[pos][1]
            else:
                cls = others[pos - n]
            last = last_held_by_other(cls, sub.name)
            if last < cls.head:
                continue
            if short_of_margin(self.snap, cls, sub.name, sub.eup):  # 7.x tests it first
                scan.short.append((cls, last))
                continue
            if cls.never_preempted or not self._policy_allows(
                sub, cls, self.job_ad_for(turn, ac), memo
            ):
                scan.found, scan.last = cls, last
                return "preemption_requirements"
        return "insufficient_priority" if scan.short_held() else None

    # -- the search ----------------------------------------------------------------------

    def find(self, turn: Turn, ac: AutoCluster, only_rank: bool) -> tuple[Slot | None, int, str]:
        """The best slot for the next job of ``ac`` (``matchmakingAlgorithm``), or a reason.

        Walks unclaimed groups and claimed candidates together in rank order; the first
        rank group with an acceptable slot wins, ties going to the slot first in the pool.
        """
        # hot: once per job matched or rejected (benchmarks/bench_negotiate.py)
        if ac.limits and self.state.limits.refuses(ac.limits):
            # rejectForConcurrencyLimits, before any candidate (the limits are a string)
            return None, NO_PREEMPTION, "concurrency_limit"
        turn.start_search(ac.index, only_rank, self.snap.knobs.matchlist_caching)
        live = turn.cached and self.hands_back()  # (the list as built, slots handed back)
        test = self._prepare(ac, live)
        args = (turn, ac, only_rank, test)
        plain = not live or not (turn.returned.front or turn.returned.back)
        found = self.search(*args) if plain else find_live(self, *args)
        return found if test is None else list_diagnostics(self, turn, ac, only_rank, test, found)

    def hands_back(self) -> bool:
        """Whether a matched consumption-policy slot goes back into the live match list."""
        return self.candidates.consumption is not None and self.snap.knobs.matchlist_caching

    def claimed_view(self, turn: Turn, ac: AutoCluster, only_rank: bool) -> Allowed:
        """The claimed candidates a search of ``turn`` walks (none: unclaimed ones only)."""
        use = self._use_claimed(turn, only_rank)
        return self._allowed_claimed(turn, ac) if use else NO_CLAIMED

    def search(
        self, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest | None
    ) -> tuple[Slot | None, int, str]:
        """:meth:`find`'s walk of the ranked candidates."""
        groups, keys = ac.groups or [], ac.group_keys
        n_groups = len(groups)
        use_claimed = self._use_claimed(turn, only_rank)
        # no priority preemption can pass the limit: one allowed candidate is enough to
        # know the job was rejected for the submitter limit
        if not use_claimed and not self.reference:
            return self._find_unclaimed(turn, ac, only_rank, test)
        prio_blocked = not preempt_permits(turn, PRIO_PREEMPTION, self.min_weight)
        claimed = self._allowed_claimed(turn, ac) if use_claimed else NO_CLAIMED
        gi, ci = ac.ptr, claimed.first_live()
        limit_rejected = False
        while True:
            head = claimed.get(ci)
            if head is None and gi >= n_groups:
                break
            if head is None or (gi < n_groups and keys[gi] > head[0]):
                best, exhausted, rejected = self._pick_unclaimed(
                    groups[gi], turn, only_rank, ac, test
                )
                limit_rejected = limit_rejected or rejected
                if exhausted and gi == ac.ptr:
                    ac.ptr = gi + 1
                gi += 1
                if best is not None:
                    return self.take_unclaimed(best, ac, test, turn, best), NO_PREEMPTION, ""
                continue
            best, tier, ci, limit_rejected = self._pick_claimed(
                claimed, ci, turn, only_rank, limit_rejected, test
            )
            if best is not None:  # (the rest is popped up to here)
                turn.returned.group, turn.returned.last = gi, head[0]
                return self._take(best, test), tier, ""
            if prio_blocked and limit_rejected and self.rank_constant:
                break
        if test is not None and test.refused and not limit_rejected:
            return None, NO_PREEMPTION, "concurrency_limit"
        reason = self.reject_reason(turn, ac, only_rank, limit_rejected)
        return None, NO_PREEMPTION, reason

    def _use_claimed(self, turn: Turn, only_rank: bool) -> bool:
        """Whether :meth:`find` walks claimed candidates too (else the unclaimed ones only)."""
        return bool(self.claimed_classes) and not (
            self.rank_constant and (self.preq_never or only_rank or turn.limit <= 0)
        )

    def unclaimed_only(self, turn: Turn) -> bool:
        """Whether every search of this turn that can find a slot (no ``only_rank``) looks
        at unclaimed candidates alone, with :meth:`_find_unclaimed`."""
        return not self.reference and not self._use_claimed(turn, False)

    def _find_unclaimed(
        self, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest | None
    ) -> tuple[Slot | None, int, str]:
        """:meth:`find` with no claimed candidate to consider: the unclaimed rank groups in
        order, stopping where the rest can change neither the answer nor the reason (only
        machine-rank preemption wanted: none is unclaimed; the submitter limit refuses the
        cheapest unclaimed slot: it refuses them all)."""
        # hot: once per job matched or rejected (benchmarks/bench_negotiate.py)
        groups = ac.groups or []
        n_groups = len(groups)
        cheapest = self.cheapest
        hopeless = cheapest is not None and not permits(
            turn.used_unclaimed, turn.limit_unclaimed, cheapest
        )
        limit_rejected = False
        gi = ac.ptr
        while gi < n_groups and not only_rank:
            best, exhausted, rejected = self._pick_unclaimed(groups[gi], turn, False, ac, test)
            if exhausted and gi == ac.ptr:
                ac.ptr = gi + 1
            gi += 1
            if best is not None:
                self.found_group = groups[gi - 1]
                return self.take_unclaimed(best, ac, test, turn, best), NO_PREEMPTION, ""
            limit_rejected = limit_rejected or rejected
            if hopeless and rejected:
                break
        if test is not None and test.refused and not limit_rejected:
            return None, NO_PREEMPTION, "concurrency_limit"
        reason = self.reject_reason(turn, ac, only_rank, limit_rejected)
        return None, NO_PREEMPTION, reason

    def _prepare(self, ac: AutoCluster, live: bool) -> LimitTest | None:
        """Ready ``ac`` for a search: its limits as the match's, its unclaimed candidates
        found (again, if a partitionable slot changed since, unless its ``live`` match
        list is popped); its limit test, if any."""
        self.matched_limits = ac.limits
        test = None
        if ac.limits_expr is not None:
            test = LimitTest(self.ev, ac.limits_expr, ac.ad, self.state.limits)
        generation = self.snap.generation
        if generation and not live and self.seen_generation.get(id(ac)) != generation:
            self._refresh(ac)
        if ac.groups is None:
            self.candidates.unclaimed(ac)
        return test

    def take_unclaimed(
        self,
        cls: SlotClass,
        ac: AutoCluster,
        test: LimitTest | None,
        turn: Turn,
        taken: SlotClass | None,
    ) -> Slot:
        """The next slot of an unclaimed class: carved for ``ac`` if partitionable, and
        handed back to the turn's live list (``taken``: popped from its rest, else None)."""
        if cls.partitionable and self.carver is not None:
            if test is not None:
                self.matched_limits = test.of(cls)
            back = self.hands_back()
            dslot = self.carver.take(cls, ac.ad, alone=back)
            if back:  # (the list may hold claimed slots too)
                claimed = self.claimed_view(turn, ac, False)
                hand_back(turn, ac, taken, dslot, self.carver, self.candidates, claimed)
            return dslot
        return self._take(cls, test)

    def _refresh(self, ac: AutoCluster) -> None:
        """A partitionable slot changed since ``ac``'s candidates were found: find them
        again (its leftover is a new candidate). Slots that matched before and were
        carved since still count as matching (a rejection then says they were taken)."""
        self.seen_generation[id(ac)] = self.snap.generation
        if ac.groups is None:
            return
        before = ac.matching_slots
        self.candidates.unclaimed(ac)
        ac.ptr = 0
        ac.matching_slots = max(before, ac.matching_slots)

    def _take(self, cls: SlotClass, test: LimitTest | None) -> Slot:
        if test is not None:
            self.matched_limits = test.of(cls)
        slot = cls.slots[cls.head]
        cls.head += 1
        return slot

    def _pick_unclaimed(
        self,
        group: list[SlotClass],
        turn: Turn,
        only_rank: bool,
        ac: AutoCluster,
        test: LimitTest | None,
    ) -> tuple[SlotClass | None, bool, bool]:
        """The class of one rank group with the first free slot that fits the unclaimed
        limit: (class or None, whether the group is used up, whether the limit refused)."""
        best: SlotClass | None = None
        exhausted = True
        rejected = False
        for cls in group:
            if cls.head >= len(cls.slots):
                continue
            exhausted = False
            if only_rank:
                continue
            cost = cls.weight
            if cls.partitionable and self.carver is not None:
                charge = self.carver.cost(cls, ac.ad)  # None: its consumption policy refuses
                if charge is None:
                    continue
                cost = charge
            if not permits(turn.used_unclaimed, turn.limit_unclaimed, cost):
                rejected = True
                continue
            if test is not None and not test.allows(cls):
                continue
            if best is None or cls.first_index() < best.first_index():
                best = cls
        return best, exhausted, rejected

    def _pick_claimed(
        self,
        claimed: Allowed,
        ci: int,
        turn: Turn,
        only_rank: bool,
        limit_rejected: bool,
        test: LimitTest | None,
    ) -> tuple[SlotClass | None, int, int, bool]:
        """The class of the claimed rank group at ``ci`` with the first free slot that the
        submitter may take: (class or None, its preemption state, the index after the
        group, whether the submitter limit has refused a candidate, this group included).

        Once the limit refused one, and no priority preemption can fit it, the rest of
        the priority candidates are not looked at.
        """
        head = claimed.get(ci)
        assert head is not None
        key = head[0]
        best: SlotClass | None = None
        best_tier = PRIO_PREEMPTION
        name = turn.sub.name
        prio_blocked = not preempt_permits(turn, PRIO_PREEMPTION, self.min_weight)
        while head is not None and head[0] == key:
            _, cls, tier = head
            ci += 1
            head = claimed.get(ci)
            if cls.head >= len(cls.slots) or (cls.remote == name and tier != RANK_PREEMPTION):
                continue
            if only_rank and tier != RANK_PREEMPTION:
                continue
            if tier == PRIO_PREEMPTION and prio_blocked and limit_rejected:
                continue
            if not preempt_permits(turn, tier, cls.weight):
                limit_rejected = True
                continue
            if test is not None and not test.allows(cls):
                continue
            if best is None or cls.first_index() < best.first_index():
                best, best_tier = cls, tier
        return best, best_tier, ci, limit_rejected

    def reject_reason(
        self, turn: Turn, ac: AutoCluster, only_rank: bool, limit_rejected: bool
    ) -> str:
        """Why no slot was found for a job of ``ac`` (docs/json.md unmatched reasons), in
        ``Matchmaker::negotiate``'s order: ``PREEMPTION_REQUIREMENTS`` before the submitter
        limit (a concurrency limit, before both, is the caller's)."""
        limit = None
        if limit_rejected:
            limit = "group_quota" if turn.limit_unclaimed < turn.limit else "submitter_limit"
        if not only_rank and (refusal := self.preemption_refusal(turn, ac)) is not None:
            self.limit_behind = limit
            return refusal
        if limit is not None:
            return limit
        if only_rank:
            return "submitter_limit"
        if ac.matching_slots == 0 and not self.candidates.any_claimed_match(ac):
            return "no_matching_slot"
        # the claimed slots it matches: the machine ranks it below the running job, or
        # they are taken, or its own submitter's ("no match found")
        if ac.matching_slots == 0 and self.claimed_classes:
            claimed = self.claimed_for(turn, ac)
            if claimed.rank_rejected and not claimed.entries:
                return "preemption_rank"
        return "matching_slots_taken"
