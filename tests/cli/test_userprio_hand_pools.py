"""`fs userprio --all` on small pools whose numbers are derived by hand from HTCondor
25.0.13's ``Accountant.cpp`` (``UpdateOnePriority``: ``P' = P*b + U*(1-b)``, at least
0.5, ``b = 0.5^(dt/half-life)``; ``AddMatch``/``RemoveMatch``: group records and
``HierWeightedResourcesUsed``) and ``user_prio.cpp`` (``FormatFloat``: ``%W.2f``, else
``%.(W-6)g`` when wider than the column)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[accountant]
priority_halflife = 3600
[[machines]]
name = "m"
count = 2
slots = 4
attributes = { Cpus = 1, Memory = 1024 }
[groups.group_a]
quota = 4
prio_factor = 2.0
"""


def test_a_group_user_a_running_user_and_one_that_never_used_anything(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Half-life 1 h; updates at every start and end (00:00, 00:30, 01:00, 02:00), then
    the view at 03:00. alice (group_a, factor 2) holds 2 slots 00:00-02:00: 0.5 ->
    0.939340 (00:30, b = 0.707107) -> 1.25 (01:00) -> 1.625 (02:00, b = 0.5) -> 0.8125
    at 03:00, effective 1.625; 4 slot-hours, usage from 00:30 (the first update finding
    some). bob holds 4 slots from 00:30 on: 1.525126 (01:00) -> 2.762563 -> 3.381282; 10
    slot-hours. dan's job starts and ends at 01:00: a record with no usage, 0.5. The
    ``<none>`` record is charged bob's and dan's matches only (group_a's usage goes to
    group_a)."""
    config = write_config(POOL)
    history = tmp_path / "h.csv"
    history.write_text(
        "owner,accounting_group,start,end,slots\n"
        "alice,group_a.alice,2026-01-01T00:00:00Z,2026-01-01T02:00:00Z,2\n"
        "bob,,2026-01-01T00:30:00Z,,4\n"
        "dan,,2026-01-01T01:00:00Z,2026-01-01T01:00:00Z,1\n"
    )
    common = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    now = ["--now", "2026-01-01T03:00:00Z"]
    assert run("import", "history", str(history), *common, *now).exit_code == 0
    view = run("userprio", "--all", "--allusers", "--json", *common, *now)
    rows = {r["name"]: r for r in json.loads(view.stdout)}
    got = {
        name: (r["real_priority"], r["effective_priority"], r["accumulated_usage_hours"])
        for name, r in rows.items()
    }
    assert got == {
        "group_a": (0.8125, 1.625, 4.0),
        "group_a.alice@ex.org": (0.8125, 1.625, 4.0),
        "<none>": (pytest.approx(3.381282, abs=1e-6), pytest.approx(3.381282, abs=1e-6), 10.0),
        "bob@ex.org": (
            pytest.approx(3.381282, abs=1e-6),
            pytest.approx(3.381282, abs=1e-6),
            10.0,
        ),
        "dan@ex.org": (0.5, 0.5, 0.0),
    }
    assert rows["group_a.alice@ex.org"]["begin_usage_time"] == "2026-01-01T00:30:00Z"
    assert rows["bob@ex.org"]["begin_usage_time"] == "2026-01-01T01:00:00Z"
    assert rows["dan@ex.org"]["begin_usage_time"] is None


def test_huge_usage_in_the_table(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A million slots for 364 days with a 600 s half-life: the priority is 1e6 when the
    work ends, a quarter of it 20 minutes (two half-lives) later, 250000, times the
    current profile's factor 1000: 2.5e8. Real Priority (width 8): ``%8.2f`` gives 9
    characters, so ``%.2g``: 2.5e+05; usage 1e6 x 364 x 24 h = 8.736e9 (width 12:
    ``%.6g``); the effective priority fits its 12 characters."""
    config = write_config(
        POOL.replace('defaults = "legacy"', 'defaults = "current"')
        .replace("3600", "600")
        .replace("[groups.group_a]\nquota = 4\nprio_factor = 2.0\n", "")
    )
    history = tmp_path / "h.csv"
    history.write_text(
        "owner,accounting_group,start,end,slots\n"
        "huge,,2025-01-01T00:00:00Z,2025-12-31T00:00:00Z,1000000\n"
    )
    common = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    imported = run("import", "history", str(history), *common, "--now", "2025-12-31T00:00:00Z")
    assert imported.exit_code == 0, imported.stderr
    view = run("userprio", "--all", *common, "--now", "2025-12-31T00:20:00Z", env={"TZ": "UTC"})
    row = next(line for line in view.stdout.splitlines() if line.startswith("huge@ex.org"))
    assert row.split()[:6] == [
        "huge@ex.org",
        "250000000.00",
        "2.5e+05",
        "1000.00",
        "0",
        "8.736e+09",
    ]


PSLOTS = """
[pool]
uid_domain = "ex.org"
defaults = "current"
[accountant]
priority_halflife = 600
[negotiator]
use_slot_weights = true
[[machines]]
name = "m"
count = 2
partitionable = true
attributes = { Cpus = 4, Memory = 4096 }
"""


def test_priority_factors_and_slot_weights_on_partitionable_slots_over_two_cycles(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Two partitionable slots of 4 CPUs (slot weight Cpus: a pool of 8), half-life
    600 s, committed cycles at 00:00 and 00:05 (b = 0.5^(300/600) = 0.707107). x (factor
    1000) queues 1-CPU jobs, y 2-CPU ones; ``fs setfactor y 3000`` arrives as CEDAR sends a
    double, 2999.999999.

    00:00: EUPs 500 and 1499.9999995: normalFactor 2.999999999 + 1, x's share
    0.7499999999375 (limit 5.9999999995), y's 0.2500000000625 (2.0000000005). x takes
    m001, charged its whole weight 4; its next job would cost 4 more (8 > its limit, and
    it has used some), so its autocluster is rejected; y, with nothing used and a limit
    above 0, may round up (``SubmitterLimitPermits``): m002, charged 4. 00:05: both RUPs
    0.5 b + 4 (1 - b) = 1.525126; ``CheckMatches`` holds x's dynamic slot at 1, y's at 2;
    the pool still weighs 8 (leftovers 3 and 2). Shares as before: x's limit
    5.9999999995 - 1, y's 2.0000000005 - 2 = 5e-10. x goes first: m002 (2 CPUs left, the
    smaller slot first) for 2, then m001 would cost 3: 5 > 4.9999999995, refused; y's
    limit is above 0 with nothing used, so y rounds up again: m001, charged 3. (With a
    factor of exactly 3000 the limits would be 5 and 0, and x would take both.)

    At 00:10: x held 1 + 2 = 3, y 2 + 3 = 5 since 00:05: RUP x 1.525126 b + 3 (1 - b) =
    1.957107, y 1.525126 b + 5 (1 - b) = 2.542893, EUP y 2.542893 x 2999.999999;
    usage x 4 x 300 + 3 x 300 s = 0.583333 h, y 4 x 300 + 5 x 300 s = 0.75 h."""
    config = write_config(PSLOTS)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    start = ["--now", "2026-01-01T00:00:00Z"]
    for owner, cpus in (("x", "1"), ("y", "2")):
        submitted = run(
            "submit", "--owner", owner, "--count", "3", "--cpus", cpus, "--memory", "100",
            *common, *start,
        )  # fmt: skip
        assert submitted.exit_code == 0, submitted.stderr
    assert run("setfactor", "y", "3000", *common, *start).exit_code == 0
    charged = []
    for minute in ("00", "05"):
        cycle = run("negotiate", "--json", *common, "--now", f"2026-01-01T00:{minute}:00Z")
        assert cycle.exit_code == 0, cycle.stderr
        doc = json.loads(cycle.stdout)
        charged += [(m["submitter"], m["slot"], m["charge"]) for m in doc["matches"]]
        limits = {s["name"]: s["limit"] for s in doc["submitters"]}
        assert limits["x@ex.org"] == pytest.approx(5.9999999995, abs=1e-12)
        assert limits["y@ex.org"] == pytest.approx(2.0000000005, abs=1e-12)
    assert charged == [
        ("x@ex.org", "slot1_1@m001", 4.0),
        ("y@ex.org", "slot1_1@m002", 4.0),
        ("x@ex.org", "slot1_2@m002", 2.0),
        ("y@ex.org", "slot1_2@m001", 3.0),
    ]
    view = run("userprio", "--all", "--json", *common, "--now", "2026-01-01T00:10:00Z")
    rows = {r["name"]: r for r in json.loads(view.stdout)}
    assert rows["x@ex.org"]["real_priority"] == pytest.approx(1.957107, abs=1e-6)
    assert rows["y@ex.org"]["real_priority"] == pytest.approx(2.542893, abs=1e-6)
    assert rows["y@ex.org"]["priority_factor"] == 2999.999999
    assert rows["y@ex.org"]["effective_priority"] == pytest.approx(2.542893 * 2999.999999, abs=1e-6)
    assert rows["x@ex.org"]["weighted_resources_in_use"] == 3.0
    assert rows["y@ex.org"]["weighted_resources_in_use"] == 5.0
    assert rows["x@ex.org"]["weighted_accumulated_usage_hours"] == pytest.approx(2100 / 3600)
    assert rows["y@ex.org"]["weighted_accumulated_usage_hours"] == pytest.approx(0.75)
