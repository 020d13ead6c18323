"""The time examples of the edits' help fall in the sample pool's days: ``fs setlast
ivan@example.org 1763726400`` set ivan's last usage a year before the pool's now, so
``fs userprio`` then printed '365+00:00' under Time Since Last Usage, long before his usage
began (``fs setbegin``'s example, 2026-11-01)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"


def test_the_setlast_example_is_two_hours_before_the_sample_now(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    found = re.search(r"fs (setlast \S+ \S+)", run("setlast", "--help").stdout)
    assert found is not None
    assert run("init", "--example", "sample_configs").exit_code == 0
    where = ["--config", "sample_configs/pool.toml", "--now", NOW]
    result = run(*found.group(1).split(), *where)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "The Last Usage Time of ivan@example.org was set to 1795255200\n"
    table = run("userprio", "--allusers", *where).stdout
    (row,) = [line for line in table.splitlines() if "ivan@example.org" in line]
    assert row.split()[-1] == "0+02:00", row
