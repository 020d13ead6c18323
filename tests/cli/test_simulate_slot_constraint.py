"""``negotiator.slot_constraint`` in ``fs simulate`` and ``fs quota``: the slots the
collector does not send (25.0's ``obtainAdsFromCollector``) are never matched and count
nowhere, cycle after cycle, and not in the pool size group quotas share."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-20T00:00:00Z"

#: 4 x86 slots and 4 arm slots, 1 CPU each (``current``: each slot weighs 1).
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
slot_constraint = 'Arch == "X86_64"'
[[machines]]
name = "x"
count = 4
slots = 1
attributes = { Cpus = 1, Memory = 1024, Arch = "X86_64" }
[[machines]]
name = "arm"
count = 4
slots = 1
attributes = { Cpus = 1, Memory = 1024, Arch = "ARM" }
{groups}"""


def test_each_cycle_matches_only_the_slots_sent(tmp_path: Path, run: Callable[..., Any]) -> None:
    """alice and bob submit 6 two-hour jobs each at 00:00; new, equal shares of the 4 x86
    slots: 2 each at 00:00 and 01:00 (without the constraint 4 each of the 8 slots), and the
    pool row's slots in use stay 4."""
    config, workload = tmp_path / "pool.toml", tmp_path / "workload.json"
    config.write_text(POOL.replace("{groups}", ""), encoding="utf-8")
    jobs = [
        {"id": f"{c}.0", "owner": owner, "count": 6, "run_time": 7200, "submit_time": NOW}
        for c, owner in ((1, "alice"), (2, "bob"))
    ]
    workload.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "simulate", "--config", str(config), "--state", str(tmp_path / "state.json"),
        "--workload", str(workload), "--until", "3600", "--cycle", "3600", "--now", NOW,
        "--output", "csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = [
        (r["time"][11:16], r["name"], r["slots"])
        for r in csv.DictReader(io.StringIO(result.stdout))
    ]
    assert rows == [
        (t, name, slots)
        for t in ("00:00", "01:00")
        for name, slots in (
            ("alice@example.org", "2.0"),
            ("bob@example.org", "2.0"),
            ("pool", "4.0"),
        )
    ]


def test_quota_shares_the_slots_sent(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs quota --json``: groups a and b, dynamic quotas 0.5 each of the 4 x86 slots."""
    groups = "[groups.a]\ndynamic_quota = 0.5\n[groups.b]\ndynamic_quota = 0.5\n"
    config = tmp_path / "pool.toml"
    config.write_text(POOL.replace("{groups}", groups), encoding="utf-8")
    result = run(
        "quota", "--json", "--config", str(config), "--state", str(tmp_path / "s.json"),
        "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = {r["group"]: r for r in json.loads(result.stdout)}
    assert rows["<none>"]["subtree_quota"] == 4.0  # 8 configured
    assert (rows["a"]["quota"], rows["b"]["quota"]) == (2.0, 2.0)
