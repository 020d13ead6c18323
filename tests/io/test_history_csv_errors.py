"""A CSV usage history the csv module refuses names the line it refuses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused, write_pool

HEADER = "owner,start,end,slots\n"
GOOD = "alice,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,1\n"


def test_a_field_over_the_csv_limit_names_its_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import history h.csv`` with a 200,000-character field on line 3 said 'line 2'
    (csv.DictReader counts a line only once it has read it whole); exit 2, the state as it
    was."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HEADER + GOOD + "bob" + "x" * 200_000 + ",1,2,1\n" + GOOD, "utf-8")
    before = env["state"].read_bytes()
    result = run("import", "history", str(history), *common(env))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {history}:3: not valid CSV: field larger than field limit (131072)\n"
    )
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("line", "got"),
    [
        pytest.param("bob,2026-11-21T10:00:00Z\n", 2, id="no-end-nor-slots"),
        pytest.param("bob,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z", 3, id="cut-last-line"),
        pytest.param("bob,2026-11-21T10:0", 2, id="cut-inside-start"),
    ],
)
def test_a_line_of_fewer_values_than_the_header_is_refused(
    tmp_path: Path, run: Callable[..., Any], line: str, got: int
) -> None:
    """``fs import history h.csv`` whose line 3 is ``bob,2026-11-21T10:00:00Z`` under the
    header ``owner,start,end,slots``: the missing ``end`` read as none, work still running,
    and bob was charged from 10:00 to --now. A history cut in its last line (a copy stopped,
    a file that shrank while read) imported so. Refused now, exit 2, the state as it was;
    an empty value (``bob,2026-11-21T10:00:00Z,,1``) is still "no end"."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HEADER + GOOD + line, "utf-8")
    before = env["state"].read_bytes()
    refused(
        run("import", "history", str(history), *common(env)),
        f"{history}:3: fewer values than header columns ({got} of 4); a line cut short?",
    )
    assert env["state"].read_bytes() == before
    history.write_text(HEADER + GOOD + "bob,2026-11-21T10:00:00Z,,1\n", "utf-8")
    result = run("import", "history", str(history), *common(env))
    assert result.exit_code == 0, result.stderr
