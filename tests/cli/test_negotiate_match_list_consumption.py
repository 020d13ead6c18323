"""fs negotiate: a consumption-policy slot goes back into the live match list where 25.0
puts it, not where a fresh ranking would.

After a match on a partitionable slot with a consumption policy, ``matchmakingProtocol``
(``src/condor_negotiator.V6/matchmaker.cpp``, 25.0) hands the slot, ranked afresh for the
job, back to the autocluster's cached list (``returnPslotToMatchList``), and
``MatchListType::insert_candidate`` puts it at the list's head and moves it down past every
entry it ranks strictly above (``sort_compare``), stopping at the first it does not: the
list being sorted best first, a leftover that outranks the next candidate goes to the end,
one that does not stays first. fs ranked every slot afresh for each job.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[[machines]]
name = "p"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 4, Memory = 8192 }}
[[machines]]
name = "q"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = {q_cpus}, Memory = 8192 }}
"""

JOBS = '[{"id":"1.0","count":5,"owner":"alice","request_cpus":1,"request_memory":1024}]'


def _negotiate(tmp_path: Path, run: Callable[..., Any], q_cpus: int, extra: str = "") -> str:
    """``fs negotiate --dry-run --json`` on p (4 CPUs) and q (``q_cpus``), 8192 MB each
    (``extra``: more config)."""
    (tmp_path / "ml.toml").write_text(POOL.format(q_cpus=q_cpus) + extra, encoding="utf-8")
    (tmp_path / "mlj.json").write_text(JOBS, encoding="utf-8")
    state = tmp_path / "m.json"
    result = run(
        "negotiate", "--dry-run", "--config", str(tmp_path / "ml.toml"), "--state", str(state),
        "--now", NOW, "--jobs-file", str(tmp_path / "mlj.json"), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert not state.exists()
    return str(result.stdout)


def _match(job: str, slot: str) -> str:
    return (
        f'    {{"job_id": "{job}", "submitter": "alice@example.org", "slot": "{slot}", '
        '"reason": "no_preemption", "preempted_job": null, "charge": 1.0}'
    )


def _expected(slots: list[str], limit: float) -> str:
    matches = ",\n".join(_match(f"1.{i}", s) for i, s in enumerate(slots))
    return (
        '{\n  "matches": [\n' + matches + "\n  ],\n"
        '  "submitters": [\n'
        '    {"name": "alice@example.org", "group": null, "effective_priority": 500.0, '
        f'"share": 1.0, "limit": {limit}, "matched": 5}}\n'
        "  ],\n"
        '  "unmatched": []\n}\n'
    )


def test_a_leftover_that_outranks_the_next_slot_goes_behind_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """p (4 CPUs) and q (8 CPUs); ``- 100000 * Cpus - Memory`` ranks p -408192, q -808192:
    the list is [p, q]. 1.0 takes p; p's leftover (3 CPUs, 7168 MB: -307168) outranks q,
    so it goes behind q: [q, p]. 1.1 takes q; q's leftover (7, 7168: -707168) does not
    outrank p, so it stays first, and so on: 1.2-1.4 take q too (6, 5 and 4 CPUs left,
    each below p). fs gave 1.0-1.3 p (the smallest slot each time) and 1.4 q."""
    slots = ["slot1_1@p001", *(f"slot1_{i}@q001" for i in range(1, 5))]
    assert _negotiate(tmp_path, run, 8) == _expected(slots, 12.0)


def test_two_identical_slots_take_turns_as_their_leftovers_pass(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """p and q, 4 CPUs each, tie: [p, q] (pool order). 1.0 takes p, whose leftover (3 CPUs)
    outranks q: [q, p]. 1.1 takes q; its leftover (3) ties p, so it stays first: [q, p].
    1.2 takes q again; its leftover (2) outranks p (3): [p, q]. 1.3 takes p; its leftover
    (2) ties q: stays first, and 1.4 takes p. 25.0: p, q, q, p, p."""
    slots = ["slot1_1@p001", "slot1_1@q001", "slot1_2@q001", "slot1_2@p001", "slot1_3@p001"]
    assert _negotiate(tmp_path, run, 4) == _expected(slots, 8.0)


def test_without_match_list_caching_each_job_ranks_the_slots_afresh(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """p (4 CPUs) and q (8 CPUs) with ``[negotiator] matchlist_caching = false``
    (``NEGOTIATOR_MATCHLIST_CACHING = False``): no list to hand a slot back to, so every job
    ranks both afresh (``- 100000 * Cpus - Memory``): p -408192 over q -808192 takes 1.0;
    its leftovers (3 CPUs, 7168 MB: -307168; 2, 6144: -206144; 1, 5120: -105120) keep
    outranking q for 1.1-1.3; with no CPU left p no longer matches, and 1.4 takes q."""
    slots = [*(f"slot1_{i}@p001" for i in range(1, 5)), "slot1_1@q001"]
    extra = "[negotiator]\nmatchlist_caching = false\n"
    assert _negotiate(tmp_path, run, 8, extra) == _expected(slots, 12.0)
