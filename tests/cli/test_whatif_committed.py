"""``fs whatif`` replays a pool driven by ``fs submit``/``fs negotiate``/``fs rm``.

Committed cycles and removals charge the accountant through slot claims; the same locked
write appends that usage to the history store beside the state, so a half-life change
revalues it exactly like an import of the same usage under that half-life.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

T0 = "2026-11-20T00:00:00Z"
T1 = "2026-11-20T01:00:00Z"
T1_5 = "2026-11-20T01:30:00Z"
T2 = "2026-11-20T02:00:00Z"

TINY = """\
[pool]
name = "tiny"
uid_domain = "example.org"

[accountant]
priority_halflife = {half_life}

[[machines]]
name = "m"
count = 2
slots = 1
attributes = {{ Cpus = 1 }}
"""


@pytest.fixture
def driven(tmp_path: Path, run: Callable[..., Any]) -> dict[str, Any]:
    """Two one-slot machines; alice and bob each submit one job at T0; cycles at T0, T1
    and T2; alice's job is removed at T1:30 while running."""
    config = tmp_path / "tiny.toml"
    config.write_text(TINY.format(half_life=86400), encoding="utf-8")
    state = tmp_path / "state.json"

    def fs(*args: str, now: str) -> Any:
        result = run(*args, "--config", str(config), "--state", str(state), "--now", now)
        assert result.exit_code == 0, result.stderr
        return result

    fs("submit", "--owner", "alice", now=T0)
    fs("submit", "--owner", "bob", now=T0)
    fs("negotiate", now=T0)
    fs("negotiate", now=T1)
    fs("rm", "1", now=T1_5)
    fs("negotiate", now=T2)
    return {"config": config, "state": state, "fs": fs}


def _by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in rows}


def test_committed_cycles_and_rm_are_kept_in_the_store(driven: dict[str, Any]) -> None:
    """Two matches at T0 (records with no end) and alice's removal (an end at T1:30)."""
    store = driven["state"].with_name("state.history.sqlite")
    with sqlite3.connect(store) as conn:
        records = conn.execute("SELECT owner, start, end, slots, cpus FROM records").fetchall()
        ends = conn.execute("SELECT end FROM ends").fetchall()
    t0 = 1795132800.0
    assert sorted(records) == [("alice", t0, None, 1, 1), ("bob", t0, None, 1, 1)]
    assert ends == [(t0 + 5400,)]
    marks = json.loads(driven["state"].read_text())["usage_history"]
    assert (marks["records"], marks["ends"]) == (2, 1)


def test_half_life_replay_of_committed_cycles(
    driven: dict[str, Any], tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Half-life 86400 -> 3600 at T2, by hand (``Accountant::UpdatePriorities``: over a
    span dt with u slots in use, p <- p*d + (1-d)*u, d = 0.5**(dt/half_life); a new
    submitter starts at the minimum 0.5):

    - bob holds one slot for two hours: before, the cycles at T1 and T2 each store six
      decimals (``%f``): p1 = 0.5 * d + (1 - d) = 0.514234 (d = 2**(-3600/86400)), then
      p1 * d + (1 - d) = 0.528063 (unrounded 1 - 0.5 * 2**(-7200/86400) = 0.5280628);
      after 0.5 * 2**-2 + (1 - 2**-2) = 0.875.
    - alice held one slot for 1.5 h, then none for 0.5 h: after
      (1 - 0.5 * 2**-1.5) * 2**-0.5 = 2**-0.5 - 0.125 = 0.5821068, stored 0.582107 (the
      replay's update at T2).

    And the after view equals a fresh state that imports the same usage as history under a
    config that says 3600.
    """
    fs = driven["fs"]
    result = fs(
        "whatif",
        "--set",
        "accountant.priority_halflife=3600",
        "userprio",
        "--allusers",
        "--json",
        now=T2,
    )
    doc = json.loads(result.stdout)
    before, after = _by_name(doc["before"]), _by_name(doc["after"])
    d = 2 ** (-3600 / 86400)
    p1 = round(0.5 * d + (1 - d), 6)
    assert p1 == 0.514234
    assert before["bob@example.org"]["real_priority"] == round(p1 * d + (1 - d), 6) == 0.528063
    assert after["bob@example.org"]["real_priority"] == 0.875
    assert after["alice@example.org"]["real_priority"] == round(2**-0.5 - 0.125, 6) == 0.582107
    assert after["alice@example.org"]["accumulated_usage_hours"] == pytest.approx(1.5)
    assert after["bob@example.org"]["resources_in_use"] == 1
    # the same usage, imported afresh under a 3600 s half-life
    short = tmp_path / "short.toml"
    short.write_text(TINY.format(half_life=3600), encoding="utf-8")
    history = tmp_path / "same.jsonl"
    history.write_text(
        f'{{"owner": "alice", "start": "{T0}", "end": "{T1_5}"}}\n'
        f'{{"owner": "bob", "start": "{T0}", "end": null}}\n',
        encoding="utf-8",
    )
    args = ["--config", str(short), "--state", str(tmp_path / "fresh.json"), "--now", T2]
    assert run("import", "history", str(history), *args).exit_code == 0
    direct = json.loads(run("userprio", "--allusers", *args, "--json").stdout)
    assert doc["after"] == direct


def test_a_claim_changing_hands_ends_one_record_and_starts_another() -> None:
    """A preemption as the state shows it: slot1@m001 held by bob's job 1 since T0 is held
    by alice's job 2 from T1. Bob's record (keyed by job, slot and start) ends at T1;
    alice's starts at T1, one slot of the slot's Cpus (1), with her job's account."""
    from fairshare_cli.core.operations.usage_log import claim_usage
    from fairshare_cli.core.state import State
    from fairshare_cli.io.config import build_config
    from fairshare_cli.io.toml import loads

    config = build_config(loads(TINY.format(half_life=3600)), "tiny.toml")
    t0, t1 = 1795132800.0, 1795136400.0

    def state(job: str, owner: str, start: float) -> State:
        claim = {"submitter": f"{owner}@example.org", "job_id": job, "start_time": start}
        jobs = [
            {"id": job, "owner": owner, "account": "hep", "status": "running",
             "slot": "slot1@m001", "start_time": start, "submit_time": t0},
        ]  # fmt: skip
        return State(sections={"negotiator": {"claims": {"slot1@m001": claim}}, "jobs": jobs})

    usage = claim_usage(config, state("1", "bob", t0), state("2", "alice", t1), t1)
    assert usage.ended == ((f"1 slot1@m001 {t0!r}", t1),)
    [(record, key)] = usage.started
    assert key == f"2 slot1@m001 {t1!r}"
    assert (record.owner, record.start, record.end, record.account, record.slots, record.cpus) == (
        "alice", t1, None, "hep", 1, 1,
    )  # fmt: skip
    assert not claim_usage(config, state("1", "bob", t0), state("1", "bob", t0), t1)


def test_dry_runs_keep_no_history(tmp_path: Path, run: Callable[..., Any]) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY.format(half_life=86400), encoding="utf-8")
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", T0]
    assert run("submit", "--owner", "alice", *args).exit_code == 0
    assert run("negotiate", "--dry-run", *args).exit_code == 0
    assert not state.with_name("state.history.sqlite").exists()


def test_a_dynamic_slot_is_recorded_with_the_cpus_carved_for_it() -> None:
    """A claim on ``slot1_1@m001`` carved 4 CPUs out of its partitionable slot: its record
    holds one slot of 4 CPUs (a ``Cpus`` slot weight replays to the 4 charged)."""
    from fairshare_cli.core.operations.usage_log import claim_usage
    from fairshare_cli.core.state import State
    from fairshare_cli.io.config import build_config
    from fairshare_cli.io.toml import loads

    config = build_config(loads(TINY.format(half_life=3600)), "tiny.toml")
    t0 = 1795132800.0
    claim = {
        "submitter": "alice@example.org", "job_id": "1", "start_time": t0, "weight": 4.0,
        "resources": {"Cpus": 4, "Memory": 1024},
    }  # fmt: skip
    after = State(sections={"negotiator": {"claims": {"slot1_1@m001": claim}}})
    [(record, _)] = claim_usage(config, State(sections={}), after, t0).started
    assert (record.owner, record.slots, record.cpus) == ("alice@example.org", 1, 4)
