"""``fs userprio``'s whole-column table and its ``--json`` print what the cell-by-cell code
and ``json.dumps`` print.

The table's cells were made one by one through each column's ``cell`` (``%{w}.{d}f``, the
``%g`` fall-back when too wide, blanks for groups and unset floors); ``column_cells`` formats
a column at once and must give the same text for any row: users and groups, numbers too wide
for their column, factors of 0, times at or before 1970. ``--json`` is the rows' fields as
``json.dumps(jsonable(rows), indent=2)`` prints them, times as ``iso`` text.
"""

from __future__ import annotations

import io
import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.cli.userprio import JSON_FIELDS, _emit
from fairshare_cli.core.htcondor.userprio import UserprioRow, UserprioView
from fairshare_cli.core.jsontext import iso, jsonable
from fairshare_cli.render.userprio import _cell, column_cells, render_userprio
from fairshare_cli.render.userprio_columns import COLUMNS, format_time

wide = st.floats(allow_nan=False, allow_infinity=False) | st.floats(min_value=-1e3, max_value=1e13)
small = st.floats(min_value=0.0, max_value=1e4) | st.sampled_from([0.0, 1e-5, 1e16, 123456.0])
when = st.sampled_from([0.0, -5.0, 1.5, 1795262400.0, 1795262399.25, 4e11]) | st.floats(
    min_value=-1e3, max_value=2e9
)
rows = st.builds(
    UserprioRow,
    name=st.sampled_from(["a@d", "g", "<none>", "g.b@d", "x" * 120 + "@d", "é@d"]),
    is_group=st.booleans(),
    group=st.sampled_from(["<none>", "g"]),
    effective_priority=wide,
    real_priority=wide,
    priority_factor=small | st.just(-1.0),
    resources_in_use=st.integers(min_value=0, max_value=10**6),
    weighted_resources_in_use=small,
    accumulated_usage_hours=small,
    weighted_accumulated_usage_hours=wide,
    begin_usage_time=when,
    last_usage_time=when,
    requested=st.none() | small,
    config_quota=st.none() | small,
    effective_quota=st.none() | small,
    subtree_quota=st.none() | small,
    sort_key=st.none() | small,
    surplus=st.sampled_from(["", "no", "ByQuota"]),
    floor=st.integers(min_value=0, max_value=2**31 - 1) | st.just(0),
    ceiling=st.integers(min_value=-1, max_value=2**31 - 1) | st.just(-1),
    table_factor=st.none() | small,
)
NOW = 1795262400.0


@settings(max_examples=150, deadline=None)
@given(st.lists(rows, max_size=6), st.sampled_from([NOW, NOW + 86400 * 3000]))
def test_whole_columns_are_the_cells(table: list[UserprioRow], now: float) -> None:
    groups_at = [i for i, r in enumerate(table) if r.is_group]
    for c in COLUMNS.values():
        assert column_cells(c, table, now, groups_at) == [_cell(c, r, now) for r in table]


def view_of(table: list[UserprioRow], hier: bool) -> UserprioView:
    return UserprioView(
        rows=tuple(table),
        listed=tuple(table),
        active=tuple(table),
        hierarchical=hier,
        total_records=len(table),
        cutoff=None,
        surplus_policy="",
        has_groups=hier,
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(rows, max_size=6), st.booleans())
def test_the_table_is_the_cell_by_cell_table(table: list[UserprioRow], hier: bool) -> None:
    """Every line between the dashes is the row's cells, one by one, joined by a space."""
    view = view_of(table, hier)
    cols = list(COLUMNS)
    lines = render_userprio(view, cols, NOW).splitlines()
    width = len(lines[1]) - sum(1 + COLUMNS[k].width for k in cols)
    from fairshare_cli.render.userprio import display_name

    want = [
        " ".join(
            [display_name(r, hier).ljust(width)[:width]] + [_cell(COLUMNS[k], r, NOW) for k in cols]
        )
        for r in table
    ]
    assert lines[4 : 4 + len(table)] == want


@settings(max_examples=150, deadline=None)
@given(st.lists(rows, max_size=6), st.sampled_from(["json", "ndjson"]))
def test_json_is_the_standard_librarys(table: list[UserprioRow], fmt: str) -> None:
    """(Times past the year 9999 make ``iso`` raise, in both writers: left out here.)"""
    table = [r for r in table if max(r.begin_usage_time, r.last_usage_time) < 2.5e11]
    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        _emit(view_of(table, False), fmt)
    finally:
        sys.stdout = saved
    standard = [
        {
            **{c: jsonable(getattr(r, c)) for c in JSON_FIELDS[:-2]},
            "begin_usage_time": iso(r.begin_usage_time),
            "last_usage_time": iso(r.last_usage_time),
        }
        for r in table
    ]
    if fmt == "json":
        assert out.getvalue() == json.dumps(standard, indent=2) + "\n"
    else:
        assert out.getvalue() == "".join(json.dumps(r) + "\n" for r in standard)


@settings(max_examples=100, deadline=None)
@given(st.lists(rows, max_size=6), st.booleans())
def test_the_name_column_is_the_longest_active_name(table: list[UserprioRow], hier: bool) -> None:
    """condor_userprio's rule: the longest name, a hierarchical user's counted with its two
    spaces of indent and without its group (the dot not counted), 10 to 99; then room for
    ``Number of users: N``, and two more in hierarchical mode."""
    view = view_of(table, hier)
    lines = render_userprio(view, ["priority"], NOW).splitlines()
    longest = 10
    for r in table:
        n = len(r.name)
        if hier and not r.is_group:
            n += 2 - (len(r.group) if r.group != "<none>" else 0)
        longest = max(longest, n)
    want = max(min(longest, 99), len(f"Number of users: {len(table)}")) + (2 if hier else 0)
    assert len(lines[1]) == want + 1 + 12


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, min_size=1, max_size=8), st.floats(min_value=0.0, max_value=4e9))
def test_time_since_in_the_past_is_each_rows_cell(table: list[UserprioRow], ahead: float) -> None:
    """Every last usage in the past (the whole-column branch): each row's own cell."""
    now = max(r.last_usage_time for r in table) + 0.25 + ahead
    table = [r for r in table if now - r.last_usage_time < 2**62]  # int() of the delay
    c = COLUMNS["time_since"]
    assert column_cells(c, table, now, []) == [_cell(c, r, now) for r in table]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (6048, "  0+01:40:48"),
        (3 * 86400 + 61, "  3+00:01:01"),
        (100 * 86400, "100+00:00:00"),
        # C divides toward zero: a start after now prints each part negative, as
        # printf("%3lld+%02lld:%02lld:%02lld", 0, -1, -40, -48) does.
        (-6048, "  0+-1:-40:-48"),
    ],
)
def test_format_time_is_htcondors(seconds: int, text: str) -> None:
    assert format_time(seconds) == text
