"""``fs sweep --engine htcondor|slurm`` into a folder whose path has a space, ``#`` or ``%``:
the DAG and the ``#SBATCH`` lines name it as DAGMan and sbatch read them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import CONFIG, SPEC, WORKLOAD


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    path = tmp_path / "sweep.toml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def _dag_file_name(line: str) -> str:
    """The submit file a DAG's JOB or FINAL line names, read as DAGMan's parse.cpp does
    (``next_possibly_quoted_token``: a token, or what stands between double quotes)."""
    rest = line.split(None, 2)[2].lstrip(" \t")
    if rest.startswith('"'):
        return rest[1:].split('"', 1)[0]
    return rest.split()[0]


def _sbatch_argument(text: str) -> str:
    """One ``#SBATCH`` argument read as sbatch's ``_get_argument`` reads it: quotes group,
    a backslash escapes, an unquoted ``#`` ends the line."""
    out, quote, escape = [], "", False
    for ch in text.lstrip():
        if escape:
            out.append(ch)
            escape = False
        elif ch == "\\":
            escape = True
        elif quote:
            if ch == quote:
                quote = ""
            else:
                out.append(ch)
        elif ch in "\"'":
            quote = ch
        elif ch == "#" or ch.isspace():
            break
        else:
            out.append(ch)
    return "".join(out)


def test_a_dag_names_submit_files_in_a_folder_with_a_space(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'my runs' --engine htcondor wrote 'JOB points .../my runs/sweep.sub',
    which DAGMan reads as the file '.../my'."""
    out = (tmp_path / "my runs").resolve()
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert result.exit_code == 0, result.stderr
    lines = (out / "sweep.dag").read_text(encoding="utf-8").splitlines()[1:]
    assert [_dag_file_name(line) for line in lines] == [
        str(out / "sweep.sub"),
        str(out / "collect.sub"),
    ]


def test_a_dag_cannot_name_a_folder_with_a_double_quote(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / 'say "hi"'
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("fs: error: ") and len(result.stderr.splitlines()) == 1
    assert "double quote" in result.stderr
    assert not (out / "sweep.dag").exists() and not (out / "sweep.sub").exists()


def test_sbatch_output_lines_name_a_folder_with_a_space_a_hash_and_a_percent(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'runs #1 at 100%' --engine slurm wrote '#SBATCH
    --output=.../runs #1 at 100%/logs/task-%a.out', which sbatch cuts at the space."""
    out = (tmp_path / "runs #1 at 100%").resolve()
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    for name, log in (("sweep.sbatch", "task-%a.out"), ("collect.sbatch", "collect.out")):
        text = (out / name).read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.startswith("#SBATCH --output="))
        pattern = _sbatch_argument(line.removeprefix("#SBATCH --output="))
        # Slurm's filename pattern: %% is a percent sign, %a the array task
        assert pattern == str(out / "logs").replace("%", "%%") + "/" + log
