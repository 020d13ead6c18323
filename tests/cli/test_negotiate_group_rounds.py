"""`fs negotiate --dry-run` across group allocation rounds, as the command line runs it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
POOL = """
[pool]
uid_domain = "d"
defaults = "current"
[negotiator]
use_slot_weights = false
[[machines]]
name = "m"
slots = 10
[groups."group_a"]
quota = 5
accept_surplus = true
[groups."group_b"]
quota = 5
accept_surplus = true
"""
QUEUE = [
    {"id": "1.0", "count": 3, "owner": "x", "accounting_group": "group_a.x"},
    {
        "id": "2.0",
        "count": 5,
        "owner": "x",
        "accounting_group": "group_a.x",
        "requirements": "false",
    },
    {"id": "3.0", "count": 10, "owner": "y", "accounting_group": "group_b.y"},
]


def test_a_group_whose_submitters_are_done_is_skipped_in_the_next_round(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """HTCondor 25.0 skips group_a in round 2 ("no submitters": x left its list in round 1,
    done), so the cycle has 1 + 2 pie spins in round 1 and 1 in round 2; fs counted a fifth
    spin for group_a's empty list (hand-derived in
    tests/core/htcondor/test_negotiator_group_rounds.py)."""
    config = write_config(POOL)
    queue = tmp_path / "jobs.json"
    queue.write_text(json.dumps(QUEUE))
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("negotiate", "--dry-run", *args, "--jobs-file", str(queue))
    assert result.exit_code == 0, result.stderr
    last = result.stdout.rstrip().splitlines()[-1]
    assert last == "10 matches in 4 pie spin(s); pool size 10.00; 8 idle job(s) left unmatched."
    cycle = json.loads(
        run("negotiate", "--dry-run", *args, "--jobs-file", str(queue), "--json").stdout
    )
    assert {s["name"]: s["matched"] for s in cycle["submitters"]} == {
        "group_a.x@d": 3,
        "group_b.y@d": 7,
    }
