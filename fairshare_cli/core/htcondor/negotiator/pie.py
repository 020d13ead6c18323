"""Pie spins: each group's submitters share what is left of the pool, spin after spin.

Mirrors ``Matchmaker::negotiateWithGroup`` (the spins), ``calculateNormalizationFactor``,
``calculatePieLeft`` and ``calculateSubmitterLimit`` (the slices) and ``Matchmaker::negotiate``
(one submitter's turn) in HTCondor's ``src/condor_negotiator.V6/matchmaker.cpp``
(reference §5, seed §3.4.5-3.4.6): each submitter gets a slice inversely proportional to
its effective priority, net of what it already uses; the pie is spun again over what is
left until no slots, no jobs or no progress remain. A job that matches nothing does not
block the next one, but the rest of its autocluster (its cluster, in the 7.x ``legacy``
profile) is skipped for the rest of that submitter's turn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from fairshare_cli.core.cpp_sort import cpp_sort
from fairshare_cli.core.float32 import FLT_MAX, float32
from fairshare_cli.core.htcondor.groups import ROOT
from fairshare_cli.core.htcondor.negotiator.common import DBL_MAX, NO_PREEMPTION, REASON_NAMES
from fairshare_cli.core.htcondor.negotiator.depth_first import (
    counted_past,
    lost_match,
    matched_job,
    next_request,
)
from fairshare_cli.core.htcondor.negotiator.explain import Explainer
from fairshare_cli.core.htcondor.negotiator.job_constraint import offered
from fairshare_cli.core.htcondor.negotiator.matchmaking import Matchmaker
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster, Submitter
from fairshare_cli.core.htcondor.negotiator.results import new_match
from fairshare_cli.core.htcondor.negotiator.runs import Run, turn_runs
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot
from fairshare_cli.core.htcondor.negotiator.state import CycleState
from fairshare_cli.core.htcondor.negotiator.turn import Turn, permits


@dataclass(frozen=True, slots=True)
class PieSpin:
    """The numbers one spin of the pie shares out (``negotiateWithGroup``'s locals).

    Attributes:
        number: ``spin_pie``, 1 for the group's first spin.
        max_prio: ``maxPrioValue``, the worst effective priority among the submitters.
        normal: ``normalFactor``, Σ max_prio / EUP over the submitters.
        slot_weight_total: ``slotWeightTotal``, the pool's weight trimmed to the quota.
        group_quota: ``groupQuota``, what the group negotiates for.
        group_usage: ``groupusage``, the group's weighted usage as the spin starts.
        pie_left: ``pieLeft`` as the spin starts (``calculatePieLeft``): Σ submitter limits.
        capped_group: the group whose quota caps what it takes (``groupAccountingName``);
            None without groups and in the autoregroup round of ``<none>``.
        preempt: ``NEGOTIATOR_CONSIDER_PREEMPTION``.
        floor_round: the floor round (``isFloorRound``): one spin in which each submitter's
            limit is capped at its floor.
        ignore_priorities: ``NEGOTIATOR_IGNORE_USER_PRIORITIES``: every limit ``DBL_MAX``.
    """

    number: int
    max_prio: float
    normal: float
    slot_weight_total: float
    group_quota: float
    group_usage: float
    pie_left: float
    capped_group: str | None
    preempt: bool = True
    floor_round: bool = False
    ignore_priorities: bool = False

    @property
    def ignore_submitter_limit(self) -> bool:
        """The first spin may go over a submitter's limit for machine-rank preemption
        (only when ``NEGOTIATOR_CONSIDER_PREEMPTION`` is on)."""
        return self.number == 1 and self.preempt


class SubmitterLimit(NamedTuple):
    """``calculateSubmitterLimit``'s results for one submitter in one spin."""

    limit: float
    limit_unclaimed: float
    share: float


def submitter_limit(spin: PieSpin, eup: float, usage: float) -> SubmitterLimit:
    """A submitter's slice (``calculateSubmitterLimit``): its share of the spin's slot
    weight total less what it uses (or ``DBL_MAX``), and on unclaimed slots no more than the
    group has left. Without preemption every slot is an unclaimed one: the limit is the
    unclaimed limit.

    What the group has left is C ``float`` arithmetic, as ``calculateSubmitterLimit`` takes
    ``float groupQuota, float groupusage`` and computes ``float maxAllowed = groupQuota -
    groupusage``: with slot weights such as 0.1 a group's usage is not a float, and its
    rounding decides whether the last unclaimed slot fits (``SubmitterLimitPermits``).
    """
    share = spin.max_prio / (eup * spin.normal)
    limit = DBL_MAX if spin.ignore_priorities else max(0.0, share * spin.slot_weight_total - usage)
    limit_unclaimed = limit
    if spin.capped_group is not None:
        left = float32(float32(spin.group_quota) - float32(spin.group_usage))
        limit_unclaimed = min(limit, max(0.0, left))
    if not spin.preempt:
        limit = limit_unclaimed
    return SubmitterLimit(limit, limit_unclaimed, share)


def sort_submitters(subs: list[Submitter]) -> None:
    """Phase 3's sort of a group's submitters (``std::sort`` with ``submitterLessThan``):
    by effective priority, then starvation ratio. It breaks what ties in both by
    ``LastHeardFrom % 1009``, equal here (one schedd, whose submitter ads reach the
    collector together), so ties go where :func:`cpp_sort` leaves them from the list's
    order."""
    cpp_sort(subs, lambda s: (s.eup, s.starvation))


class Pie:
    """Runs the pie spins of a cycle over its state (``negotiateWithGroup``)."""

    def __init__(
        self,
        snap: Snapshot,
        state: CycleState,
        matchmaker: Matchmaker,
        explainer: Explainer,
        progress: Callable[[float], None] | None,
    ) -> None:
        self.snap = snap
        self.state = state
        self.matchmaker = matchmaker
        self.explainer = explainer
        self.progress = progress
        self.min_weight = snap.min_weight

    def floor_round(
        self, subs: list[Submitter], group_quota: float, group_name: str | None
    ) -> None:
        """The floor round that precedes a group's (or the pool's) pie spins.

        Mirrors ``Matchmaker::findBelowFloorSubmitters`` and ``negotiateWithGroup`` with
        ``isFloorRound``: the submitters with a floor above 0 whose weighted usage is below
        it negotiate alone, in one spin whose normalization and pie are theirs, each for at
        most its floor (``calculateSubmitterLimit`` caps the limit at the floor itself, not
        at what is left of it). ``subs`` is left as it was; the round's matches count.
        """
        usage = self.state.usage
        below = [s for s in subs if s.floor > 0 and usage.get(s.name, 0.0) < s.floor]
        if not below:
            return
        reasons = [(s, s.stop_reason) for s in below]
        self.negotiate_with_group(below, group_quota, group_name, floor_round=True)
        for sub, reason in reasons:  # the full round decides why jobs wait
            sub.stop_reason = reason

    def negotiate_with_group(
        self,
        subs: list[Submitter],
        group_quota: float,
        group_name: str | None,
        *,
        floor_round: bool = False,
    ) -> None:
        """The pie-spin loop for one group (``Matchmaker::negotiateWithGroup``).

        ``subs`` is the group's submitter list; submitters that are done are removed from
        it, as HTCondor removes their ads. The floor round spins once.
        """
        state = self.state
        state.negotiating_group = group_name or ROOT
        # the autoregroup round of <none> negotiates without a group name: no group cap
        tree = self.snap.tree
        autoregroup_round = tree is not None and tree.autoregroup and group_name == ROOT
        capped = None if autoregroup_round else group_name
        preempt = self.snap.knobs.consider_preemption
        number = 0
        while True:
            number += 1
            state.spins += 1
            group_usage = state.group_usage.get(capped, 0.0) if capped else 0.0
            if (number > 1 or not preempt) and capped is not None and group_usage >= group_quota:
                for sub in subs:
                    sub.stop_reason = "group_quota"
                break
            if not preempt:  # filter_submitters_no_idle, before the normalization
                subs[:] = [s for s in subs if s.idle > 0]
            if not subs:
                break
            spin = self._spin(subs, number, group_quota, group_usage, capped)
            if floor_round:
                spin = replace(spin, floor_round=True)
            if not preempt and spin.pie_left <= 0:  # "no slots available to match"
                for sub in subs:
                    sub.stop_reason = sub.stop_reason or "submitter_limit"
                break
            if number == 1:
                sort_submitters(subs)
            count_orig = len(subs)
            pie_left = self._turns(subs, spin, group_name)
            progressed = pie_left < spin.pie_left or len(subs) < count_orig
            if not progressed or not subs or state.available <= 0 or floor_round:
                break

    def _spin(
        self,
        subs: list[Submitter],
        number: int,
        group_quota: float,
        group_usage: float,
        capped: str | None,
    ) -> PieSpin:
        """A new spin's numbers (``calculateNormalizationFactor``, ``calculatePieLeft``);
        sets each submitter's starvation ratio (``SubmitterStarvation``)."""
        max_prio = max(s.eup for s in subs)
        normal = sum(max_prio / s.eup for s in {s.name: s for s in subs}.values())
        total = min(self.snap.pool_weight, group_quota)
        knobs = self.snap.knobs
        spin = PieSpin(number, max_prio, normal, total, group_quota, group_usage, 0.0, capped,
                       knobs.consider_preemption, False, knobs.ignore_user_priorities)  # fmt: skip
        usage = self.state.usage
        pie_left = 0.0
        for sub in subs:
            used = usage.get(sub.name, 0.0)
            limit = submitter_limit(spin, sub.eup, used).limit
            sub.starvation = used / (used + limit) if used + limit > 0 else FLT_MAX
            pie_left += limit
        return replace(spin, pie_left=pie_left)

    def _turns(self, subs: list[Submitter], spin: PieSpin, group_name: str | None) -> float:
        """Every submitter's turn in this spin, in order; keeps in ``subs`` those that
        resume in the next spin. Returns what is left of the pie."""
        state = self.state
        pie_left = spin.pie_left
        keep: list[Submitter] = []
        halted = False
        for sub in subs:
            if not halted and (
                not spin.ignore_submitter_limit
                and spin.capped_group is not None
                and state.group_usage.get(spin.capped_group, 0.0) >= spin.group_quota
            ):
                halted = True
                sub.stop_reason = "group_quota"
            if halted:
                keep.append(sub)
                continue
            resume, pie_left = self._turn(sub, spin, pie_left, group_name)
            if resume:
                keep.append(sub)
            if self.progress is not None:
                self.progress(len(state.matches) / max(1, len(self.snap.slots)))
        subs[:] = keep
        return pie_left

    def _turn(
        self, sub: Submitter, spin: PieSpin, pie_left: float, group_name: str | None
    ) -> tuple[bool, float]:
        """One submitter's slice and, when it may use it, its turn. Returns whether it
        resumes in the next spin and what is left of the pie."""
        usage = self.state.usage.get(sub.name, 0.0)
        limit, limit_unclaimed, share = submitter_limit(spin, sub.eup, usage)
        if spin.floor_round:  # calculateSubmitterLimit: min(floor, limit); the full
            limit = min(float(sub.floor), limit)  # round records the share
        elif sub.summary.share is None:
            sub.summary.share = share
            sub.summary.limit = share * spin.slot_weight_total
        if limit > pie_left:
            limit = pie_left
        headroom = math.inf
        if sub.ceiling >= 0:
            headroom = max(0.0, sub.ceiling - int(usage))
        if sub is self.explainer.submitter:
            self.explainer.note(
                "turn",
                spin=self.state.spins,
                group=group_name,
                share=share,
                limit=limit,
                limit_unclaimed=limit_unclaimed,
                pie_left=pie_left,
                **({"floor_round": True} if spin.floor_round else {}),
            )
        if sub.idle <= 0:
            return False, pie_left
        if spin.number > 1 and (limit < self.min_weight or pie_left < self.min_weight):
            sub.stop_reason = sub.stop_reason or "submitter_limit"
            return True, pie_left
        if headroom <= 0 or headroom < self.min_weight:
            sub.stop_reason = "ceiling"
            return False, pie_left
        turn = Turn(sub, limit, limit_unclaimed)
        return self._negotiate(turn, headroom, spin.ignore_submitter_limit, pie_left, group_name)

    def _negotiate(
        self,
        turn: Turn,
        headroom: float,
        ignore_limit: bool,
        pie_left: float,
        group_name: str | None,
    ) -> tuple[bool, float]:
        """One submitter's turn (``Matchmaker::negotiate``): its jobs in order, each
        matched or rejected, until a limit stops it. Returns whether it resumes in the
        next spin and what is left of the pie."""
        # hot: once per job matched or rejected (benchmarks/bench_negotiate.py)
        sub = turn.sub
        limited = False
        # without preemption and slot weights, a limit refusal ends the turn ("Hit
        # submitter limit: done negotiating")
        knobs = self.snap.knobs
        done_at_limit = not (knobs.consider_preemption or knobs.use_slot_weights)
        rejected: dict[object, str] = {}
        depth_first, left = knobs.depth_first, (sub.name, self.state.left_to_schedd)
        # jobs of a run after a match may take the same class's next slots in one step
        in_steps = self.explainer.job_id is None and self.matchmaker.carver is None
        in_steps = in_steps and self.matchmaker.unclaimed_only(turn) and not depth_first
        runs = offered(sub.runs, self.snap.unoffered) if self.snap.unoffered else sub.runs
        for run in turn_runs(runs, rejected):  # (those rejected already passed over)
            skip = run.reoffers = 0  # (depth first: what the last match counted past its own)
            while run.left or run.reoffers:
                stop = self._must_stop(turn, headroom, ignore_limit)
                if stop is not None or skip or not run.left:  # (else: its next job, asked)
                    request = next_request(stop, run, skip, left)
                    if request is False:
                        break
                    if request is not True:
                        sub.stop_reason = request
                        return True, pie_left
                run.reason = None  # (asked again: an earlier turn's refusal is past)
                ac = self.matchmaker.turn_ac(turn, run.ac)
                slot, tier, reason = self.matchmaker.find(turn, ac, turn.used >= turn.limit)
                if slot is None:
                    limited = self._rejected(turn, run, ac, reason, group_name) or limited
                    rejected[run.skip_key] = reason
                    if limited and done_at_limit:
                        return True, pie_left
                    break
                self.explainer.matching = ac.matching_slots
                job_id = matched_job(run, self.state.rematched)
                if not job_id:  # (a depth-first re-offer no job of the request takes)
                    weight = self._charge(turn, slot)
                    limits = self.matchmaker.matched_limits
                    pie_left -= lost_match(slot, sub.name, weight, self.state, limits)
                else:
                    pie_left -= self._record_match(turn, job_id, slot, tier, group_name)
                if in_steps and run.left and tier == NO_PREEMPTION and not ac.limits:
                    pie_left = self._same_class(turn, run, ac, slot, headroom, pie_left)
                if depth_first:
                    skip = counted_past(self.snap, ac.ad, slot, self.matchmaker.carver, run)
        if turn.used >= turn.limit and not limited:
            sub.stop_reason = "submitter_limit"
        return turn.used >= turn.limit or limited, pie_left

    def _same_class(
        self, turn: Turn, run: Run, ac: AutoCluster, slot: Slot, headroom: float, pie_left: float
    ) -> float:
        """The next jobs of ``run`` on the next slots of ``slot``'s class, for as long as
        :meth:`_negotiate` would give them those (returns what is left of the pie).

        Each job is one :meth:`Matchmaker.find` that would give the same answer: the turn
        goes on (under its limit and ceiling, slots left), the unclaimed limit permits the
        class's weight, and the class's next free slot comes before every other free slot of
        its rank group (the groups ranked before it refused the job, and still do: they have
        no free slot, or the limit refused them, and it only grows). Called only after an
        unclaimed match without concurrency limits, when the turn searches unclaimed slots
        alone, no partitionable slot is carved and no job is explained. Each match is
        recorded, and charged, as :meth:`_record_match` does it, in the same order.
        """
        # hot: once per job matched (benchmarks row negotiate-batches)
        if ac.limits_expr is not None or slot.claim is not None:
            return pie_left
        cls = self.snap.slot_class[slot.index]
        bound = min(
            (c.first_index() for c in self.matchmaker.found_group if c is not cls),
            default=1 << 62,
        )
        slots, weight, head = cls.slots, cls.weight, cls.head
        # how many: the turn's sums and the pool's free slots, step by step as the jobs
        # would go (the same additions, in the same order)
        last = min(len(slots), head + run.left)
        used, used_unclaimed, available = turn.used, turn.used_unclaimed, self.state.available
        limit, limit_unclaimed = turn.limit, turn.limit_unclaimed
        end = head
        while (
            end < last
            and slots[end].index < bound
            and used < limit
            and used < headroom
            and available > 0
            and permits(used_unclaimed, limit_unclaimed, weight)
        ):
            end += 1
            used += weight
            used_unclaimed += weight
            available -= 1
        if end == head:
            return pie_left
        # record and charge them as _record_match does, match by match
        state, sub = self.state, turn.sub
        name, group, g = sub.name, sub.group, sub.group or ROOT
        usage, group_usage = state.usage.get(name, 0.0), state.group_usage.get(g, 0.0)
        for _ in range(end - head):
            usage += weight
            group_usage += weight
            pie_left -= weight
        state.usage[name], state.group_usage[g] = usage, group_usage
        reason = REASON_NAMES[NO_PREEMPTION]
        state.matches.extend(
            new_match(job_id, name, s.name, reason, None, weight, group, s.resources)
            for job_id, s in zip(run.take(end - head), slots[head:end], strict=True)
        )
        cls.head = end
        sub.summary.matched += end - head
        state.available = available
        turn.used, turn.used_unclaimed = used, used_unclaimed
        return pie_left

    def _must_stop(self, turn: Turn, headroom: float, ignore_limit: bool) -> str | None:
        """Why the turn ends before its next job (None: it goes on)."""
        if turn.used >= turn.limit and not ignore_limit:
            return "submitter_limit"
        if turn.used >= headroom:
            return "ceiling"
        if self.state.available <= 0:
            return "pool_exhausted"
        return None

    def _rejected(
        self, turn: Turn, run: Run, ac: AutoCluster, reason: str, group_name: str | None
    ) -> bool:
        """The head job of ``run`` (of autocluster ``ac`` as the turn sees it) found no
        slot: the rest of the run waits with ``reason``. Returns whether a limit (the
        submitter's or the group's) refused it, named in ``reason`` or not."""
        run.reason = reason
        explained = self.explainer.job_id
        if explained is not None and run.left and run.head_id() == explained:
            self.explainer.note(
                "rejected",
                spin=self.state.spins,
                reason=reason,
                group=group_name,
                unclaimed_matching=ac.matching_slots,
            )
        limit = reason if reason in ("submitter_limit", "group_quota") else None
        if self.matchmaker.limit_behind is not None:
            limit, self.matchmaker.limit_behind = self.matchmaker.limit_behind, None
        if limit is not None:
            turn.sub.stop_reason = limit
            return True
        return False

    def _charge(self, turn: Turn, slot: Slot) -> float:
        """Charge a match on ``slot`` in the cycle and to ``turn`` (``CycleState.charge``)."""
        mm, weight = self.matchmaker, self.snap.slot_class[slot.index].weight
        self.state.charge(turn, slot, weight, mm.carver, self.snap.group_of, mm.matched_limits)
        return weight

    def _record_match(
        self, turn: Turn, job_id: str, slot: Slot, tier: int, group_name: str | None
    ) -> float:
        """Record a match and charge its slot weight (``Accountant::AddMatch``, which on a
        claimed slot first removes the match it replaces) to the submitter, its turn and
        the concurrency limits the match takes (``IncrementLimits``). Returns the weight."""
        state, sub = self.state, turn.sub
        weight = self._charge(turn, slot)
        claim = slot.claim
        preempted = None if claim is None else claim.job_id
        carver = self.matchmaker.carver
        reason = REASON_NAMES[tier]
        held = weight if carver is None else carver.own.get(slot.index, weight)
        state.matches.append(
            new_match(
                job_id,
                sub.name,
                slot.name,
                reason,
                preempted,
                held,
                sub.group,
                slot.resources,
                None if held == weight else weight,
            )
        )
        sub.summary.matched += 1
        if job_id == self.explainer.job_id:
            self.explainer.note(
                "matched",
                spin=state.spins,
                slot=slot.name,
                reason=reason,
                preempted_job=preempted,
                group=group_name,
                unclaimed_matching=self.explainer.matching,
            )
        return weight
