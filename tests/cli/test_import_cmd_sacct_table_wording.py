"""``fs import sacct`` of a file that is neither of sacct's layouts (io/sacct.py): the
refusal said only ``expected 'sacct -P' output``, where sacct's fixed-width table (a header
over a line of dashes) is read too; it now names both."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool


def test_the_refusal_names_both_layouts(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sacct notes.txt`` of two lines of words: exit 2, one line naming the
    ``-P`` header and the table; the state untouched."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    dump = tmp_path / "notes.txt"
    dump.write_text("some notes\nabout jobs\n")
    result = run("import", "sacct", str(dump), *common(pool))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"fs: error: {dump}: sacct output: expected 'sacct -P' output (a '|'-separated"
        " header) or sacct's table (a header over a line of dashes)\n",
    )
    assert pool["state"].read_bytes() == before
