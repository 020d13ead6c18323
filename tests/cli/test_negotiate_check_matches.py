"""Claims that go on across cycles, hand-derived from the source.

``fs`` follows HTCondor 25.0's ``CheckMatches`` (``Accountant.cpp``): a claim that
goes on is neither removed nor added again, so the unweighted ``ResourcesUsed`` stays the
number of claims and each ``UpdatePriorities`` charges ``ResourcesUsed × interval``. (25.14
adds every claim back each cycle without ``RemoveMatch``: ``ResourcesUsed`` would be 6
after the second cycle and 9 after the third.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 3
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
"""


def test_resources_used_stays_the_claims_over_cycles(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """3 slots, alice's 3 jobs. Cycles at 12:00 (3 matches), 12:10 and 12:20 (none): 25.0
    keeps ResourcesUsed = 3; the updates at 12:10 and 12:20 charge 3 × 600 s each: 1.00
    hour, unweighted and weighted. BeginUsageTime is 12:10, the first update that finds
    usage. RUP = 0.5·β + 3·(1 − β), β = 0.5^(1200/86400) (two 600 s steps
    compose), with the default half-life of a day."""
    cfg = write_config(POOL)
    state = ["--config", str(cfg), "--state", str(tmp_path / "state.json")]
    at = "2026-11-21T12:{}:00Z"
    assert (
        run(
            "submit",
            "--id",
            "1",
            "--owner",
            "alice",
            "--count",
            "3",
            *state,
            "--now",
            at.format("00"),
        ).exit_code
        == 0
    )
    for minute in ("00", "10", "20"):
        result = run("negotiate", *state, "--now", at.format(minute))
        assert result.exit_code == 0, result.stderr
    out = run("userprio", "--json", "--allusers", *state, "--now", at.format("20"))
    alice = next(r for r in json.loads(out.stdout) if r["name"] == "alice@example.org")
    beta = 0.5 ** (1200 / 86400)
    assert alice["resources_in_use"] == 3
    assert alice["accumulated_usage_hours"] == 1.0
    assert alice["weighted_accumulated_usage_hours"] == 1.0
    assert alice["begin_usage_time"] == at.format("10")
    stored = round(0.5 * beta + 3 * (1 - beta), 6)  # (the accountant stores six decimals)
    assert (alice["real_priority"], stored) == (0.523952, 0.523952)


POOL10 = POOL.replace("count = 3", "count = 10")


def test_a_stale_accountant_is_corrected_by_the_claims(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """10 slots; alice runs 2 (history, 11:00 on), and a stale ``condor_userprio -l`` says
    she uses 8. ``CheckMatches`` makes her counts those of her 2 claims before the cycle
    negotiates (``Accountant::CheckResources`` sums a customer's resource records), so her
    slice is 1 × 10 - 2 = 8 and all 8 idle jobs match (the stale 8 would leave 10 - 8 =
    2). Committed, she holds the 10 slots she has claims on."""
    cfg = write_config(POOL10)
    state_path = tmp_path / "state.json"
    args = ["--config", str(cfg), "--state", str(state_path), "--now", "2026-11-21T12:00:00Z"]
    hist = tmp_path / "h.jsonl"
    rec = {"owner": "alice", "start": "2026-11-21T11:00:00Z"}
    hist.write_text(json.dumps(rec) + "\n" + json.dumps(rec) + "\n")
    assert run("import", "history", str(hist), *args).exit_code == 0
    state = json.loads(state_path.read_text())
    alice = state["accountant"]["records"]["alice@example.org"]
    assert (alice["resources_used"], alice["weighted_resources_used"]) == (2, 2.0)
    alice.update(resources_used=8, weighted_resources_used=8.0)
    state_path.write_text(json.dumps(state))
    assert run("submit", "--owner", "alice", "--count", "8", *args).exit_code == 0
    out = json.loads(run("negotiate", "--dry-run", "--json", *args).stdout)
    assert len(out["matches"]) == 8
    assert run("negotiate", *args).exit_code == 0
    rows = json.loads(run("userprio", "--json", "--allusers", *args).stdout)
    row = next(r for r in rows if r["name"] == "alice@example.org")
    assert (row["resources_in_use"], row["weighted_resources_in_use"]) == (10, 10.0)
