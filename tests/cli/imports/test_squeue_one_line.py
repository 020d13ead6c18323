"""``fs import squeue`` of ``scontrol -o show jobs`` (one line a job, the fields of each
line of the usual dump after a blank, src/scontrol/info_job.c's one_liner): it reads as
the usual dump does."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_slurm_imports import CAPTURES, FIXTURES, _body, _build, _pass_time


def one_line(dump: str) -> str:
    """``scontrol -o show jobs`` of the jobs ``scontrol show jobs`` printed as ``dump``."""
    records = dump.split("\n", 1)[1].strip("\n").split("\n\n")  # (after the "$ ..." line)
    return "".join(re.sub(r"\n\s*", " ", record).strip() + "\n" for record in records)


@pytest.mark.parametrize("capture", CAPTURES)
def test_the_one_line_dump_imports_as_the_usual_one(
    tmp_path: Path, run: Callable[..., Any], capture: str
) -> None:
    """fs import squeue jobs.txt of scontrol -o show jobs: 'jobs.txt:1: the job record has
    no JobState=' (the fields after the job's name, the end of the usual dump's first
    line, were dropped). Imported after the usual dump of the same jobs, it changes
    nothing, and fs sprio -l still prints the real sprio -l."""
    common, state = _build(tmp_path, run, capture)
    before = state.read_bytes()
    dump = tmp_path / "jobs.txt"
    dump.write_text(one_line((FIXTURES / capture / "scontrol_show_jobs.txt").read_text()))
    extra = ["--last-decay", _pass_time(capture), "--site-factor-from-priority"]
    result = run("import", "squeue", str(dump), *common, *extra)
    assert result.exit_code == 0, result.stderr
    assert state.read_bytes() == before
    result = run("sprio", "-l", *common)
    assert result.stdout == _body(FIXTURES / capture / "sprio_l.txt")


def test_a_job_name_with_blanks_and_equals_signs_is_free_text(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The name runs up to the field that follows it (UserId=), whatever it holds."""
    common, state = _build(tmp_path, run, "ft1_running")
    before = state.read_bytes()
    text = one_line((FIXTURES / "ft1_running" / "scontrol_show_jobs.txt").read_text())
    dump = tmp_path / "jobs.txt"
    dump.write_text(re.sub(r"JobName=\S+", "JobName=my run x=1 UserIdx=2 JobState=X", text))
    extra = ["--last-decay", _pass_time("ft1_running"), "--site-factor-from-priority"]
    result = run("import", "squeue", str(dump), *common, *extra)
    assert result.exit_code == 0, result.stderr
    assert state.read_bytes() == before


def test_a_bad_value_names_its_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    common, _ = _build(tmp_path, run, "ft1_running")
    text = one_line((FIXTURES / "ft1_running" / "scontrol_show_jobs.txt").read_text())
    lines = text.splitlines(keepends=True)
    lines[2] = lines[2].replace("NumCPUs=", "NumCPUs=x")
    dump = tmp_path / "jobs.txt"
    dump.write_text("".join(lines))
    result = run("import", "squeue", str(dump), *common)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {dump}:3: ")
