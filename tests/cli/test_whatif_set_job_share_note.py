"""``fs whatif --set dirac.groups.G.job_share=V`` of a value DIRAC does not read as it says
(cli/context.py): ``"abc"`` printed ``no differences`` and nothing else, where DIRAC reads
the default 1000 (as ``fs config check`` warns of the same value in the file)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool


def _jobs(tmp_path: Path) -> str:
    jobs = tmp_path / "j.json"
    jobs.write_text(json.dumps([{"id": "5.0", "owner": "alice", "dirac_group": "lhcb_user"}]))
    return str(jobs)


def test_a_share_dirac_reads_as_the_default_is_warned_of(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs whatif --set 'dirac.groups.lhcb_user.job_share="abc"' taskqueues --jobs-file
    j.json``: the comparison, and on stderr what DIRAC makes of the value; state untouched."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    line = ["whatif", "--set", 'dirac.groups.lhcb_user.job_share="abc"', "taskqueues"]
    result = run(*line, "--jobs-file", _jobs(tmp_path), *common(pool))
    assert (result.exit_code, result.stderr) == (
        0,
        "fs: warning: --set dirac.groups.lhcb_user.job_share = 'abc' is not an integer;"
        " DIRAC reads the default 1000\n",
    )
    assert pool["state"].read_bytes() == before


def test_a_negative_share_is_warned_of(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set dirac.groups.lhcb_user.job_share=-5 taskqueues --jobs-file j.json``:
    the floor DIRAC puts every queue of the group at is said once."""
    pool = write_pool(tmp_path)
    line = ["whatif", "--set", "dirac.groups.lhcb_user.job_share=-5", "taskqueues"]
    result = run(*line, "--jobs-file", _jobs(tmp_path), *common(pool))
    assert (result.exit_code, result.stderr) == (
        0,
        "fs: warning: --set dirac.groups.lhcb_user.job_share = -5: DIRAC floors every task"
        " queue of this group at the minimum priority 0.001\n",
    )


def test_a_positive_share_is_not_warned_of(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set dirac.groups.lhcb_user.job_share=5 taskqueues``: a positive whole
    share, no warning."""
    pool = write_pool(tmp_path)
    line = ["whatif", "--set", "dirac.groups.lhcb_user.job_share=5", "taskqueues"]
    result = run(*line, "--jobs-file", _jobs(tmp_path), *common(pool))
    assert (result.exit_code, result.stderr) == (0, "")
