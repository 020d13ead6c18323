"""``condor_userprio``'s fixed-width table, column for column (reference/htcondor.md §6.4–6.6).

Times print in local time, as condor_userprio does (set ``TZ`` to choose).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import compress, count, repeat
from operator import add, attrgetter, floordiv, gt, itemgetter, le, not_, sub
from typing import Any

from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
from fairshare_cli.core.htcondor.userprio import UserprioRow, UserprioView
from fairshare_cli.render.userprio_lines import (
    NUMBER_COLUMNS,
    chunk_text,
    minute_texts,
    user_piece,
)


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


COLUMNS: dict[str, Column] = {
    c.key: c
    for c in (
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


def choose_columns(
    view: UserprioView, *, all_cols: bool, priority: bool, usage: bool, quotas: Sequence[str] = ()
) -> list[str]:
    """The column keys to print, in condor_userprio's order (``quotas``: the group columns
    ``-quotas`` or ``-surplus`` ask for, kept even with no group row, as ``DashQuota``)."""
    wanted: set[str] = set(quotas)
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


def display_name(row: UserprioRow, hierarchical: bool) -> str:
    """Hierarchical user rows are indented two spaces and drop their ``group.`` prefix."""
    if not hierarchical or row.is_group:
        return row.name
    name = row.name
    if row.group != ROOT_GROUP and name.lower().startswith(row.group.lower() + "."):
        name = name[len(row.group) + 1 :]
    return "  " + name


#: Rows formatted together, column by column (``render_userprio``).
_CHUNK = 2048


def render_userprio(view: UserprioView, columns: Sequence[str], now: float) -> str:
    """The whole condor_userprio text: update line, two header lines, rows, footer."""
    cols = [COLUMNS[k] for k in columns]
    hier = view.hierarchical
    width = _name_width(view)
    only_groups = all(k in GROUP_ONLY for k in columns) and columns
    name1 = "Group" if hier else ""
    name2 = (
        ("Group Name" if not hier else "Name")
        if only_groups
        else ("  User Name" if hier else "User Name")
    )

    lines = [f"Last Priority Update: {format_date(now)}"]
    lines.append(name1.ljust(width)[:width] + "".join(" " + center(c.head1, c.width) for c in cols))
    lines.append(name2.ljust(width)[:width] + "".join(" " + center(c.head2, c.width) for c in cols))
    dashes = "-" * width + "".join(" " + "-" * c.width for c in cols)
    lines.append(dashes)
    rows = [r for r in view.rows if r.is_group] if only_groups else view.rows  # HideUsers
    for start in range(0, len(rows), _CHUNK):  # a chunk of columns at a time: less memory
        lines.append(_chunk_lines(cols, rows[start : start + _CHUNK], hier, width, now))
    lines.append(dashes)
    lines.append(_footer(view, cols, width, now))
    return "\n".join(lines) + "\n"


def _chunk_lines(
    cols: Sequence[Column], chunk: Sequence[UserprioRow], hier: bool, width: int, now: float
) -> str:
    """The chunk's table lines joined by newlines: user rows a column at a time
    (:mod:`fairshare_cli.render.userprio_lines`), a chunk with a group row cell by cell."""
    groups_at = list(compress(count(), map(_field("is_group"), chunk)))
    if hier:
        names = [display_name(row, hier).ljust(width)[:width] for row in chunk]
    else:  # ljust then cut, as one format (of users: "%-{width}.{width}s")
        names = list(map(_field("name"), chunk))
    if groups_at:
        cells = [column_cells(c, chunk, now, groups_at) for c in cols]
        if not hier:
            names = list(map(f"{{:<{width}.{width}}}".format, names))
        return "\n".join(map(" ".join, zip(names, *cells, strict=True)))
    pieces = [user_piece(c.key, c.width, chunk) for c in cols]
    name = "%s" if hier else f"%-{width}.{width}s"
    return chunk_text(name, pieces, lambda i: column_cells(cols[i], chunk, now, ()), names)


def column_cells(
    c: Column, rows: Sequence[UserprioRow], now: float, groups_at: Sequence[int]
) -> list[str]:
    """Column ``c``'s cells of ``rows``, each fitted to its width.

    A measured hot loop (``benchmarks/run.py --rows userprio``): the whole column at once,
    as a user row's cell (:data:`_USER_CELLS`); the group rows (at ``groups_at``), and any
    cell of another width (a number too wide for ``%f``, a value the quick cell does not
    print), then go through the column's own ``cell``: the text is the same either way.
    """
    quick = _USER_CELLS.get(c.key)
    if quick is None:
        return [_cell(c, row, now) for row in rows]
    texts = quick(rows, now)
    for i in groups_at:
        texts[i] = _cell(c, rows[i], now)
    width = c.width
    if texts and not (min(map(len, texts)) == width == max(map(len, texts))):
        for i, text in enumerate(texts):
            if len(text) != width:
                texts[i] = _cell(c, rows[i], now)
    return texts


def _cell(c: Column, row: UserprioRow, now: float) -> str:
    """One cell through the column's own ``cell``, fitted."""
    text = c.cell(row, now)
    return _fit("" if text is None else text, c)


def _numbers(attr: str, width: int, decimals: int) -> Callable[..., list[str]]:
    """``%{w}.{d}f`` of an attribute (a wider text is :func:`fmt_number`'s to redo)."""
    get = attrgetter(attr)
    fmt = f"%{width}.{decimals}f".__mod__  # what f"{v:{width}.{decimals}f}" gives, faster

    def cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
        return list(map(fmt, map(get, rows)))

    return cells


def _blank_if(attr: str, blank_value: object, width: int) -> Callable[..., list[str]]:
    """Blank while the attribute holds ``blank_value`` (else the column's own cell)."""
    get = attrgetter(attr)
    blank = " " * width

    def cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
        return [blank if v == blank_value else "" for v in map(get, rows)]

    return cells


def _numbers_above(attr: str, least: float, width: int) -> Callable[..., list[str]]:
    """``%{w}.2f`` of an attribute above ``least``, else blank (floor, ceiling)."""
    get = attrgetter(attr)
    fmt = f"%{width}.2f".__mod__
    blank = " " * width

    def cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
        return [fmt(v) if v > least else blank for v in map(get, rows)]

    return cells


def _factor_cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
    """The factor column: :func:`_table_factor` as ``%9.2f``, blank unless above 0."""
    blank = " " * 9
    factors = list(map(attrgetter("table_factor"), rows))
    if None in factors:
        factors = [r.priority_factor if r.table_factor is None else r.table_factor for r in rows]
    fmt = "%9.2f".__mod__
    return [fmt(f) if f > 0 else blank for f in factors]


def _since_cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
    """The time-since column (:func:`_since`): days+hours:minutes depend on the whole
    minutes of the delay only, so each minute's text is made once."""
    lasts = [t or -1.0 for t in map(_field("last_usage_time"), rows)]  # never: -1 (_since)
    deltas = list(map(sub, repeat(now), lasts))
    past = list(map(gt, deltas, repeat(0)))
    if sum(past) + sum(map(le, deltas, repeat(0))) == len(deltas):  # no NaN (int raises)
        minutes = list(map(floordiv, map(int, compress(deltas, past)), repeat(60)))
        some = list(set(minutes))
        texts = map(dict(zip(some, minute_texts(some), strict=True)).__getitem__, minutes)
        if len(minutes) == len(deltas):  # all in the past: whole columns
            return list(texts)
        recent = "<now>".rjust(10)
        return [next(texts) if p else recent for p in past]
    made: dict[int, str] = {}
    out = []
    recent = "<now>".rjust(10)
    for t in lasts:
        delta = now - t
        if delta <= 0:
            out.append(recent)
            continue
        minute = int(delta) // 60
        text = made.get(minute)
        if text is None:
            text = made[minute] = format_time_nosecs(delta).rjust(10)
        out.append(text)
    return out


def _by_value(attr: str, key: str) -> Callable[..., list[str]]:
    """A column whose cell depends on one attribute only: each value's text made once."""
    get = attrgetter(attr)

    def cells(rows: Sequence[UserprioRow], now: float) -> list[str]:
        c = COLUMNS[key]
        made: dict[float, str] = {}
        out = []
        for row in rows:
            v = get(row)
            text = made.get(v)
            if text is None:
                text = made[v] = _cell(c, row, now)
            out.append(text)
        return out

    return cells


#: Each column's cells as a user row shows them, whole columns at once (see column_cells).
_USER_CELLS: dict[str, Callable[[Sequence[UserprioRow], float], list[str]]] = {
    "effective_quota": _blank_if("is_group", False, 9),
    "config_quota": _blank_if("is_group", False, 9),
    "subtree_quota": _blank_if("is_group", False, 9),
    "surplus": _blank_if("surplus", "", 7),
    "requested": _blank_if("requested", None, 10),
    **{key: _numbers(*spec) for key, spec in NUMBER_COLUMNS.items()},
    "factor": _factor_cells,
    "start_time": _by_value("begin_usage_time", "start_time"),
    "last_time": _by_value("last_usage_time", "last_time"),
    "time_since": _since_cells,
    "floor": _numbers_above("floor", 0, 9),
    "ceiling": _numbers_above("ceiling", -1, 9),
}


def _fit(text: str, c: Column) -> str:
    """``text`` padded and cut to the column's width, on its side."""
    return text.ljust(c.width)[: c.width] if c.left else text.rjust(c.width)[: c.width]


def _name_width(view: UserprioView) -> int:
    """The name column's width: the longest active name (indented in hierarchical mode),
    10 to 99, and room for the footer label."""
    hier = view.hierarchical
    counted = view.active or view.rows  # every active record counts, shown or not
    if not hier:
        width = max(10, max(map(len, map(_field("name"), counted)), default=0))
    else:
        width = 10
        for row in counted:
            n = len(row.name)
            if not row.is_group:
                n += 2
                if row.group != ROOT_GROUP:
                    n -= len(row.group)  # (condor_userprio does not count the dot)
            width = max(width, n)
    width = min(width, 99)
    width = max(width, len(f"Number of users: {view.total_records}"))
    if hier:
        width += 2
    return width


def _field(name: str) -> Callable[[UserprioRow], Any]:
    """A row's field by position (faster than the named attribute)."""
    return itemgetter(UserprioRow._fields.index(name))


def _footer(view: UserprioView, cols: Sequence[Column], width: int, now: float) -> str:
    """The footer line: user count, surplus policy, totals and the activity cutoff."""
    users = list(compress(view.rows, map(not_, map(_field("is_group"), view.rows))))
    foot = [f"Number of users: {len(users)}".ljust(width)[:width]]
    # PrintInfo's Totals: each user's double added in row order, the usage in seconds
    # (made hours once, at the end). reduce, not sum: Python 3.12's sum of floats is
    # compensated, C's += is not.
    in_use = reduce(add, map(_field("weighted_resources_in_use"), users), 0.0)
    usage = reduce(add, map(_field("weighted_accumulated_usage"), users), 0.0) / 3600.0
    for c in cols:
        text = ""
        if c.key == "surplus":
            text = view.surplus_policy
        elif c.key == "in_use":
            text = fmt_number(in_use, c.width, 0)
        elif c.key == "total_usage":
            text = fmt_number(usage, c.width, 2)
        elif c.key == "last_time" and view.cutoff is not None and view.cutoff > 0:
            text = format_date_year(view.cutoff)
        elif c.key == "time_since" and view.cutoff is not None and view.cutoff > 0:
            text = "<now>" if now <= view.cutoff else format_time_nosecs(now - view.cutoff)
        foot.append(_fit(text, c))
    return " ".join(foot)
