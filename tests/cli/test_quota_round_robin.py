"""``fs quota`` hands whole remainder slots to the groups HTCondor's round robin serves
first, with more than 16 groups tied (GCC's ``std::sort`` moves ties above 16)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"


def seventeen_groups(extra: str = "") -> str:
    """20 one-CPU slots (legacy: no slot weights) and 17 groups of quota 1 that accept
    surplus."""
    head = f"""
[pool]
uid_domain = "example.org"
defaults = "legacy"

[negotiator]
accept_surplus = true

[[machines]]
name = "exec"
count = 20
attributes = {{ Cpus = 1, Memory = 1024 }}
{extra}"""
    return head + "".join(f'\n[groups."group_{g:02d}"]\nquota = 1\n' for g in range(1, 18))


def two_jobs_each(path: Path) -> Path:
    jobs = [
        {"id": f"{g}.{p}", "owner": "u", "accounting_group": f"group_{g:02d}.u"}
        for g in range(1, 18)
        for p in range(2)
    ]
    path.write_text(json.dumps(jobs))
    return path


def test_remainder_slots_go_where_the_round_robin_sorts_them(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Derived by hand from ``GroupEntry.cpp`` (HTCondor 25.0). 20 slots, 17 static quotas
    of 1: each group 1, ``<none>`` 3. Each group wants 2: ``hgq_fairshare`` gives each 1,
    then the root's 3 spare by quota, 3/17 each; ``hgq_recover_remainders`` takes the
    fractions back (3 slots) and ``hgq_round_robin`` hands them out one at a time
    (``amax = max(1, floor(3/17))``) in the order ``std::sort`` leaves the 17 children and
    the root (last) by ``ord_by_rr_time``: rr_time all 0; the root's quota 3 beats the
    children's 1, which tie. Traced through libstdc++'s introsort (18 > 16 items: the
    median of items 1, 9, 17 is 9; the partition swaps 1↔17, 2↔16, ..., 8↔10 and cuts at
    9; the final insertion sort moves the root to the front): root, 9, 16, 15, ... The
    root wants nothing; group_10 (item 9), group_17 and group_16 take the 3 slots. fs
    kept ties in order and gave them to group_01, group_02 and group_03."""
    args = ["--config", str(write_config(seventeen_groups())), "--state", str(tmp_path / "s")]
    jobs = two_jobs_each(tmp_path / "jobs.json")
    result = run("quota", *args, "--now", NOW, "--jobs-file", str(jobs), "--json")
    assert result.exit_code == 0, result.stderr
    limits = {row["group"]: row["limit"] for row in json.loads(result.stdout)}
    assert {g for g, limit in limits.items() if limit == 2} == {"group_10", "group_16", "group_17"}
    assert sum(limits.values()) == 20


def test_the_limit_is_the_last_round_robin_pass_of_the_first_round(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """`GROUP_QUOTA_ROUND_ROBIN_RATE = 2` with group_a and group_b (quota 5 each, surplus
    accepted) and 10 jobs each in 10 slots: the first round negotiates in passes of limits
    2, 4 and 5 (hand-derived in tests/core/htcondor/test_quotas.py). fs quota showed the
    first pass's 2; the groups negotiate for 5."""
    config = write_config(
        """
[pool]
uid_domain = "d"
defaults = "current"
[negotiator]
use_slot_weights = false
group_quota_round_robin_rate = 2
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
    )
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [
                {"id": "1.0", "count": 10, "owner": "x", "accounting_group": "group_a.x"},
                {"id": "2.0", "count": 10, "owner": "y", "accounting_group": "group_b.y"},
            ]
        )
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("quota", *args, "--jobs-file", str(jobs), "--json")
    assert result.exit_code == 0, result.stderr
    limits = {row["group"]: row["limit"] for row in json.loads(result.stdout)}
    assert limits == {"<none>": 0, "group_a": 5, "group_b": 5}
    # (group_a's fifth job matches in the third pass: its story holds all three; a job's
    # story ends at its match)
    story = run("negotiate", "--dry-run", *args, "--jobs-file", str(jobs), "--explain", "1.4")
    passes = [line for line in story.stdout.splitlines() if "negotiates with a limit" in line]
    assert passes == [
        f"  group group_a negotiates with a limit of {n} slot(s) (quota 5.00)" for n in (2, 4, 5)
    ]
