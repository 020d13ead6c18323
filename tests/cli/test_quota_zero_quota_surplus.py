"""``fs quota`` and ``fs negotiate --dry-run`` hand surplus to groups of quota 0 as
HTCondor's ``GroupEntry::hgq_allocate_surplus`` does: by quota first (where a zero quota
weighs nothing), then what is left in equal shares to the zero-quota groups, capped at
their demand; the fractions then go round robin (slot weights off) or are dropped (on)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "ex.org"
defaults = "{profile}"
[negotiator]
accept_surplus = true
[[machines]]
name = "m"
count = 11
attributes = {{ Cpus = 1, Memory = 1024 }}
[groups."group_a"]
quota = 4
[groups."group_z1"]
quota = 0
[groups."group_z2"]
quota = 0
[groups."group_z3"]
quota = 0
"""

JOBS: list[dict[str, Any]] = [
    {"id": "1.0", "count": 5, "owner": "a", "accounting_group": "group_a.a"},
    {"id": "2.0", "count": 6, "owner": "b", "accounting_group": "group_z1.b"},
    {"id": "3.0", "count": 1, "owner": "c", "accounting_group": "group_z2.c"},
    {"id": "4.0", "count": 6, "owner": "d", "accounting_group": "group_z3.d"},
]


@pytest.mark.parametrize(
    ("profile", "limits", "matched"),
    [
        pytest.param(
            "legacy",
            {"<none>": 0, "group_a": 5, "group_z1": 3, "group_z2": 1, "group_z3": 2},
            11,
            id="legacy-remainder-round-robin",
        ),
        pytest.param(
            "current",
            {"<none>": 0, "group_a": 5, "group_z1": 2, "group_z2": 1, "group_z3": 2},
            10,
            id="current-fractions-dropped",
        ),
    ],
)
def test_zero_quota_groups_share_the_surplus_left_after_the_by_quota_pass(
    tmp_path: Path,
    run: Any,
    write_config: Any,
    profile: str,
    limits: dict[str, int],
    matched: int,
) -> None:
    """Derived by hand from ``GroupEntry.cpp`` (25.0). 11 one-CPU slots; group_a static 4,
    group_z1..z3 static 0; ``GROUP_ACCEPT_SURPLUS = True``. ``hgq_assign_quotas``: the
    children get 4, 0, 0, 0 (a subtree of quota 0 is left alone), ``<none>`` 11 − 4 = 7.
    Demand a 5, z1 6, z2 1, z3 6. ``hgq_fairshare``: a 4 (wants 1 more), the others 0;
    ``<none>``'s surplus is 7 and its subtree asks 1 + 6 + 1 + 6 = 14 > 7, so
    ``hgq_allocate_surplus_loop(by_quota)``: Z = 4 (only a has quota), a's share 7 is capped
    at 1; then Z = 0 ends it. ``hgq_allocate_surplus_loop(equal)`` with 6 left: Z = 3, 2 each:
    z1 2, z2 1 (capped), z3 2; then 1 left, Z = 2: z1 2.5, z3 2.5. Allocations a 5, z1 2.5,
    z2 1, z3 2.5.

    legacy (slot weights off): ``hgq_recover_remainders`` floors z1 and z3 to 2 and hands
    the 1 slot to ``<none>``'s round robin: ``ord_by_rr_time`` puts ``<none>`` (rr time 0,
    quota 7, wants 0) first, then z1 and z3 (rr 0, quota 0, want 4 each: a tie, kept in
    order), then a and z2 (want nothing: rr time DBL_MAX); amax = max(1, ⌊1/2⌋) = 1 goes to
    z1. Limits (``maxdelta`` 5, one pass; target max(allocated, quota)): a 5, z1 3, z2 1,
    z3 2: all 11 slots match.

    current (slot weights on, ``Cpus`` = 1): no remainder recovery; z1 and z3 negotiate for
    int(2.5) = 2. Round 1 matches 10 < 11 allocated; round 2 resets demand from usage (a 5,
    z1 2, z2 1, z3 2 = 10 ≤ the surplus), allocates exactly that and matches nothing more:
    10 matches, one slot idle."""
    config = write_config(POOL.format(profile=profile))
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS))
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    quota = run("quota", *args, "--jobs-file", str(jobs), "--json")
    assert quota.exit_code == 0, quota.stderr
    assert {row["group"]: row["limit"] for row in json.loads(quota.stdout)} == limits
    cycle = run("negotiate", "--dry-run", *args, "--jobs-file", str(jobs), "--json")
    assert cycle.exit_code == 0, cycle.stderr
    matches = json.loads(cycle.stdout)["matches"]
    assert len(matches) == matched
    per_submitter: dict[str, int] = {}
    for m in matches:
        per_submitter[m["submitter"]] = per_submitter.get(m["submitter"], 0) + 1
    owners = {str(j["accounting_group"]).split(".")[0]: j["accounting_group"] for j in JOBS}
    assert per_submitter == {f"{owners[g]}@ex.org": n for g, n in limits.items() if n}
    assert not (tmp_path / "s.json").exists()
