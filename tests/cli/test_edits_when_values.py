"""``fs setbegin``/``fs setlast`` (and condor_userprio's ``-setbegin``/``-setlast``) say
why a WHEN that reads as a number or a date is refused: a time past the years 1 to 9999
(with the seconds, if it was milliseconds) or a day the month has not. fs said only
'expected epoch seconds or an ISO-8601 time' of a number of epoch seconds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


@pytest.mark.parametrize(
    ("args", "error"),
    [
        pytest.param(
            ["setbegin", "alice@example.org", "1795262400000"],
            "WHEN: expected a time between the years 1 and 9999 (epoch seconds -62135596800 "
            "to 253402300799), got '1795262400000'; if it is milliseconds, give seconds: "
            "1795262400",
            id="milliseconds",
        ),
        pytest.param(
            ["userprio", "-setlast", "alice@example.org", "2026-02-30T00:00:00Z"],
            "WHEN: expected a real calendar date, got '2026-02-30T00:00:00Z' (2026-02 has "
            "no day 30)",
            id="no-such-day",
        ),
    ],
)
def test_a_when_out_of_range_says_why(
    tmp_path: Path, run: Callable[..., Any], args: list[str], error: str
) -> None:
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    result = run(*args, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error}\n"
    assert pool["state"].read_bytes() == before
