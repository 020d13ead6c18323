"""``--now`` is read in whole seconds, as the daemons read ``time(0)``: a fraction of a
second given on the command line (or read from the clock) is dropped before anything is
charged, decayed or stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
uid_domain = "a.org"
local_domains = ["a.org"]
[accountant]
priority_halflife = 100
default_prio_factor = 1000
[[machines]]
name = "m"
count = 1
slots = 1
attributes = { Cpus = 1, Memory = 1024 }
"""
START = "2026-01-01T00:00:00Z"  # epoch 1767225600


def _running(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> list[str]:
    """u@a.org holds the one slot from a committed cycle at START."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    submit = ["submit", "--owner", "u", "--time-limit", "1:00:00", *args, "--now", START]
    assert run(*submit).exit_code == 0
    assert run("negotiate", *args, "--now", START).exit_code == 0
    return args


@pytest.mark.parametrize("when", ["1767225700.7", "2026-01-01T00:01:40.7Z"])
def test_userprio_charges_whole_seconds_of_a_fractional_now(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any], when: str
) -> None:
    """``fs userprio -l u@a.org --now 1767225700.7`` printed Priority = 751.2100696272089
    and AccumulatedUsage = 100.7000000476837 beside LastUpdate = 1767225700: the decay
    and the charge ran over 100.7 s while the ad named the whole second. HTCondor's
    ``UpdatePriorities`` takes ``T = time(0)`` (Accountant.cpp), so the update is at
    1767225700, 100 s (one half-life) after the cycle at START. By hand: β = 0.5,
    RUP = 0.5·0.5 + 1·(1 − 0.5) = 0.75, effective 0.75 × 1000 = 750.0; usage 1 slot × 100 s.
    """
    args = _running(tmp_path, write_config, run)
    result = run("userprio", "-l", "u@a.org", *args, "--now", when)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Priority = 750.0" in lines
    assert "AccumulatedUsage = 100.0" in lines
    assert "WeightedAccumulatedUsage = 100.0" in lines
    assert "LastUpdate = 1767225700" in lines
    assert "LastUsageTime = 1767225700" in lines


def test_an_edit_at_a_fractional_now_stores_the_whole_second(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs resetusage u@a.org --now 1767225700.7`` stored BeginUsageTime 1767225700.7
    (``ResetAccumulatedUsage`` stores ``time(0)``, whole seconds); a committed cycle at that
    time stored the records' last update as 1767225700.7. Both are the whole second now."""
    args = _running(tmp_path, write_config, run)
    assert run("resetusage", "u@a.org", *args, "--now", "1767225700.7").exit_code == 0
    assert run("negotiate", *args, "--now", "1767225800.9").exit_code == 0
    rec = json.loads((tmp_path / "s.json").read_text())["accountant"]["records"]["u@a.org"]
    assert rec["begin_usage_time"] == 1767225700
    assert rec["last_update"] == 1767225800
