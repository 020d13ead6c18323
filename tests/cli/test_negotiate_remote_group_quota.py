"""``RemoteGroupQuota`` on a claimed slot is the quota of the cycle before, as HTCondor's
``addRemoteUserPrios`` reads it from ``groupQuotasHash`` before the cycle assigns quotas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T13:00:00Z"


def _pool(slots: int) -> str:
    return f"""
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
preemption_requirements = "RemoteGroupQuota < 2"
[[machines]]
name = "exec"
count = 1
slots = {slots}
[groups."group_a"]
dynamic_quota = 0.5
[groups."group_b"]
dynamic_quota = 0.5
"""


def test_claimed_slots_carry_the_last_cycles_quota(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A committed cycle on 4 slots of weight 1 gives group_a and
    group_b GROUP_QUOTA_DYNAMIC 0.5 x 4 = 2 each, <none> 4 - 2 - 2 = 0; group_a's a takes
    two slots. The config then shrinks to 2 slots (the two a holds), where the quotas are
    0.5 x 2 = 1, and b (group_b, new: EUP 0.5 x 1000 = 500 against a's worse one) wants a
    slot. fs negotiate --dry-run preempted a (priority) because it set RemoteGroupQuota
    from this cycle's quotas: 1 < 2. HTCondor 25.0 (matchmaker.cpp negotiationTime calls
    addRemoteUserPrios before hgq_prepare_for_matchmaking; getGroupInfoFromUserId reads
    groupQuotasHash, which hgq_negotiate_with_all_groups refilled with the last cycle's
    quotas) gives 2: 2 < 2 is false, and b waits (preemption_requirements). The committed
    cycle now stores the quotas in the state.
    """
    state = tmp_path / "state.json"
    first = ["--config", str(write_config(_pool(4), "four.toml")), "--state", str(state)]
    submit_a = ["submit", "--owner", "a", "--accounting-group", "group_a.a", "--count", "2"]
    assert run(*submit_a, *first, "--now", NOW).exit_code == 0
    assert run("negotiate", *first, "--now", NOW).exit_code == 0
    stored = json.loads(state.read_text())["negotiator"]["group_quotas"]
    assert stored == {"<none>": 0.0, "group_a": 2.0, "group_b": 2.0}
    second = ["--config", str(write_config(_pool(2), "two.toml")), "--state", str(state)]
    submit_b = ["submit", "--owner", "b", "--accounting-group", "group_b.b"]
    assert run(*submit_b, *second, "--now", LATER).exit_code == 0
    result = run("negotiate", "--dry-run", *second, "--now", LATER, "--json")
    assert result.exit_code == 0, result.stderr
    cycle = json.loads(result.stdout)
    assert cycle["matches"] == []
    assert [(u["submitter"], u["reason"]) for u in cycle["unmatched"]] == [
        ("group_b.b@example.org", "preemption_requirements")
    ]


def test_without_a_stored_cycle_this_cycles_quota_stands_in(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """With no cycle committed (a's two jobs came in running, as from condor_q), nothing
    is stored and the claimed slots carry this cycle's quota, 1 on the 2-slot pool: 1 < 2,
    so b preempts one of a's slots (the first in configuration order)."""
    state = tmp_path / "state.json"
    args = ["--config", str(write_config(_pool(2))), "--state", str(state)]
    running = ["--set", "status=running", "--set", f'start_time="{NOW}"']
    submit_a = ["submit", "--owner", "a", "--accounting-group", "group_a.a", "--count", "2"]
    assert run(*submit_a, *running, *args, "--now", NOW).exit_code == 0
    assert "group_quotas" not in json.loads(state.read_text()).get("negotiator", {})
    submit_b = ["submit", "--owner", "b", "--accounting-group", "group_b.b"]
    assert run(*submit_b, *args, "--now", LATER).exit_code == 0
    result = run("negotiate", "--dry-run", *args, "--now", LATER, "--json")
    assert result.exit_code == 0, result.stderr
    matches = json.loads(result.stdout)["matches"]
    assert [(m["submitter"], m["slot"], m["reason"]) for m in matches] == [
        ("group_b.b@example.org", "slot1@exec001", "priority")
    ]
