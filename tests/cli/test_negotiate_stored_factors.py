"""fs negotiate reads a factor no record stores yet as HTCondor's accountant stores it, with
six decimals (``Accountant::GetPriorityFactor`` writes it with ``%f``; the cycle's reads
after the first, which only finds the largest EUP, read that)."""

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

[[machines]]
name = "exec"
count = 1
attributes = { Cpus = 1, Memory = 4096 }

[groups."group_a"]
quota = 1
prio_factor = 1.2345678
"""


def test_a_new_submitter_ties_with_one_whose_factor_is_stored(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """bob's record stores group_a's factor as 1.234568 (written by setprio); alice has no
    record. Both at RUP 0.5: HTCondor's cycle reads EUP 0.5 x 1.234568 = 0.617284 for both
    (alice's first read, 0.6172839, only finds the largest EUP), a tie, broken by the
    queue's order (bob submitted first): bob takes the one slot. fs read alice at
    0.6172839, put her first and gave her the slot."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW]
    for owner in ("bob", "alice"):
        submit = ["submit", "--owner", owner, "--accounting-group", f"group_a.{owner}"]
        assert run(*submit, *args).exit_code == 0
    assert run("setprio", "group_a.bob@d", "0.5", *args).exit_code == 0
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(m["submitter"], m["slot"]) for m in out["matches"]] == [
        ("group_a.bob@d", "slot1@exec001")
    ]
    assert {s["name"]: s["effective_priority"] for s in out["submitters"]} == {
        "group_a.alice@d": 0.617284,
        "group_a.bob@d": 0.617284,
    }
