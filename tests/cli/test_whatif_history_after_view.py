"""``fs whatif``'s ``--history FILE`` and ``--rederive-factors`` after the view, as
``--set``, ``--json``, ``--output`` and ``--wide`` already were (cli/whatif.take_history):
no view has options of those names, and ``fs whatif --set K=V userprio --history FILE``
was refused as userprio's unknown option ("Did you mean '--priority', '--sort'?")."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
NOW = ["--now", "2026-11-21T12:00:00Z"]


@pytest.fixture
def pool(tmp_path: Path) -> list[str]:
    state = tmp_path / "s.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    return ["--config", str(SAMPLE / "pool.toml"), "--state", str(state), *NOW]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (["--history", str(SAMPLE / "history.csv")], ["--history", str(SAMPLE / "history.csv")]),
        (["--rederive-factors"], ["--rederive-factors"]),
    ],
    ids=["history", "rederive-factors"],
)
def test_an_option_of_the_comparison_after_the_view_is_read_as_before_it(
    before: list[str], after: list[str], pool: list[str], run: Callable[..., Any]
) -> None:
    """fs whatif --set accountant.priority_halflife=3600 userprio --history FILE (and
    --set accountant.default_prio_factor=4 userprio --rederive-factors): the same
    comparison as with the option before the view."""
    key = "accountant.priority_halflife=3600" if "--history" in before else (
        "accountant.default_prio_factor=4")  # fmt: skip
    first = run("whatif", "--set", key, *before, "userprio", *pool)
    assert first.exit_code == 0, first.stderr
    second = run("whatif", "--set", key, "userprio", *after, *pool)
    assert second.exit_code == 0, second.stderr
    assert second.stdout == first.stdout
    assert "rows changed" in first.stdout


def test_a_history_after_the_view_is_checked_as_before_it(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """fs whatif --set ... userprio --history nope.csv: one line, exit 2, as before the view
    (it said "Invalid value: File 'nope.csv' does not exist.", naming no option, where
    before the view it says "Invalid value for '--history': ..."); two different files, one
    on each side, are refused as any file option given twice."""
    key = "accountant.priority_halflife=3600"
    said = "fs: error: Invalid value for '--history': File 'nope.csv' does not exist."
    for line in (["userprio", "--history", "nope.csv"], ["--history", "nope.csv", "userprio"]):
        missing = run("whatif", "--set", key, *line, *pool)
        assert missing.exit_code == 2
        assert missing.stderr.startswith(said), missing.stderr
        assert len(missing.stderr.splitlines()) == 1
    two = run("whatif", "--set", key, "--history", str(SAMPLE / "history.csv"), "userprio",
              "--history", str(SAMPLE / "workload.json"), *pool)  # fmt: skip
    assert two.exit_code == 2
    assert "--history is given twice" in two.stderr
