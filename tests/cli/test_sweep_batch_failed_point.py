"""``fs sweep SPEC --engine slurm`` beyond 1,000 points: an array task that runs several
points runs each of them whatever the others did, and fails when one of them failed."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_sweep import CONFIG, SPEC, WORKLOAD


def test_a_failed_point_does_not_skip_the_later_points_of_its_task(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """1,101 points (1,100 and the base): task 100 runs points 100 and 1100. The script
    ran them under ``set -eu``, so point 100 failing ended the task and point 1100 never
    ran (collect counted it as having no result). Now 1100 runs too and the task exits
    with point 100's status (2); task 101, whose one point succeeds, exits 0. Each point
    runs through a stand-in for ``fs sweep run-point`` that fails point 100 alone."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    values = ", ".join(str(600 + i) for i in range(1100))
    big = tmp_path / "big.toml"
    big.write_text(
        SPEC.split("[[axis]]")[0] + f'[[axis]]\nkey = "accountant.priority_halflife"\n'
        f"values = [{values}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "big"
    assert run("sweep", str(big), "--out", str(out), "--engine", "slurm").exit_code == 0
    script = (out / "sweep.sbatch").read_text(encoding="utf-8")
    ran = tmp_path / "ran.txt"
    point = tmp_path / "run-point"
    point.write_text(
        f'#!/bin/bash\necho "$2" >> {ran}\nif [ "$2" = 100 ]; then exit 2; fi\n', encoding="utf-8"
    )
    point.chmod(0o755)
    stand_in = out / "stand-in.sbatch"
    stand_in.write_text(
        re.sub(r"^  .* sweep run-point ", f"  {point} ", script, flags=re.MULTILINE),
        encoding="utf-8",
    )
    for task, status, points in (("100", 2, "100\n1100\n"), ("101", 0, "101\n")):
        ran.write_text("", encoding="utf-8")
        env = {**os.environ, "SLURM_ARRAY_TASK_ID": task}
        done = subprocess.run(["bash", str(stand_in)], env=env, capture_output=True, text=True)
        assert done.returncode == status, done.stderr
        assert ran.read_text(encoding="utf-8") == points
