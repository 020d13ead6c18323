"""``fs quota`` orders the remainders' round robin by when each group was last served, as
the committed cycles left it (the state's ``negotiator.rr_times``), as ``fs negotiate``
and HTCondor's ``hgq_round_robin`` do. It read every group as never served, so after a
cycle that served one group its Limit column gave the spare slot to the same group again,
where the next cycle gives it to the other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[negotiator]
accept_surplus = true
[[machines]]
name = "m"
count = 3
attributes = { Cpus = 1, Memory = 1024 }
[groups."group_g1"]
quota = 1
[groups."group_g2"]
quota = 1
"""


def test_quota_gives_the_remainder_to_the_group_served_least_recently(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Hand-derived from ``GroupEntry.cpp`` (25.0): 3 slots, weights off; g1 and g2 static
    1 with surplus; ``<none>`` 1. Demand 5 each, so each is allocated 1 + 0.5 and the
    remainders make 1 slot for the root's round robin (``ord_by_rr_time``: least recently
    served subtree first, then quota, then demand). At 12:00 nobody was ever served: g1
    (first of the tie) gets it, limits g1 2, g2 1; the cycle commits 3 matches and stamps
    g1 and ``<none>`` with 12:00 (served, or nothing left to ask), g2 stays 0. At 12:01
    the demand is the same (running + idle = 5 each), and g2, never served, comes first:
    limits g1 1, g2 2, as ``fs negotiate`` negotiates them. fs quota showed g1 2, g2 1."""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(POOL)), "--state", str(state)]
    at_noon = [*args, "--now", "2026-11-21T12:00:00Z"]
    for owner, group in (("a", "group_g1"), ("b", "group_g2")):
        made = run("submit", "--owner", owner, "--accounting-group", f"{group}.{owner}",
                   "--count", "5", *at_noon)  # fmt: skip
        assert made.exit_code == 0, made.stderr
    first = run("quota", *at_noon, "--json")
    assert {r["group"]: r["limit"] for r in json.loads(first.stdout)} == {
        "<none>": 0,
        "group_g1": 2,
        "group_g2": 1,
    }
    assert run("negotiate", *at_noon).exit_code == 0
    rr = json.loads(state.read_text())["negotiator"]["rr_times"]
    assert rr == {"<none>": 1795262400.0, "group_g1": 1795262400.0, "group_g2": 0.0}
    written = state.read_bytes()
    later = [*args, "--now", "2026-11-21T12:01:00Z"]
    table = run("quota", *later, env={"COLUMNS": "100"})
    assert table.exit_code == 0, table.stderr
    assert [line.rstrip() for line in table.stdout.splitlines()[3:]] == [
        "<none>     │              │          3.00 │            1.00 │     0 │ yes     │      0 │      0",
        "  group_g1 │         1.00 │          1.00 │            1.00 │     1 │ yes     │      2 │      5",
        "  group_g2 │         1.00 │          1.00 │            1.00 │     2 │ yes     │      1 │      5",
    ]  # fmt: skip
    story = run("negotiate", "--dry-run", *later, "--explain", "2.4")
    passes = [line for line in story.stdout.splitlines() if "negotiates with a limit" in line]
    assert passes[0] == "  group group_g2 negotiates with a limit of 2 slot(s) (quota 1.00)"
    assert state.read_bytes() == written
