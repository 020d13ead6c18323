"""fs negotiate: the reason of a job whose search popped the match list the first job of
its autocluster built, and found it used up by refusals for a concurrency limit.

``matchmakingAlgorithm`` (``src/condor_negotiator.V6/matchmaker.cpp``, 25.0) builds the
list testing every slot against a ``ConcurrencyLimits`` expression (the limit not yet
taken by this turn), pops it for the next jobs, dropping the entries the limit refuses,
and for a job that finds it used up gives back the counts of the build
(``MatchListType::get_diagnostics``), where no refusal for a concurrency limit was
counted: ``Matchmaker::negotiate`` says "no match found", not "concurrency limit
reached".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 4
slots = 1
attributes = { Cpus = 1, Memory = 4096, Site = "east" }

[negotiator]
concurrency_limits = { 'site.east' = 1 }
"""

JOBS = [
    {
        "id": "1.0",
        "owner": "a",
        "count": 3,
        "concurrency_limits_expr": 'strcat("site.", TARGET.Site)',
    }
]


def test_a_job_popping_a_used_up_list_gets_its_builds_reason(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs negotiate --dry-run --config pool.toml --state s.json --now ... --jobs-file
    jobs.json --explain 1.1``: a alone, limit 4 of the pool of 4. 1.0 builds the list of
    the four east slots (site.east 0 + 1 <= 1 on each: nothing refused) and takes exec001;
    1.1 pops exec002, exec003, exec004, each refused (1 + 1 > 1), and is rejected with the
    build's counts: "no match found"; 1.2, of its autocluster, is not asked again. fs said
    "left idle: a concurrency limit it needs was reached" for both."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS))
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW, "--jobs-file", str(jobs)]
    result = run("negotiate", "--dry-run", *args, "--explain", "1.1")
    assert result.exit_code == 0, result.stderr
    why = (
        "the match list its autocluster popped was used up, its last entries refused for a "
        "concurrency limit the list's build had not refused (HTCondor 25.0 says 'no match "
        "found')"
    )
    assert result.stdout.splitlines() == [
        "Job 1.1:",
        "  submitter a@example.org, effective priority 500.00",
        "  spin 1: share 1.0000, limit 4.00 (unclaimed 4.00), pie left 4.00",
        f"  spin 1: 4 unclaimed slot(s) match its Requirements; rejected: {why}",
        f"  left idle: {why}",
    ]
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"]) for m in doc["matches"]] == [("1.0", "slot1@exec001")]
    assert doc["unmatched"] == [
        {"job_id": "1.1", "submitter": "a@example.org", "reason": "match_list_used_up"},
        {"job_id": "1.2", "submitter": "a@example.org", "reason": "match_list_used_up"},
    ]
    assert not (tmp_path / "s.json").exists()


WEIGHTED = """
[pool]
uid_domain = "example.org"
defaults = "current"

[negotiator]
use_slot_weights = true
slot_weight = "Cpus"
consider_preemption = false
concurrency_limits = { 'site.east' = 1 }

[[machines]]
name = "ex"
count = 3
attributes = { Cpus = 1, Memory = 4096, Site = "east" }

[[machines]]
name = "wx"
count = 1
attributes = { Cpus = 4, Memory = 4096, Site = "west" }
"""

QUEUE = [
    {
        "id": "9.0",
        "owner": "c",
        "status": "running",
        "slot": "slot1@ex002",
        "concurrency_limits": "site.east",
    },
    {"id": "1.0", "owner": "a"},
    {"id": "2.0", "owner": "a", "concurrency_limits_expr": 'strcat("site.", TARGET.Site)'},
    {"id": "3.0", "owner": "b", "requirements": "false"},
]


def test_a_concurrency_limit_is_named_before_the_submitter_limit(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs negotiate --dry-run ... --explain 2.0``. Slot weight Cpus: ex001..ex003 1 each
    (east), wx001 4 (west): 7. c runs 9.0 on ex002 with site.east (the limit, 1, is full
    as the cycle starts). Preemption not considered: c, with no idle job, is out of the
    shares; a and b (EUP 500 each) get 0.5 x 7 = 3.5. Spin 1: a's 1.0 takes ex001 (used 1);
    2.0 builds a new list with used 1: ex003 passes the limit (1 + 1 <= 3.5) and is refused
    for site.east (1 + 1 > 1), wx001 is refused by the limit (1 + 4 > 3.5, nothing to round
    up). ``Matchmaker::negotiate`` names the concurrency limit first; the submitter limit
    still counts (``limited_by_submitterLimit``: a goes on). b's 3.0 matches nothing. Spin
    2: pie left 7 - 1 = 6, a alone: 2.0 takes wx001 (0 + 4 <= 6). fs said spin 1's refusal
    was the submitter limit's."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(QUEUE))
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(WEIGHTED)), "--state", str(state), "--now", NOW]
    assert run("submit", "--file", str(jobs), *args).exit_code == 0
    before = state.read_bytes()
    result = run("negotiate", "--dry-run", *args, "--explain", "2.0")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Job 2.0:",
        "  submitter a@example.org, effective priority 500.00",
        "  spin 1: share 0.5000, limit 3.50 (unclaimed 3.50), pie left 7.00",
        "  spin 1: 3 unclaimed slot(s) match its Requirements; rejected: a concurrency limit "
        "it needs was reached",
        "  spin 2: share 1.0000, limit 6.00 (unclaimed 6.00), pie left 6.00",
        "  spin 2: 3 unclaimed slot(s) match its Requirements; matched to slot1@wx001 "
        "(no_preemption)",
    ]
    assert state.read_bytes() == before
