"""``fs negotiate --dry-run``: pie slices of a later spin that are all below one slot end
the spins, leaving slots unmatched, as ``Matchmaker::negotiateWithGroup`` does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[[machines]]
name = "m"
count = 10
attributes = { Cpus = 1, Memory = 1024 }
"""


def test_slices_below_one_slot_in_the_second_spin_leave_two_slots_idle(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Hand-derived from ``matchmaker.cpp`` (``calculateNormalizationFactor``,
    ``calculateSubmitterLimit``, ``negotiateWithGroup``). Real priorities 1, 2 and 3 at
    factor 1 (legacy): max 3, normalFactor 3/1 + 3/2 + 3/3 = 5.5, shares 0.5455, 0.2727,
    0.1818 of 10 slots: limits 5.45, 2.73, 1.82. Spin 1 matches 5, 2 and 1 (one more
    would pass each limit; only a turn that has used nothing may round up). Spin 2: limits
    0.45, 0.73, 0.82, each below minSlotWeight 1 on a spin past the first, so every turn
    is skipped; pieLeft stays 2 and nobody left, so the cycle ends with 2 slots unmatched."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    for name, prio in (("u1", "1"), ("u2", "2"), ("u3", "3")):
        edit = run("setprio", f"{name}@ex.org", prio, "--create", *args, "--now", NOW)
        assert edit.exit_code == 0, edit.stderr
    state = (tmp_path / "s.json").read_bytes()
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps([{"id": f"{c}.0", "count": 10, "owner": f"u{c}"} for c in (1, 2, 3)])
    )
    cycle = ["negotiate", "--dry-run", *args, "--now", NOW, "--jobs-file", str(jobs)]
    table = run(*cycle, env={"COLUMNS": "100"})
    assert table.exit_code == 0, table.stderr
    assert table.stdout.rstrip().splitlines()[-1] == (
        "8 matches in 2 pie spin(s); pool size 10.00; 22 idle job(s) left unmatched."
    )
    result = run(*cycle, "--json")
    submitters = {s["name"]: s for s in json.loads(result.stdout)["submitters"]}
    assert {n: (s["matched"], round(s["limit"], 4)) for n, s in submitters.items()} == {
        "u1@ex.org": (5, 5.4545),
        "u2@ex.org": (2, 2.7273),
        "u3@ex.org": (1, 1.8182),
    }
    assert (tmp_path / "s.json").read_bytes() == state
