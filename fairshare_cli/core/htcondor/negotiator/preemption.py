"""What ``PREEMPTION_REQUIREMENTS`` and machine ranks allow on claimed slots this cycle.

Read once, before the first pie spin, so that the search for claimed candidates can skip
what can never pass: slot classes no submitter may preempt, necessary conditions that cost
one number comparison (:class:`~.claimed.Bound`), and whether the expression needs
evaluating at all. The plain search (``reference``) uses none of this.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairshare_cli.core.htcondor.classad_text import split_comparison, split_conjuncts
from fairshare_cli.core.htcondor.classads import Ad, Compiled
from fairshare_cli.core.htcondor.negotiator.claimed import (
    Bound,
    ClaimedList,
    last_held_by_other,
    policy_classes,
)
from fairshare_cli.core.htcondor.negotiator.common import FLIP, INF, Number, number
from fairshare_cli.core.htcondor.negotiator.queue import SUBMITTER_ATTRS
from fairshare_cli.core.htcondor.negotiator.slots import SlotClass
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot
from fairshare_cli.errors import ConfigError

WHERE = "[negotiator] preemption_requirements"


@dataclass(frozen=True)
class PreemptionPlan:
    """What can ever happen to claimed slots this cycle (shortcuts for the search).

    Attributes:
        rank_constant: no claimed slot's machine ``RANK`` reads anything, so no machine
            prefers a job to the one it runs (no rank preemption).
        claimed_per_submitter: an expression that decides claimed candidates reads the
            submitter's negotiation-time attributes (candidates are found per submitter).
        preq_reads_submitter_only: ``PREEMPTION_REQUIREMENTS`` reads, of the job, only the
            submitter's attributes (one answer per submitter and slot class).
        preq_never: ``PREEMPTION_REQUIREMENTS`` is constantly not true.
        preq_covered: the bounds and the slot-only operands decide it (every top-level
            ``&&`` operand is one of them).
        bounds: necessary conditions for priority preemption (none in the plain search).
    """

    rank_constant: bool
    claimed_per_submitter: bool
    preq_reads_submitter_only: bool
    preq_never: bool
    preq_covered: bool
    bounds: list[Bound]


def analyse_claimed(snap: Snapshot) -> PreemptionPlan:
    """The :class:`PreemptionPlan` of a snapshot; flags the claimed classes that no
    submitter may preempt for priority (``never_preempted``) and those where an operand
    that reads only the slot is not true (``preq_slot_true``)."""
    classes = snap.claimed_classes
    rank_constant = all(
        not (c.ad.exprs["rank"][1].my_refs or c.ad.exprs["rank"][1].target_refs) for c in classes
    )
    reads: list[Compiled] = []
    for c in classes:
        reads.append(c.ad.exprs["requirements"][1])
        reads.append(c.ad.exprs["rank"][1])
    claimed_exprs = [e for (_, claimed), e in snap.slot_exprs.items() if claimed]
    for e in claimed_exprs:
        reads.extend(x for x in (e.pre, e.post, e.weight, e.prank) if x is not None)
    claimed_per_submitter = any(
        r in SUBMITTER_ATTRS for c in reads for r in (*c.my_refs, *c.target_refs)
    ) or any(r in SUBMITTER_ATTRS for r in snap.refs)
    preq_reads_submitter_only = all(
        r in SUBMITTER_ATTRS
        for e in claimed_exprs
        if e.preq is not None
        for r in e.preq.target_refs
    )
    _mark_never_preempted(snap)
    preq_never = False
    if classes:
        preq = snap.slot_exprs[(classes[0].slots[0].stanza, True)].preq
        if preq is not None and not (preq.my_refs or preq.target_refs):
            preq_never = not snap.ev.is_true(preq, snap.empty, snap.empty)
    bounds: list[Bound] = []
    covered = False
    if not snap.reference:
        bounds, covered = _preemption_bounds(snap, preq_never)
    return PreemptionPlan(
        rank_constant,
        claimed_per_submitter,
        preq_reads_submitter_only,
        preq_never,
        covered,
        bounds,
    )


def _side(expr: Compiled, ad: Ad) -> str:
    """Which ad an operand of a slot-scope expression reads: "const", "slot", "job"
    or "both" (a slot expression attribute it reads may itself read the job)."""
    if expr.target_refs:
        return "both" if expr.my_refs else "job"
    todo = [r for r in expr.my_refs if r in ad.exprs]
    seen: set[str] = set()
    while todo:  # expression attributes of the slot it reads, and theirs
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        inner = ad.exprs[ref][1]
        if inner.target_refs:
            return "both"
        todo.extend(r for r in inner.my_refs if r in ad.exprs)
    return "slot" if expr.my_refs else "const"


def _preemption_bounds(snap: Snapshot, preq_never: bool) -> tuple[list[Bound], bool]:
    """Necessary conditions for priority preemption that cost a number comparison
    (see :class:`~.claimed.Bound`): 7.x's 0.5 rule, and every top-level ``&&`` operand of
    ``PREEMPTION_REQUIREMENTS`` of the form ``slot expression OP job expression``
    (in either order) with OP one of ``< <= > >=``, the same for every claimed class;
    and whether they (with the operands that read only the slot) cover the expression."""
    bounds: list[Bound] = []
    classes = snap.claimed_classes
    if not classes:
        return bounds, False
    if snap.legacy:
        values: dict[int, Number | None] = {}
        for cls in classes:
            if cls.remote is not None:
                values[cls.index] = float(snap.priorities(cls.remote).effective_priority)
        bounds.append(Bound(">=", None, None, values))
    text = snap.knobs.preemption_requirements
    covered = not preq_never
    if not text or not text.strip() or preq_never:
        return bounds, covered
    for part in split_conjuncts(text):
        count = len(bounds)
        _add_bound(snap, part, bounds)
        if len(bounds) == count and not _slot_only_conjunct(snap, part):
            covered = False
    return bounds, covered


def _slot_only_conjunct(snap: Snapshot, part: str) -> bool:
    """Whether an operand of ``PREEMPTION_REQUIREMENTS`` reads only the slot in every
    claimed class; marks the classes where it is not ``true``."""
    ev = snap.ev
    for cls in snap.claimed_classes:
        c = ev.compile(part, cls.ad.names, WHERE, ConfigError)
        if _side(c, cls.ad) not in ("slot", "const"):
            return False
    for cls in snap.claimed_classes:
        c = ev.compile(part, cls.ad.names, WHERE, ConfigError)
        if ev.evaluate(c, cls.ad, snap.empty) is not True:
            cls.preq_slot_true = False
    return True


def _add_bound(snap: Snapshot, part: str, bounds: list[Bound]) -> None:
    """Append the :class:`~.claimed.Bound` of one ``&&`` operand, when it is one."""
    parts = split_comparison(part)
    if parts is None:
        return
    left, op, right = parts
    ev = snap.ev
    bound: Bound | None = None
    for cls in snap.claimed_classes:
        ad = cls.ad
        lhs = ev.compile(left, ad.names, WHERE, ConfigError)
        rhs = ev.compile(right, ad.names, WHERE, ConfigError)
        sides = (_side(lhs, ad), _side(rhs, ad))
        if sides[1] == "job" and sides[0] in ("slot", "const"):
            slot_expr, job_expr, cls_op = lhs, rhs, op
        elif sides[0] == "job" and sides[1] in ("slot", "const"):
            slot_expr, job_expr, cls_op = rhs, lhs, FLIP[op]
        else:
            return
        if bound is None:
            bound = Bound(cls_op, job_expr, ad, {})
        elif job_expr.text != bound.job_expr.text or cls_op != bound.op:  # type: ignore[union-attr]
            return
        bound.slot_values[cls.index] = number(ev.evaluate(slot_expr, ad, snap.empty))
    if bound is not None:
        bounds.append(bound)


def _mark_never_preempted(snap: Snapshot) -> None:
    """Flag claimed classes that no submitter may preempt for priority: a top-level
    ``&&`` operand of ``PREEMPTION_REQUIREMENTS`` that reads only the slot is false
    (or undefined) there — e.g. ``TotalJobRuntime > 3600`` on a claim younger than that."""
    text = snap.knobs.preemption_requirements
    if not text or not snap.claimed_classes:
        return
    conjuncts = split_conjuncts(text)
    if len(conjuncts) < 2:
        return
    for cls in snap.claimed_classes:
        ad = cls.ad
        for part in conjuncts:
            c = snap.ev.compile(part, ad.names, WHERE)
            if c.target_refs or any(
                ad.exprs[r][1].my_refs or ad.exprs[r][1].target_refs
                for r in c.my_refs
                if r in ad.exprs
            ):
                continue
            value = snap.ev.evaluate(c, ad, snap.empty)
            # false, undefined, error or a string: the conjunction cannot be true
            # (a number is left alone: old ClassAds read non-zero as true)
            if value is not True and type(value) not in (int, float):
                cls.never_preempted = True
                break


def short_of_margin(snap: Snapshot, cls: SlotClass, name: str, eup: float) -> bool:
    """HTCondor 7.x's hard-coded rule (legacy profile), tested before
    ``PREEMPTION_REQUIREMENTS``: a claim is preempted for priority only when its user's
    priority is at least ``PriorityDelta`` (0.5) worse than the submitter's ``eup``. Its
    refusal is ``rejPreemptForPrio``, the negotiator's "insufficient priority". A class
    not split by holder (never a candidate) falls short when all its other holders do."""
    if not snap.legacy:
        return False
    if cls.remote is not None:
        return snap.priorities(cls.remote).effective_priority < eup + 0.5
    held = {s.claim.submitter for s in cls.slots[cls.head :] if s.claim is not None}
    held.discard(name)
    return bool(held) and all(snap.priorities(h).effective_priority < eup + 0.5 for h in held)


def preemption_allowed(snap: Snapshot, name: str, eup: float, cls: SlotClass, job_ad: Ad) -> bool:
    """Whether submitter ``name`` (effective priority ``eup``) may preempt a slot of ``cls``
    for priority: ``PREEMPTION_REQUIREMENTS`` (MY = slot, TARGET = job), and under the
    legacy profile 7.x's margin first. Decided once per (submitter, class) by the caller."""
    if short_of_margin(snap, cls, name, eup):  # cheap: the (double) EUP
        return False
    preq = snap.slot_exprs[(cls.slots[0].stanza, True)].preq
    return preq is None or snap.ev.is_true(preq, cls.ad, job_ad, cached=False)


def all_short_held(snap: Snapshot, claimed: ClaimedList, name: str, eup: float) -> bool | None:
    """Under the legacy profile, when every holder of ``claimed``'s policy classes is short
    of 7.x's margin (:func:`short_of_margin`): whether one of them, not ``name``, still holds
    a slot there. None otherwise: some holder may reach ``PREEMPTION_REQUIREMENTS``."""
    if not snap.legacy:
        return None
    if claimed.top_eup is None:
        claimed.top_eup = max(
            (
                INF if c.remote is None else snap.priorities(c.remote).effective_priority
                for c in policy_classes(claimed)
            ),
            default=-INF,
        )
    if claimed.top_eup >= eup + 0.5:
        return None
    return any(last_held_by_other(c, name) >= c.head for c in policy_classes(claimed))
