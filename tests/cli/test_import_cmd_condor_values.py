"""A number that is not one in ``condor_userprio -l`` text (``nan``, ``inf``, an
expression) is named as the dump writes it: fs showed its own record of the value
(``Priority = Expr(text='nan'); expected a number``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

FLAT = Path(__file__).parents[1] / "fixtures" / "htcondor-25.0" / "flat_users"


@pytest.mark.parametrize("value", ["nan", "inf", "Cpus * 2", 'real("INF")'])
def test_a_priority_that_is_no_number_is_named_as_written(
    env: dict[str, Path], run: Callable[..., Any], value: str
) -> None:
    """``fs import condor-userprio up.txt --dry-run`` with ``Priority = nan`` in the first
    ad (which starts on line 1)."""
    text = (FLAT / "condor_userprio.long.txt").read_text()
    first = next(line for line in text.splitlines() if line.startswith("Priority = "))
    dump = env["dir"] / "up.txt"
    dump.write_text(text.replace(first, f"Priority = {value}", 1))
    result = run("import", "condor-userprio", str(dump), "--dry-run", *common(env))
    refused(result, f"{dump}:1: Priority = {value}; expected a number")
