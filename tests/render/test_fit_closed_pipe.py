"""A table laid out by Rich (one that must fold or stack to fit ``$COLUMNS``) meeting a
closed pipe ends its view with 0 and nothing on stderr, as a plain table does.

``COLUMNS=40 fs negotiate --dry-run --jobs-file sample_configs/jobs.json ... | head -1``
ended with 1 in some runs (2 of 15 on the sample pool) and 0 in the others: Rich's own
handling of a broken pipe ends the program with ``SystemExit(1)``, and it ran whenever the
reader had left before Rich wrote its buffer. docs/exit-codes.md promises 0 for every
view, every time; the tests of that ran without ``$COLUMNS``, where the tables are written
plain, not by Rich.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"
BASE = ["--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


@pytest.mark.parametrize(
    "view",
    [
        pytest.param(
            ["negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json")], id="negotiate"
        ),
        pytest.param(["quota", "--jobs-file", str(SAMPLE / "jobs.json")], id="quota"),
    ],
)
def test_a_folded_table_meeting_a_closed_pipe_ends_its_view_with_0(
    view: list[str], run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``COLUMNS=40 fs VIEW ... | head -1`` with the reader gone before Rich writes (forced
    here: every write of Rich's buffer meets the closed pipe)."""

    def closed(*_args: Any, **_kwargs: Any) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("rich.console.Console._write_buffer", closed)
    result = run(*view, *BASE, env={"COLUMNS": "40"})
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_committed_cycle_whose_table_meets_a_closed_pipe_ends_with_0(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``COLUMNS=40 fs negotiate ... | head -1``: the cycle is written before its table is
    printed, so the closed pipe ends it with 0 (it ended with 1 in some runs, 3 of 8: a
    script retrying on 1 would commit a second cycle)."""
    import shutil

    state = tmp_path / "state.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    pool = [*BASE, "--state", str(state)]
    assert run("submit", "--file", str(SAMPLE / "jobs.json"), *pool).exit_code == 0
    before = state.read_bytes()

    def closed(*_args: Any, **_kwargs: Any) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("rich.console.Console._write_buffer", closed)
    result = run("negotiate", *pool, env={"COLUMNS": "40"})
    assert (result.exit_code, result.stderr) == (0, "")
    assert state.read_bytes() != before  # (the cycle was committed)
