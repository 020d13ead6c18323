"""``fs setaccum`` writes only the weighted accumulated usage, so a record it creates never
gets a ``BeginUsageTime``: ``Accountant::UpdateOnePriority`` sets it only once the
unweighted ``AccumulatedUsage`` is above 0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "current"
[[machines]]
name = "m"
count = 2
attributes = { Cpus = 1, Memory = 1024 }
"""


def test_a_record_made_by_setaccum_shows_usage_but_no_start_or_last_time(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Hand-derived from ``Accountant.cpp`` (25.0). ``SetAccumUsage`` at 12:00 writes
    WeightedAccumulatedUsage = 7200 into a new record. The updates after it find
    ResourcesUsed 0: AccumulatedUsage stays 0, so ``AccumulatedUsage>0 &&
    BeginUsageTime==0`` never holds and BeginUsageTime stays 0; RecentUsage is 0, so
    LastUsageTime stays 0. ``condor_userprio -allusers -usage`` a day later: Total Usage
    7200/3600 = 2.00, both dates blank (``FormatDateTime`` of a time <= 0 with ""), and
    the footer's Last Usage Time blank too (-allusers: MinLastUsageTime -1). The name
    column is as wide as "Number of users: 2" (dan and ``<none>``, whose row flat mode
    hides)."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    made = run("setaccum", "dan@ex.org", "7200", "--create", *args, "--now", "2026-11-21T12:00:00Z")
    assert made.exit_code == 0, made.stderr
    assert (
        made.stdout == "The Accumulated Usage of dan@ex.org was set to 7200.000000 (new record)\n"
    )
    state = (tmp_path / "s.json").read_bytes()
    view = run(
        "userprio", *args, "--now", "2026-11-22T13:00:00Z", "--allusers", "--usage",
        env={"TZ": "UTC"},
    )  # fmt: skip
    assert view.exit_code == 0, view.stderr
    assert [line.rstrip() for line in view.stdout.splitlines()] == [
        "Last Priority Update: 11/22 13:00",
        "                   Wghted Total Usage       Usage             Last",
        "User Name          In Use (wghted-hrs)    Start Time       Usage Time",
        "------------------ ------ ------------ ---------------- ----------------",
        "dan@ex.org              0         2.00",
        "------------------ ------ ------------ ---------------- ----------------",
        "Number of users: 1      0         2.00",
    ]
    assert (tmp_path / "s.json").read_bytes() == state
