"""A jobs file whose job object gives a key twice is refused by every command that reads
one, one line naming the job and the key, exit 2 (the last value had won: ``fs sprio
--jobs-file`` read ``{"owner": "alice", "owner": "bob"}`` as bob's job)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

TWICE = '[{"id": "1.0", "owner": "alice", "account": "hep", "owner": "bob"}]'
NESTED = '[{"id": "1.0", "owner": "alice", "attributes": {"A": 1, "A": 2}}]'


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(["sprio", "--jobs-file", "{jobs}"], id="sprio"),
        pytest.param(["negotiate", "--dry-run", "--jobs-file", "{jobs}"], id="negotiate"),
        pytest.param(["quota", "--jobs-file", "{jobs}"], id="quota"),
        pytest.param(["taskqueues", "--jobs-file", "{jobs}"], id="taskqueues"),
        pytest.param(["simulate", "--workload", "{jobs}", "--until", "60"], id="simulate"),
    ],
)
def test_a_jobs_file_giving_a_key_twice_is_refused(
    env: dict[str, Path], run: Callable[..., Any], line: list[str]
) -> None:
    """``fs sprio --jobs-file jobs.json`` (and the other readers) with the files above."""
    jobs = env["dir"] / "jobs.json"
    for text, said in (
        (TWICE, f'{jobs}: job 1.0: the key "owner" is given twice; give each key once'),
        (NESTED, f'{jobs}: job 1.0: the key "A" is given twice (in attributes); give each'),
    ):
        jobs.write_text(text)
        result = run(*[part.format(jobs=jobs) for part in line], *common(env))
        refused(result, said)


def test_fs_submit_file_giving_a_key_twice_is_refused(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs submit --file job.json`` with one object or a list: nothing written."""
    jobs = env["dir"] / "job.json"
    before = env["state"].read_bytes()
    for text, head in ((TWICE, "job 1.0: "), (TWICE[1:-1], "")):
        jobs.write_text(text)
        result = run("submit", "--file", str(jobs), *common(env))
        refused(result, f'{jobs}: {head}the key "owner" is given twice; give each')
        assert env["state"].read_bytes() == before
