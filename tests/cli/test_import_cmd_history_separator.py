"""``fs import history`` of a CSV a spreadsheet exported with ';' (or tabs) between the
fields (core/usage.py): the whole header was one unknown field, named with no hint."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


@pytest.mark.parametrize(("sep", "shown"), [(";", ";"), ("\t", "\\t")])
def test_a_header_split_by_another_separator_is_told_so(
    tmp_path: Path, run: Callable[..., Any], sep: str, shown: str
) -> None:
    """``fs import history semi.csv`` of 'owner;start;end': exit 2, the message says the
    header is split by ';' where a usage history's CSV is split by commas; the state
    unchanged."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    history = tmp_path / "semi.csv"
    lines = ["owner", "start", "end"], ["alice", "2026-11-21T10:00:00Z", "2026-11-21T11:00:00Z"]
    history.write_text("".join(sep.join(line) + "\n" for line in lines), encoding="utf-8")
    result = run("import", "history", str(history), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    header = sep.join(lines[0]).replace("\t", "\\t")
    assert result.stderr == (
        f"fs: error: {history}:1: unknown usage history field '{header}' (the header is split"
        f" by '{shown}': a usage history's CSV is split by commas)\n"
    )
    assert pool["state"].read_bytes() == before
