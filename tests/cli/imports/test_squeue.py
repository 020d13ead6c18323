"""``fs import squeue`` takes only squeue --json or scontrol show jobs output
(io/importers/squeue.py): an empty file once dropped every running Slurm job."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.cli.test_slurm_imports import _build, _pass_time


def _running(state: Path) -> int:
    return len(json.loads(state.read_text())["slurm"]["running"])


def test_an_empty_file_keeps_the_running_jobs(tmp_path: Path, run: Callable[..., Any]) -> None:
    common, state = _build(tmp_path, run, "ft1_running")
    assert _running(state) == 3
    before = state.read_bytes()
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("import", "squeue", str(empty), *common)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {empty}: no job records; expected squeue --json or scontrol show jobs output\n"
    )
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    "text", [pytest.param("No jobs in the system\n", id="scontrol"), pytest.param('{"jobs": []}')]
)
def test_a_dump_of_an_empty_queue_ends_the_running_jobs(
    tmp_path: Path, run: Callable[..., Any], text: str
) -> None:
    """What scontrol and squeue print for an empty queue is a queue of no job: the jobs
    that ran have ended."""
    common, state = _build(tmp_path, run, "ft1_running")
    dump = tmp_path / "queue.txt"
    dump.write_text(text)
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(f"{dump}: 0 jobs (0 pending, 0 running)")
    assert _running(state) == 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("\n\n", "no job records", id="blank"),
        pytest.param("$ squeue --json\n", "no job records", id="prompt-only"),
        pytest.param("[]\n", 'expected squeue --json output (an object with "jobs")', id="list"),
        pytest.param(GARBAGE, ':1: expected "JobId=..."', id="garbage"),
        pytest.param(OTHER_DUMPS["condor_q -json"], "jobs[0]: expected job_id", id="condor_q"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ':1: expected "JobId=..."', id="slurm.conf"),
        pytest.param(OTHER_DUMPS["sshare"], ':2: expected "JobId=..."', id="sshare"),
    ],
)
def test_what_is_not_a_job_dump_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("squeue", content, expected)
