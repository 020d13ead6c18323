"""The plain-text fast path of ``render/fit.py`` prints byte for byte what Rich prints,
and leaves to Rich whatever it cannot be sure of (folding, markup, emoji codes, wide
characters, terminals)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.errors import MarkupError

from fairshare_cli.render.fit import FitConsole, FitTable, _rich_console, plan
from fairshare_cli.render.fit_plain import plain_output, plain_text

#: Characters the fast path handles, plus some it must hand to Rich.
EASY = " abcXYZ019.-_@/,…"
HARD = "[]\\\t:界é\u200b"
cells = st.text(alphabet=EASY, max_size=14) | st.text(alphabet=EASY + HARD, max_size=6)
numbers = st.floats(-1e12, 1e12, allow_nan=False).map(lambda v: f"{v:.2f}") | st.just("")


@st.composite
def tables(draw: Any) -> FitTable:
    n = draw(st.integers(1, 6))
    numeric = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    # Headers are never empty in fs (plan() cannot wrap an empty numeric header).
    heads = st.text(alphabet=EASY + "[:", max_size=12).map(lambda h: "H" + h)
    headers = draw(st.lists(heads, min_size=n, max_size=n))
    title = draw(st.text(alphabet=EASY + "[", max_size=40))
    table = FitTable(title, list(zip(headers, numeric, strict=True)))
    for _ in range(draw(st.integers(0, 6))):
        table.add_row(*(draw(numbers if num else cells) for num in numeric))
    return table


def rich_bytes(objects: tuple[Any, ...], width: int) -> str:
    out = io.StringIO()
    _rich_console(out, width).print(*objects)
    return out.getvalue()


def fit_bytes(objects: tuple[Any, ...], width: int) -> str:
    out = io.StringIO()
    console = FitConsole(out)
    console.width = width
    console.print(*objects)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _no_forced_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)


@settings(max_examples=400, deadline=None)
@given(table=tables(), width=st.integers(20, 200))
def test_table_bytes_equal_rich(table: FitTable, width: int) -> None:
    """Whatever path the table takes, the bytes are Rich's (and Rich's markup errors, e.g.
    on a cell ``[/]``, stay what they were: such cells are Rich's)."""
    try:
        expected = rich_bytes((table,), width)
    except MarkupError:
        with pytest.raises(MarkupError):
            fit_bytes((table,), width)
        return
    assert fit_bytes((table,), width) == expected


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(st.text(alphabet="abc.@ ", max_size=10), numbers), max_size=5),
    title=st.text(alphabet="Tabc ", max_size=8),
)
def test_plain_tables_take_the_fast_path(rows: list[tuple[str, str]], title: str) -> None:
    """A table of plain cells at natural width is drawn here (not handed to Rich), and
    equals Rich's drawing; trailing spaces only in blank cells."""
    table = FitTable(title, [("Name", False), ("Value", True)])
    for name, value in rows:
        table.add_row(name.rstrip() or name, value)
    text = table.plain(200)
    assert text is not None
    assert text == rich_bytes((table,), 200)


def test_folding_and_markup_go_to_rich() -> None:
    wide = FitTable("t", [("Name", False), ("N", True)])
    wide.add_row("x" * 60, "1")
    assert plan(["Name", "N"], [False, True], wide.rows, 30).compact
    assert wide.plain(30) is None
    assert wide.plain(100) is not None
    for cell in ("[b]x[/b]", ":smile: :x:", "界", "a\tb", "x "):
        t = FitTable("t", [("Name", False)])
        t.add_row(cell)
        assert t.plain(100) is None, cell
        assert fit_bytes((t,), 100) == rich_bytes((t,), 100)


@given(line=st.text(alphabet=EASY + HARD, max_size=60), width=st.integers(20, 80))
def test_lines_equal_rich(line: str, width: int) -> None:
    try:
        expected = rich_bytes((line,), width)
    except MarkupError:
        with pytest.raises(MarkupError):
            fit_bytes((line,), width)
        return
    assert fit_bytes((line,), width) == expected
    assert fit_bytes((), width) == rich_bytes((), width) == "\n"


def test_plain_text_rules() -> None:
    assert plain_text("a.b@c 1,2 … x:y")
    assert not plain_text("a:b:c")
    assert not plain_text("[red]")
    assert not plain_text("é")


def test_terminals_and_forced_colour_go_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert plain_output(io.StringIO())
    assert not plain_output(Tty())
    monkeypatch.setenv("FORCE_COLOR", "")
    assert not plain_output(io.StringIO())
