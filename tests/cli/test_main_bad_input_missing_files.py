"""A file named on the command line that is not there is refused in one wording, click's
for the file options it checks itself (``fs whatif --history``: ``File 'h.csv' does not
exist.``), exit 2. Before, it was worded three ways: click's, ``cannot read nope.json: No
such file or directory`` (``--jobs-file``, ``--workload``, the imports), and ``jobs file
nope.json does not exist`` (``fs submit --file``; ``config file nope.toml does not exist``
for a config)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

LINES = [
    pytest.param(["sprio", "--jobs-file", "{missing}"], id="sprio"),
    pytest.param(["negotiate", "--dry-run", "--jobs-file", "{missing}"], id="negotiate"),
    pytest.param(["quota", "--jobs-file", "{missing}"], id="quota"),
    pytest.param(["taskqueues", "--jobs-file", "{missing}"], id="taskqueues"),
    pytest.param(["simulate", "--workload", "{missing}"], id="simulate"),
    pytest.param(["submit", "--file", "{missing}"], id="submit"),
    pytest.param(["import", "history", "{missing}"], id="import-history"),
    pytest.param(["import", "sacct", "{missing}"], id="import-sacct"),
    pytest.param(["import", "condor-q", "{missing}"], id="import-condor-q"),
    pytest.param(["import", "squeue", "{missing}"], id="import-squeue"),
]


@pytest.mark.parametrize("line", LINES)
def test_a_missing_input_file_is_worded_as_click_words_it(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str]
) -> None:
    """``fs sprio --jobs-file nope.json`` said ``cannot read nope.json: No such file or
    directory``, ``fs submit --file nope.json`` ``jobs file nope.json does not exist``."""
    missing = str(tmp_path / "nope.json")
    before = env["state"].read_bytes()
    args = [missing if word == "{missing}" else word for word in line]
    result = run(*args, *common(env))
    refused(result)
    assert result.stderr == f"fs: error: File '{missing}' does not exist.\n"
    assert env["state"].read_bytes() == before


def test_the_option_click_checks_says_the_same(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs whatif --history nope.csv --set ... userprio``: click's own check, whose
    sentence every reader now says."""
    missing = str(tmp_path / "nope.csv")
    line = ["whatif", "--history", missing, "--set", "accountant.priority_halflife=3600"]
    result = run(*line, "userprio", *common(env))
    refused(result, f"Invalid value for '--history': File '{missing}' does not exist.")


def test_a_missing_config_is_worded_the_same(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs userprio --config nope.toml`` said ``config file nope.toml does not exist``;
    ``fs config check --config nope.toml`` too."""
    missing = str(tmp_path / "nope.toml")
    for line in (["userprio", "--now", "2026-11-21T12:00:00Z"], ["config", "check"]):
        result = run(*line, "--config", missing)
        refused(result)
        assert result.stderr == f"fs: error: File '{missing}' does not exist.\n"
