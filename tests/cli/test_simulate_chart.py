"""The sparkline chart ``fs simulate`` (and ``fs whatif ... simulate``) prints on a terminal
under its table: one column a cycle, so each line must run over the same cycle times."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click.testing
import pytest

NOW = "2026-11-21T12:00:00Z"
BOB = "2026-11-21T12:03:00Z"
POOL = '[pool]\nuid_domain = "d"\ndefaults = "current"\n[[machines]]\nname = "m"\n'


def _chart(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    return lines[lines.index("slots held over time (a full bar is 1):") + 1 :]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """One slot; alice's job of 120 s queued at 12:00, bob's at 12:03; a terminal."""
    monkeypatch.setattr(click.testing._NamedTextIOWrapper, "isatty", lambda self: True)
    config = tmp_path / "pool.toml"
    config.write_text(POOL, encoding="utf-8")
    work = tmp_path / "w.json"
    work.write_text(
        json.dumps(
            [
                {"id": "1.0", "owner": "alice", "run_time": 120},
                {"id": "2.0", "owner": "bob", "run_time": 120, "submit_time": BOB},
            ]
        ),
        encoding="utf-8",
    )
    return [
        *("--workload", str(work), "--until", "300", "--config", str(config)),
        *("--state", str(tmp_path / "s.json"), "--now", NOW),
    ]


def test_a_submitter_first_seen_later_is_drawn_at_its_cycles(
    files: list[str], run: Callable[..., Any]
) -> None:
    """``fs simulate --workload w.json --until 300`` on a terminal: bob, whose job was
    queued at 12:03, was drawn from the first column, as if he ran at 12:00 ('|██ |').

    By hand (60 s cycles, 12:00 ... 12:05): alice holds the slot at 12:00 and 12:01, her
    end seen at 12:02; bob's job starts at 12:03 and holds it at 12:03 and 12:04, its end
    seen at 12:05."""
    result = run("simulate", *files)
    assert result.exit_code == 0, result.stderr
    assert _chart(result.stdout) == ["alice@d |██    | 0", "bob@d   |   ██ | 0"]


def test_runs_that_cycle_apart_are_drawn_over_one_time_axis(
    files: list[str], run: Callable[..., Any]
) -> None:
    """``fs whatif --set negotiator.interval=180 simulate ...`` on a terminal: the after
    run's line had a column per its own cycle (2), beside the before run's 6, as if it had
    ended at 12:01.

    By hand: after, the cycles are 12:00 and 12:03; alice holds the slot from 12:00 until
    12:03, when her end (12:02) is seen, and bob's job starts then: over the before run's
    minutes alice holds it at 12:00, 12:01 and 12:02, bob at 12:03, 12:04 and 12:05."""
    result = run("whatif", "--set", "negotiator.interval=180", "simulate", *files)
    assert result.exit_code == 0, result.stderr
    assert _chart(result.stdout) == [
        "alice@d before |██    | 0",
        "alice@d after  |███   | 0",
        "bob@d before   |   ██ | 0",
        "bob@d after    |   ███| 1",
    ]
