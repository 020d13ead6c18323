"""``condor_userprio``'s fixed-width table, line for line (reference/htcondor.md §6.6): the
update line, two header lines, the rows and the footer, of the columns
:mod:`~fairshare_cli.render.userprio_columns` defines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from itertools import compress, count, repeat
from operator import add, attrgetter, floordiv, gt, itemgetter, le, not_, sub
from typing import Any

from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
from fairshare_cli.core.htcondor.userprio import UserprioRow, UserprioView
from fairshare_cli.render.userprio_columns import (
    COLUMNS,
    GROUP_ONLY,
    Column,
    center,
    fmt_number,
    format_date,
    format_date_year,
    format_time_nosecs,
)
from fairshare_cli.render.userprio_lines import (
    NUMBER_COLUMNS,
    chunk_text,
    minute_texts,
    user_piece,
)


def display_name(row: UserprioRow, hierarchical: bool, unread: frozenset[str] = frozenset()) -> str:
    """Hierarchical user rows are indented two spaces and drop their ``group.`` prefix,
    unless their group's ad was not read (``unread``: the user has no group number)."""
    if not hierarchical or row.is_group:
        return row.name
    name = row.name
    if row.group in unread:
        return "  " + name
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
        lines.append(_chunk_lines(cols, rows[start : start + _CHUNK], view, width, now))
    lines.append(dashes)
    lines.append(_footer(view, cols, width, now))
    return "\n".join(lines) + "\n"


def _chunk_lines(
    cols: Sequence[Column], chunk: Sequence[UserprioRow], view: UserprioView, width: int, now: float
) -> str:
    """The chunk's table lines joined by newlines: user rows a column at a time
    (:mod:`fairshare_cli.render.userprio_lines`), a chunk with a group row cell by cell."""
    hier = view.hierarchical
    groups_at = list(compress(count(), map(_field("is_group"), chunk)))
    if hier:
        names = [display_name(row, hier, view.unread).ljust(width)[:width] for row in chunk]
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
