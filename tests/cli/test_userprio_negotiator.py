"""``fs userprio -negotiator``, as HTCondor 25.0's ``user_prio.cpp`` reads it.

``-negotiator`` sets ``fromCollector = false``: with ``USERPRIO_USE_NEGOTIATOR_MODULAR_QUERY``
off (25.0's default) the tool asks the negotiator for ``GET_PRIORITY``, the one numbered ad
``-allusers`` prints too, and keeps the 24-hour filter (``MinLastUsageTime``). So it lists
the records the collector has no ad for (zed@other.org, whose work arrives as claims only:
plain ``condor_userprio`` leaves it out), and every record of the real pool was used within
the hour: its rows are those of the captured ``-allusers -all``; only the footer's Last
Usage Time and Time Since show the cutoff (24 hours before the clock: 11/22/2026 18:25,
0+23:59 before the last update), where ``-allusers`` leaves them blank.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_condor_fixtures import CAPTURE, POOL, import_pool


def test_the_negotiators_ad_with_the_activity_filter(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = import_pool(tmp_path, run)
    result = run("userprio", "-negotiator", "-all", *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    captured = (POOL / "condor_userprio.allusers_all.txt").read_text().splitlines()
    lines = result.stdout.splitlines()
    assert lines[:-1] == captured[:-1]
    assert any(line.startswith("  zed@other.org") for line in lines)
    # in use, usage, (the start time total: blank), last usage time, time since
    tail = "25        50.26                  11/22/2026 18:25    0+23:59"
    assert lines[-1].rstrip().endswith(tail)
    assert lines[-1].startswith(captured[-1].rstrip())  # up to the total usage
    plain = run("userprio", *args, "--now", CAPTURE).stdout
    assert "zed@other.org" not in plain
