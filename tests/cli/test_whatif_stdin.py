"""``fs whatif`` reading an input from stdin (``-``): both sides of the comparison read
one copy of it (io/spool.stdin_kept). The after side read an empty stdin, so
``cat jobs.json | fs whatif --set ... sprio --jobs-file -`` said ``-: not valid JSON``;
``--history -`` was refused as a file that does not exist."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
NOW = ["--now", "2026-11-21T12:00:00Z"]


@pytest.fixture
def pool(tmp_path: Path) -> list[str]:
    state = tmp_path / "s.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    return ["--config", str(SAMPLE / "pool.toml"), "--state", str(state), *NOW]


def test_a_piped_jobs_file_is_compared_as_the_file(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """cat jobs.json | fs whatif --set priority.weights.fairshare=1 sprio --jobs-file -:
    the comparison of the file itself (5815 -> 260 for job 101.0, the sample pool's top)."""
    jobs = SAMPLE / "jobs.json"
    line = ["whatif", "--set", "priority.weights.fairshare=1", "sprio"]
    piped = run(*line, "--jobs-file", "-", *pool, input=jobs.read_text(encoding="utf-8"))
    assert piped.exit_code == 0, piped.stderr
    given = run(*line, "--jobs-file", str(jobs), *pool)
    assert piped.stdout == given.stdout
    assert "101.0/batch   │    1 │  5815 -> 260" in piped.stdout


def test_a_piped_history_is_replayed_as_the_file(pool: list[str], run: Callable[..., Any]) -> None:
    """cat history.csv | fs whatif --history - --set accountant.priority_halflife=3600
    userprio: the replay of the file itself."""
    history = SAMPLE / "history.csv"
    line = ["whatif", "--set", "accountant.priority_halflife=3600"]
    text = history.read_text(encoding="utf-8")
    piped = run(*line, "--history", "-", "userprio", *pool, input=text)
    assert piped.exit_code == 0, piped.stderr
    given = run(*line, "--history", str(history), "userprio", *pool)
    assert piped.stdout == given.stdout
    assert "rows changed" in piped.stdout


def test_two_inputs_from_stdin_are_refused(pool: list[str], run: Callable[..., Any]) -> None:
    """cat history.csv | fs whatif --set ... --history - sprio --jobs-file -: one line,
    exit 2, before either is read."""
    result = run(
        "whatif", "--set", "priority.weights.fairshare=1", "--history", "-",
        "sprio", "--jobs-file", "-", *pool, input="",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "fs: error: --history and --jobs-file both read stdin ('-'); give all but one as a "
        "file (see '"
    )
    assert result.stderr.count("\n") == 1


def test_a_piped_history_that_is_not_one_is_refused_by_line(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """cat jobs.json | fs whatif --set accountant.priority_halflife=3600 --history -
    userprio: the history reader's refusal, naming stdin as given."""
    jobs = (SAMPLE / "jobs.json").read_text(encoding="utf-8")
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", "--history", "-", "userprio",
        *pool, input=jobs,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: -: ")
    assert result.stderr.count("\n") == 1
