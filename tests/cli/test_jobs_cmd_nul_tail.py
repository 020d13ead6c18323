"""A jobs file whose list is followed by NUL bytes (a copy cut short on a full disk, or
``truncate -s 2G jobs.json``) was read whole by the exact JSON reader: 4.2 GB of memory and
18 to 39 s before ``fs submit --file``, ``fs sprio --jobs-file`` or ``fs negotiate
--jobs-file`` refused it. The reader now stops at the first NUL (JSON takes none), with
the same one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

_JOBS = '[\n  {"id": "1.0", "owner": "alice"}\n]\n'


@pytest.mark.parametrize(
    "command",
    [("submit", "--file"), ("sprio", "--jobs-file"), ("negotiate", "--dry-run", "--jobs-file")],
)
def test_a_nul_tail_is_refused_in_the_words_of_the_whole_text(
    tmp_path: Path, run: Callable[..., Any], command: tuple[str, ...]
) -> None:
    """``fs submit --file jobs.json`` (and the views' ``--jobs-file``) of a list and 64 MiB
    of NUL bytes: exit 2, ``line 4, column 1: Extra data`` as json.loads says of the whole
    file, the state unchanged."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    jobs = tmp_path / "jobs.json"
    jobs.write_text(_JOBS, encoding="utf-8")
    with jobs.open("r+b") as fh:
        fh.truncate(1 << 26)
    result = run(*command, str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: not valid JSON (line 4, column 1: Extra data); expected a list "
        "of job objects\n"
    )
    assert pool["state"].read_bytes() == before
