"""``fs simulate``'s rows count a group's slots weighted, as its quota counts them (and
``fs quota`` its use), and a submitter's and the pool's as slots: with slot weights on the
two differ, which docs/json.md now says. By hand: three slots of ``Cpus = 2`` weigh 2 each
(``current``: slot weights on, ``SLOT_WEIGHT = Cpus``); group_a's quota of 4 weighted
slots lets alice start two jobs, so she holds 2 slots, group_a 4.0, the pool 2 of 3."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

CONFIG = """\
[pool]
defaults = "current"
uid_domain = "example.org"

[[machines]]
name = "m"
count = 1
slots = 3
attributes = { Cpus = 2, Memory = 4096 }

[groups."group_a"]
quota = 4
"""

WORKLOAD = [
    {"id": "1.0", "count": 5, "owner": "alice", "accounting_group": "group_a.alice",
     "run_time": 3600},
]  # fmt: skip


def test_a_groups_slots_are_weighted_a_submitters_counted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "w.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    result = run(
        "simulate", "--workload", str(tmp_path / "w.json"), "--until", "60", "--cycle", "60",
        "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
        "--now", "2026-11-21T12:00:00Z", "--output", "ndjson",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    first = [json.loads(line) for line in result.stdout.splitlines()][:4]
    slots = {(row["kind"], row["name"]): row["slots"] for row in first}
    assert slots == {
        ("submitter", "group_a.alice@example.org"): 2.0,
        ("group", "<none>"): 0.0,
        ("group", "group_a"): 4.0,
        ("pool", "pool"): 2.0,
    }
    assert first[-1]["capacity"] == 3.0
