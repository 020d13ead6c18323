"""A sweep folder named past the file system's 255 characters (``fs sweep SPEC --out
xxx...``, ``fs sweep collect xxx...``, ``fs sweep run-point xxx... 0``): an OSError
reached the last resort, exit 1, the name echoed whole. Now one short line, exit 2, as
``fs init xxx...`` and ``--state xxx...`` say it (io/sweep_dir.SweepDir), nothing written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import CONFIG, WORKLOAD

SPEC = """\
config = "pool.toml"
workload = "work.json"
now = "2026-11-20T00:00:00Z"
until = "0:30:00"
cycle = "600"

[[axis]]
key = "accountant.priority_halflife"
values = [600, 3600]
"""
LONG = "x" * 300
SAID = f"fs: error: {'x' * 80}...: File name too long; give a shorter path\n"


@pytest.mark.parametrize(
    "line",
    [
        ["sweep", "run", "sweep.toml", "--out", LONG],
        ["sweep", "run", "sweep.toml", "--out", f"{LONG}/runs"],
        ["sweep", "run", "sweep.toml", "--out", LONG, "--engine", "slurm"],
        ["sweep", "collect", LONG],
        ["sweep", "run-point", LONG, "0"],
    ],
    ids=["run", "run-below", "run-slurm", "collect", "run-point"],
)
def test_a_sweep_folder_named_too_long_is_one_short_line(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, line: list[str]
) -> None:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    (tmp_path / "sweep.toml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run(*line)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", SAID)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml", "sweep.toml", "work.json"]
