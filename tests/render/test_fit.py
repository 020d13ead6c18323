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

from fairshare_cli.render.fit import COMPACT_SEPARATOR, SEPARATOR, _unbroken_width, plan

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
    """Numeric columns keep their widest cell; text columns are never narrower than
    their words; the table fits whenever text can give way that far."""
    headers = ["Name", "Effective Priority", "Group", "In Use"]
    numeric = [False, True, False, True]
    layout = plan(headers, numeric, rows, width)
    for k in (1, 3):
        assert layout.widths[k] >= max(len(r[k]) for r in rows)
        assert all(len(line) <= layout.widths[k] for line in layout.headers[k].splitlines())
    words = {k: max(8, *(_unbroken_width(r[k]) for r in rows)) for k in (0, 2)}
    for k in (0, 2):
        if not (layout.stacked and k == 0):
            assert layout.widths[k] >= min(words[k], max(len(r[k]) for r in rows))
    total = layout.width
    sep = COMPACT_SEPARATOR if layout.compact else SEPARATOR
    floor = sum(layout.widths[k] for k in (1, 3)) + sep * 3 + words[0] + words[2]
    if floor <= width:
        assert total <= width


QUOTA_AT_60 = """\
Group quotas
Group
    Config  Subtree  Effective                   In
     Quota    Quota      Quota  Limit  Surplus  Use  Demand
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
<none>
             420.00     100.00    190  yes        2     353
  group_chemistry
    120.00   120.00      70.00    100  no         0     100
    group_chemistry.lab
     50.00    50.00      50.00     50  no         6       6
  group_physics
    200.00   200.00      20.00     20  yes        2       2
    group_physics.astro
0.3000 dyn    60.00      60.00     60  no         2       2
    group_physics.hep
0.6000 dyn   120.00     120.00    120  no         8     198
"""


@pytest.mark.parametrize("columns", ["60", "80"])
def test_quota_at_60_and_80_columns_puts_each_group_on_its_own_line(
    run: Callable[..., Any], columns: str
) -> None:
    """``COLUMNS=60 fs quota`` (and 80): the figures alone need 59 columns, and a group's
    name beside them would be cut inside a word, so each name (whole, indented by depth)
    goes on a line above its figures. Before, at 60 the names were folded four letters at
    a time (``grou``, ``p_``, ``chem``, ``istr``, ``y``) in a table 69 wide, and at 80
    ``group_chemistry.lab`` was cut after ``group_``."""
    view = ["quota", "--jobs-file", str(SAMPLE / "jobs.json"), *BASE]
    result = run(*view, env={"COLUMNS": columns})
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == QUOTA_AT_60.splitlines()
    assert numbers(result.stdout) == numbers(run(*view, "--wide").stdout)


@pytest.mark.parametrize("columns", [60, 80])
def test_negotiate_dry_run_fits_and_breaks_no_word(run: Callable[..., Any], columns: int) -> None:
    """``COLUMNS=60 fs negotiate --dry-run``: every line within the terminal, every
    submitter's name whole on one line (at 60 on a line of its own; before, folded to
    ``group_`` / ``chemistr`` / ``y.lab.`` ...), the reason words whole, numbers whole."""
    view = ["negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json"), *BASE]
    result = run(*view, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert max(len(line) for line in lines) <= columns
    assert numbers(result.stdout) == numbers(run(*view, "--wide").stdout)
    if columns == 60:
        import json

        doc = json.loads(run(*view, "--json").stdout)
        for name in {s["name"] for s in doc["submitters"]}:
            assert name in lines, name
        assert "preempt" not in lines and "no_preemption" in result.stdout


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
            "    group_physics.hep", 19, "    group_physics.\n      hep", id="keeps-indent"
        ),
        pytest.param("no_preemption", 12, "no_preemptio\n  n", id="underscore-is-no-break"),
        pytest.param("alice@example.org", 10, "alice@\n  example.\n  org", id="after-punct"),
        pytest.param("1234.5678", 6, "1234.5\n  678", id="no-break-inside-number"),
    ],
)
def test_fold_cell(text: str, width: int, folded: str) -> None:
    from fairshare_cli.render.fit import fold_cell

    assert fold_cell(text, width) == folded
    assert all(len(line) <= width for line in folded.splitlines())


def test_plan_stacks_the_first_column_when_its_words_do_not_fit_beside_the_rest() -> None:
    """Two numeric columns of 20 need 42 of 50 columns; ``group_physics.hep`` folds at
    best to ``group_physics.`` (14, and 2 more to indent its next line), which leaves no
    room: the name goes on a line of its own, and the grid is the two numbers."""
    from fairshare_cli.render.fit import stacked_lines

    rows = [["group_physics.hep", "1" * 20, "2" * 20]]
    numeric = [False, True, True]
    layout = plan(["Group", "A", "B"], numeric, rows, 50)
    assert layout.stacked and layout.widths == [0, 20, 20] and layout.width == 42
    head, body = stacked_lines(["Group", "A", "B"], numeric, rows, layout)
    assert head == ["Group", "                   A                     B"]
    assert body == ["━" * 42, "group_physics.hep", "1" * 20 + "  " + "2" * 20]
    # At 60 it fits beside them, folded after "group_physics.": 16 + 20 + 20 + 2 * 2.
    beside = plan(["Group", "A", "B"], numeric, rows, 60)
    assert not beside.stacked and beside.widths == [16, 20, 20] and beside.width == 60
