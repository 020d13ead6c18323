"""fs negotiate: the limit test of the jobs after the first of an autocluster in a turn,
which pop the match list HTCondor builds for the first (``NEGOTIATOR_MATCHLIST_CACHING``,
on by default).

From ``matchmakingAlgorithm`` in ``src/condor_negotiator.V6/matchmaker.cpp`` (25.0): the
first job of an autocluster builds the list, testing a priority preemption against
``limitUsed``/``submitterLimit`` and leaving a machine-rank one untested; the next jobs pop
it, and take a preempting candidate of either kind when either ``limitUsed`` fits under
``submitterLimit`` or ``limitUsedUnclaimed`` under ``submitterLimitUnclaimed``
(``SubmitterLimitPermits``, where nothing used yet may round up once).
"""

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
name = "big"
count = 2
attributes = { Cpus = 2, Memory = 8192 }
rank = 'TARGET.Owner == "carol"'

[[machines]]
name = "small"
count = 2
attributes = { Cpus = 1, Memory = 4096 }
"""

JOBS = [
    *(
        {"id": f"1.{i}", "owner": "bob", "status": "running", "slot": f"slot1@{host}"}
        for i, host in enumerate(["big001", "big002", "small001", "small002"])
    ),
    {"id": "2.0", "count": 3, "owner": "alice"},
    {"id": "3.0", "count": 2, "owner": "carol"},
]


def test_a_preemption_popped_from_the_list_may_fit_the_unclaimed_limit(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """bob holds all four slots (weight = Cpus: 2+2+1+1 = 6) at priority 10 (EUP 10000);
    alice and carol, new, are at 0.5 x 1000 = 500. Spin 1, by hand: normal factor
    10000/500 + 10000/500 + 10000/10000 = 41, so alice's and carol's limits are
    20/41 x 6 = 2.93 and bob's 0. PREEMPTION_REQUIREMENTS holds for both (10000 > 600).
    alice's 2.0 builds the list: the pre-job rank (- 100000 x Cpus - Memory) puts the small
    slots first; it preempts 1.2 on small001 (0 + 1 <= 2.93), 2.1 pops small002 (1 + 1 <=
    2.93). 2.2 pops big001: 2 + 2 > 2.93 for limitUsed, but nothing is used on unclaimed
    slots, and 0 used may round up once: it preempts 1.0. fs stopped alice at two and gave
    big001 to carol. carol (limit 2.93, capped by what is left of the pie, 5.85 - 4 = 1.85)
    takes big002 by machine rank (untested), and 3.1 finds nothing left."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS))
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW]
    assert run("submit", "--file", str(jobs), *args).exit_code == 0
    assert run("setprio", "bob@d", "10", *args).exit_code == 0
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"], m["reason"], m["preempted_job"]) for m in out["matches"]] == [
        ("2.0", "slot1@small001", "priority", "1.2"),
        ("2.1", "slot1@small002", "priority", "1.3"),
        ("2.2", "slot1@big001", "priority", "1.0"),
        ("3.0", "slot1@big002", "rank", "1.1"),
    ]
    assert [u["job_id"] for u in out["unmatched"]] == ["3.1"]


def test_without_match_list_caching_every_job_builds_a_list(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """The same pool with ``[negotiator] matchlist_caching = false``
    (``NEGOTIATOR_MATCHLIST_CACHING = False``: ``matchmakingAlgorithm`` keeps no list, so
    every job is searched as the first of its autocluster). Limits as above (alice and
    carol 2.93). alice: 2.0 preempts 1.2 on small001 (0 + 1 <= 2.93), 2.1 1.3 on small002
    (1 + 1 <= 2.93); 2.2 tests big001 and big002 against limitUsed alone: 2 + 2 > 2.93,
    refused (the unclaimed limit is not tried outside a cached list). carol (2.93, pie
    left 5.85 - 2 = 3.85): 3.0 takes big001 by machine rank, and 3.1 builds again, where
    a machine-rank preemption is not tested against the limit: it takes big002, where the
    cached list refused it (2 + 2 > 2.93 for both limits). fs read no such key before."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS))
    pool = POOL.replace("[negotiator]\n", "[negotiator]\nmatchlist_caching = false\n")
    args = ["--config", str(write_config(pool)), "--state", str(tmp_path / "s.json")]
    args += ["--now", NOW]
    assert run("submit", "--file", str(jobs), *args).exit_code == 0
    assert run("setprio", "bob@d", "10", *args).exit_code == 0
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"], m["reason"], m["preempted_job"]) for m in out["matches"]] == [
        ("2.0", "slot1@small001", "priority", "1.2"),
        ("2.1", "slot1@small002", "priority", "1.3"),
        ("3.0", "slot1@big001", "rank", "1.0"),
        ("3.1", "slot1@big002", "rank", "1.1"),
    ]
    assert [(u["job_id"], u["reason"]) for u in out["unmatched"]] == [("2.2", "submitter_limit")]
