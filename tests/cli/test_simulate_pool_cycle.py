"""``fs simulate`` and ``fs sweep`` without a cycle run the pool's: ``[negotiator]
interval`` (``NEGOTIATOR_INTERVAL``), or ``cycle_delay`` / ``min_interval`` if longer.

A pool imported with ``NEGOTIATOR_INTERVAL = 300`` was simulated with 60-second cycles:
``fs import condor-config`` counted the knob as ignored and ``--cycle`` defaulted to 60.
``Matchmaker::negotiationTime`` (matchmaker.cpp, 25.0) re-arms its timer at the end of a
cycle for ``max(cycle_delay, NegotiatorInterval - duration)`` and holds a cycle back until
``NEGOTIATOR_MIN_INTERVAL`` after the last one started; fs's cycles take no time, so one
starts every max(interval, cycle_delay, min_interval) seconds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
POOL = """\
[pool]
uid_domain = "d"
[[machines]]
name = "m"
attributes = { Cpus = 1, Memory = 2048 }
"""
WORK = [
    {"id": "1.0", "owner": "alice", "submit_time": "2026-11-21T12:00:00Z", "run_time": 120},
    {"id": "2.0", "owner": "bob", "submit_time": "2026-11-21T12:01:00Z", "run_time": 120},
]


def _files(tmp_path: Path, pool: str = POOL) -> tuple[Path, Path]:
    config = tmp_path / "pool.toml"
    config.write_text(pool, encoding="utf-8")
    work = tmp_path / "w.json"
    work.write_text(json.dumps(WORK), encoding="utf-8")
    return config, work


def _simulate(run: Callable[..., Any], config: Path, work: Path, *more: str) -> list[Any]:
    result = run(
        *("simulate", "--config", str(config), "--state", str(config.parent / "s.json")),
        *("--now", NOW, "--workload", str(work), *more, "--json"),
    )
    assert result.exit_code == 0, result.stderr
    return [r for r in json.loads(result.stdout) if r["kind"] == "submitter"]


def test_an_imported_negotiator_interval_is_the_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-config cc --into pool.toml`` then ``fs simulate --workload w.json
    --until 300``: two cycles, 12:00 and 12:05 (not six a minute apart).

    By hand: alice's job starts at 12:00 on the one slot; it ends at 12:02, but the
    negotiator sees that only at the next cycle, 12:05, so alice is charged 300 s of a slot
    and bob's job (queued at 12:01) starts at 12:05. Alice's real priority from 0.5 with
    PRIORITY_HALFLIFE 86400 (UpdatePriorities: p * b + in_use * (1 - b),
    b = 0.5^(300/86400) = 0.99759613): 0.49879807 + 0.00240387 = 0.50120193; times the
    current profile's DEFAULT_PRIO_FACTOR 1000: 501.20 (with 60 s cycles her end is seen
    at 12:02: 120 s, 500.48)."""
    config, work = _files(tmp_path)
    knobs = tmp_path / "cc"
    knobs.write_text(
        "NEGOTIATOR_INTERVAL = 300\nNEGOTIATOR_MIN_INTERVAL = 1\nNEGOTIATOR_CYCLE_DELAY = 1\n",
        encoding="utf-8",
    )
    merged = run("import", "condor-config", str(knobs), "--into", str(config))
    assert merged.exit_code == 0, merged.stderr
    assert "3 knobs taken" in merged.stderr
    assert "[negotiator]\ninterval = 300\nmin_interval = 1\ncycle_delay = 1\n" in (
        config.read_text(encoding="utf-8")
    )
    rows = _simulate(run, config, work, "--until", "300")
    assert [(r["time"], r["name"], r["slots"]) for r in rows] == [
        ("2026-11-21T12:00:00Z", "alice@d", 1.0),
        ("2026-11-21T12:05:00Z", "alice@d", 0.0),
        ("2026-11-21T12:05:00Z", "bob@d", 1.0),
    ]
    assert rows[1]["effective_priority"] == pytest.approx(501.20193, abs=1e-3)
    every_minute = _simulate(run, config, work, "--until", "300", "--cycle", "60")
    assert len({r["time"] for r in every_minute}) == 6  # --cycle still wins


def test_a_cycle_delay_longer_than_the_interval_spaces_the_cycles(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``NEGOTIATOR_INTERVAL = 10`` (a knob name in the TOML) with the default
    ``NEGOTIATOR_CYCLE_DELAY`` of 20: max(20, 10 - 0) = 20 s between cycles; ``--until 40``
    runs 12:00:00, 12:00:20 and 12:00:40."""
    config, work = _files(tmp_path, POOL + "[negotiator]\nNEGOTIATOR_INTERVAL = 10\n")
    rows = _simulate(run, config, work, "--until", "40")
    assert sorted({r["time"] for r in rows}) == [
        "2026-11-21T12:00:00Z",
        "2026-11-21T12:00:20Z",
        "2026-11-21T12:00:40Z",
    ]


def test_too_many_of_the_pools_cycles_names_them(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``--until 100000000`` with the pool's 600 s would be 166,667 cycles: refused, naming
    the pool's cycle rather than a --cycle nobody gave."""
    config, work = _files(tmp_path, POOL + "[negotiator]\ninterval = 600\n")
    result = run(
        *("simulate", "--config", str(config), "--state", str(tmp_path / "s.json")),
        *("--now", NOW, "--workload", str(work), "--until", "100000000"),
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --until 100000000 / the pool's cycle of 600 s is over 100,000 cycles; "
        "use a longer --cycle\n"
    )


@pytest.mark.parametrize(
    ("pool", "says"),
    [
        pytest.param(
            "[negotiator]\ninterval = 0\n",
            "negotiator.interval: expected a finite duration above 0 seconds, got 0",
            id="interval-0",
        ),
        pytest.param(
            '[negotiator]\ncycle_delay = "INFINITE"\n',
            "negotiator.cycle_delay: expected a finite duration of 0 or more seconds, got inf",
            id="delay-infinite",
        ),
    ],
)
def test_a_cycle_time_that_cannot_be_is_refused(
    tmp_path: Path, run: Callable[..., Any], pool: str, says: str
) -> None:
    config, _ = _files(tmp_path, POOL + pool)
    result = run("config", "check", "--config", str(config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {config}: {says}\n"


def test_import_refuses_a_negotiator_interval_of_0(tmp_path: Path, run: Callable[..., Any]) -> None:
    knobs = tmp_path / "cc"
    knobs.write_text("NEGOTIATOR_INTERVAL = 0\n", encoding="utf-8")
    result = run("import", "condor-config", str(knobs))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {knobs}:1: NEGOTIATOR_INTERVAL: expected a whole number of seconds "
        "above 0, got '0'\n"
    )


def test_a_sweep_without_a_cycle_runs_each_points_interval(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A spec with no ``cycle`` and an axis ``negotiator.interval = [150, 300]`` over
    ``until = 300``: the points run 3 and 2 cycles, the base (the config's 60 s) 6."""
    config, work = _files(tmp_path)
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f'config = "{config.name}"\nworkload = "{work.name}"\nnow = "{NOW}"\nuntil = "300"\n'
        '[[axis]]\nkey = "negotiator.interval"\nvalues = [150, 300]\n',
        encoding="utf-8",
    )
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.stderr
    times = {
        p.name: len(json.loads(p.read_text(encoding="utf-8"))["series"]["time"])
        for p in sorted((out / "points").glob("*.json"))
    }
    assert times == {"000000.json": 3, "000001.json": 2, "000002.json": 6}


def test_whatif_an_interval_runs_the_after_side_at_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs whatif --set negotiator.interval=150 simulate --workload w.json --until 300``:
    before at the default 60 s (6 cycles), after at 150 s (12:00, 12:02:30, 12:05), where
    bob's job starts at 12:02:30, the first cycle after alice's ended at 12:02."""
    config, work = _files(tmp_path)
    result = run(
        *("whatif", "--set", "negotiator.interval=150", "simulate", "--workload", str(work)),
        *("--until", "300", "--json", "--config", str(config)),
        *("--state", str(tmp_path / "s.json"), "--now", NOW),
    )
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    times = {p: sorted({r["time"] for r in rows if r["policy"] == p}) for p in ("before", "after")}
    assert len(times["before"]) == 6
    assert times["after"] == [
        "2026-11-21T12:00:00Z",
        "2026-11-21T12:02:30Z",
        "2026-11-21T12:05:00Z",
    ]
    bob = [(r["time"], r["slots"]) for r in rows if r["policy"] == "after" and r["name"] == "bob@d"]
    assert bob == [("2026-11-21T12:02:30Z", 1.0), ("2026-11-21T12:05:00Z", 0.0)]


@pytest.mark.parametrize("value", ["-1", "0", "-0.5"])
def test_whatif_refuses_an_interval_not_above_0_in_one_wording(
    tmp_path: Path, run: Callable[..., Any], value: str
) -> None:
    """``fs whatif --set negotiator.interval=-1 simulate ...``: a negative interval was told
    "expected a duration of 0 or more seconds", and 0 was then refused as not above 0; both
    now say "above 0". The config and the state are left as they were."""
    config, work = _files(tmp_path)
    state = tmp_path / "s.json"
    state.write_text('{"format": "fairshare-cli state", "schema_version": 1}\n', "utf-8")
    before = (config.read_bytes(), state.read_bytes())
    result = run(
        *("whatif", "--set", f"negotiator.interval={value}", "simulate", "--workload"),
        *(str(work), "--until", "600", "--config", str(config), "--state", str(state)),
        *("--now", NOW),
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --set: negotiator.interval: expected a finite duration above 0 seconds, "
        f"got {value}\n"
    )
    assert (config.read_bytes(), state.read_bytes()) == before
