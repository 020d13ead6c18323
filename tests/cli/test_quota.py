"""``fs quota`` and the cycle it previews: running work is demand, groups end where
HTCondor's do.

Rules from HTCondor 25.0: ``Scheduler::count_jobs`` (``schedd.cpp``) puts every claim that
runs a job into its submitter ad's ``RunningJobs``/``WeightedRunningJobs``;
``GroupEntry::hgq_prepare_for_matchmaking`` adds running and idle to the group's demand;
``GroupEntry::hgq_negotiate_with_all_groups`` skips a group at or above its allocation when
``NEGOTIATOR_CONSIDER_PREEMPTION`` is off.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
START = 1795255200  # 2026-11-21T10:00:00Z
SAMPLES = REPO / "sample_configs"


def _pool(extra: str = "", quota: int = 10) -> str:
    return f"""
[pool]
uid_domain = "d.org"
[accountant]
priority_halflife = 86400
[negotiator]
{extra}
[[machines]]
name = "exec"
count = 20
attributes = {{ Cpus = 1, Memory = 4096 }}
[groups.grp]
quota = {quota}
"""


def _five_running_two_idle(run: Callable[..., Any], tmp_path: Path, config: Path) -> list[str]:
    """Five running history records of grp.alice (claims with no job in the queue), then
    two idle jobs of hers."""
    hist = tmp_path / "h.jsonl"
    lines = [
        json.dumps({"owner": "alice", "accounting_group": "grp.alice", "start": START + i})
        for i in range(5)
    ]
    hist.write_text("\n".join(lines) + "\n")
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    submit = ["submit", "--owner", "alice", "--accounting-group", "grp.alice", "--count", "2"]
    assert run(*submit, *args).exit_code == 0
    return args


def _rows(run: Callable[..., Any], args: list[str]) -> dict[str, dict[str, Any]]:
    result = run("quota", "--json", *args)
    assert result.exit_code == 0, result.stderr
    return {r["group"]: r for r in json.loads(result.stdout)}


def test_running_claims_are_demand_so_a_small_submission_matches(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Static quota 10 on a 20-slot pool, surplus accepted everywhere; grp.alice runs 5
    (claims from history), submits 2.

    Demand = 5 running + 2 idle = 7 (``hgq_prepare_for_matchmaking``), so ``hgq_fairshare``
    allocates 7 and ``maxdelta`` = 7 - 5 = 2; grp's target = max(7, 10) = 10, delta =
    10 - 5 = 5, n / maxdelta = 1: limit 5 + 5 = 10. In the pie, alice's limit is
    1 × min(20, 10) - 5 = 5 ≥ 2: both jobs match. (With the running work left out, demand
    2 = allocation ≤ usage 5 makes ``maxdelta`` 0 and the limit HTCondor's 0/0: nothing.)
    """
    config = write_config(_pool("accept_surplus = true"))
    args = _five_running_two_idle(run, tmp_path, config)
    grp = _rows(run, args)["grp"]
    assert (grp["demand"], grp["in_use"], grp["limit"]) == (7.0, 5.0, 10)
    out = json.loads(run("negotiate", "--dry-run", "--json", *args).stdout)
    assert [m["job_id"] for m in out["matches"]] == ["1.0", "1.1"]


@pytest.mark.parametrize(
    ("preempt", "limit", "reason"),
    [
        ("true", 4, "submitter_limit"),
        ("false", 0, "group_quota"),
    ],
)
def test_a_group_at_its_allocation_is_skipped_without_preemption(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    preempt: str,
    limit: int,
    reason: str,
) -> None:
    """Static quota 4, no surplus, 5 running + 2 idle: allocation min(7, 4) = 4 ≤ usage 5.

    With preemption the group still negotiates: target 4, delta 0, so the limit is the
    target, 4 (``strict_enforce_quota`` leaves it: 4 - 5 < 0 new slots, capped at 0, plus
    the usage 5, floored to 4 by the target); alice's slice 1 × 4 - 5 < 0 matches
    nothing. Without it ``hgq_negotiate_with_all_groups`` skips the group: limit 0.
    """
    config = write_config(_pool(f"consider_preemption = {preempt}", quota=4))
    args = _five_running_two_idle(run, tmp_path, config)
    grp = _rows(run, args)["grp"]
    assert (grp["demand"], grp["in_use"], grp["limit"]) == (7.0, 5.0, limit)
    out = json.loads(run("negotiate", "--dry-run", "--json", *args).stdout)
    assert out["matches"] == []
    assert {u["reason"] for u in out["unmatched"]} == {reason}


def _sample_state(tmp_path: Path) -> tuple[list[str], list[str]]:
    state = tmp_path / "s.json"
    shutil.copy(SAMPLES / "sample-state.json", state)
    config = ["--config", str(SAMPLES / "pool.toml")]
    return config, ["--state", str(state), "--now", NOW]


def test_sample_pool_two_jobs_match(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The sample session: ``fs submit --owner alice --count 2``, then a dry run matches
    both on the 400 free slots, and ``<none>``'s demand is the two idle jobs plus the
    jobs its submitters run (their claims in the sample state)."""
    config, rest = _sample_state(tmp_path)
    assert run("submit", "--owner", "alice", "--count", "2", *config, *rest).exit_code == 0
    out = json.loads(run("negotiate", "--dry-run", "--json", *config, *rest).stdout)
    assert sorted(m["job_id"] for m in out["matches"]) == ["1.0", "1.1"]
    claims = json.loads((SAMPLES / "sample-state.json").read_text())["negotiator"]["claims"]
    ungrouped = [c for c in claims.values() if not c["submitter"].startswith("group_")]
    root = _rows(run, [*config, *rest])["<none>"]
    assert root["demand"] == 2 + len(ungrouped)
    assert root["limit"] > 0


def test_sample_jobs_leave_hep_above_its_quota_as_htcondor_does(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit --file sample_configs/jobs.json`` and ``fs negotiate``: group_physics.hep
    (dynamic quota 0.6 of 200 = 120, no surplus) starts with 8 in use and negotiates with a
    limit of 120. alice's first turn takes 86 (limit 0.7185 × 120 = 86.2), dave's 20;
    alone in the next spin alice's limit is 1 × 120 - 86 = 34, of which unclaimed slots
    only 120 - 114 = 6 (``calculateSubmitterLimit``), and preemptions the rest: the group's
    usage is checked only before each turn (``negotiateWithGroup``), so it ends at 128.
    The quota view says so."""
    config, rest = _sample_state(tmp_path)
    jobs = str(SAMPLES / "jobs.json")
    assert run("submit", "--file", jobs, *config, *rest).exit_code == 0
    assert run("negotiate", *config, *rest).exit_code == 0
    hep = _rows(run, [*config, *rest])["group_physics.hep"]
    assert (hep["subtree_quota"], hep["accept_surplus"], hep["in_use"]) == (120.0, False, 128.0)
    table = run("quota", *config, *rest, env={"COLUMNS": "100"}).stdout
    flat = " ".join(table.split())
    assert "group_physics.hep holds 128, above its quota of 120 (no surplus);" in flat
    assert flat.count("above its quota") == 1
