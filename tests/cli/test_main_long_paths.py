"""A config or input file named longer than the file system takes (a name of 300
characters, past its 255): the line echoed the whole name (5,000 characters for a name of
5,000); now it is shortened to its first 80 and says to give a shorter path, as for a
state path (``test_main_bad_input``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, common, refused

LONG = "x" * 300
SHORT = "x" * 80 + "..."


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["config", "check", "--config", LONG],
                     f"config file {SHORT} cannot be read", id="config-check"),
        pytest.param(["userprio", "--config", LONG, "--now", NOW],
                     f"config file {SHORT} cannot be read", id="userprio-config"),
        pytest.param(["sprio", "--jobs-file", LONG], f"cannot read {SHORT}", id="sprio-jobs-file"),
        pytest.param(["simulate", "--workload", LONG, "--until", "3600"],
                     f"cannot read {SHORT}", id="simulate-workload"),
        pytest.param(["import", "history", LONG, "--dry-run"], f"cannot read {SHORT}",
                     id="import-history"),
        pytest.param(["submit", "--file", LONG], f"cannot read {SHORT}",
                     id="submit-file"),
    ],
)  # fmt: skip
def test_a_name_too_long_is_shortened_in_its_line(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs config check --config xxx...``, ``fs sprio --jobs-file xxx...`` and the like."""
    has_config = "--config" in line
    args = line if has_config else [*line, *common(env)]
    before = env["state"].read_bytes()
    result = run(*args)
    refused(result, f"{said}: File name too long; give a shorter path")
    assert LONG not in result.stderr
    assert env["state"].read_bytes() == before
