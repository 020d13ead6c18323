"""``fs sweep --engine htcondor|slurm --memory MB``: the memory each point's job asks for
(HTCondor's ``request_memory``, sbatch's ``--mem``: both count MB where no unit is given);
without it, 1 GB for HTCondor and the partition's default for Slurm, as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import write_spec


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path)


def _sbatch_options(script: str) -> list[str]:
    """The ``#SBATCH`` options sbatch reads: those before the first line that is neither
    blank nor a comment."""
    found = []
    for line in script.splitlines()[1:]:
        if line.startswith("#SBATCH "):
            found.append(line.removeprefix("#SBATCH "))
        elif line.strip() and not line.startswith("#"):
            break
    return found


def test_a_condor_point_asks_for_the_memory_given(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out DIR --engine htcondor --memory 4096 asked for 1GB whatever a
    point needed (a large pool's simulation does not fit): each point's job now asks for
    4096 MB; the collect job keeps 1GB; without --memory the points keep 1GB."""
    htcondor2 = pytest.importorskip("htcondor2")
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor",
                 "--memory", "4096")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    point = htcondor2.Submit((out / "sweep.sub").read_text(encoding="utf-8"))
    assert point["request_memory"] == "4096"
    collect = htcondor2.Submit((out / "collect.sub").read_text(encoding="utf-8"))
    assert collect["request_memory"] == "1GB"
    plain = tmp_path / "plain"
    assert run("sweep", str(spec), "--out", str(plain), "--engine", "htcondor").exit_code == 0
    text = (plain / "sweep.sub").read_text(encoding="utf-8")
    assert htcondor2.Submit(text)["request_memory"] == "1GB"


def test_a_slurm_task_asks_for_the_memory_given(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out DIR --engine slurm --memory 4096 writes '#SBATCH --mem=4096'
    among the options sbatch reads (before the script's first command); without --memory
    the array names no memory (the partition's DefMemPerCPU or DefMemPerNode)."""
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--engine", "slurm", "--memory", "4096")
    assert result.exit_code == 0, result.stderr
    options = _sbatch_options((out / "sweep.sbatch").read_text(encoding="utf-8"))
    assert "--mem=4096" in options
    assert "--cpus-per-task=1" in options
    assert not any(o.startswith("--mem") for o in _sbatch_options(
        (out / "collect.sbatch").read_text(encoding="utf-8")))  # fmt: skip
    plain = tmp_path / "plain"
    assert run("sweep", str(spec), "--out", str(plain), "--engine", "slurm").exit_code == 0
    options = _sbatch_options((plain / "sweep.sbatch").read_text(encoding="utf-8"))
    assert not any(o.startswith("--mem") for o in options)
    assert "--array=0-4" in options  # (the spec's five points)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--memory", "4096"], "--memory goes with --engine htcondor or slurm"),
        (["--engine", "slurm", "--memory", "0"], "Invalid value for '--memory'"),
        (["--engine", "htcondor", "--memory", "2GB"], "Invalid value for '--memory'"),
    ],
)
def test_memory_without_a_batch_engine_or_not_a_count_of_mb_is_refused(
    args: list[str], why: str, spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out DIR --memory 4096 (the local engine: no job to ask), --memory 0
    and --memory 2GB (MB, a whole number) exit 2 with one line, and write no folder."""
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), *args)
    assert result.exit_code == 2
    assert why in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
