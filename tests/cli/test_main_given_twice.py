"""An option naming a file a command reads or writes (but the config and the state) given
twice with two values is refused, one line naming both, exit 2: click kept the last and
dropped the first without a word (``fs sprio --jobs-file a.json --jobs-file b.json`` read
b.json alone). The same value twice is no repeat; ``--config``, ``--state`` and ``--now``
keep their last value."""

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
        pytest.param(["sprio", "--state", "{state}", "--jobs-file", "{jobs}",
                      "--jobs-file={other}"],
                     "--jobs-file is given twice ('{jobs}' and '{other}')", id="jobs-file"),
        pytest.param(["whatif", "--set", "accountant.priority_halflife=60", "sprio",
                      "--state", "{state}", "--jobs-file", "{jobs}", "--jobs-file", "{other}"],
                     "--jobs-file is given twice ('{jobs}' and '{other}')", id="whatif-view"),
        pytest.param(["simulate", "--state", "{state}", "--workload", "{jobs}", "--workload",
                      "{other}", "--until", "3600"],
                     "--workload is given twice ('{jobs}' and '{other}')", id="workload"),
        pytest.param(["submit", "--state", "{state}", "--file", "{jobs}", "--file", "{other}"],
                     "--file is given twice ('{jobs}' and '{other}')", id="submit-file"),
    ],
)  # fmt: skip
def test_an_option_given_twice_with_two_values_is_refused(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs sprio --jobs-file A --jobs-file=B`` (also through ``fs whatif``), ``fs simulate
    --workload A --workload B``, ``fs submit --file A --file B``: nothing read or written."""
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


def test_the_config_the_state_and_the_time_keep_the_last(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs userprio --config C --state S --now A ... --now B``: a script's common options,
    one overridden, as the real tools' getopt reads them (the last value counts)."""
    result = run("userprio", *common(env), "--now", "2026-11-22T12:00:00Z", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) is not None


def test_the_same_value_twice_is_no_repeat(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs sprio ... --jobs-file A --jobs-file=A``: one file, given twice alike."""
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(json.dumps([{"id": "7", "owner": "alice", "account": "hep"}]))
    result = run("sprio", *common(env), "--jobs-file", str(jobs), f"--jobs-file={jobs}")
    assert result.exit_code == 0, result.stderr
