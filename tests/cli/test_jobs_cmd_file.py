"""``fs submit --file`` reads its jobs file through the one jobs-file reader
(io/jobs.py: load_job_objects), so it words a bad file as ``--jobs-file`` and
``--workload`` do. Before, it had a reader of its own with its own words: ``jobs file x is
not valid JSON (line 1)``, ``jobs file x: expected a job object or a list of them``,
``jobs file . cannot be read: Is a directory``. What submit adds stays its own: a job
without an id gets the next free cluster number, and ``-`` reads stdin."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

#: The jobs of a good file: one without an id, one with its own.
JOBS = [{"owner": "alice", "account": "hep"}, {"id": "9.0", "owner": "bob", "account": "hep"}]


def _queued_ids(state: Path) -> list[str]:
    return [job["id"] for job in json.loads(state.read_text(encoding="utf-8"))["jobs"]]


def test_a_valid_file_is_submitted_and_a_job_without_an_id_numbered(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs submit --file jobs.json -v``: the state queues job 1 (tests/cli/conftest.py),
    so the highest cluster is 1 and the job without an id is cluster 1 + 1 = 2; the other
    keeps its id 9.0. Two clusters, listed first ... last: (2 ... 9)."""
    path = env["dir"] / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    result = run("submit", "--file", str(path), "-v", *common(env))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Submitted 2 jobs as 2 clusters (2 ... 9): 2, 9.0\n"
    assert _queued_ids(env["state"]) == ["1", "2", "9.0"]


def test_stdin_is_read_as_a_file_is(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs submit --file - < jobs.json``: the same jobs, the same numbering (2 and 9.0)."""
    result = run("submit", "--file", "-", "-v", *common(env), input=json.dumps(JOBS))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Submitted 2 jobs as 2 clusters (2 ... 9): 2, 9.0\n"
    assert _queued_ids(env["state"]) == ["1", "2", "9.0"]


#: (the file's text, or None for a folder; what every reader says after ``fs: error: ``)
BAD = [
    pytest.param(
        "not json",
        "{f}: not valid JSON (line 1, column 1: Expecting value); expected a list of job objects",
        id="invalid-json",
    ),
    pytest.param(
        '"alice"', "{f}: expected a JSON list of job objects, got a string", id="not-a-list"
    ),
    pytest.param(
        '{"owner": "alice"}',
        "{f}: expected a JSON list of job objects, got an object",
        id="one-object-not-a-list",
    ),
    pytest.param(
        '[{"owner": "alice"}, 3]',
        "{f}: job object 2 (counting from 1): expected a job object, got a number",
        id="not-an-object",
    ),
    pytest.param(
        '[{"owner": "alice"}, null]',
        "{f}: job object 2 (counting from 1): expected a job object, got null",
        id="null-object",
    ),
    pytest.param(None, "File '{f}' is a directory.", id="folder"),
    # (an empty file, or blank space alone, said "not valid JSON (line 1, column 1:
    # Expecting value)", Python's words, where fs import history says "empty")
    pytest.param("", "{f}: empty; expected a list of job objects", id="empty"),
    pytest.param(" \r\n\t\n", "{f}: empty; expected a list of job objects", id="blank"),
]
#: (Their JSON kinds were Python's type names before: got str, got dict, got int, got
#: NoneType; a jobs file's writer reads JSON, not Python.)


@pytest.mark.parametrize(("text", "said"), BAD)
def test_a_bad_file_is_worded_as_every_jobs_file_reader_words_it(
    env: dict[str, Path], run: Callable[..., Any], text: str | None, said: str
) -> None:
    """``fs submit --file x.json`` and ``fs sprio --jobs-file x.json`` say one line, exit 2,
    nothing written (``fs sprio`` reads ids, so its bad object is given one)."""
    path = env["dir"] / "x.json"
    if text is None:
        path.mkdir()
    else:
        path.write_text(text, encoding="utf-8")
    before = env["state"].read_bytes()
    submitted = run("submit", "--file", str(path), *common(env))
    refused(submitted)
    assert submitted.stderr == f"fs: error: {said.format(f=path)}\n"
    assert env["state"].read_bytes() == before
    if text is not None:
        path.write_text(text.replace('{"owner"', '{"id": "5", "owner"'), encoding="utf-8")
    listed = run("sprio", "--jobs-file", str(path), *common(env))
    assert listed.stderr == submitted.stderr


def test_a_bad_stdin_is_named_as_a_file_is(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs submit --file - < bad.json``: the reader names stdin ``-``."""
    result = run("submit", "--file", "-", *common(env), input="not json")
    refused(result)
    assert result.stderr == (
        "fs: error: -: not valid JSON (line 1, column 1: Expecting value); "
        "expected a list of job objects\n"
    )


def test_an_empty_stdin_is_empty(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs submit --file - < /dev/null``: ``-: empty``, exit 2, nothing written."""
    before = env["state"].read_bytes()
    result = run("submit", "--file", "-", *common(env), input="")
    refused(result)
    assert result.stderr == "fs: error: -: empty; expected a list of job objects\n"
    assert env["state"].read_bytes() == before


def test_a_missing_file_is_worded_as_click_words_it(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs submit --file nope.json``."""
    path = env["dir"] / "nope.json"
    result = run("submit", "--file", str(path), *common(env))
    refused(result)
    assert result.stderr == f"fs: error: File '{path}' does not exist.\n"
