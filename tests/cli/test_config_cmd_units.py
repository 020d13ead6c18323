"""``fs config check`` says the unit of every duration it prints as a number."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_durations_print_with_their_unit(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs config check printed 'priority.bf_window = 1440' beside
    'priority.max_age = 604800.0' with no unit: minutes and seconds alike. By hand:
    "7-0" is 604800 s, "5" (minutes) 300 s, "1:00:00" 3600 s, "20" (minutes) 1200 s; bf_window stays minutes."""
    config = write_config(
        '[pool]\ndefaults = "current"\n[accountant]\npriority_halflife = 3600\n'
        '[priority]\nmax_age = "7-0"\ncalc_period = "5"\nbf_window = 120\n'
        '[partitions.batch]\nmax_time = "1:00:00"\ndefault_time = "20"\n[partitions.debug]\n'
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    for line in (
        "accountant.priority_halflife = 3600.0  # seconds",
        "priority.max_age = 604800.0  # seconds",
        "priority.calc_period = 300.0  # seconds",
        "priority.bf_window = 120  # minutes",
        "priority.bf_resolution = 60  # seconds",
        "partitions.batch.max_time = 3600.0  # seconds",
        "partitions.debug.max_time = (unset)",
        "partitions.batch.default_time = 1200.0  # seconds",
        "partitions.debug.default_time = (unset)",
    ):
        assert line in lines
    json_doc = run("config", "check", "--config", str(config), "--json").stdout
    assert "# seconds" not in json_doc  # (json, ndjson and csv hold the numbers alone)
