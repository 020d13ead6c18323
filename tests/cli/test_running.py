"""Running work holds slots, wherever it comes in.

A group with a static quota of 10 (no surplus) on a 20-slot pool, and five of its jobs
already running: the next cycle may give it only 10 - 5 = 5 more slots (HTCondor's
``groupQuota - groupusage``), and ``fs quota``, ``fs negotiate --dry-run`` and
``fs userprio`` all count the five as in use.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
START = 1795255200  # 2026-11-21T10:00:00Z
CONFIG = """
[pool]
uid_domain = "d.org"
[accountant]
priority_halflife = 86400
[[machines]]
name = "exec"
count = 20
attributes = { Cpus = 1, Memory = 4096 }
[groups.grp]
quota = 10
accept_surplus = false
"""


def _idle(n: int) -> dict[str, Any]:
    return {"id": "50.0", "owner": "alice", "accounting_group": "grp.alice", "count": n}


@pytest.fixture
def pool(tmp_path: Path, write_config: Callable[[str], Path]) -> list[str]:
    return ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]


def _check_five_in_use(run: Callable[..., Any], args: list[str], tmp_path: Path) -> None:
    jobs = tmp_path / "idle.json"
    jobs.write_text(json.dumps([_idle(20)]))
    assert run("submit", "--file", str(jobs), *args, "--now", NOW).exit_code == 0
    quota = json.loads(run("quota", "--json", *args, "--now", NOW).stdout)
    grp = next(r for r in quota if r["group"] == "grp")
    assert grp["in_use"] == 5
    out = json.loads(run("negotiate", "--dry-run", "--json", *args, "--now", NOW).stdout)
    assert len(out["matches"]) == 5  # 10 - 5, not 10
    rows = json.loads(run("userprio", "--allusers", "--json", *args, "--now", NOW).stdout)
    assert sum(r["resources_in_use"] for r in rows if not r["is_group"]) == 5
    # Committed: the cycle gives out no claimed slot (nothing is preempted here).
    state = Path(args[3])
    before = set(json.loads(state.read_text())["negotiator"]["claims"])
    assert len(before) == 5
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    after = json.loads(state.read_text())["negotiator"]["claims"]
    assert len(after) == 10 and before <= set(after)


def test_history_records_still_running_hold_slots(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        "".join(
            json.dumps({"owner": "alice", "accounting_group": "grp.alice", "start": START + i})
            + "\n"
            for i in range(5)
        )
    )
    result = run("import", "history", str(hist), *pool, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    _check_five_in_use(run, pool, tmp_path)


def _job_ad(proc: int, running: bool) -> dict[str, Any]:
    ad: dict[str, Any] = {
        "ClusterId": 7,
        "ProcId": proc,
        "Owner": "alice",
        "AccountingGroup": "grp.alice",
        "JobStatus": 2 if running else 1,
        "QDate": START,
        "RequestCpus": 1,
        "Requirements": "/Expr(TARGET.Memory >= 1024)/",
    }
    if running:
        ad.update({"RemoteHost": f"slot1@exec{proc + 1:03d}", "JobCurrentStartDate": START})
    return ad


def test_condor_q_running_jobs_hold_their_remote_host(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    dump = tmp_path / "q.json"
    dump.write_text(json.dumps([_job_ad(p, running=True) for p in range(5)]))
    result = run("import", "condor-q", str(dump), *pool, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    claims = json.loads(Path(pool[3]).read_text())["negotiator"]["claims"]
    assert sorted(claims) == [f"slot1@exec{i:03d}" for i in range(1, 6)]
    _check_five_in_use(run, pool, tmp_path)


def test_submit_of_running_jobs_holds_slots(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    """A named slot is taken; without one, the first free slot that fits."""
    args = [*pool, "--now", NOW]
    common = ["--owner", "alice", "--accounting-group", "grp.alice", "--set", "status=running"]
    assert run("submit", *common, "--set", "slot=slot1@exec020", *args).exit_code == 0
    assert run("submit", *common, "--count", "4", *args).exit_code == 0
    claims = json.loads(Path(pool[3]).read_text())["negotiator"]["claims"]
    assert sorted(claims) == [f"slot1@exec{i:03d}" for i in (1, 2, 3, 4, 20)]
    _check_five_in_use(run, pool, tmp_path)


def test_running_work_that_finds_no_slot_is_a_warning(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    hist = tmp_path / "h.jsonl"
    hist.write_text(json.dumps({"owner": "bob", "start": START, "cpus": 8}) + "\n")
    result = run("import", "history", str(hist), *pool, "--now", NOW)
    assert result.exit_code == 0
    assert result.stderr == (
        f"fs: warning: {hist}: record 1 (bob@d.org, running since 2026-11-21T10:00:00Z): running, but no "
        "free slot fits it; it holds no slot; its use stops now\n"
    )
    rows = json.loads(run("userprio", "--allusers", "--json", *pool, "--now", NOW).stdout)
    bob = next(r for r in rows if r["name"] == "bob@d.org")
    assert (bob["resources_in_use"], bob["accumulated_usage_hours"]) == (0, 2.0)  # 10:00-12:00


def test_a_record_running_on_more_slots_than_the_pool_holds_what_fits(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    """A running record of 10**15 slots (a 64-bit count the state accepts) on this 20-slot
    pool: the first 20 pieces take the 20 slots, the rest is one unplaced piece whose use
    stops at once, never 10**15 objects (this used to run out of memory). Hand-derived:
    bob holds all 20 slots; his accumulated usage is the 2 hours 10:00-12:00 of every one
    of the 10**15 slots the replay charged (2e15 slot-hours)."""
    hist = tmp_path / "h.jsonl"
    hist.write_text(json.dumps({"owner": "bob", "start": START, "slots": 10**15}) + "\n")
    result = run("import", "history", str(hist), *pool, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert "running, but no free slot fits" in result.stderr
    rows = json.loads(run("userprio", "--allusers", "--json", *pool, "--now", NOW).stdout)
    bob = next(r for r in rows if r["name"] == "bob@d.org")
    assert bob["resources_in_use"] == 20
    assert bob["accumulated_usage_hours"] == pytest.approx(2e15)
    claims = json.loads(Path(pool[3]).read_text())["negotiator"]["claims"]
    assert len(claims) == 20


def test_sample_pool_footer_never_exceeds_the_pool(tmp_path: Path, run: Callable[..., Any]) -> None:
    """After fs submit and fs negotiate, no more slots are in use than the pool has (it once
    showed 431 in use on 420 slots)."""
    args = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    args += ["--state", str(tmp_path / "s.json"), "--now", NOW]
    history = str(REPO / "sample_configs" / "history.csv")
    assert run("import", "history", history, *args).exit_code == 0
    jobs = str(REPO / "sample_configs" / "jobs.json")
    assert run("submit", "--file", jobs, *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    rows = json.loads(run("userprio", "--allusers", "--json", *args).stdout)
    in_use = sum(r["weighted_resources_in_use"] for r in rows if not r["is_group"])
    claims = json.loads((tmp_path / "s.json").read_text())["negotiator"]["claims"]
    assert in_use == len(claims) <= 420


@settings(max_examples=12, deadline=None)
@given(
    running=st.lists(st.sampled_from(["a", "b", "c"]), max_size=9),
    idle=st.lists(st.sampled_from(["a", "b", "c"]), max_size=6),
    submitted=st.lists(st.sampled_from(["a", "b"]), max_size=4),
)
def test_in_use_never_exceeds_the_pool(
    running: list[str], idle: list[str], submitted: list[str]
) -> None:
    """Whatever runs (history, fs submit) and whatever a committed cycle adds, the users'
    slots in use are the claims, and never more than the pool's six slots."""
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "pool.toml").write_text(
            '[pool]\nuid_domain = "d.org"\n[[machines]]\nname = "m"\ncount = 3\nslots = 2\n'
        )
        args = ["--config", str(folder / "pool.toml"), "--state", str(folder / "s.json")]
        args += ["--now", NOW]

        def fs(*words: str) -> None:
            result = CliRunner().invoke(cli, [*words, *args], catch_exceptions=False)
            assert result.exit_code == 0, result.stderr

        (folder / "h.jsonl").write_text(
            "".join(
                json.dumps({"owner": u, "start": START + i}) + "\n" for i, u in enumerate(running)
            )
        )
        if running:  # (an empty history is refused)
            fs("import", "history", str(folder / "h.jsonl"))
        for user in idle:
            fs("submit", "--owner", user)
        fs("negotiate")
        for user in submitted:
            fs("submit", "--owner", user, "--set", "status=running")
        out = CliRunner().invoke(cli, ["userprio", "--allusers", "--json", *args])
        in_use = sum(r["resources_in_use"] for r in json.loads(out.stdout) if not r["is_group"])
        claims = json.loads((folder / "s.json").read_text())["negotiator"]["claims"]
        assert in_use == len(claims) <= 6


def test_a_record_whose_slots_find_no_slot_is_one_warning(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    """Three slots of 8 CPUs, none of which fits: one line for the record, not three."""
    hist = tmp_path / "h.jsonl"
    hist.write_text(json.dumps({"owner": "bob", "start": START, "cpus": 8, "slots": 3}) + "\n")
    result = run("import", "history", str(hist), *pool, "--now", NOW)
    assert result.exit_code == 0
    assert result.stderr == (
        f"fs: warning: {hist}: record 1 (bob@d.org, running since 2026-11-21T10:00:00Z): running, but no "
        "free slot fits 3 of its slots; they hold no slot; their use stops now\n"
    )


def test_many_records_without_a_slot_are_ten_warnings_and_a_count(
    tmp_path: Path, pool: list[str], run: Callable[..., Any]
) -> None:
    """25 running 8-CPU records on this pool of 1-CPU slots: none fits, and a history of
    thousands of them would print thousands of lines; the first ten are named, then one
    line counts the other 15."""
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        "".join(json.dumps({"owner": f"u{i}", "start": START, "cpus": 8}) + "\n" for i in range(25))
    )
    result = run("import", "history", str(hist), *pool, "--now", NOW)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines[:10] == [
        f"fs: warning: {hist}: record {i + 1} (u{i}@d.org, running since 2026-11-21T10:00:00Z): running, "
        "but no free slot fits it; it holds no slot; its use stops now"
        for i in range(10)
    ]
    assert lines[10:] == ["fs: warning: 15 more pieces of running work fit no free slot (as above)"]
