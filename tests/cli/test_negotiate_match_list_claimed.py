"""fs negotiate: a consumption-policy slot goes back into a match list that also holds
claimed slots (preemption considered) where 25.0 puts it, not where a fresh ranking would.

25.0's ``matchmakingAlgorithm`` (``src/condor_negotiator.V6/matchmaker.cpp``) builds one
list of unclaimed and claimed candidates, sorted by ``sort_compare``'s key: pre-job rank,
job rank, post-job rank, preemption state, ``PREEMPTION_RANK``. After a match on a
consumption-policy slot, ``returnPslotToMatchList`` hands it back and
``MatchListType::insert_candidate`` walks it down from the head past every entry it ranks
strictly above, claimed ones included. fs ranked the leftover afresh when the list held
claimed slots.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-20T00:00:00Z"
T1 = "2026-11-20T01:00:00Z"

#: c001: a consumption-policy slot of 2 CPUs, 2048 MB (slot weight 2); s001 and s002: 1
#: CPU, 4096 MB each (slot weight 1). ``{rank}``: an extra ``[negotiator]`` line.
POOL = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
consider_preemption = true
preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"
{rank}
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 2, Memory = 2048 }}
[[machines]]
name = "s"
count = 2
slots = 1
attributes = {{ Cpus = 1, Memory = 4096 }}
"""


def _negotiate(tmp_path: Path, run: Callable[..., Any], rank: str) -> str:
    """bob's two 3000 MB jobs (too big for c001) take s001 and s002 at NOW, then his factor
    is 1000; alice submits two jobs of 1 CPU and 1024 MB at T1. ``fs negotiate --dry-run
    --json`` at T1 (the state file is left as it was)."""
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    config.write_text(POOL.format(rank=rank), encoding="utf-8")
    files = ["--config", str(config), "--state", str(state)]
    steps = [
        ("submit", "--owner", "bob", "--count", "2", "--cpus", "1", "--memory", "3000", NOW),
        ("negotiate", NOW),
        ("setfactor", "bob", "1000", NOW),
        ("submit", "--owner", "alice", "--count", "2", "--cpus", "1", "--memory", "1024", T1),
    ]
    for *command, now in steps:
        assert run(*command, *files, "--now", now).exit_code == 0
    before = state.read_bytes()
    result = run("negotiate", "--dry-run", *files, "--now", T1, "--json")
    assert result.exit_code == 0, result.stderr
    assert state.read_bytes() == before
    return str(result.stdout)


def _expected(second: str) -> str:
    """The whole output: 2.0 on c001, 2.1 as ``second``. bob's priority at T1 is 1000 x
    (0.5 b + 2 (1 - b)) with b = 0.5^(3600/86400) = 0.971532: 542.702; alice's share
    (1/0.5) / (1/0.5 + 1/542.702) = 0.99907953 of the pool's 2 + 1 + 1 = 4: 3.996318."""
    return (
        '{\n  "matches": [\n'
        '    {"job_id": "2.0", "submitter": "alice@example.org", "slot": "slot1_1@c001", '
        '"reason": "no_preemption", "preempted_job": null, "charge": 1.0},\n'
        f"    {second}\n"
        "  ],\n"
        '  "submitters": [\n'
        '    {"name": "alice@example.org", "group": null, "effective_priority": 0.5, '
        '"share": 0.999079532107761, "limit": 3.996318128431044, "matched": 2},\n'
        '    {"name": "bob@example.org", "group": null, "effective_priority": 542.702, '
        '"share": 0.0009204678922389829, "limit": 0.0036818715689559316, "matched": 0}\n'
        "  ],\n"
        '  "unmatched": []\n}\n'
    )


def test_a_leftover_that_outranks_the_claimed_slots_goes_behind_them(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Default ranks: pre-job rank (10000000 * My.Rank) + (1000000 * (RemoteOwner =?=
    UNDEFINED)) - (100000 * Cpus) - Memory: c001 1000000 - 200000 - 2048 = 797952, bob's
    s001 and s002 -100000 - 4096 = -104096 (priority preemptions: 542.702 > 0.5 x 1.2).
    The list is [c001, s001, s002]; 2.0 takes c001 (charged 2 - 1 = 1), whose leftover (1
    CPU, 1024 MB: 898976) outranks s001 and s002 and goes behind them: 2.1 pops s001 and
    preempts bob's 1.0 (1 + 1 <= 3.996). fs before put 2.1 on c001's leftover."""
    second = (
        '{"job_id": "2.1", "submitter": "alice@example.org", "slot": "slot1@s001", '
        '"reason": "priority", "preempted_job": "1.0", "charge": 1.0}'
    )
    assert _negotiate(tmp_path, run, "") == _expected(second)


def test_a_leftover_that_does_not_outrank_the_next_claimed_slot_stays_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``pre_job_rank = "Cpus * 10000 + Memory"``: c001 22048, s001 and s002 14096. 2.0
    takes c001; its leftover (11024) does not outrank s001, the list's next entry, so it
    stays first and 2.1 takes it. fs before ranked it afresh, below s001, and 2.1
    preempted bob's 1.0 there."""
    second = (
        '{"job_id": "2.1", "submitter": "alice@example.org", "slot": "slot1_2@c001", '
        '"reason": "no_preemption", "preempted_job": null, "charge": 1.0}'
    )
    assert _negotiate(tmp_path, run, 'pre_job_rank = "Cpus * 10000 + Memory"') == _expected(second)
