"""``RemoteUserResourcesInUse`` on a claimed slot is the accountant's usage as a C
``float``, end to end through ``fs negotiate --dry-run``'s preemption test."""

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
preemption_requirements = "RemoteUserResourcesInUse >= 0.7"

[[machines]]
name = "exec"
count = 7
attributes = { Cpus = 1, Memory = 1024 }
"""


def test_remote_usage_is_compared_as_a_float(tmp_path: Path, run: Any, write_config: Any) -> None:
    """Derived by hand from ``matchmaker.cpp`` (HTCondor 25.0): ``addRemoteUserPrios``
    sets ``RemoteUserResourcesInUse`` to ``ResourcesInUseByUser("bob@example.org")``,
    whose function computes ``float usage = GetWeightedResourcesUsed(user)`` and returns
    it. bob holds all 7 slots of weight 0.1: usage 0.7 as a double
    (0.6999999999999999556), (float) 0.699999988079071. ``0.699999988 >= 0.7`` is false:
    no slot may be preempted and alice's job stays idle (fs compared the double, 0.7 >=
    0.7, and preempted bob's job 1.0)."""
    running = [
        {
            "id": f"1.{i}",
            "owner": "bob",
            "status": "running",
            "slot": f"slot1@exec{i + 1:03d}",
            "start_time": "2026-11-21T10:00:00Z",
        }
        for i in range(7)
    ]
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps([*running, {"id": "2.0", "owner": "alice"}]))
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    made = run("setfactor", "bob@example.org", "10000", "--create", *args, "--now", NOW)
    assert made.exit_code == 0, made.stderr
    result = run(
        "negotiate", "--dry-run", *args, "--now", NOW, "--jobs-file", str(jobs_file), "--json"
    )
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["matches"] == []
    assert [(u["job_id"], u["reason"]) for u in out["unmatched"]] == [
        ("2.0", "preemption_requirements")
    ]
