"""``fs simulate`` with ``negotiator.depth_first``: a match no job takes is charged until
the next cycle, as a committed ``fs negotiate`` charges it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
depth_first = true
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = { Cpus = 2, Memory = 2048 }
[[machines]]
name = "s"
count = 1
slots = 1
attributes = { Cpus = 4, Memory = 4096 }
"""


def test_a_match_no_job_takes_is_charged_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """At 00:00 alice's two jobs of 1 CPU take the consumption-policy slot c001 (each
    charged 1), and the request's re-offer matches s001 (slot weight Cpus = 4) for no job:
    ``AddMatch`` holds alice at 6 until the 01:00 cycle, whose ``UpdatePriorities``
    charges her 6 x 3600 s before ``CheckMatches`` ends it (s001 was never claimed), so
    bob takes s001 then. alice's priority at 01:00 (half-life 86400 s, from 0.5):
    beta = 0.5^(1/24) = 0.971532, 0.5 beta + 6 (1 - beta) = 0.656574. Before, fs
    simulate charged the re-offer in its cycle only: 0.5 beta + 2 (1 - beta) = 0.542702.
    The slots are ranked by memory and s001 has 1024 MB (fs negotiate's ``RE_OFFER`` in
    tests/cli/test_negotiate_depth_first.py): c001's leftover after 1.0 (1024 MB) ties
    s001, so ``insert_candidate`` keeps it first and 1.1 takes it too. (Under the default
    rank the leftover goes behind s001, 1.1 takes s001, and alice is at 0.5 beta + 5 (1 -
    beta) = 0.628106.)"""
    config, workload = tmp_path / "pool.toml", tmp_path / "workload.json"
    pool = POOL.replace("depth_first = true\n", 'depth_first = true\npre_job_rank = "Memory"\n')
    config.write_text(pool.replace("Cpus = 4, Memory = 4096", "Cpus = 4, Memory = 1024"), "utf-8")
    jobs = [
        {"id": "1.0", "owner": "alice", "request_cpus": 1, "request_memory": 1024,
         "count": 2, "run_time": 86400, "submit_time": "2026-11-20T00:00:00Z"},
        {"id": "2.0", "owner": "bob", "request_cpus": 1, "request_memory": 1024,
         "run_time": 86400, "submit_time": "2026-11-20T01:00:00Z"},
    ]  # fmt: skip
    workload.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "simulate", "--config", str(config), "--state", str(tmp_path / "state.json"),
        "--workload", str(workload), "--until", "3600", "--cycle", "3600",
        "--now", "2026-11-20T00:00:00Z", "--output", "csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = {
        (r["time"], r["name"]): (r["slots"], r["effective_priority"])
        for r in csv.DictReader(io.StringIO(result.stdout))
    }
    assert rows[("2026-11-20T00:00:00Z", "alice@example.org")] == ("2.0", "0.5")
    assert rows[("2026-11-20T01:00:00Z", "alice@example.org")] == ("2.0", "0.656574")
    assert rows[("2026-11-20T01:00:00Z", "bob@example.org")] == ("1.0", "0.5")


def test_a_match_no_job_takes_on_a_claimed_slot_takes_its_holder_off_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs negotiate's pool of the same name (tests/cli/test_negotiate_depth_first.py), cycle
    by cycle: c001 (consumption policy, 2 CPUs) and s001, s002 (1 CPU each), ranked by
    ``Cpus * 10000 + Memory`` (c001 22048, s001 and s002 14096); bob (factor 1000) runs
    two 3000 MB jobs from 00:00; at 01:00 alice's match list is [c001, s001, s002]: her
    first job takes c001, whose leftover (11024) does not outrank s001 and stays first
    (``insert_candidate``), her second takes it, and the re-offer pops s001 and preempts
    it for no job: ``AddMatch`` takes bob off s001 and charges
    alice, until the 02:00 ``CheckMatches`` puts bob back. With b = 0.5^(1/24) =
    0.971532, at 02:00 alice 0.5 b + 3 (1 - b) = 0.571170 and bob 1000 x (0.542702 b +
    1 (1 - b)) = 555.72; before, 0.542702 and 584.188 (no one charged for that match).
    (Under the default rank c001's leftover outranks the claimed slots and goes behind
    them: alice's second job preempts s001 and there is no match without a job.)"""
    config, workload = tmp_path / "pool.toml", tmp_path / "workload.json"
    pool = POOL.replace(
        "depth_first = true\n",
        "depth_first = true\nconsider_preemption = true\n"
        'preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"\n'
        'pre_job_rank = "Cpus * 10000 + Memory"\n',
    ).replace(
        'name = "s"\ncount = 1\nslots = 1\nattributes = { Cpus = 4',
        'name = "s"\ncount = 2\nslots = 1\nattributes = { Cpus = 1',
    )
    config.write_text(pool, encoding="utf-8")
    jobs = [
        {"id": "1.0", "owner": "bob", "request_cpus": 1, "request_memory": 3000,
         "count": 2, "run_time": 86400, "submit_time": "2026-11-20T00:00:00Z"},
        {"id": "2.0", "owner": "alice", "request_cpus": 1, "request_memory": 1024,
         "count": 2, "run_time": 86400, "submit_time": "2026-11-20T01:00:00Z"},
    ]  # fmt: skip
    workload.write_text(json.dumps(jobs), encoding="utf-8")
    files = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--now", "2026-11-20T00:00:00Z"]
    assert run("setfactor", "--create", *files, *start, "bob", "1000").exit_code == 0
    result = run(
        "simulate", *files, "--workload", str(workload), "--until", "7200", "--cycle", "3600",
        *start, "--output", "csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = {
        (r["time"], r["name"]): r["effective_priority"]
        for r in csv.DictReader(io.StringIO(result.stdout))
    }
    assert rows[("2026-11-20T02:00:00Z", "alice@example.org")] == "0.57117"
    assert rows[("2026-11-20T02:00:00Z", "bob@example.org")] == "555.72"
