"""An option of ``fs userprio``'s condor_userprio spellings given without its operands:
one line naming the option (the one a prefix stands for) and its operands as
condor_userprio's usage names them, exit 2."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        pytest.param(
            ["-activefrom", "11/21/2026"],
            "-activefrom needs 3 arguments: -activefrom <month> <day> <year>",
            id="activefrom-one-date",
        ),
        pytest.param(
            ["-setf", "alice@example.org"],
            "'-setf' is -setfactor, which needs 2 arguments: -setfactor <user> <val>",
            id="prefix",
        ),
        pytest.param(["-getreslist"], "-getreslist needs 1 argument: -getreslist <user>", id="one"),
    ],
)
def test_missing_operands_name_them(run: Callable[..., Any], args: list[str], line: str) -> None:
    """fs userprio -activefrom 11/21/2026 said "'-activefrom' (-activefrom) needs 3
    argument(s)": the option twice and not what the three are."""
    result = run("userprio", *args, *SAMPLE)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"fs: error: {line}\n"
