"""``fs userprio``'s table a column at a time, a chunk in one join, is the cell-by-cell table.

``render/userprio_lines.py`` writes a chunk of user rows a column at a time: a column is
``%{w}.{d}f`` of its values where each value's ``%f`` text fits the column (else the cells
``column_cells`` makes, with ``fmt_number``'s ``%g`` fall-back), repeated values formatted
once (zeros of both signs one by one), blank where every cell is blank. Whatever the values
(wide, tiny, NaN, infinite, -0.0, repeated) and the chunk size, each line must be the row's
cells made one by one (``_cell``), as before.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.userprio import UserprioRow
from fairshare_cli.render import userprio as render
from fairshare_cli.render.userprio import _cell, display_name
from fairshare_cli.render.userprio_columns import COLUMNS, fmt_number, format_time_nosecs
from fairshare_cli.render.userprio_lines import minute_texts, number_piece, plain_format
from tests.render.test_userprio_table import view_of

NOW = 1795262400.0
#: Values that repeat (formatted once), the sign of zero, the edges of
#: each width (%12.2f fits below 1e9, %8.2f below 1e5, %6.0f below 1e6), NaN and infinities.
edge = st.sampled_from(
    [
        *(0.0, -0.0, 0.5, 1.0, 2.0, 99999998.99, 99999999.0, -9999998.0, 1e9, 99998.0),
        *(99999.5, -99999.0, 999998.0, 999999.5, math.nan, math.inf, -math.inf, 0.005, -0.004),
    ]
)
number = edge | st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**7), 10**7)
user_rows = st.builds(
    UserprioRow,
    name=st.sampled_from(["a@d", "g.b@d", "x" * 30 + "@d", "c@d", "%s@d"]),
    is_group=st.just(False),
    group=st.sampled_from(["<none>", "g"]),
    effective_priority=number,
    real_priority=number,
    priority_factor=number,
    resources_in_use=st.integers(min_value=0, max_value=10**6),
    weighted_resources_in_use=number,
    accumulated_usage_hours=number,
    weighted_accumulated_usage_hours=number,
    begin_usage_time=st.sampled_from([0.0, 1795000000.0, NOW]) | st.floats(0, 2e9),
    last_usage_time=st.sampled_from([0.0, 1795000000.0, NOW, NOW + 60]) | st.floats(0, 2e9),
    requested=st.none() | st.sampled_from([0.0, 3.0]),
    surplus=st.sampled_from(["", "", "", "no"]),
    floor=st.sampled_from([0, 0, 0, 3, -2]) | st.floats(-1, 1e12),
    ceiling=st.sampled_from([-1, -1, -1, 5, 7]) | st.floats(-2, 1e12),
    table_factor=st.none() | number,
)
group_rows = user_rows.map(lambda r: r._replace(is_group=True, name="g", group="g"))


def _cell_by_cell(table: list[UserprioRow], hier: bool, cols: list[str], width: int) -> list[str]:
    return [
        " ".join(
            [display_name(r, hier).ljust(width)[:width]] + [_cell(COLUMNS[k], r, NOW) for k in cols]
        )
        for r in table
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(user_rows, max_size=12) | st.lists(user_rows | group_rows, max_size=12),
    st.booleans(),
    st.sampled_from([1, 3, 2048]),
    st.sampled_from([list(COLUMNS), ["priority", "factor", "in_use", "total_usage"]]),
)
def test_the_joined_table_is_the_cell_by_cell_table(
    table: list[UserprioRow], hier: bool, chunk: int, cols: list[str]
) -> None:
    view = view_of(table, hier)
    saved = render._CHUNK
    render._CHUNK = chunk  # chunks of users only, and chunks with a group row among them
    try:
        lines = render.render_userprio(view, cols, NOW).splitlines()
    finally:
        render._CHUNK = saved
    width = len(lines[1]) - sum(1 + COLUMNS[k].width for k in cols)
    assert lines[4 : 4 + len(table)] == _cell_by_cell(table, hier, cols, width)


@settings(max_examples=500, deadline=None)
@given(st.lists(number, max_size=8), st.sampled_from([(12, 2), (8, 2), (9, 2), (6, 0)]))
def test_a_number_piece_prints_fmt_number(values: list[float], spec: tuple[int, int]) -> None:
    """Whole columns, repeated values once, or None: never another text."""
    width, decimals = spec
    piece = number_piece(values, width, decimals)
    if piece is None:
        return
    fmt, given_values = piece
    assert given_values is not None
    assert [fmt % v for v in given_values] == [fmt_number(v, width, decimals) for v in values]


def test_plain_format_draws_the_line_where_the_text_grows() -> None:
    """99999998.99 fits %12.2f when negative too; 1e9 does not; NaN first or later."""
    assert plain_format([99999998.99, -99999998.99, math.nan, 0.0], 12, 2)
    assert not plain_format([math.nan, 1e9], 12, 2)
    assert not plain_format([1.0, None], 12, 2)
    assert not plain_format([2.0, 1e9, math.nan], 12, 2)
    assert not plain_format(["1.0"], 12, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**9), max_size=10))
def test_minute_texts_are_format_time_nosecs(minutes: list[int]) -> None:
    assert minute_texts(minutes) == [format_time_nosecs(60.0 * m).rjust(10) for m in minutes]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([NOW, NOW + 1, NOW - 59.5, NOW - 61]) | st.floats(0, 2 * NOW),
        min_size=1,
        max_size=10,
    )
)
def test_time_since_with_some_at_now_is_each_rows_cell(lasts: list[float]) -> None:
    """Last usages at, after and before ``now`` in one column: ``<now>`` and the delays."""
    table = [
        UserprioRow("a@d", False, "<none>", 0.5, 0.5, 1.0, 0, 0.0, 0.0, 0.0, 0.0, t) for t in lasts
    ]
    c = COLUMNS["time_since"]
    assert render.column_cells(c, table, NOW, []) == [_cell(c, r, NOW) for r in table]


def test_plain_user_rows_take_whole_columns() -> None:
    """Plain rows: each column is one piece (numbers, repeated numbers as text, blanks)."""
    from fairshare_cli.render.userprio_lines import user_piece

    table = [
        UserprioRow(
            f"u{i}@d", False, "<none>", 0.5 + i, 0.5 + i, 1.0, 0, float(i % 3), 0.0, i / 3, 0.0, 0.0
        )
        for i in range(40)
    ]
    pieces = {k: user_piece(k, COLUMNS[k].width, table) for k in COLUMNS}
    assert pieces["priority"] == ("%12.2f", [r.effective_priority for r in table])
    assert pieces["factor"] == ("%s", ["     1.00"] * 40)  # one value: formatted once
    assert pieces["floor"] == (" " * 9, None)
    assert pieces["ceiling"] == (" " * 9, None)
    assert pieces["config_quota"] == (" " * 9, None)
    assert pieces["time_since"] is None  # text cells (column_cells)
