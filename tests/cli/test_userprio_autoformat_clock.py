"""``fs userprio -af`` and ``-constraint`` expressions that read the clock (``time()``,
``absTime()``, ``formatTime()``) or a die (``random()``) are refused: condor_userprio
evaluates them as it prints; fs reads no clock (its time is ``--now``), and printed the
machine's time instead (``-af Name 'time() - LastUsageTime'``: a number of seconds from
the real clock, not from ``--now``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
WHY = (
    "reads the clock (time()) or a die (random()), which condor_userprio does as it "
    "prints; fs reads no clock: write the time itself (--now's epoch seconds)"
)


@pytest.mark.parametrize(
    ("shown", "where"),
    [
        pytest.param(["-af", "Name", "time() - LastUsageTime"], "-af time() - LastUsageTime",
                     id="af-time"),
        pytest.param(["-af", "Name", "formatTime()"], "-af formatTime()", id="af-formattime"),
        pytest.param(["-l", "-modular", "-constraint", "LastUsageTime > Time() - 3600"],
                     "-constraint (LastUsageTime > Time() - 3600)", id="constraint"),
    ],
)  # fmt: skip
def test_an_expression_that_reads_the_clock_is_refused(
    run: Callable[..., Any], tmp_path: Path, shown: list[str], where: str
) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", *shown, "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {where}: {WHY}\n"
    assert state.read_bytes() == before


def test_time_in_a_string_or_of_an_attribute_is_printed(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    result = run("userprio", "-af", '"time()"', "formatTime(LastUsageTime, \"%Y\")",
                 "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(REPO / "sample_configs" / "sample-state.json"),
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[0] == "time() 2026"
