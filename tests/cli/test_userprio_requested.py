"""``fs userprio``'s Weighted Requested of a group is ``fs quota``'s demand for it.

HTCondor 25.0's negotiator publishes a group's ``Requested`` as its ``currently_requested``
(matchmaker.cpp, the Accounting ads): ``hgq_prepare_for_matchmaking`` (GroupEntry.cpp)
sums the ``IdleJobs + RunningJobs`` (with ``NEGOTIATOR_USE_WEIGHTED_DEMAND``, the
``WeightedIdleJobs + WeightedRunningJobs``) of each submitter ad it assigns to the group,
the same sum the group quotas are allocated from (``fs quota``'s demand). The schedd's
``count_jobs`` counts each claim running a job into its submitter ad, at the SlotWeight
of the slot it holds, whether or not the job is one fs holds in its queue. fs userprio
counted the queue's jobs alone: a running record of imported history (a claim whose job
the queue does not hold) was in ``fs quota``'s demand and not in the Requested column.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
accept_surplus = true
use_slot_weights = false
use_weighted_demand = {weighted}
[[machines]]
name = "s"
count = 1
slots = 1
attributes = {{ Cpus = 4, Memory = 8192 }}
[[machines]]
name = "x"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 2048 }}
[groups.a]
quota = 6
[groups.b]
quota = 2
"""

#: alice's record of imported usage history, still running at NOW: a claim on slot1@s001
#: (the pool's first slot, 4 CPUs) whose job the queue does not hold
HISTORY = "owner,accounting_group,start,end,slots\nalice,a.alice,2026-11-19T23:00:00Z,,1\n"

#: four idle 1-CPU jobs each of alice (group a) and bob (group b)
JOBS = [
    {"id": "2.0", "owner": "alice", "accounting_group": "a.alice", "count": 4},
    {"id": "3.0", "owner": "bob", "accounting_group": "b.bob", "count": 4},
]


def _pool(tmp_path: Path, run: Callable[..., Any], weighted: bool) -> list[str]:
    """The pool, HISTORY imported and JOBS submitted into the state; the common options."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(weighted=str(weighted).lower()), encoding="utf-8")
    (tmp_path / "history.csv").write_text(HISTORY, encoding="utf-8")
    (tmp_path / "jobs.json").write_text(json.dumps(JOBS), encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]
    result = run("import", "history", str(tmp_path / "history.csv"), *args)
    assert result.exit_code == 0, result.stderr
    result = run("submit", "--file", str(tmp_path / "jobs.json"), *args)
    assert result.exit_code == 0, result.stderr
    return args


def _requested(stdout: str) -> dict[str, str]:
    """Each group row's Weighted Requested in ``fs userprio -quotas``' table."""
    rows = [line.split() for line in stdout.splitlines()[4:-2]]
    return {row[0]: row[-1] for row in rows}


@pytest.mark.parametrize(
    ("weighted", "a"), [(True, "8"), (False, "5")], ids=["weighted demand", "counted demand"]
)
def test_requested_counts_a_claim_whose_job_the_queue_does_not_hold(
    tmp_path: Path, run: Callable[..., Any], weighted: bool, a: str
) -> None:
    """Group a: alice's running history record on slot1@s001 weighs that slot's
    SlotWeight (SLOT_WEIGHT = Cpus: 4) and her 4 idle 1-CPU jobs 1 each, 4 + 4 = 8
    (without weighted demand each counts 1: 1 + 4 = 5); group b: bob's 4 idle jobs, 4;
    <none>: nothing. fs userprio said 4 and 4 for a (the queue's jobs alone)."""
    args = _pool(tmp_path, run, weighted)
    result = run("userprio", "-quotas", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    assert _requested(result.stdout) == {"<none>": "0", "a": a, "b": "4"}


def test_requested_is_quotas_demand_for_every_group(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The negotiator's ad (``-l -allusers``) holds each group's Requested unrounded:
    8.0, 4.0 and 0.0 (above), what ``fs quota --json`` gives as each group's demand on
    the same state."""
    args = _pool(tmp_path, run, weighted=True)
    result = run("quota", "--json", *args)
    assert result.exit_code == 0, result.stderr
    demand = {row["group"]: row["demand"] for row in json.loads(result.stdout)}
    assert demand == {"<none>": 0.0, "a": 8.0, "b": 4.0}
    result = run("userprio", "-l", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    ad = dict(line.split(" = ", 1) for line in result.stdout.splitlines() if " = " in line)
    number = {json.loads(ad[f"Name{n}"]): n for n in range(1, 5)}
    assert {g: float(ad[f"Requested{number[g]}"]) for g in demand} == demand
