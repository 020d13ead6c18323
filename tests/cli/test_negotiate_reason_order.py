"""fs negotiate --dry-run --explain: a job refused both by its submitter's limit and by
``PREEMPTION_REQUIREMENTS`` waits for the latter, as HTCondor 25.0's ``Matchmaker::negotiate``
names a concurrency limit, then ``PREEMPTION_REQUIREMENTS == False``, then insufficient
priority, then the submitter limit (``src/condor_negotiator.V6/matchmaker.cpp``)."""

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
preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"

[[machines]]
name = "exec"
count = 4
attributes = { Cpus = 1, Memory = 4096 }

[groups."group_a"]
quota = 2
"""

JOBS = [
    {
        "id": "1.0",
        "count": 2,
        "owner": "dave",
        "accounting_group": "group_a.dave",
        "status": "running",
    },
    {"id": "2.0", "owner": "bob", "status": "running", "slot": "slot1@exec003"},
    {"id": "3.0", "owner": "alice", "accounting_group": "group_a.alice"},
]


def _pool(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> list[str]:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS))
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW]
    assert run("submit", "--file", str(path), *args).exit_code == 0
    for name in ("group_a.dave@d", "bob@d"):
        assert run("setprio", name, "0.5", *args).exit_code == 0
    return args


def test_a_group_at_quota_waits_for_preemption_requirements(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """dave (group_a) runs two jobs, bob one, on 4 slots; every EUP is 0.5 x 1000 = 500.
    group_a (static quota 2, used 2) negotiates a pie of min(4, 2) = 2: alice's share
    500/(500 x 2) = 0.5, limit 0.5 x 2 - 0 = 1, unclaimed limit min(1, 2 - 2) = 0; pie
    left 1 + max(0, 1 - 2) = 1. slot1@exec004, free, is refused by the limit (0 used, 0
    allowed); dave's and bob's slots by PREEMPTION_REQUIREMENTS (500 > 500 x 1.2 is false).
    HTCondor says PREEMPTION_REQUIREMENTS == False; fs said group_quota. Spin 2 does not
    reach group_a (its usage 2 is its quota)."""
    args = _pool(tmp_path, write_config, run)
    result = run("negotiate", "--dry-run", "--explain", "3.0", *args)
    assert result.exit_code == 0, result.stderr
    reason = "PREEMPTION_REQUIREMENTS is false on the claimed slots it matches"
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "Job 3.0:",
        "  submitter group_a.alice@d in group group_a, effective priority 500.00",
        "  group group_a negotiates with a limit of 2 slot(s) (quota 2.00)",
        "  spin 1: share 0.5000, limit 1.00 (unclaimed 0.00), pie left 1.00",
        f"  spin 1: 1 unclaimed slot(s) match its Requirements; rejected: {reason}",
        f"  left idle: {reason}",
    ]
    result = run("negotiate", "--dry-run", "--explain", "3.0", *args, "--json")
    assert result.exit_code == 0, result.stderr
    events = json.loads(result.stdout)["events"]
    assert [(e["event"], e.get("reason")) for e in events if "reason" in e] == [
        ("rejected", "preemption_requirements"),
        ("unmatched", "preemption_requirements"),
    ]
    assert events[2] == {
        "event": "turn",
        "spin": 1,
        "group": "group_a",
        "share": 0.5,
        "limit": 1.0,
        "limit_unclaimed": 0.0,
        "pie_left": 1.0,
    }


def test_a_job_matching_only_the_free_slot_still_waits_for_the_quota(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """The same pool with alice's job asking for slot1@exec004 alone: no claimed slot is
    tested, only the limit refused it (group_quota, HTCondor's submitter limit)."""
    args = _pool(tmp_path, write_config, run)
    state = json.loads((tmp_path / "s.json").read_text())
    for job in state["jobs"]:
        if job["id"] == "3.0":
            job["requirements"] = 'TARGET.Name == "slot1@exec004"'
    (tmp_path / "s.json").write_text(json.dumps(state))
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(u["job_id"], u["reason"]) for u in out["unmatched"]] == [("3.0", "group_quota")]


OWN_POOL = """
[pool]
uid_domain = "d"
defaults = "current"

[negotiator]
preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"

[[machines]]
name = "exec"
count = 2
attributes = { Cpus = 1, Memory = 4096 }
"""


def test_a_job_matching_only_its_own_submitters_slot_does_not_blame_preemption(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """alice runs 1.0 on slot1@exec001, bob (priority 100, EUP 100000) 3.0 on
    slot1@exec002; alice's 2.0 asks for slot1@exec001 alone. EUPs 500 and 100000: normal
    factor 100000/500 + 100000/100000 = 201, alice's share 100000/(500 x 201) = 0.995,
    limit 0.995 x 2 - 1 = 0.99 > 0, so the job is searched (not startd rank only), and
    ``matchmakingAlgorithm`` passes over a slot its own submitter holds without testing
    PREEMPTION_REQUIREMENTS ("Job is from the same user as the existing job"): no
    counter, "no match found". fs said preemption_requirements; it now says
    matching_slots_taken."""
    jobs = [
        {"id": "1.0", "owner": "alice", "status": "running", "slot": "slot1@exec001"},
        {"id": "3.0", "owner": "bob", "status": "running", "slot": "slot1@exec002"},
        {"id": "2.0", "owner": "alice", "requirements": 'TARGET.Name == "slot1@exec001"'},
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    args = ["--config", str(write_config(OWN_POOL)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW]
    assert run("submit", "--file", str(path), *args).exit_code == 0
    assert run("setprio", "bob@d", "100", *args).exit_code == 0
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["matches"] == []
    assert [(u["job_id"], u["reason"]) for u in out["unmatched"]] == [
        ("2.0", "matching_slots_taken")
    ]
