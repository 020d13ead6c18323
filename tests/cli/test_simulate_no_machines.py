"""``fs simulate`` on a config of no ``[[machines]]`` (a DIRAC-only pool: ``fs import
dirac-cfg --into``) says why its table holds nothing but zeros; so does one whose machines
all have count 0. One cycle is said as one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"


def test_a_pool_of_no_machines_is_noted(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs simulate --workload dirac-jobs.json --until 1:00:00, after fs import dirac-cfg
    dirac.cfg --into fairshare.toml: 61 cycles of 0 slots for every submitter and the pool,
    and not a word why."""
    config = tmp_path / "fairshare.toml"
    cfg = REPO / "tests" / "fixtures" / "dirac-cfg" / "dirac.cfg"
    assert run("import", "dirac-cfg", str(cfg), "--into", str(config)).exit_code == 0
    jobs = REPO / "sample_configs" / "dirac-jobs.json"
    line = ["simulate", "--workload", str(jobs), "--until", "1:00:00", "--config", str(config)]
    result = run(*line, "--state", str(tmp_path / "s.json"), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"fs: note: {config} has no [[machines]], so no job starts in this simulation "
        "('fs import condor-status' or 'fs import slurm-conf' adds them)\n"
    )
    pool = next(x for x in result.stdout.splitlines() if x.startswith("pool "))
    assert pool.split()[2:5] == ["0.00", "0", "0"]


def test_the_sample_pool_is_not_noted(run: Callable[..., Any]) -> None:
    """The sample pool has machines: no note."""
    pool = REPO / "sample_configs"
    result = run("simulate", "--workload", str(pool / "workload.json"), "--until", "600",
                 "--config", str(pool / "pool.toml"), "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "[[machines]]" not in result.stderr


def test_machines_of_count_0_are_noted(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``[[machines]] count = 0``: no slot, as with no [[machines]], and it was not said."""
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n[[machines]]\nname = "e"\ncount = 0\n'
                      "slots = 1\n", encoding="utf-8")  # fmt: skip
    state = tmp_path / "s.json"
    job = '{"id": "1", "owner": "alice", "submit_time": 1795258800.0}'
    state.write_text(
        '{"format": "fairshare-cli state", "schema_version": 1, "jobs": [' + job + "]}",
        encoding="utf-8",
    )
    before = state.read_bytes()
    result = run("simulate", "--until", "600", "--config", str(config), "--state", str(state),
                 "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"fs: note: {config} has no machine (each count is 0), so no job starts in this "
        "simulation ('fs import condor-status' or 'fs import slurm-conf' adds them)\n"
    )
    assert state.read_bytes() == before


def test_one_cycle_is_one_cycle_at_its_time(run: Callable[..., Any]) -> None:
    """``--until 1 --cycle 1800`` runs one cycle, at --now: the line over the table said
    "1 cycles from 2026-11-21T12:00:00Z to 2026-11-21T12:00:00Z"."""
    pool = REPO / "sample_configs"
    result = run("simulate", "--workload", str(pool / "workload.json"), "--until", "1",
                 "--cycle", "1800", "--config", str(pool / "pool.toml"), "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "1 cycle at 2026-11-21T12:00:00Z; means are over the cycles (--series prints every cycle)"
    )
