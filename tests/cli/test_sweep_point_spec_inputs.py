"""A sweep spec whose ``state`` or ``history`` cannot be read (here a workload's JSON
array named as either) passed the spec's checks, wrote ``sweep.json``, and failed at
point 0: the rerun of the mended spec was then refused, its folder said to hold "another
sweep". Now they are read with the rest of the spec: one line naming the file, exit 2,
no folder, and the mended spec runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import SPEC, spec  # noqa: F401  (the fixture)


@pytest.mark.parametrize(
    ("key", "says"),
    [
        pytest.param(
            "state",
            'state file {path} is not a fairshare-cli state file (no "format": '
            '"fairshare-cli state"); refusing to use or overwrite it; it looks like a jobs '
            "file: give it to fs submit --file, or as --jobs-file or --workload",
            id="state",
        ),
        pytest.param(
            "history",
            "{path}: expected a usage history in JSON lines (one record per line), "
            "not a JSON array; it looks like a jobs file: give it to fs submit --file, or as "
            "--jobs-file or --workload",
            id="history",
        ),
    ],
)
def test_an_unreadable_state_or_history_is_refused_before_the_folder(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
    key: str,
    says: str,
) -> None:
    """``fs sweep run SPEC --out DIR --engine slurm`` with ``KEY = "work.json"``."""
    spec.write_text(
        SPEC.replace("[[axis]]", f'{key} = "work.json"\n\n[[axis]]', 1), encoding="utf-8"
    )
    out = tmp_path / "runs"
    result = run("sweep", "run", str(spec), "--out", str(out), "--engine", "slurm")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {says.format(path=tmp_path / 'work.json')}\n"
    assert not out.exists()
    spec.write_text(SPEC, encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(out), "--engine", "slurm")
    assert result.exit_code == 0, result.stderr
