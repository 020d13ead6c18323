"""``fs sweep`` with a spec that names no state: every point starts from the state the
sweep found, whoever runs it (a batch job, a dask worker: another user, home or
environment, so another user state)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import SPEC, assert_point_as_local, write_spec


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path)


def _another_user_state(tmp_path: Path, spec: Path, run: Callable[..., Any]) -> dict[str, str]:
    """An environment whose user state was last updated after the spec's ``now``: a point
    that read it would be refused (a view cannot go back)."""
    env = {"XDG_STATE_HOME": str(tmp_path / "node-home")}
    made = run("setfactor", "alice@example.org", "2", "--create", "--config",
               str(spec.with_name("pool.toml")), "--now", "2026-12-01T00:00:00Z", env=env)  # fmt: skip
    assert made.exit_code == 0, made.stderr
    return env


@pytest.mark.parametrize("engine", ["slurm", "htcondor"])
def test_a_point_run_elsewhere_reads_the_state_the_sweep_found(
    engine: str, spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out DIR --engine slurm wrote a manifest with no state, so each
    'fs sweep run-point DIR N' found the user state of the job's own environment: on a
    node where that state differs, the point ran from it (here it was refused, the
    node's state being newer than the spec's now). The manifest names the state the
    sweep found (here the submitter's user state, in a folder that does not exist: an
    empty state), and the point equals the local run's."""
    local = run("sweep", str(spec), "--out", str(tmp_path / "local"), "--jobs", "1", "--json")
    assert local.exit_code == 0, local.stderr
    out = tmp_path / "batch"
    assert run("sweep", str(spec), "--out", str(out), "--engine", engine).exit_code == 0
    manifest = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    found = tmp_path / "xdg_state_home" / "fairshare" / "state.json"  # (conftest's home)
    assert manifest["spec"]["state"] == str(found) and not found.parent.exists()
    node = _another_user_state(tmp_path, spec, run)
    ran = run("sweep", "run-point", str(out), "2", env=node)
    assert ran.exit_code == 0, ran.stderr
    assert_point_as_local(out, json.loads(local.stdout), 2)


def test_a_state_named_by_the_spec_in_a_missing_folder_is_still_refused(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Only the state the sweep found itself may be in a missing folder (the user state):
    one the spec names there is a typo, refused before the folder is made."""
    spec.write_text(f'state = "nowhere/state.json"\n{SPEC}', encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--engine", "slurm")
    assert result.exit_code == 2
    assert "state folder" in result.stderr and "does not exist" in result.stderr
    assert not (tmp_path / "runs").exists()
