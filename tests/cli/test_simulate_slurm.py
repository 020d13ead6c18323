"""fs simulate --scheduler slurm on the fixture cluster's tree (tests/fixtures/slurm-22.05).

The tree, weights, partitions and QOS are those of the real Slurm 22.05 capture (Fair
Tree; one node of 16 CPUs; half-life 10 minutes, a decay pass every minute), read as
``test_slurm_fixtures`` reads them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_slurm_fixtures import _config_toml

T0 = 1795301400.0  # 2026-11-21T23:30:00Z, on a decay pass (every minute)


def _iso(t: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _record(user: str, start: float, end: float | None, cpus: int) -> dict[str, Any]:
    return {
        "owner": user,
        "account": "c",
        "partition": "batch",
        "start": _iso(start),
        "end": None if end is None else _iso(end),
        "cpus": cpus,
        "slots": 1,
    }


@pytest.fixture(params=[False, True], ids=["fair_tree", "classic"])
def cluster(
    request: pytest.FixtureRequest, tmp_path: Path, run: Callable[..., Any]
) -> tuple[Path, Path]:
    """The fixture's config (Fair Tree, or classic as ``slurm.conf.classic``), and a state where u2 (account c) ran 8 CPUs for half an hour
    ending 30 minutes before T0, and u3 (same account, same shares) nothing."""
    cfg = tmp_path / "cluster.toml"
    cfg.write_text(_config_toml(request.param))
    state = tmp_path / "state.json"
    past = tmp_path / "past.jsonl"
    past.write_text(json.dumps(_record("u2", T0 - 3600, T0 - 1800, 8)) + "\n")
    r = run("import", "history", str(past), "--config", str(cfg), "--state", str(state),
            "--now", _iso(T0))  # fmt: skip
    assert r.exit_code == 0, r.stderr
    return cfg, state


WORKLOAD = [  # both want the whole node; u2's job has the lower id
    {"id": "1", "owner": "u2", "account": "c", "partition": "batch", "request_cpus": 16,
     "run_time": 600, "submit_time": T0},
    {"id": "2", "owner": "u3", "account": "c", "partition": "batch", "request_cpus": 16,
     "run_time": 600, "submit_time": T0},
]  # fmt: skip


def test_less_usage_starts_first_and_factors_equal_sshare(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """u2 and u3 have one share each in account c; u2 has past usage, so its fair-share
    factor is lower (Fair Tree ranks it below u3; classic gives it ``2^(-U/S)`` with a
    larger U), its job's priority too, and u3's job
    starts first although u2's has the lower id; u2's starts when u3's ends, 10 minutes on.

    The series' fair-share factors are those ``fs sshare`` shows at the same instants for a
    state holding the same work (each job charged from its start, and to its end once it
    has ended), imported as history, and the same queue: the simulation charges usage as
    an import does, and classic takes a user's usage at its first pending job in job id
    order, before the charges of the running jobs after it, as ``fs sshare`` does.
    """
    cfg, state = cluster
    classic = 'fairshare = "classic"' in cfg.read_text()
    work = tmp_path / "work.json"
    work.write_text(json.dumps(WORKLOAD))
    common = ["--config", str(cfg), "--state", str(state)]
    r = run("simulate", *common, "--now", _iso(T0), "--workload", str(work),
            "--scheduler", "slurm", "--until", "30:00", "--cycle", "300", "--json")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)
    users = {(row["time"], row["name"]): row for row in rows if row["kind"] == "slurm_user"}
    assert users[(_iso(T0), "u3")]["slots"] == 16
    assert users[(_iso(T0), "u2")]["slots"] == 0
    assert users[(_iso(T0), "u2")]["pending"] == 1
    assert users[(_iso(T0 + 600), "u2")]["slots"] == 16
    assert users[(_iso(T0 + 600), "u3")]["slots"] == 0
    assert users[(_iso(T0 + 1200), "u2")]["slots"] == 0
    pool = [row for row in rows if row["kind"] == "pool"]
    assert {row["capacity"] for row in pool} == {16}
    ran = [("u3", T0, T0 + 600), ("u2", T0 + 600, T0 + 1200)]
    for k in range(1, 7):
        t = T0 + k * 300
        copy = tmp_path / f"state{k}.json"
        shutil.copy(state, copy)
        recs = tmp_path / f"recs{k}.jsonl"
        lines = [
            json.dumps(_record(u, start, end if end <= t else None, 16))
            for u, start, end in ran
            if start <= t
        ]
        recs.write_text("\n".join(lines) + "\n")
        opts = ["--config", str(cfg), "--state", str(copy), "--now", _iso(t)]
        assert run("import", "history", str(recs), *opts).exit_code == 0
        _with_queue(copy, t)
        r = run("sshare", "-a", *opts, "--json")
        assert r.exit_code == 0, r.stderr
        want = {s["user"]: s["fairshare"] for s in json.loads(r.stdout) if s["user"]}
        for user in ("u2", "u3"):
            got = users[(_iso(t), user)]["fairshare"]
            if user == "u2" and t == T0 + 600 and classic:
                # u3's job ended on this pass, which still charged its last minute, after
                # weighing u2's job 1 (lower id): u2's usage is over a root without that
                # minute, its factor lower. An import of history folds an end on the pass
                # in at once, so no state it writes holds that charge in the job list.
                assert got < want[user]
                continue
            assert got == pytest.approx(want[user], rel=1e-9), (t, user)
    assert users[(_iso(T0), "u3")]["fairshare"] > users[(_iso(T0), "u2")]["fairshare"]


def _with_queue(state: Path, t: float) -> None:
    """The state's queue as slurmctld's job list stands at ``t`` (jobs 1 and 2 of the
    workload: pending until their start, running until their end), its running charges
    with their jobs' ids: what classic fair share takes a user's usage by (its first
    pending job in that list, before the charges of the jobs after it)."""
    data = json.loads(state.read_text())
    starts = {"1": T0 + 600, "2": T0}
    jobs = []
    for job in WORKLOAD:
        start = starts[str(job["id"])]
        if start + 600 <= t:
            continue
        status = (
            {"status": "idle"} if start >= t else {"status": "running", "start_time": _iso(start)}
        )
        jobs.append({**job, "submit_time": _iso(T0), **status})
    data["jobs"] = jobs
    ids = {"u2": "1", "u3": "2"}
    for charge in data["slurm"]["running"]:
        charge["job"] = ids[charge["user"]]
    state.write_text(json.dumps(data))


def test_backfill_needs_slurm_and_slurm_needs_accounts(
    run: Callable[..., Any], write_config: Callable[[str], Path], tmp_path: Path
) -> None:
    cfg = write_config('[[machines]]\nname = "m"\n')
    opts = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    r = run("simulate", *opts, "--backfill", "--until", "600")
    assert r.exit_code == 2
    assert "--backfill needs --scheduler slurm" in r.stderr
    r = run("simulate", *opts, "--scheduler", "slurm", "--until", "600")
    assert r.exit_code == 2
    assert "needs [accounts]" in r.stderr


BACKFILL = [  # all submitted at T0 on the one 16-CPU node; minutes are time limits = run times
    {"id": "1", "owner": "u5", "account": "f", "request_cpus": 8, "time_limit": 1800,
     "run_time": 1800, "submit_time": T0},
    {"id": "2", "owner": "u3", "account": "c", "request_cpus": 16, "time_limit": 600,
     "run_time": 600, "submit_time": T0},
    {"id": "3", "owner": "u2", "account": "c", "request_cpus": 8, "time_limit": 2400,
     "run_time": 2400, "submit_time": T0},
    {"id": "4", "owner": "u2", "account": "c", "request_cpus": 8, "time_limit": 1200,
     "run_time": 1200, "submit_time": T0},
]  # fmt: skip


@pytest.mark.parametrize("backfill", [False, True], ids=["main_only", "backfill"])
def test_backfill_starts_a_short_job_that_delays_no_one(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path, backfill: bool
) -> None:
    """Priority order 1 (u5, no usage), 2 (u3, no usage, all 16 CPUs), then u2's 3 and 4
    (past usage). Job 1 starts on 8 CPUs; job 2 needs the whole node, which frees when job
    1's 30-minute limit is up: it waits, and the main scheduler starts nothing below it.
    Backfill reserves the node for job 2 at T0+30m; job 3 (40 minutes) would still run then,
    so it waits; job 4 (20 minutes) ends before, so it starts now on the 8 free CPUs. At
    T0+25m job 4 has ended and job 3 has not been started in its place (it would delay job
    2); at T0+30m job 2 holds all 16 CPUs; it ends at T0+40m and u2's job 3 starts.
    """
    cfg, state = cluster
    work = tmp_path / "work.json"
    work.write_text(json.dumps(BACKFILL))
    flags = ["--backfill"] if backfill else []
    r = run("simulate", "--config", str(cfg), "--state", str(state), "--now", _iso(T0),
            "--workload", str(work), "--scheduler", "slurm", *flags, "--until", "45:00",
            "--cycle", "300", "--json")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    cpus = {
        (row["time"], row["name"]): row["slots"]
        for row in json.loads(r.stdout)
        if row["kind"] == "slurm_user"
    }
    at = {m: {u: cpus[(_iso(T0 + m * 60), u)] for u in ("u2", "u3", "u5")} for m in (0, 25, 30, 40)}
    assert at[0] == {"u2": 8 if backfill else 0, "u3": 0, "u5": 8}
    assert at[25] == {"u2": 0, "u3": 0, "u5": 8}
    assert at[30] == {"u2": 0, "u3": 16, "u5": 0}
    assert at[40] == {"u2": 16 if not backfill else 8, "u3": 0, "u5": 0}


def _bounded(
    cluster: tuple[Path, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    knobs: str,
    work: list[dict[str, Any]],
) -> dict[int, dict[str, float]]:
    """CPUs per user each minute of ``fs simulate --backfill --cycle 300`` with ``knobs``
    added to ``[priority]``."""
    cfg, state = cluster
    text = cfg.read_text()
    assert "[priority]\n" in text
    cfg = tmp_path / f"{knobs.replace(' = ', '-')}.toml"
    cfg.write_text(text.replace("[priority]\n", f"[priority]\n{knobs}\n", 1))
    path = tmp_path / "work.json"
    path.write_text(json.dumps(work))
    r = run("simulate", "--config", str(cfg), "--state", str(state), "--now", _iso(T0),
            "--workload", str(path), "--scheduler", "slurm", "--backfill", "--until", "45:00",
            "--cycle", "300", "--json")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    out: dict[int, dict[str, float]] = {}
    for row in json.loads(r.stdout):
        if row["kind"] == "slurm_user" and row["name"] in ("u2", "u3", "u5"):
            minute = round((_dt(row["time"]) - T0) / 60)
            out.setdefault(minute, {})[row["name"]] = row["slots"]
    return out


def _dt(text: str) -> float:
    import datetime as dt

    return (
        dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp()
    )


@pytest.mark.parametrize("limit", [2, 3])
def test_bf_max_job_test_stops_the_pass(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path, limit: int
) -> None:
    """``_attempt_backfill`` breaks out once ``bf_max_job_test`` jobs were tried. The
    backfill queue is 2, 3, 4 (job 1 started in the main pass): with a limit of 3, job 4
    is tried and starts at T0 as in the unbounded case; with 2, jobs 2 and 3 use up every
    pass, job 4 is never tried, and u2's jobs 3 and 4 start together when job 2 ends at
    T0+40m, as with no backfill."""
    at = _bounded(cluster, run, tmp_path, f"bf_max_job_test = {limit}", BACKFILL)
    assert at[0] == {"u2": 8 if limit == 3 else 0, "u3": 0, "u5": 8}
    assert at[30] == {"u2": 0, "u3": 16, "u5": 0}
    assert at[40] == {"u2": 8 if limit == 3 else 16, "u3": 0, "u5": 0}


@pytest.mark.parametrize("window", [29, 30])
def test_bf_window_leaves_a_later_start_unreserved(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path, window: int
) -> None:
    """Job 2's earliest start is T0+30m (job 1's limit); ``_attempt_backfill`` reserves
    no job starting more than ``bf_window`` after the pass. With 30 minutes it is reserved
    (the unbounded case: job 4 starts at T0). With 29 it is not, so job 3 (40 minutes)
    starts at T0 on the free 8 CPUs and job 4 finds none; from T0+5m job 2 is within the
    window and reserved, so job 4 never fits before it; job 2 waits for job 3's end at
    T0+40m."""
    at = _bounded(cluster, run, tmp_path, f"bf_window = {window}", BACKFILL)
    assert at[0] == {"u2": 8, "u3": 0, "u5": 8}
    assert at[25] == ({"u2": 0, "u3": 0, "u5": 8} if window == 30 else {"u2": 8, "u3": 0, "u5": 8})
    assert at[30] == ({"u2": 0, "u3": 16, "u5": 0} if window == 30 else {"u2": 8, "u3": 0, "u5": 0})
    assert at[40] == ({"u2": 8, "u3": 0, "u5": 0} if window == 30 else {"u2": 0, "u3": 16, "u5": 0})


def test_bf_resolution_rounds_a_reservation_away(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """22.05's ``_attempt_backfill`` rounds a reservation's start and end down to a multiple
    of ``bf_resolution`` (the fixture cluster is 22.05). T0 is 3000 s past a whole hour, so
    with 3600 s job 2's reservation T0+1800 .. T0+2400 becomes T0+600 .. T0+600, empty: job
    3 (40 minutes) starts at T0 and still runs at T0+25m (with 60 s the reservation holds
    and job 4, 20 minutes, starts instead, ended by T0+25m)."""
    assert T0 % 3600 == 3000
    assert 'output_compat = "22.05"' in cluster[0].read_text()
    at = _bounded(cluster, run, tmp_path, "bf_resolution = 3600", BACKFILL)
    assert at[0] == {"u2": 8, "u3": 0, "u5": 8}
    assert at[25] == {"u2": 8, "u3": 0, "u5": 8}
    default = _bounded(cluster, run, tmp_path, "bf_resolution = 60", BACKFILL)
    assert default[25] == {"u2": 0, "u3": 0, "u5": 8}


def test_bf_resolution_rounds_a_reservation_end_up_today(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """Today's ``_set_slot_time`` rounds the end up instead: with 3600 s job 2's reservation
    T0+1800 .. T0+2400 becomes T0+600 .. T0+4200, which jobs 3 and 4 (both starting at T0)
    would overlap: neither starts by backfill; job 2 runs T0+30m .. T0+40m, then the main
    scheduler starts both of u2's jobs."""
    cfg, state = cluster
    cfg.write_text(cfg.read_text().replace('output_compat = "22.05"\n', ""))
    at = _bounded((cfg, state), run, tmp_path, "bf_resolution = 3600", BACKFILL)
    assert at[0] == {"u2": 0, "u3": 0, "u5": 8}
    assert at[25] == {"u2": 0, "u3": 0, "u5": 8}
    assert at[30] == {"u2": 0, "u3": 16, "u5": 0}
    assert at[40] == {"u2": 16, "u3": 0, "u5": 0}


@pytest.mark.parametrize("interval", [300, 600])
def test_bf_interval_skips_cycles(
    cluster: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path, interval: int
) -> None:
    """``backfill_agent`` runs a pass once ``bf_interval`` seconds have passed since the
    last. Job 4 arrives at T0+5m and only backfill can start it (job 2 blocks the main
    scheduler): with 300 s (the cycle) the T0+5m pass starts it; with 600 s there is no
    pass then, and the T0+10m one starts it."""
    work = [dict(job, submit_time=T0 + 300) if job["id"] == "4" else job for job in BACKFILL]
    at = _bounded(cluster, run, tmp_path, f"bf_interval = {interval}", work)
    assert at[0] == {"u2": 0, "u3": 0, "u5": 8}
    assert at[5]["u2"] == (8 if interval == 300 else 0)
    assert at[10]["u2"] == 8
