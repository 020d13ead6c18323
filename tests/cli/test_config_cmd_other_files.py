"""``fs config check --config FILE`` of a file that is no pool config (the sample's state,
jobs, history or sweep spec) says what the file looks like and where it goes, as every view
given it as ``--config`` says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import REPO

SAMPLE = REPO / "sample_configs"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        pytest.param(
            "sample-state.json",
            "is not valid TOML: Invalid statement (at line 1, column 1); it looks like fs's "
            "own state file: give it as --state",
            id="state",
        ),
        pytest.param(
            "jobs.json",
            "is not valid TOML: Invalid initial character for a key part (at line 1, column "
            "2); it looks like a jobs file: give it to fs submit --file, or as --jobs-file or "
            "--workload",
            id="jobs",
        ),
        pytest.param(
            "history.csv",
            "is not valid TOML: Expected '=' after a key in a key/value pair (at line 1, "
            "column 6); it looks like a usage history: fs import history reads it",
            id="history",
        ),
    ],
)
def test_config_check_of_another_file_says_where_it_goes(
    run: Callable[..., Any], name: str, said: str
) -> None:
    """fs config check --config sample_configs/sample-state.json said only 'config file
    ...sample-state.json is not valid TOML: Invalid statement (at line 1, column 1)', where
    fs userprio --config of the same file adds "it looks like fs's own state file: give it
    as --state"; now config check says it too."""
    path = SAMPLE / name
    result = run("config", "check", "--config", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: config file {path} {said}\n"


def test_config_check_of_a_sweep_spec_names_fs_sweep(run: Callable[..., Any]) -> None:
    """fs config check --config sample_configs/sweep.toml: the unknown key, then what reads
    a sweep spec."""
    path = SAMPLE / "sweep.toml"
    result = run("config", "check", "--config", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {path}: unknown key 'config'; known keys: pool, accountant, negotiator, "
        "machines, groups, priority, partitions, qos, accounts, dirac; it looks like a sweep "
        "spec: give it to fs sweep\n"
    )
