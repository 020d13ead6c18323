"""An option naming the config, the state, the time or a file given twice with two values
is refused, one line naming both, exit 2: click kept the last and dropped the first without
a word (``fs sprio --jobs-file a.json --jobs-file b.json`` read b.json alone; ``--state a
--state b`` changed b). The same value twice, or a value after ``--``, is no repeat."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, common, refused


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["userprio", "--state", "{state}", "--now", "2026-11-22T12:00:00Z"],
                     f"--now is given twice ('2026-11-22T12:00:00Z' and '{NOW}')", id="now"),
        pytest.param(["setfactor", "alice", "2", "--state", "{state}", "--state", "{other}"],
                     "--state is given twice ('{state}' and '{other}')", id="state-of-an-edit"),
        pytest.param(["sprio", "--state", "{state}", "--jobs-file", "{jobs}",
                      "--jobs-file={other}"],
                     "--jobs-file is given twice ('{jobs}' and '{other}')", id="jobs-file"),
        pytest.param(["whatif", "--set", "accountant.priority_halflife=60", "sprio",
                      "--state", "{state}", "--jobs-file", "{jobs}", "--jobs-file", "{other}"],
                     "--jobs-file is given twice ('{jobs}' and '{other}')", id="whatif-view"),
    ],
)  # fmt: skip
def test_an_option_given_twice_with_two_values_is_refused(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs userprio ... --now A --now B``, ``fs setfactor alice 2 --state A --state B``,
    ``fs sprio --jobs-file A --jobs-file=B`` and through ``fs whatif``: nothing written."""
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(json.dumps([{"id": "7", "owner": "alice", "account": "hep"}]))
    other = env["dir"] / "other.json"
    words = {"jobs": str(jobs), "other": str(other), "state": str(env["state"])}
    before = env["state"].read_bytes()
    line = [w.format(**words) for w in line]
    result = run(*line, "--config", str(env["config"]), "--now", NOW)
    refused(result, said.format(**words) + "; give it once")
    assert env["state"].read_bytes() == before
    assert not other.exists()


def test_the_same_value_twice_is_no_repeat(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs userprio ... --now A --now=A``: one time, given twice alike."""
    result = run("userprio", *common(env), f"--now={NOW}")
    assert result.exit_code == 0, result.stderr
