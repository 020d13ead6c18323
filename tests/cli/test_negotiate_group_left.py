"""What a group has left for a submitter's unclaimed matches is C ``float`` arithmetic, end
to end: ``fs negotiate --dry-run`` on a group whose usage is not a float (slot weights of
0.1) leaves its last unclaimed slot to the real negotiator's rounding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[negotiator]
slot_weight = "Cpus / 10.0"
preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"

[[machines]]
name = "exec"
count = 30
attributes = { Cpus = 1, Memory = 1024 }

[groups."group_a"]
quota = 2
"""


def _queue() -> list[dict[str, Any]]:
    """bob runs 1.0-1.6 on exec001-exec007 and has 1.7-1.11 idle; alice has 2.0-2.19 idle."""
    running = [
        {
            "id": f"1.{i}",
            "owner": "bob",
            "accounting_group": "group_a.bob",
            "status": "running",
            "slot": f"slot1@exec{i + 1:03d}",
            "start_time": "2026-11-21T10:00:00Z",
        }
        for i in range(7)
    ]
    bob = [
        {"id": f"1.{i}", "owner": "bob", "accounting_group": "group_a.bob"} for i in range(7, 12)
    ]
    alice = [
        {"id": f"2.{i}", "owner": "alice", "accounting_group": "group_a.alice"} for i in range(20)
    ]
    return running + bob + alice


def test_the_last_unclaimed_slot_follows_the_float_the_negotiator_computes(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Derived by hand from ``matchmaker.cpp`` (HTCondor 25.0): ``calculateSubmitterLimit``
    takes ``float groupQuota, float groupusage`` and computes ``float maxAllowed =
    groupQuota - groupusage``; ``negotiate`` tests an unclaimed candidate with
    ``SubmitterLimitPermits(limitUsedUnclaimed, submitterLimitUnclaimed)`` (used + cost <=
    allowed, or used <= 0 and allowed > 0) and a claimed one with ``(limitUsed,
    submitterLimit)``.

    30 slots of weight 0.1 (pool 3.0), group_a's limit 2. bob holds 7 slots: group usage
    0.7; bob's factor 10000 gives EUP 5000 against alice's 500. Shares: normal = 5000/500
    + 1 = 11, alice 10/11 (limit 2·10/11 = 1.818), bob 1/11. alice goes first.
    Unclaimed: (float)0.7 = 0.699999988079071, 2 − it = 1.300000011920929, which lies
    exactly half-way between the floats 1.2999999523162842 and 1.3000000715255737: ties
    to even give 1.2999999523162842. After 12 unclaimed matches alice has used 1.2, and
    1.2 + 0.1 = 1.3 > 1.29999995: the 13th unclaimed slot is refused (fs compared with the
    double 2 − 0.7 = 1.3 and took it, preempting one job fewer). Her jobs 2.12-2.17 then
    preempt bob's 1.0-1.5 (RemoteUserPrio 5000 > 500 × 1.2; limitUsed 1.2 + 6 × 0.1 = 1.8
    <= 1.818, a 7th would be 1.9). bob's turn: usage 0.1, limit 2/11 − 0.1 = 0.0818 > 0
    and nothing used yet, so one unclaimed slot may round up: 1.7 on exec020. Spin 2: the
    group uses 0.7 + 1.2 + 0.1 = 2.0, its limit: halted.
    """
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(_queue()))
    made = run("setfactor", "group_a.bob@example.org", "10000", "--create", *args, "--now", NOW)
    assert made.exit_code == 0, made.stderr
    result = run(
        "negotiate", "--dry-run", *args, "--now", NOW, "--jobs-file", str(jobs_file), "--json"
    )
    assert result.exit_code == 0, result.stderr
    matches = [
        (m["job_id"], m["slot"], m["preempted_job"]) for m in json.loads(result.stdout)["matches"]
    ]
    assert matches == [
        *[(f"2.{i}", f"slot1@exec{i + 8:03d}", None) for i in range(12)],
        *[(f"2.{i + 12}", f"slot1@exec{i + 1:03d}", f"1.{i}") for i in range(6)],
        ("1.7", "slot1@exec020", None),
    ]
