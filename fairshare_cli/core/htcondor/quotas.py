"""Group negotiation under hierarchical group quotas, cycle by cycle, and ``fs quota``'s rows.

Mirrors ``hgq_prepare_for_matchmaking`` and ``hgq_negotiate_with_all_groups`` in HTCondor's
negotiator (reference §4): reset the tree for a cycle, run the allocation rounds, order the
groups by ``GROUP_SORT_EXPR``, hand each its round-robin share of its allocation (cut by
strict quota enforcement) and reset demand from what was matched. The group tree and quota
assignment are :mod:`fairshare_cli.core.htcondor.groups`. Pure: usage comes in through a
callable, negotiation goes out through one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fairshare_cli.core.cpp_sort import cpp_sort
from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone
from fairshare_cli.core.htcondor.groups import (
    GroupNode,
    GroupTree,
    QuotaKnobs,
    assign_quotas,
    fairshare,
    recover_remainders,
)


def _subtree_usage(node: GroupNode, usage: Callable[[str], float]) -> float:
    total = usage(node.name) + sum(_subtree_usage(c, usage) for c in node.children)
    node.subtree_usage = total
    return total


def strict_enforce_quota(
    tree: GroupTree, group: GroupNode, slots: float, usage: Callable[[str], float]
) -> float:
    """Cap a group's negotiation target by every non-surplus ancestor's headroom.

    Mirrors ``GroupEntry::strict_enforce_quota`` (``NEGOTIATOR_STRICT_ENFORCE_QUOTA``):
    walking from the group to the root, each node that does not accept surplus leaves
    ``(static ? config quota : subtree quota) - subtree usage`` (at least 0); the group's
    new allocation above its own usage is cut to the smallest of these.
    """
    _subtree_usage(tree.root, usage)
    new = slots - group.usage
    node: GroupNode | None = group
    while node is not None:
        if not node.accept_surplus:
            cap = node.config_quota if node.static_quota else node.subtree_quota
            available = max(cap - node.subtree_usage, 0.0)
            new = min(new, available)
        node = node.parent
    return new + group.usage


def sort_keys(
    tree: GroupTree, expr: str, usage: Callable[[str], float], evaluate: SortEvaluator
) -> None:
    """Set every group's ``sort_key`` from ``GROUP_SORT_EXPR``, as
    ``hgq_negotiate_with_all_groups`` reads it with ``LookupFloat``: a number as it is, a
    boolean as 1.0 or 0.0 (``Value::IsNumber``), anything else ``FLT_MAX`` (3.4028e38, the
    C float's largest: after the default's 3.4e38 for ``<none>``, before a larger key)."""
    for g in tree.groups:
        value = evaluate(
            expr,
            {
                "AccountingGroup": g.name,
                "GroupQuota": g.quota,
                "GroupResourcesAllocated": g.allocated,
                "GroupResourcesInUse": usage(g.name),
            },
        )
        g.sort_key = float(value) if type(value) in (int, float, bool) else FLT_MAX  # type: ignore[arg-type]


def negotiation_order(tree: GroupTree) -> list[GroupNode]:
    """The groups in the order they negotiate: ``std::sort`` of the breadth-first groups
    by ``sort_key`` (``group_order``; with autoregroup ``<none>`` after every other), ties
    where GCC's sort leaves them: in breadth-first order up to 16 groups, moved by its
    partitions above that (:func:`~fairshare_cli.core.cpp_sort.cpp_sort`)."""
    root, last = tree.root, tree.autoregroup
    order = list(tree.groups)
    cpp_sort(order, lambda g: (last and g is root, g.sort_key))
    return order


SortEvaluator = Callable[[str, Mapping[str, object]], object]

#: Where a bad ``GROUP_SORT_EXPR`` is reported.
GROUP_SORT_WHERE = "[negotiator] group_sort_expr"
#: The most sort-key results :func:`group_sort_value` keeps (then it starts afresh).
_MAX_SORT_RESULTS = 1 << 14
_sort_compiled: dict[tuple[str, frozenset[str]], Compiled] = {}
_sort_results: dict[tuple[object, ...], object] = {}


def _value_key(value: object) -> tuple[object, ...]:
    """``value`` as a cache key: with its type (``1 == 1.0 == True`` in Python, not in a
    ClassAd) and, for a float zero, its sign (``-0.0 == 0.0``, yet ``1/-0.0`` is ``-inf``)."""
    if type(value) is float and value == 0.0:
        return (float, value, math.copysign(1.0, value))
    return (type(value), value)


def group_sort_value(expr: str, values: Mapping[str, object]) -> object:
    """``GROUP_SORT_EXPR`` evaluated against one ad of ``values`` (no target), as
    :func:`~fairshare_cli.core.htcondor.classads.evaluate_alone` evaluates it: compiled once
    per text and attribute names, and each result kept by the text and the typed values
    (an expression reads nothing else: the group's name, quota, allocation and usage), so a
    cycle whose group holds the values of an earlier one evaluates nothing.

    Raises:
        InputError: the expression does not parse.
    """
    key = (expr, *values, *map(_value_key, values.values()))
    try:
        return _sort_results[key]
    except KeyError:
        pass
    value = evaluate_alone(expr, values, GROUP_SORT_WHERE, _sort_compiled)
    if len(_sort_results) >= _MAX_SORT_RESULTS:
        _sort_results.clear()
    _sort_results[key] = value
    return value


NegotiateFn = Callable[[GroupNode, int], None]


@dataclass
class RoundLog:
    """What one allocation round did: each group's allocation and negotiation limits."""

    number: int
    allocated: dict[str, float]
    limits: dict[str, list[int]]


def prepare_groups(
    tree: GroupTree,
    pool_size: float,
    demand: Mapping[str, float],
    submitters: Mapping[str, list[str]],
    usage: Callable[[str], float],
    knobs: QuotaKnobs,
    rr_times: Mapping[str, float] | None = None,
) -> None:
    """Reset the tree for a cycle: demand, submitters, usage and quotas.

    Mirrors ``GroupEntry::hgq_prepare_for_matchmaking``.

    Args:
        tree: the group tree.
        pool_size: slots (or weighted slots) the root hands out.
        demand: group name -> requested (weighted running + idle jobs of its submitters).
        submitters: group name -> submitter names negotiating in it.
        usage: group name -> weighted resources in use by its own submitters.
        knobs: the quota knobs.
        rr_times: group name -> when it was last served by round robin (persisted).
    """
    rr_times = rr_times or {}
    for g in tree.groups:
        g.quota = g.requested = g.currently_requested = g.allocated = 0.0
        g.subtree_quota = g.subtree_requested = 0.0
        g.first_limit = None
        g.rr = False
        g.rr_time = rr_times.get(g.name, 0.0)
        g.requested = float(demand.get(g.name, 0.0))
        g.currently_requested = g.requested
        g.submitters = list(submitters.get(g.name, []))
        g.usage = usage(g.name)
    if tree.autoregroup:
        for g in tree.groups[1:]:
            if g.autoregroup:
                tree.root.submitters.extend(g.submitters)
    assign_quotas(tree.root, float(pool_size), knobs.allow_quota_oversubscription)


def negotiate_groups(
    tree: GroupTree,
    pool_size: float,
    knobs: QuotaKnobs,
    usage: Callable[[str], float],
    negotiate: NegotiateFn,
    evaluate: SortEvaluator,
) -> list[RoundLog]:
    """Run the allocation rounds and negotiate each group (``hgq_negotiate_with_all_groups``).

    Call :func:`prepare_groups` first. Each round: fair share, remainder recovery (slot
    weights off), group order by sort key, round-robin passes handing each group
    ``usage + delta·n/maxdelta`` slots (whole slots when weights are off, cut by strict
    enforcement, truncated to an integer), then demand is reset from what was matched.
    Stops after ``group_quota_max_allocation_rounds`` or when every allocation was used.

    Returns:
        One :class:`RoundLog` per round.
    """
    logs: list[RoundLog] = []
    rounds = max(1, int(knobs.group_quota_max_allocation_rounds))
    rate = max(1.0, float(knobs.group_quota_round_robin_rate))
    for number in range(1, rounds + 1):
        _allocate(tree, pool_size, knobs)
        maxdelta = 0.0
        allocated_total = 0.0
        for g in tree.groups:
            allocated_total += g.allocated
            target = g.allocated if tree.accept_surplus else g.quota
            maxdelta = max(maxdelta, max(0.0, target - g.usage))
        sort_keys(tree, knobs.group_sort_expr, usage, evaluate)
        order = negotiation_order(tree)
        log = RoundLog(number, {g.name: g.allocated for g in tree.groups}, {})
        n = 0.0
        while True:
            n = min(n + rate, maxdelta)
            for g in order:
                limit = _group_limit(tree, g, n / maxdelta if maxdelta > 0 else None, knobs, usage)
                if limit is None:
                    continue
                if g.first_limit is None:
                    g.first_limit = limit
                log.limits.setdefault(g.name, []).append(limit)
                negotiate(g, limit)
            if n >= maxdelta:
                break
        logs.append(log)
        if _reset_demand(tree, usage) >= allocated_total:
            break
    return logs


def _allocate(tree: GroupTree, pool_size: float, knobs: QuotaKnobs) -> None:
    """One round's allocation: fair share, then whole slots when slot weights are off."""
    for g in tree.groups:
        g.allocated = 0.0
        g.subtree_requested = 0.0
        g.rr = False
    fairshare(tree.root)
    if not knobs.use_slot_weights:
        recover_remainders(tree.root)
    if tree.autoregroup:
        tree.root.quota = pool_size
        tree.root.allocated = pool_size


def _group_limit(
    tree: GroupTree,
    g: GroupNode,
    fraction: float | None,
    knobs: QuotaKnobs,
    usage: Callable[[str], float],
) -> int | None:
    """The slots a group may hold after this pass, or None when it does not negotiate.

    ``fraction`` is ``n / maxdelta``, how far the passes have gone (None when ``maxdelta``
    is 0).
    """
    if g.allocated <= 0:
        return None
    if g.usage >= g.allocated and not knobs.consider_preemption:
        return None
    if not g.submitters:
        return None
    target = max(g.allocated, g.quota)
    delta = max(0.0, target - g.usage)
    if delta > 0 and fraction is None:
        # HTCondor computes 0/0 here (a group under its quota while every
        # allocation is used); the NaN becomes a negative integer quota, with
        # which only machine-rank preemption can match. A limit of 0 does the same.
        return 0
    slots = g.usage + delta * fraction if delta > 0 and fraction is not None else target
    slots = min(slots, target)
    if not knobs.use_slot_weights:
        slots = math.floor(slots)
    if knobs.strict_enforce_quota:
        slots = strict_enforce_quota(tree, g, slots, usage)
    return int(slots)


def _reset_demand(tree: GroupTree, usage: Callable[[str], float]) -> float:
    """After a round: usage from what was matched, demand from what was left.

    Returns:
        The allocation used, summed over the groups (each capped at its allocation).
    """
    usage_total = 0.0
    for g in tree.groups:
        g.usage = usage(g.name)
        usage_total += min(g.usage, g.allocated)
        if g.usage < g.allocated:
            g.requested = g.usage
        else:
            g.requested += g.allocated
    return usage_total


def updated_rr_times(tree: GroupTree, now: float) -> dict[str, float]:
    """Round-robin times to persist after a cycle: groups served by round robin, or with
    no demand left, are stamped ``now``."""
    return {g.name: (now if (g.rr or g.requested <= 0) else g.rr_time) for g in tree.groups}


@dataclass(frozen=True)
class QuotaRow:
    """One row of ``fs quota`` (docs/json.md ``quota`` fields)."""

    group: str
    parent: str | None
    static_quota: float | None
    dynamic_quota: float | None
    subtree_quota: float
    quota: float
    limit: int
    accept_surplus: bool
    in_use: float
    demand: float
    sort_key: float = 0.0

    @property
    def strict_cap(self) -> float | None:
        """What the group may hold when it takes no surplus (None when it does): the cap of
        ``GroupEntry::strict_enforce_quota``, its static quota, else its subtree quota.

        A committed cycle can leave a group above it, in HTCondor as here:
        ``negotiateWithGroup`` checks the group's usage against its limit only before each
        submitter's turn and pie spin, and within a turn ``Matchmaker::negotiate`` bounds
        the matches that preempt by the submitter's limit alone (only matches of unclaimed
        slots are held to ``groupQuota - groupusage``).
        """
        if self.accept_surplus or self.parent is None:
            return None
        return self.static_quota if self.static_quota is not None else self.subtree_quota


def quota_rows(
    tree: GroupTree,
    pool_size: float,
    demand: Mapping[str, float],
    submitters: Mapping[str, list[str]],
    usage: Mapping[str, float],
    knobs: QuotaKnobs,
    evaluate: SortEvaluator,
    rr_times: Mapping[str, float] | None = None,
) -> list[QuotaRow]:
    """The quota view: each group's configured and assigned quota and its negotiation limit.

    The limit is what the first allocation round would hand the group's own submitters
    (whole slots), given the demand and the usage now, before any match is made: with a
    ``group_quota_round_robin_rate`` below the largest delta the round negotiates in
    several passes of growing limits (``hgq_negotiate_with_all_groups``), and the limit is
    the last pass's, what the group negotiates for by the round's end. ``rr_times``: when
    each group was last served by round robin (persisted by the cycles), which orders the
    remainders' round robin (slot weights off), as in the cycle.
    """

    def use(name: str) -> float:
        return float(usage.get(name, 0.0))

    prepare_groups(tree, pool_size, demand, submitters, use, knobs, rr_times)
    one_round = QuotaKnobs(**{**knobs.__dict__, "group_quota_max_allocation_rounds": 1})
    (first,) = negotiate_groups(tree, pool_size, one_round, use, lambda g, n: None, evaluate)
    rows = []
    for g in tree.groups:
        rows.append(
            QuotaRow(
                group=g.name,
                parent=g.parent_name,
                static_quota=g.config_quota if (g.static_quota and g.parent) else None,
                dynamic_quota=(
                    g.config_quota if (not g.static_quota and g.parent is not None) else None
                ),
                subtree_quota=g.subtree_quota,
                quota=g.quota,
                limit=first.limits.get(g.name, [0])[-1],
                accept_surplus=g.accept_surplus,
                in_use=use(g.name),
                demand=g.currently_requested,
                sort_key=g.sort_key,
            )
        )
    return rows
