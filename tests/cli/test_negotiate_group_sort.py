"""``fs negotiate`` orders groups by a ``GROUP_SORT_EXPR`` that gives a boolean as
HTCondor's negotiator does: true 1.0, false 0.0 (it took a boolean for no number and put
every group last, tied, in configuration order)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
POOL = """\
[pool]
uid_domain = "d"
defaults = "current"
[[machines]]
name = "m"
count = 6
attributes = { Cpus = 1, Memory = 4096 }
[negotiator]
group_sort_expr = "GroupResourcesInUse > 0"
concurrency_limits = { lic = 2 }
[groups.group_a]
quota = 3
[groups.group_b]
quota = 3
"""
JOBS = [
    {"id": "1.0", "owner": "alice", "accounting_group": "group_a.alice",
     "concurrency_limits": "lic", "status": "running", "slot": "slot1@m001",
     "start_time": "2026-11-21T11:00:00Z"},
    {"id": "1.1", "owner": "alice", "accounting_group": "group_a.alice",
     "concurrency_limits": "lic"},
    {"id": "2.0", "owner": "bob", "accounting_group": "group_b.bob", "concurrency_limits": "lic"},
]  # fmt: skip


def test_a_boolean_sort_key_puts_the_idle_group_first_and_it_takes_the_shared_limit(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """``fs negotiate --dry-run --config pool.toml --jobs-file jobs.json --json``.

    By hand from ``hgq_negotiate_with_all_groups`` (GroupEntry.cpp, 25.0): group_a holds
    one slot (alice's running 1.0, weight Cpus = 1), group_b none. ``GroupResourcesInUse
    > 0`` is true for group_a (key 1.0) and false for group_b and ``<none>`` (0.0), so
    ``std::sort`` by ``group_order`` (3 items: an insertion sort, equal keys in their
    breadth-first order) gives ``<none>`` (no quota: skipped), group_b, group_a. The limit
    ``lic`` of 2 is shared: 1.0 holds one; bob's 2.0 takes the other (1 + 1 <= 2) on the
    first free slot, slot1@m002; alice's 1.1 is then refused by ``rejectForConcurrencyLimits``
    (2 + 1 > 2), "concurrency limit lic reached". Before, alice got it and bob was refused.
    """
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS), encoding="utf-8")
    result = run(
        *("negotiate", "--dry-run", "--config", str(write_config(POOL))),
        *("--state", str(tmp_path / "s.json"), "--now", NOW, "--jobs-file", str(jobs), "--json"),
    )
    assert result.exit_code == 0, result.stderr
    cycle = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"]) for m in cycle["matches"]] == [("2.0", "slot1@m002")]
    assert cycle["unmatched"] == [
        {"job_id": "1.1", "submitter": "group_a.alice@d", "reason": "concurrency_limit"}
    ]
