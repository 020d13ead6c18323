"""The tables docs/output.md names as keeping their width do, at the widths it gives:
a narrow terminal gets their figures whole, never cut to fit.

The README said every table fits the terminal; `fs whatif ... taskqueues` and
`fs whatif ... negotiate` cannot at 60 or 80 columns (each figure is one `before -> after`
cell, which is never cut nor wrapped), nor `fs taskqueues` at 60, nor `fs simulate`'s table
(one line per entity or cycle). The widths pinned here are the ones docs/output.md quotes.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = REPO / "sample_configs"
DIRAC = ["--jobs-file", str(SAMPLE / "dirac-jobs.json")]
JOBS = ["--jobs-file", str(SAMPLE / "jobs.json")]


def _state(folder: Path) -> list[str]:
    state = folder / "state.json"
    shutil.copyfile(SAMPLE / "sample-state.json", state)
    shutil.copyfile(SAMPLE / "sample-state.history.sqlite", folder / "state.history.sqlite")
    return ["--config", str(SAMPLE / "pool.toml"), "--state", str(state), "--now", NOW]


@pytest.mark.parametrize("columns", ["80", "60"])
@pytest.mark.parametrize(
    ("line", "width", "figure"),
    [
        pytest.param(["whatif", "--set", "dirac.groups.lhcb_user.job_share=500", "taskqueues",
                      *DIRAC], 107, "3842.1400 -> 3888.0100", id="whatif-taskqueues"),
        pytest.param(["whatif", "--set", "accountant.priority_halflife=3600", "negotiate", *JOBS],
                     101, "0.474951 -> 0.348778", id="whatif-negotiate"),
    ],
)  # fmt: skip
def test_a_comparison_keeps_the_width_its_figures_need(
    run: Callable[..., Any], tmp_path: Path, columns: str, line: list[str], width: int,
    figure: str,
) -> None:  # fmt: skip
    result = run(*line, *_state(tmp_path), env={"COLUMNS": columns})
    assert result.exit_code == 0, result.stderr
    assert max(len(x) for x in result.stdout.splitlines()) == width
    assert figure in result.stdout  # (whole, on one line)


def test_taskqueues_at_60_columns_keeps_its_figures_whole(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    result = run("taskqueues", *DIRAC, *_state(tmp_path), env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.stderr
    assert max(len(x) for x in result.stdout.splitlines()) == 74
    assert "7500.0000" in result.stdout and "55.998" in result.stdout


@pytest.mark.parametrize(
    ("series", "width", "row"),
    [
        pytest.param([], 121, "submitter  group_chemistry.lab.grace@example.org       1.00",
                     id="summary"),
        pytest.param(["--series"], 128, "2026-11-21T13:00:00Z pool       pool", id="series"),
    ],
)  # fmt: skip
def test_simulate_at_60_columns_keeps_one_line_per_row(
    run: Callable[..., Any], tmp_path: Path, series: list[str], width: int, row: str
) -> None:
    """`fs simulate`'s table is one line per entity (per cycle with --series), as
    docs/output.md says, so `| grep submitter` sees each row whole on any terminal."""
    line = ["simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "1:00:00"]
    result = run(*line, "--cycle", "1800", *series, *_state(tmp_path), env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.stderr
    assert max(len(x) for x in result.stdout.splitlines()) == width
    assert row in result.stdout
