"""Tables fit the terminal: ``COLUMNS=80`` keeps every line within 80 characters and every
number whole; ``--wide`` prints the natural width."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.render.fit import COMPACT_SEPARATOR, SEPARATOR, plan

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"
BASE = ["--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]
NUMBER = re.compile(r"\d[\d.,:+]*")

VIEWS = [
    pytest.param(["quota", "--jobs-file", str(SAMPLE / "jobs.json")], id="quota"),
    pytest.param(
        ["negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json")], id="negotiate"
    ),
    pytest.param(["taskqueues", "--jobs-file", str(SAMPLE / "dirac-jobs.json")], id="taskqueues"),
]


def numbers(text: str) -> Counter[str]:
    """Every run of digits (with its dots, commas, colons) as printed, counted."""
    return Counter(NUMBER.findall(text))


@pytest.mark.parametrize("view", VIEWS)
def test_fits_80_columns_and_keeps_numbers_whole(run: Callable[..., Any], view: list[str]) -> None:
    wide = run(*view, *BASE, "--wide", env={"COLUMNS": "80"})
    narrow = run(*view, *BASE, env={"COLUMNS": "80"})
    assert narrow.exit_code == 0 and wide.exit_code == 0
    assert max(len(line) for line in wide.stdout.splitlines()) > 80
    too_long = [line for line in narrow.stdout.splitlines() if len(line) > 80]
    assert too_long == []
    # The same numbers, each whole: a number cut by a wrap would split into two tokens.
    assert numbers(narrow.stdout) == numbers(wide.stdout)


def test_wide_is_todays_layout(run: Callable[..., Any]) -> None:
    """At 200 columns the sample's quota table fits, so it is the same as --wide."""
    view = ["quota", "--jobs-file", str(SAMPLE / "jobs.json"), *BASE]
    assert run(*view, env={"COLUMNS": "200"}).stdout == run(*view, "--wide").stdout


def test_condor_text_layouts_do_not_fit(run: Callable[..., Any]) -> None:
    """condor_userprio's fixed-width text stays as condor prints it, whatever the width."""
    assert (
        run("userprio", *BASE, env={"COLUMNS": "80"}).stdout
        == run("userprio", *BASE, env={"COLUMNS": "300"}).stdout
    )


words = st.text(alphabet="abcdefgh.@", min_size=1, max_size=30)
nums = st.integers(min_value=0, max_value=10**12).map(str)


@given(
    st.lists(st.tuples(words, nums, words, nums), min_size=1, max_size=8),
    st.integers(min_value=10, max_value=120),
)
def test_plan_never_narrows_numbers(rows: list[tuple[str, ...]], width: int) -> None:
    """Numeric columns keep their widest cell; the table fits whenever text can give way."""
    headers = ["Name", "Effective Priority", "Group", "In Use"]
    numeric = [False, True, False, True]
    layout = plan(headers, numeric, rows, width)
    for k in (1, 3):
        assert layout.widths[k] >= max(len(r[k]) for r in rows)
        assert all(len(line) <= layout.widths[k] for line in layout.headers[k].splitlines())
    total = layout.width
    sep = COMPACT_SEPARATOR if layout.compact else SEPARATOR
    floor = sum(layout.widths[k] for k in (1, 3)) + sep * 3 + 2 * 8
    if floor <= width:
        assert total <= width


def test_a_pipe_without_columns_keeps_rows_whole(
    run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped output (no terminal, no $COLUMNS) prints at full width, one line per row."""
    monkeypatch.delenv("COLUMNS")
    view = ["taskqueues", "--jobs-file", str(SAMPLE / "dirac-jobs.json"), *BASE]
    piped = run(*view)
    assert piped.stdout == run(*view, "--wide").stdout
    assert len(piped.stdout.splitlines()) == 10  # the header and nine queues


@pytest.mark.parametrize(
    ("text", "width", "folded"),
    [
        pytest.param("short", 8, "short", id="fits"),
        pytest.param("101.92 101.93 101.94", 14, "101.92 101.93\n  101.94", id="at-space"),
        pytest.param(
            "    group_physics.hep", 17, "    group_\n      physics.hep", id="keeps-indent"
        ),
        pytest.param("alice@example.org", 10, "alice@\n  example.\n  org", id="after-punct"),
        pytest.param("1234.5678", 6, "1234.5\n  678", id="no-break-inside-number"),
    ],
)
def test_fold_cell(text: str, width: int, folded: str) -> None:
    from fairshare_cli.render.fit import fold_cell

    assert fold_cell(text, width) == folded
    assert all(len(line) <= width for line in folded.splitlines())
