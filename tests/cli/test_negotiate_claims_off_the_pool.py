"""A claim on a slot gone from the config (a machine taken out of ``[[machines]]``, or an
import that wrote claims on slots the config never got): HTCondor's ``CheckMatches``
removes the match of a slot whose ad the collector no longer has. fs kept such a claim for
ever, and every committed cycle charged its holder for a slot the pool does not have; its
job stayed running on it. Now the cycle ends it (charged up to then), the job is idle
again, and the dry run counts it no more."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import CONFIG, common, write_pool

LATER = "2026-11-21T13:00:00Z"


def _in_use(run: Callable[..., Any], args: list[str], now: str = LATER) -> int:
    result = run("userprio", "--allusers", "--json", *args[:-1], now)
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    return int(rows["alice@example.org"]["resources_in_use"])


def test_a_claim_on_a_machine_taken_out_ends_at_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    env = write_pool(tmp_path)
    args = common(env)
    assert run("submit", "--owner", "alice", *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0  # jobs 1 and 2 on slot1@exec001, @exec002
    state = json.loads(env["state"].read_text())
    assert sorted(state["negotiator"]["claims"]) == ["slot1@exec001", "slot1@exec002"]
    # exec002 leaves the pool, and exec001 keeps one slot (no room for job 2)
    env["config"].write_text(CONFIG.replace("count = 2\nslots = 2", "count = 1\nslots = 1"))
    later = [*args[:-1], LATER]
    preview = run("negotiate", "--dry-run", "--json", *later)
    assert preview.exit_code == 0, preview.stderr
    assert run("negotiate", *later).exit_code == 0
    state = json.loads(env["state"].read_text())
    assert list(state["negotiator"]["claims"]) == ["slot1@exec001"]
    jobs = {j["id"]: j for j in state["jobs"]}
    assert (jobs["1"]["status"], jobs["1"]["slot"]) == ("running", "slot1@exec001")
    assert jobs["2"].get("status", "idle") == "idle" and "slot" not in jobs["2"]
    assert _in_use(run, args) == 1


def test_a_claim_the_config_never_had_is_dropped(tmp_path: Path, run: Callable[..., Any]) -> None:
    env = write_pool(tmp_path)
    args = common(env)
    state = json.loads(env["state"].read_text())
    claim = {"job_id": "9", "start_time": 1795258800.0, "submitter": "bob@example.org"}
    state["negotiator"] = {"claims": {"slot9@ghost": claim}}
    env["state"].write_text(json.dumps(state))
    before = env["state"].read_bytes()
    assert run("negotiate", "--dry-run", *args).exit_code == 0
    assert env["state"].read_bytes() == before
    assert run("negotiate", *args).exit_code == 0
    claims = json.loads(env["state"].read_text())["negotiator"]["claims"]
    assert list(claims) == ["slot1@exec001"]  # job 1's match; the ghost's claim is gone


def test_simulate_ends_it_at_its_first_cycle(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs simulate from such a state charged the claim through the whole run (alice held 2
    slots of a pool of 1); it now ends it as fs negotiate does: simulating from the state
    or from the state a committed cycle leaves gives the same rows."""
    env = write_pool(tmp_path)
    args = common(env)
    assert run("submit", "--owner", "alice", *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    env["config"].write_text(CONFIG.replace("count = 2\nslots = 2", "count = 1\nslots = 1"))
    workload = tmp_path / "w.json"
    workload.write_text('[{"id": "9", "owner": "bob", "run_time": 60}]')
    line = ["simulate", "--workload", str(workload), "--until", "7200", "--json"]
    later = [*args[:-1], LATER]
    direct = run(*line, *later)
    assert direct.exit_code == 0, direct.stderr
    assert run("negotiate", *later).exit_code == 0
    after = run(*line, *later)
    assert after.exit_code == 0, after.stderr
    assert direct.stdout == after.stdout
    rows = [r for r in json.loads(direct.stdout) if r["name"] == "alice@example.org"]
    assert rows and {r["slots"] for r in rows} == {1.0}


def test_simulate_matches_a_job_off_the_pool_only_once_it_is_idle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A job running on a slot the pool lacks is idle again after the cycle that ends its
    claim, not during it: fs negotiate at 12:00 leaves it unmatched and idle, at 12:10
    matches it. fs simulate made it idle before its first cycle and matched it at 12:00;
    its rows are now those of the two committed cycles."""
    env = write_pool(tmp_path)
    args = common(env)
    state = json.loads(env["state"].read_text())
    state["jobs"][0].update(status="running", slot="slot9@ghost", start_time=1795258800.0)
    claim = {"job_id": "1", "start_time": 1795258800.0, "submitter": "alice@example.org"}
    state["negotiator"] = {"claims": {"slot9@ghost": claim}}
    env["state"].write_text(json.dumps(state))
    line = ["simulate", "--until", "600", "--cycle", "600", "--json", *args]
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    rows = [r for r in json.loads(result.stdout) if r["name"] == "alice@example.org"]
    assert [(r["slots"], r["pending"]) for r in rows] == [(0.0, 1), (1.0, 0)]
    held = []
    for now in ("2026-11-21T12:00:00Z", "2026-11-21T12:10:00Z"):
        assert run("negotiate", *args[:-1], now).exit_code == 0
        doc = json.loads(env["state"].read_text())
        held.append(len(doc["negotiator"]["claims"]))
    assert held == [0, 1]
