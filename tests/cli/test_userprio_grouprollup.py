"""``fs userprio -grouprollup``, as ``condor_userprio -grouprollup`` prints it.

HTCondor 25.0's ``user_prio.cpp`` sends ``GET_PRIORITY_ROLLUP`` to the negotiator and prints
its one numbered ad; ``Accountant::ReportGroups(.., rollup=true)`` fills it depth first:
each subgroup adds its ``ResourcesUsed``, ``WeightedResourcesUsed``, ``AccumulatedUsage``
and ``WeightedAccumulatedUsage`` to its parent's and gives the parent the later
``LastUsageTime`` (and the earlier ``BeginUsageTime``); a group's ``Priority`` is 0 and its
``PriorityFactor`` the record's. The activity filter runs on the rolled-up times, after.

The pool (slot weights off: one slot weighs 1; accumulated usage is not decayed):
- ``group_a.u1``: 2 slots from 54 h to 30 h before now: 2 x 24 h = 48.00 h, last 30 h ago;
- ``group_a.sub.u2``: 4 slots from 8 h to 2 h before now: 4 x 6 h = 24.00 h, last 2 h ago;
- ``group_b.u3``: 1 slot since 12 h before now, still running: 12.00 h, 1 in use;
- ``u4`` (no group): 3 slots since 1 h before now, running: 3.00 h, 3 in use.
Each group record holds its own submitters' usage only (``AddMatch``), so rolled up:
``group_a`` = 48 + 24 = 72.00 h, 0 in use, last used 2 h ago (its sub's); ``group_b`` 12.00 h,
1 in use; ``<none>`` = 3 + 72 + 12 = 87.00 h, 3 + 0 + 1 = 4 in use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[pool]
uid_domain = "example.org"
[groups."group_a"]
quota = 10
[groups."group_a.sub"]
quota = 5
[groups."group_b"]
quota = 5
"""
HISTORY = "\n".join(
    (
        '{"owner": "u1", "accounting_group": "group_a.u1", "start": "2026-11-19T06:00:00Z", '
        '"end": "2026-11-20T06:00:00Z", "slots": 2}',
        '{"owner": "u2", "accounting_group": "group_a.sub.u2", '
        '"start": "2026-11-21T04:00:00Z", "end": "2026-11-21T10:00:00Z", "slots": 4}',
        '{"owner": "u3", "accounting_group": "group_b.u3", "start": "2026-11-21T00:00:00Z", '
        '"end": null, "slots": 1}',
        '{"owner": "u4", "start": "2026-11-21T11:00:00Z", "end": null, "slots": 3}',
    )
)


def _pool(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(HISTORY + "\n", encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", NOW]  # fmt: skip
    result = run("import", "history", str(tmp_path / "h.jsonl"), *args)
    assert result.exit_code == 0, result.stderr
    return args


def _rows(text: str) -> dict[str, list[str]]:
    """The table's rows by their first word (the name), cells split on blanks."""
    lines = text.splitlines()[4:-2]
    return {line.split()[0]: line.split()[1:] for line in lines}


def test_group_rows_show_their_subgroups_usage(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Config quota, surplus, factor, in use, usage (h), time since, requested: group_a
    shows 72.00 h and is listed although its own last usage is 30 h old (its subgroup's
    is 2 h); without -grouprollup it is left out by the 24-hour filter."""
    args = _pool(tmp_path, run)
    plain = run("userprio", *args)
    rolled = run("userprio", "-grouprollup", *args)
    assert rolled.exit_code == 0, rolled.stderr
    assert rolled.stderr == ""
    rows = _rows(rolled.stdout)
    assert rows["group_a"] == ["10.00", "no", "1.00", "0", "72.00", "0+02:00", "0"]
    assert rows["group_a.sub"] == ["5.00", "no", "1.00", "0", "24.00", "0+02:00", "0"]
    assert rows["group_b"] == ["5.00", "no", "1.00", "1", "12.00", "<now>", "0"]
    assert rows["<none>"] == ["0.00", "yes", "1.00", "4", "87.00", "<now>", "0"]
    assert "group_a" not in _rows(plain.stdout)
    # the submitters' rows, the header and the footer are those of the plain table
    plain_lines = plain.stdout.splitlines()
    for line in plain_lines:
        if line.startswith("  ") or line.startswith(("Last", "Group", "---", "Number")):
            assert line in rolled.stdout.splitlines()
    assert rolled.stdout.splitlines()[-1] == plain_lines[-1]


def test_with_allusers_every_group_and_a_zero_real_priority(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """-allusers -all: the group's Real Priority is the ad's Priority (0) over its factor
    (1.00 here: the record's; the plain -allusers ad has the unset GROUP_PRIO_FACTOR, 0,
    and prints both blank) = 0.00; u1, used 30 h ago, is listed too."""
    args = _pool(tmp_path, run)
    result = run("userprio", "-grouprollup", "-allusers", "-all", *args)
    assert result.exit_code == 0, result.stderr
    rows = _rows(result.stdout)
    # effective, config, surplus, subtree, real priority, factor, in use, usage ...
    assert rows["group_a"][4:8] == ["0.00", "1.00", "0", "72.00"]
    assert rows["<none>"][4:8] == ["0.00", "1.00", "4", "87.00"]
    # Usage Start Time: the earlier of the subtree's (u1's, set by the update at its end,
    # 11/20 06:00); Last Usage Time: the later (group_a.sub's, 11/21 10:00)
    assert rows["group_a"][8:12] == ["11/20/2026", "06:00", "11/21/2026", "10:00"]
    assert rows["<none>"][8:12] == ["11/20/2026", "06:00", "11/21/2026", "12:00"]
    assert "u1@example.org" in rows


def test_long_prints_the_rolled_up_numbered_ad(tmp_path: Path, run: Callable[..., Any]) -> None:
    """-l: the negotiator's rollup ad, groups numbered breadth-first from <none> (1):
    group_a 2, group_b 3, group_a.sub 4. <none>: 3 + 0 + 1 = 4 slots; its usage
    10800 + (172800 + 86400) + 43200 = 313200 s; every group's Priority 0."""
    args = _pool(tmp_path, run)
    result = run("userprio", "-grouprollup", "-l", *args)
    assert result.exit_code == 0, result.stderr
    lines = set(result.stdout.splitlines())
    assert {'Name1 = "<none>"', 'Name2 = "group_a"', 'Name4 = "group_a.sub"'} <= lines
    assert {"ResourcesUsed1 = 4", "WeightedResourcesUsed1 = 4.0"} <= lines
    assert {"AccumulatedUsage1 = 313200.0", "WeightedAccumulatedUsage1 = 313200.0"} <= lines
    assert {"AccumulatedUsage2 = 259200.0", "AccumulatedUsage4 = 86400.0"} <= lines
    assert {"Priority1 = 0.0", "Priority2 = 0.0", "Priority4 = 0.0"} <= lines
    assert "NumSubmittors = 8" in lines  # 4 groups and 4 submitters


def test_names_are_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    args = _pool(tmp_path, run)
    result = run("userprio", "-grouprollup", "u1", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "--grouprollup lists every record" in result.stderr


def test_json_rows_carry_the_rolled_up_values(tmp_path: Path, run: Callable[..., Any]) -> None:
    import json

    args = _pool(tmp_path, run)
    result = run("userprio", "--grouprollup", "--json", *args)
    assert result.exit_code == 0, result.stderr
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["<none>"]["weighted_accumulated_usage_hours"] == 87.0
    assert rows["<none>"]["weighted_resources_in_use"] == 4
    assert rows["group_a"]["effective_priority"] == 0
