"""``condor_userprio``'s columns (reference/htcondor.md §6.4–6.5): each one's width, two
header lines and cell, the number, date and time formats they print with, and which
columns the display options choose.

Times print in local time, as condor_userprio does (set ``TZ`` to choose).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fairshare_cli.core.htcondor.userprio import UserprioRow, UserprioView


def fmt_number(value: float, width: int, decimals: int) -> str:
    """``%{w}.{d}f``, or ``%.{w-6}g`` when that is too wide; right-aligned, cut to w."""
    text = f"{value:{width}.{decimals}f}"
    if len(text) > width:
        text = f"{value:.{max(width - 6, 1)}g}"
    return text.rjust(width)[:width]


def center(text: str, width: int) -> str:
    """A header cell: left padding ⌊(w − len)/2⌋, then the text, then spaces to w."""
    pad = max((width - len(text)) // 2, 0)
    return (" " * pad + text).ljust(width)[:width]


def format_date(t: float) -> str:
    """``%2d/%-2d %02d:%02d``: month/day hour:minute (local time)."""
    if t < 0:
        return "    ???    "
    tm = time.localtime(t)
    return f"{tm.tm_mon:2d}/{tm.tm_mday:<2d} {tm.tm_hour:02d}:{tm.tm_min:02d}"


def format_date_year(t: float) -> str:
    """``%2d/%02d/%-4d %02d:%02d`` (local time)."""
    if t < 0:
        return "    ???    "
    tm = time.localtime(t)
    return f"{tm.tm_mon:2d}/{tm.tm_mday:02d}/{tm.tm_year:<4d} {tm.tm_hour:02d}:{tm.tm_min:02d}"


def format_time(secs: float) -> str:
    """``%3lld+%02lld:%02lld:%02lld``: days+hours:minutes:seconds, each part divided as C
    divides (toward zero: a time before the start prints its parts negative)."""
    s = int(secs)
    parts = []
    for unit in (86400, 3600, 60):
        whole = abs(s) // unit * (1 if s >= 0 else -1)
        parts.append(whole)
        s -= whole * unit
    days, hours, minutes = parts
    return f"{days:3d}+{hours:02d}:{minutes:02d}:{s:02d}"


def format_time_nosecs(secs: float) -> str:
    """``%3lld+%02lld:%02lld``: days+hours:minutes; negative ⇒ ``[?????]``."""
    if secs < 0:
        return "[?????]"
    s = int(secs)
    return f"{s // 86400:3d}+{(s % 86400) // 3600:02d}:{(s % 3600) // 60:02d}"


@dataclass(frozen=True)
class Column:
    """One condor_userprio column."""

    key: str
    width: int
    head1: str
    head2: str
    cell: Callable[[UserprioRow, float], str | None]
    left: bool = False


def _num(
    get: Callable[[UserprioRow], float | None],
    decimals: int,
    width: int,
    blank_groups: bool = False,
    nd_groups: bool = False,
) -> Callable[[UserprioRow, float], str | None]:
    def cell(row: UserprioRow, now: float) -> str | None:
        if blank_groups and row.is_group:
            return None
        value = get(row)
        if value is None:
            return "n/d" if nd_groups and row.is_group else None
        return fmt_number(value, width, decimals)

    return cell


def _quota(
    get: Callable[[UserprioRow], float | None], width: int
) -> Callable[[UserprioRow, float], str | None]:
    def cell(row: UserprioRow, now: float) -> str | None:
        if not row.is_group:
            return None
        value = get(row)
        return "n/d" if value is None else fmt_number(value, width, 2)

    return cell


def _date(
    get: Callable[[UserprioRow], float], blank_nonpositive: bool
) -> Callable[[UserprioRow, float], str | None]:
    def cell(row: UserprioRow, now: float) -> str | None:
        t = get(row)
        if blank_nonpositive and t <= 0:
            return None
        return format_date_year(t)

    return cell


def _table_factor(row: UserprioRow) -> float | None:
    factor = row.priority_factor if row.table_factor is None else row.table_factor
    return factor if factor > 0 else None


def _real_priority(row: UserprioRow) -> str | None:
    """``user_prio.cpp``'s Real Priority cell: the ad's Priority over its PriorityFactor,
    shown when that factor is above 0 (``DetailRealPrio``), a group's row too. A user's
    factor is at least 1: its ``real_priority``; a group's factor is the one the Priority
    Factor column prints (:func:`_table_factor`: 0 for -allusers without a prio_factor)."""
    if not row.is_group:
        return fmt_number(row.real_priority, 8, 2)
    factor = _table_factor(row)
    return None if factor is None else fmt_number(row.effective_priority / factor, 8, 2)


def _since(row: UserprioRow, now: float) -> str | None:
    """Time since the last usage; a LastUsageTime of 0 (never) counts from -1, as
    condor_userprio's CollectInfo reads it (``if (LastUsage==0) LastUsage=-1``)."""
    delta = now - (row.last_usage_time or -1.0)
    return "<now>" if delta <= 0 else format_time_nosecs(delta)


def _group_id(row: UserprioRow) -> float | None:
    """``-groupid``: the row's group number, blank while it is 0 (``<none>`` and its
    users: no ``DetailGroup``)."""
    gid = row.group_id
    return None if gid is None or gid == 0 else gid


#: ``GroupSortKey`` at or above this prints ``<last>`` (``FLT_MAX`` after a trip through
#: an ad's text, as user_prio.cpp allows for).
LAST_SORT_KEY = 3.40282001e38


def _sort_key(row: UserprioRow, now: float) -> str | None:
    """``-sortkey``: a group's ``GroupSortKey`` (the ad's value, as ``--long`` prints it),
    ``<last>`` from :data:`LAST_SORT_KEY` up; blank for a user."""
    if not row.is_group:
        return None
    key = row.sort_key or 0.0
    return "<last>" if key >= LAST_SORT_KEY else fmt_number(key, 9, 2)


COLUMNS: dict[str, Column] = {
    c.key: c
    for c in (
        Column("group_id", 5, "Group", "Id", _num(_group_id, 0, 5)),
        Column("order", 9, "Group", "Order", _num(lambda r: r.display_order, 2, 9)),
        Column("sort_key", 9, "Group", "Sort Key", _sort_key),
        Column("effective_quota", 9, "Effective", "Quota", _quota(lambda r: r.effective_quota, 9)),
        Column("config_quota", 9, "Config", "Quota", _quota(lambda r: r.config_quota, 9)),
        Column("surplus", 7, "Use", "Surplus", lambda r, n: r.surplus or None, left=True),
        Column("subtree_quota", 9, "Subtree", "Quota", _quota(lambda r: r.subtree_quota, 9)),
        Column(
            "priority",
            12,
            "Effective",
            "Priority",
            _num(lambda r: r.effective_priority, 2, 12, blank_groups=True),
        ),
        Column("real_priority", 8, "Real", "Priority", lambda r, n: _real_priority(r)),
        Column(
            "factor",
            9,
            "Priority",
            "Factor",
            _num(_table_factor, 2, 9),
        ),
        Column("in_use", 6, "Wghted", "In Use", _num(lambda r: r.weighted_resources_in_use, 0, 6)),
        Column(
            "total_usage",
            12,
            "Total Usage",
            "(wghted-hrs)",
            _num(lambda r: r.weighted_accumulated_usage_hours, 2, 12),
        ),
        Column("start_time", 16, "Usage", "Start Time", _date(lambda r: r.begin_usage_time, True)),
        Column("last_time", 16, "Last", "Usage Time", _date(lambda r: r.last_usage_time, True)),
        Column("time_since", 10, "Time Since", "Last Usage", _since),
        Column("requested", 10, "Weighted", "Requested", _num(lambda r: r.requested, 0, 10)),
        Column(
            "floor",
            9,
            "Submitter",
            "Floor",
            _num(lambda r: r.floor if r.floor > 0 and not r.is_group else None, 2, 9),
        ),
        Column(
            "ceiling",
            9,
            "Submitter",
            "Ceiling",
            _num(lambda r: r.ceiling if r.ceiling > -1 and not r.is_group else None, 2, 9),
        ),
    )
}

MOST = (
    "config_quota",
    "surplus",
    "priority",
    "factor",
    "in_use",
    "total_usage",
    "time_since",
    "requested",
    "floor",
    "ceiling",
)
ALL_EXTRA = ("effective_quota", "subtree_quota", "real_priority", "start_time", "last_time")
PRIORITY = ("priority", "real_priority", "factor")
USAGE = ("in_use", "total_usage", "start_time", "last_time")
GROUP_ONLY = ("effective_quota", "config_quota", "subtree_quota", "surplus", "requested")
#: The columns of the group order (``-groupid``, ``-order``, ``-sortkey``), each only when
#: asked for by name.
GROUP_ORDER = ("group_id", "order", "sort_key")


def choose_columns(
    view: UserprioView,
    *,
    all_cols: bool,
    priority: bool,
    usage: bool,
    quotas: Sequence[str] = (),
    order: Sequence[str] = (),
) -> list[str]:
    """The column keys to print, in condor_userprio's order (``quotas``: the group columns
    ``-quotas`` or ``-surplus`` ask for, kept even with no group row, as ``DashQuota``;
    ``order``: those of :data:`GROUP_ORDER` asked for, which alone replace the default
    set too)."""
    wanted: set[str] = {*quotas, *order}
    if priority:
        wanted.update(PRIORITY)
    if usage:
        wanted.update(USAGE)
    if not wanted:
        wanted.update(MOST)
    if all_cols:
        wanted.update(MOST, ALL_EXTRA)
    groups_shown = any(r.is_group for r in view.rows)
    numbered = view.hierarchical or view.any_real_group  # (else user_prio.cpp drops them)
    if not (groups_shown and numbered) and not quotas:
        wanted.difference_update(GROUP_ONLY)
    return [k for k in COLUMNS if k in wanted]
