"""A jobs file or a JSON-lines usage history saved with a byte-order mark (a Windows
editor's), as docs/exit-codes.md says every input file is refused: one line naming the
file's first line, "the file starts with a byte-order mark (U+FEFF); save it as UTF-8
without one", exit 2, the state unchanged. Before, each reader printed the JSON decoder's
own words (``not valid JSON (line 1, column 1: Unexpected UTF-8 BOM (decode using
utf-8-sig))``, ``jobs file x.json is not valid JSON (line 1)``), four wordings for one
fault and none the documented one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

BOM = b"\xef\xbb\xbf"
SAYS = "the file starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"
JOBS = b'[{"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user"}]'
RECORD = b'{"owner": "alice", "start": "2026-11-20T00:00:00Z"}\n'


@pytest.mark.parametrize(
    "line",
    [
        ["taskqueues", "--jobs-file", "{file}"],
        ["sprio", "--jobs-file", "{file}"],
        ["negotiate", "--dry-run", "--jobs-file", "{file}"],
        ["submit", "--file", "{file}"],
        ["simulate", "--workload", "{file}", "--until", "1:00:00"],
    ],
)
def test_a_jobs_file_with_a_byte_order_mark_is_refused_saying_so(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str]
) -> None:
    """``fs taskqueues --jobs-file jobs.json ...`` (and every reader of job objects)."""
    path = tmp_path / "jobs.json"
    path.write_bytes(BOM + JOBS)
    before = env["state"].read_bytes()
    args = [str(path) if word == "{file}" else word for word in line]
    refused(run(*args, *common(env)), f"{path}:1: {SAYS}")
    assert env["state"].read_bytes() == before


def test_a_jobs_file_on_stdin_with_a_byte_order_mark_is_refused_saying_so(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs submit --file - < jobs.json`` and ``fs taskqueues --jobs-file - < jobs.json``."""
    text = (BOM + JOBS).decode("utf-8")
    refused(run("submit", "--file", "-", *common(env), input=text), f"-:1: {SAYS}")
    refused(run("taskqueues", "--jobs-file", "-", *common(env), input=text), f"-:1: {SAYS}")


def test_a_json_lines_history_with_a_byte_order_mark_is_refused_as_a_csv_one(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs import history h.json ...`` says what ``fs import history h.csv`` says."""
    before = env["state"].read_bytes()
    jsonl = tmp_path / "h.json"
    jsonl.write_bytes(BOM + RECORD)
    refused(run("import", "history", str(jsonl), *common(env)), f"{jsonl}:1: {SAYS}")
    csv = tmp_path / "h.csv"
    csv.write_bytes(BOM + b"owner,start\nalice,2026-11-20T00:00:00Z\n")
    refused(run("import", "history", str(csv), *common(env)), f"{csv}:1: {SAYS}")
    assert env["state"].read_bytes() == before
