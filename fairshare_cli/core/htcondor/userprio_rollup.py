"""``condor_userprio -grouprollup``: each group's usage summed over its subgroups.

``-grouprollup`` asks the negotiator for ``GET_PRIORITY_ROLLUP``: its one numbered ad
(``Accountant::ReportState(true)``), whose group entries ``Accountant::ReportGroups``
fills depth first. A group's own record values come first (its ``ResourcesUsed``,
``WeightedResourcesUsed``, ``AccumulatedUsage``, ``WeightedAccumulatedUsage``,
``BeginUsageTime`` and ``LastUsageTime``), then each subgroup, after its own subtree is
done, adds its four usage values to its parent's and gives the parent the earlier
``BeginUsageTime`` and the later ``LastUsageTime``; the root ``<none>`` adds nothing to
anyone. A group record holds only its own submitters' usage (``AddMatch`` charges the
submitter's deepest group), so a rolled-up group shows its whole subtree's, and
``<none>`` the pool's. A never-used group's ``BeginUsageTime`` of 0 wins the minimum.

In that ad a group's ``Priority`` is 0 and its ``PriorityFactor`` the record's own (the
plain ad has the group's ``GROUP_PRIO_FACTOR_<g>`` there); submitters are as without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
from fairshare_cli.core.htcondor.userprio_row import UserprioRow

#: The fields a subgroup adds to its parent (``ReportGroups``), in seconds where a time.
_SUMMED = (
    "resources_in_use",
    "weighted_resources_in_use",
    "accumulated_usage",
    "weighted_accumulated_usage",
)


def group_children(groups: Iterable[str]) -> dict[str, list[str]]:
    """Each group's subgroups, sorted without regard to case as ``hgq_construct_tree``
    orders them; a group whose dotted parent is not configured hangs from ``<none>``."""
    names = list(groups)
    lower = {name.lower(): name for name in names}
    children: dict[str, list[str]] = {}
    for name in sorted(names, key=str.lower):
        parent, dot, _ = name.rpartition(".")
        above = lower.get(parent.lower(), ROOT_GROUP) if dot else ROOT_GROUP
        children.setdefault(above, []).append(name)
    return children


def breadth_first(groups: Iterable[str]) -> list[str]:
    """``<none>`` and the configured groups breadth-first, as ``ReportState`` numbers
    them (each group's children in :func:`group_children`'s order)."""
    children = group_children(groups)
    order = [ROOT_GROUP]
    for name in order:  # (grows as it goes)
        order.extend(children.get(name, ()))
    return order


def rolled_up(rows: Sequence[UserprioRow], groups: Iterable[str]) -> list[UserprioRow]:
    """``rows`` with each group row as the rollup ad shows it (see the module docstring).

    Args:
        rows: every row of the accountant at the view's time, groups and submitters, none
            left out by an activity filter (the negotiator rolls up every group).
        groups: the configured group names (``<none>`` is the root of them).
    """
    by_name = {row.name: row for row in rows if row.is_group}
    children = group_children(groups)
    totals: dict[str, UserprioRow] = {}

    def report(group: str) -> None:  # ReportGroups: the subtree first, then into the parent
        own = by_name.get(group)
        if own is None:  # no record: HTCondor reports neither it nor its subgroups
            return
        row = own._replace(effective_priority=0.0, real_priority=0.0)
        totals[group] = row._replace(table_factor=own.priority_factor)
        for child in children.get(group, ()):
            report(child)
            done = totals.get(child)
            if done is None:
                continue
            now = totals[group]
            summed = {f: getattr(now, f) + getattr(done, f) for f in _SUMMED}
            totals[group] = now._replace(
                **summed,
                begin_usage_time=min(now.begin_usage_time, done.begin_usage_time),
                last_usage_time=max(now.last_usage_time, done.last_usage_time),
            )

    report(ROOT_GROUP)
    return [_with_hours(totals[row.name]) if row.name in totals else row for row in rows]


def _with_hours(row: UserprioRow) -> UserprioRow:
    """The hours fields (``--json``'s and the table's) of the rolled-up seconds."""
    return row._replace(
        accumulated_usage_hours=row.accumulated_usage / 3600.0,
        weighted_accumulated_usage_hours=row.weighted_accumulated_usage / 3600.0,
    )
