"""``fs negotiate`` with a consumption policy whose expression gives a boolean: HTCondor's
``EvalFloat`` reads true as 1 and false as 0 (it was taken as no number: nothing matched,
``no_matching_slot``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """\
[pool]
uid_domain = "d"
defaults = "current"
[[machines]]
name = "p"
partitionable = true
consumption_policy = true
consumption_cpus = "TARGET.RequestCpus > 0"
attributes = { Cpus = 4, Memory = 8192 }
"""


def test_a_boolean_consumption_takes_one_cpu_a_job(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    """``fs negotiate --dry-run --jobs-file jobs.json --json``: five 2-CPU jobs on a 4-CPU
    partitionable slot that consumes ``TARGET.RequestCpus > 0`` CPUs, i.e. 1
    (consumption_policy.cpp: ``EvalFloat``, a boolean is a number). By hand: each match
    leaves one CPU less and costs 1 (``SlotWeight`` = ``Cpus``, 4 - 3); alice's limit is
    the pool's weight, 4, so four jobs match, slot1_1 ... slot1_4@p001, and 1.4 is left
    with no CPU (the slot is out of the cycle: ``pool_exhausted``)."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps([{"id": "1.0", "count": 5, "owner": "alice", "request_cpus": 2}]),
        encoding="utf-8",
    )
    result = run(
        *("negotiate", "--dry-run", "--config", str(write_config(POOL))),
        *("--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"),
        *("--jobs-file", str(jobs), "--json"),
    )
    assert result.exit_code == 0, result.stderr
    cycle = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"], m["charge"]) for m in cycle["matches"]] == [
        (f"1.{n}", f"slot1_{n + 1}@p001", 1.0) for n in range(4)
    ]
    assert cycle["unmatched"] == [
        {"job_id": "1.4", "submitter": "alice@d", "reason": "pool_exhausted"}
    ]
