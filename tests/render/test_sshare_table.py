"""sshare's table, built column by column, is the cell-by-cell ``format_value`` output.

``render`` formats common cells (a float or int that fits, a string that fits) inline and
remembers a few uncommon ones; :func:`cell_by_cell` is the plain rule it must equal: every
cell through ``format_value``, the header and the mode's separators as sshare prints them
(``print_fields.c``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.render import sshare, sshare_fields
from fairshare_cli.render.sshare import render
from fairshare_cli.render.sshare_fields import FIELDS, Field, format_value


def cell_by_cell(
    fields: Sequence[Field], rows: Sequence[Mapping[str, Any]], mode: str, header: bool
) -> str:
    parsable = mode != "table"

    def join(cells: list[str]) -> str:
        if mode == "table":
            return "".join(c + " " for c in cells)
        if mode == "parsable":
            return "".join(c + "|" for c in cells)
        return "|".join(cells)

    lines = []
    if header:
        if parsable:
            lines.append(join([f.name for f in fields]))
        else:
            lines.append(
                join(
                    [
                        f.name[: abs(f.width)].rjust(abs(f.width))
                        if f.width > 0
                        else f.name[: abs(f.width)].ljust(abs(f.width))
                        for f in fields
                    ]
                )
            )
            lines.append(join(["-" * abs(f.width) for f in fields]))
    mentions = [sum(g.name == "TRESRunMins" for g in fields[:k]) for k in range(len(fields))]
    for row in rows:
        cells = [
            format_value(
                f, _run_mins(row.get(f.key), n if f.name == "TRESRunMins" else 0), parsable
            )
            for f, n in zip(fields, mentions, strict=True)
        ]
        lines.append(join(cells))
    return "".join(line + "\n" for line in lines)


def _run_mins(value: Any, mention: int) -> Any:
    """A TRESRunMins cell as its ``mention``-th printing shows it: sshare divides the row's
    counts by 60 in place each time (``process.c``), so each count over ``60**mention``;
    a value that is not ``name=count,...`` as it is."""
    if not mention or not isinstance(value, str) or not value:
        return value
    out = []
    for item in value.split(","):
        name, eq, count = item.partition("=")
        if not eq or not count.isascii() or not count.isdigit():
            return value
        out.append(f"{name}={int(count) // 60**mention}")
    return ",".join(out)


VALUES = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([4294967294.0, 4294967295.0, 18446744073709551614.0, 1e300, -0.0]),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from(["parent", "", "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0"]),
    st.text(max_size=40),
)
FIELD_LISTS = st.lists(
    st.builds(
        lambda spec, width: Field(spec[0], width or spec[1], spec[2]),
        st.sampled_from(FIELDS),
        st.integers(min_value=-40, max_value=40),
    ),
    max_size=8,
)


def rows_for(values: list[Any]) -> list[dict[str, Any]]:
    keys = sorted(set(sshare_fields.FIELD_KEYS.values()))
    return [
        {key: values[(i * len(keys) + k) % len(values)] for k, key in enumerate(keys)}
        for i in range(len(values))
    ]


@settings(max_examples=300, deadline=None)
@given(
    FIELD_LISTS,
    st.lists(VALUES, min_size=1, max_size=40),
    st.sampled_from(["table", "parsable", "parsable2"]),
    st.booleans(),
)
def test_render_is_format_value_cell_by_cell(
    fields: list[Field], values: list[Any], mode: str, header: bool
) -> None:
    """Every kind of value in every kind of field, at any width, in every mode."""
    rows = rows_for(values)
    try:
        expected: Any = cell_by_cell(fields, rows, mode, header)
    except (OverflowError, ValueError, TypeError):  # "%d" of inf, float() of a text ...
        expected = "refused"
    try:
        got: Any = render(fields, rows, mode=mode, header=header)
    except (OverflowError, ValueError, TypeError):  # (the first bad cell may differ)
        got = "refused"
    assert got == expected


def test_blocks_of_rows_join_in_order() -> None:
    """More rows than one block (and not a multiple of it), repeated cut TRES text and
    blanks remembered across blocks: still the cell-by-cell text."""
    fields = sshare_fields.parse_format(sshare_fields.LONG_FAIR_TREE)
    tres = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"
    rows = [
        {
            "account_display": f"{'  ' * (i % 3)}acct{i}",
            "user": None if i % 4 == 0 else f"user{i}",
            "raw_shares": "parent" if i % 7 == 0 else i % 100,
            "norm_shares": i / 1300.0,
            "raw_usage": float(i * 12345),
            "norm_usage": None if i == 0 else 1.0 / (i + 1),
            "effective_usage": 1e-9 * i,
            "fairshare": None if i % 4 == 0 else (i % 13) / 13,
            "level_fs": float("inf") if i % 5 == 0 else 123456789.0 * i,
            "tres_run_mins": tres,
        }
        for i in range(sshare._BLOCK * 2 + 37)
    ]
    for mode in ("table", "parsable", "parsable2"):
        assert render(fields, rows, mode=mode) == cell_by_cell(fields, rows, mode, True)


def typical_row(i: int) -> dict[str, Any]:
    """A row as ``share_rows`` makes them: mostly floats that fit, constant columns."""
    return {
        "account_display": f"{' ' * (i % 4)}acct{i}",
        "cluster": "c%1",
        "user": f"user{i}" if i % 5 else None,
        "id": i,
        "raw_shares": i % 50,
        "norm_shares": (i % 17) / 17,
        "raw_usage": float(i) * 1234.5,
        "norm_usage": 1.0 / (i + 1),
        "effective_usage": (i % 7) / 7,
        "fairshare": (i % 11) / 11 if i % 5 else None,
        "level_fs": float("inf") if i % 9 == 0 else (i % 13) * 0.37,
        "grp_tres_mins": None,
        "grp_tres_raw": None,
        "partition": None,
        "tres_run_mins": "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0",
    }


@settings(max_examples=150, deadline=None)
@given(
    FIELD_LISTS,
    st.integers(min_value=1, max_value=300),
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=299), st.sampled_from(FIELDS), VALUES),
        max_size=6,
    ),
)
def test_table_row_format_is_cell_by_cell(
    fields: list[Field], n: int, odd: list[tuple[int, tuple[str, int, str], Any]]
) -> None:
    """The table's row format (many rows of plain numbers, a few odd cells among them: a
    blank, a text in a number column, a value too wide, ``inf`` in a ``%d`` column) prints
    what ``format_value`` prints cell by cell, or refuses what it refuses."""
    rows = [typical_row(i) for i in range(n)]
    for i, (name, _, _), value in odd:
        rows[i % n][sshare_fields.FIELD_KEYS[name]] = value
    try:
        expected: Any = cell_by_cell(fields, rows, "table", True)
    except (OverflowError, ValueError, TypeError):
        expected = "refused"
    try:
        got: Any = render(fields, rows, mode="table", header=True)
    except (OverflowError, ValueError, TypeError):
        got = "refused"
    assert got == expected


def test_table_of_long_sshare_rows_spans_blocks() -> None:
    """The default long fair-tree listing over more rows than a table block, a blank every
    fifth row and one in a number column: the cell-by-cell text."""
    fields = sshare_fields.parse_format(sshare_fields.LONG_FAIR_TREE + ",Cluster,ID,Partition")
    rows = [typical_row(i) for i in range(sshare._TABLE_BLOCK + 301)]
    rows[0]["raw_shares"] = None
    rows[7]["raw_shares"] = "parent"
    rows[9]["norm_usage"] = 4294967294.0
    assert render(fields, rows) == cell_by_cell(fields, rows, "table", True)


def test_a_name_of_more_bytes_than_letters_keeps_a_number_cell_that_does_not_fit() -> None:
    """A non-ASCII account (4 bytes, one letter: its cell is 17 letters of 20 bytes) beside
    a 0 in a 5-wide EffectvUsage (``0.000000e+00``, past its width): the line's letters
    counted as its full width, so the row format's ``%5f`` cell (``0.000000``) was kept;
    counted in bytes, the row is made cell by cell, as sshare prints it."""
    fields = [Field("Account", -20, "str"), Field("EffectvUsage", 5, "double")]
    rows = [typical_row(i) for i in range(2)]
    rows[0]["account_display"] = "\U00010000"
    got = render(fields, rows, mode="table", header=True)
    assert got == cell_by_cell(fields, rows, "table", True)
    assert got.splitlines()[2] == "\U00010000" + " " * 16 + " 0.000000e+00 "
