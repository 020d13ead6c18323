"""``fs negotiate --dry-run``: strict quota enforcement in a later round-robin pass uses the
group's usage as the round began, as ``GroupEntry::strict_enforce_quota`` does, so a
group that took slots in the first pass negotiates for fewer than it holds in the next."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "current"
[negotiator]
group_quota_round_robin_rate = 3
[[machines]]
name = "m"
count = 10
attributes = { Cpus = 1, Memory = 1024 }
[groups."group_a"]
quota = 5
accept_surplus = true
[groups."group_b"]
quota = 5
"""


def test_a_second_pass_limit_below_what_the_group_holds(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Hand-derived from ``GroupEntry.cpp`` (25.0). 10 one-CPU slots, slot weights on;
    group_a (static 5, accepts surplus) and group_b (static 5, does not) want 10 each;
    ``GROUP_QUOTA_ROUND_ROBIN_RATE = 3``. Round 1: both allocated 5, ``maxdelta`` 5,
    passes n = 3 and 5 (sorted by usage/quota: a, b). Pass 1: 0 + 5·3/5 = 3 each: both
    match 3. Pass 2: 5; for group_b ``strict_enforce_quota`` takes its new allocation as
    5 − usage (0, as the round began: ``group->usage`` is read in
    ``hgq_prepare_for_matchmaking`` and at each round's end) = 5, against what its quota
    has left, 5 − subtree usage (3, read now) = 2, so its limit is 2 + 0 = 2: below the 3 it
    holds, it matches nothing; group_a (no cap) goes to 5. Round 1 used 8 of 10. Round 2:
    group_b's demand is its usage 3, group_a's 5 + 5; the 2 spare go to group_a (7);
    ``maxdelta`` 2, one pass: group_b (key 3/5, first) 3 + 2 = 5 (its quota has 2 left),
    takes the 2 free slots; group_a (7) finds none. Round 3: group_b 5 again (5 − 5 = 0
    left), nothing. So 5 and 5; group_b's passes were 3, 2, 5, 5."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [
                {"id": "1.0", "count": 10, "owner": "u", "accounting_group": "group_a.u"},
                {"id": "2.0", "count": 10, "owner": "v", "accounting_group": "group_b.v"},
            ]
        )
    )
    cycle = ["negotiate", "--dry-run", *args, "--now", NOW, "--jobs-file", str(jobs)]
    result = run(*cycle, "--json")
    assert result.exit_code == 0, result.stderr
    matched = {s["name"]: s["matched"] for s in json.loads(result.stdout)["submitters"]}
    assert matched == {"group_a.u@ex.org": 5, "group_b.v@ex.org": 5}
    story = run(*cycle, "--explain", "2.9")
    assert story.exit_code == 0, story.stderr
    passes = [line for line in story.stdout.splitlines() if "negotiates with a limit" in line]
    assert passes == [
        f"  group group_b negotiates with a limit of {n} slot(s) (quota 5.00)" for n in (3, 2, 5, 5)
    ]
    assert not (tmp_path / "s.json").exists()
