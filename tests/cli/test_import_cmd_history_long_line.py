"""``fs import history`` of a file whose first lines are records and whose rest is one line
without end (``head -3 history.csv > x; truncate -s 2G x``, a copy cut by a full disk): the
reader held the line whole, some 4 GB of memory and 35 to 55 s before it refused the NUL
bytes. A line is now refused once 64 MiB of it is read (``core/limits.MAX_LINE``), as a
pipe's is (the spool) and as the other line-oriented readers refuse one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.limits import MAX_LINE
from tests.cli.conftest import common, write_pool

_CSV = (
    "owner,start,end\n"
    "alice,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z\n"
    "bob,2026-11-21T10:00:00Z,2026-11-21T11:30:00Z\n"
)
_JSONL = (
    '{"owner": "alice", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T11:00:00Z"}\n'
    '{"owner": "bob", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T11:30:00Z"}\n'
)


@pytest.mark.parametrize(("name", "head"), [("x.csv", _CSV), ("x.jsonl", _JSONL), ("x", _JSONL)])
def test_a_line_without_end_is_refused_at_64_mib(
    tmp_path: Path, run: Callable[..., Any], name: str, head: str
) -> None:
    """``fs import history x.csv --rebuild`` where the file goes on in NUL bytes past 64 MiB
    (67,108,864 = 2**26, a sparse file): exit 2, the line's number (the first after the
    records: 4 in CSV, after the header; 3 in JSON lines, also when the format is sniffed),
    the state unchanged."""
    assert MAX_LINE == 2**26
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    history = tmp_path / name
    history.write_text(head, encoding="utf-8")
    with history.open("r+b") as fh:
        fh.truncate(len(head) + MAX_LINE + 1)
    result = run("import", "history", str(history), "--rebuild", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    number = head.count("\n") + 1
    assert result.stderr == (
        f"fs: error: {history}:{number}: a line longer than 64 MiB (no newline in 67,108,864 "
        "characters); expected a usage history: CSV with a header line, or JSON lines\n"
    )
    assert pool["state"].read_bytes() == before


def test_a_line_of_64_mib_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A last line of exactly 64 MiB, newline included, is read as a line (here refused for
    what it holds, blanks being no record), not as one too long."""
    pool = write_pool(tmp_path)
    history = tmp_path / "x.jsonl"
    history.write_text(_JSONL + " " * (MAX_LINE - 2) + "x\n", encoding="utf-8")
    result = run("import", "history", str(history), "--rebuild", *common(pool))
    assert result.exit_code == 2
    assert "longer than" not in result.stderr
    assert result.stderr.startswith(f"fs: error: {history}:3: ")
