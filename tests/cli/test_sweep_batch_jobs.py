"""``fs sweep --engine htcondor``'s jobs run as HTCondor's starter runs them: the submit
file's executable and arguments, expanded for one item, in its initialdir, with the
environment it names and nothing of the submitter's."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import assert_point_as_local, write_spec
from tests.cli.test_sweep_batch_paths import _condor_arguments

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path)


def test_a_condor_job_runs_its_point_as_the_local_run_does(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out DIR --engine htcondor, with fs found through PYTHONPATH (an
    environment module, say): HTCondor starts a job with none of the submitter's
    environment, so 'python -m fairshare_cli' found no fs (or another one installed for
    that Python). The submit files set PYTHONPATH as fs had it now, each folder made
    absolute; the job, run here with that environment alone (and the HOME the starter
    sets, another one), writes the local run's point."""
    htcondor2 = pytest.importorskip("htcondor2")
    local = run("sweep", str(spec), "--out", str(tmp_path / "local"), "--jobs", "1", "--json")
    assert local.exit_code == 0, local.stderr
    out = tmp_path / "runs"
    written = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor",
                  env={"PYTHONPATH": str(REPO)})  # fmt: skip
    assert written.exit_code == 0, written.stderr
    for name in ("sweep.sub", "collect.sub"):
        described = htcondor2.Submit((out / name).read_text(encoding="utf-8"))
        assert _condor_arguments(described.expand("environment")) == [f"PYTHONPATH={REPO}"]
    job = htcondor2.Submit((out / "sweep.sub").read_text(encoding="utf-8"))
    job["point"] = "2"
    environment = dict(w.split("=", 1) for w in _condor_arguments(job.expand("environment")))
    done = subprocess.run(
        [job.expand("executable"), *_condor_arguments(job.expand("arguments"))],
        cwd=job.expand("initialdir"),
        env={**environment, "HOME": str(tmp_path / "job-home")},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_point_as_local(out, json.loads(local.stdout), 2)


def test_a_relative_pythonpath_is_made_absolute_and_none_writes_no_environment(
    spec: Path, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The jobs run in DIR, not where fs ran: PYTHONPATH=lib:... names the folder lib of
    fs's working folder. Without PYTHONPATH the submit files have no environment line."""
    htcondor2 = pytest.importorskip("htcondor2")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "runs"
    written = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor",
                  env={"PYTHONPATH": "lib::/opt/fs $5"})  # fmt: skip
    assert written.exit_code == 0, written.stderr
    job = htcondor2.Submit((out / "sweep.sub").read_text(encoding="utf-8"))
    assert _condor_arguments(job.expand("environment")) == [
        f"PYTHONPATH={tmp_path / 'lib'}:/opt/fs $5"
    ]
    plain = tmp_path / "plain"
    monkeypatch.delenv("PYTHONPATH", raising=False)
    assert run("sweep", str(spec), "--out", str(plain), "--engine", "htcondor").exit_code == 0
    for name in ("sweep.sub", "collect.sub"):
        assert "environment" not in (plain / name).read_text(encoding="utf-8")
