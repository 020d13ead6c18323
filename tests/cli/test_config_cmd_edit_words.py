"""``fs config set`` says how a config is changed instead of "No such command".

A new admin, after ``fs init``, tries ``fs config set priority.weights.fairshare=5000`` (as
``git config`` or ``condor_config_val -set`` read). fs has no such command: the config is
the TOML file the admin edits. Before, the line said only ``No such command 'set'. (see
'fs config --help')``, and that help named ``check`` alone. Now the one line (exit 2) says
that the config is a file to edit, where its keys are listed, and which commands show a
change before and after it is made; ``fs config --help`` says so too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.cli.conftest import refused


@pytest.mark.parametrize(
    "line",
    [
        "fs config set priority.weights.fairshare=5000",
        "fs config set accountant.default_prio_factor 10",
        "fs config get priority.weights",
        "fs config edit",
    ],
)
def test_an_edit_word_names_the_way_to_change_the_config(
    line: str, run: Callable[..., Any]
) -> None:
    result = run(*line.split()[1:])
    word = line.split()[2]
    refused(result, f"fs config has no '{word}'", "TOML file you edit", "docs/config.md")
    assert "'fs config check'" in result.stderr
    assert "'fs whatif --set KEY=VALUE VIEW'" in result.stderr
    assert result.stdout == ""


def test_the_help_says_it_too(run: Callable[..., Any]) -> None:
    result = run("config", "--help")
    assert result.exit_code == 0
    assert "The config is a TOML file you edit" in result.stdout
    assert "fs whatif --set KEY=VALUE VIEW" in result.stdout


def test_another_unknown_word_is_refused_as_before(run: Callable[..., Any]) -> None:
    refused(run("config", "frobnicate"), "No such command 'frobnicate'.")


def test_check_runs_as_before(run: Callable[..., Any], tmp_path: Any) -> None:
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('# profile "current"\n')
