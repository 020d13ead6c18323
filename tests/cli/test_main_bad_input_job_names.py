"""Every refusal of a job object names the job one way: by the id it gives (``job 7``), or,
when it gives none fs can read, by its place in the list counting from 1 (``job object 2
(counting from 1)``). Before, the readers of job objects named the object by its index
from 0 (``jobs.json: job 1.status: ...``) where the Slurm model named the same object by
its id (``jobs.json: job 7: unknown partition "nope"``), so "job 1" of one message and
"job 7" of the next were one job, and "job 1" could be another job's id."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

READERS = [
    ["sprio", "--jobs-file", "{file}"],
    ["negotiate", "--dry-run", "--jobs-file", "{file}"],
    ["quota", "--jobs-file", "{file}"],
    ["taskqueues", "--jobs-file", "{file}"],
    ["simulate", "--workload", "{file}", "--until", "1:00:00"],
    ["submit", "--file", "{file}"],
]
ALICE = {"id": "5", "owner": "alice"}
#: (the second job object; what every reader says of it after "FILE: ")
CASES = [
    pytest.param(
        {"id": "7", "owner": "bob", "status": "x"},
        'job 7: status: expected one of idle, running, held, completed, removed, got "x"',
        id="bad-field-by-id",
    ),
    pytest.param(
        {"id": "a b", "owner": "bob"},
        "job object 2 (counting from 1): id: expected a name without blanks or control "
        "characters, got 'a b'",
        id="bad-id-by-place",
    ),
    pytest.param(
        {"id": "5", "owner": "bob"},
        "job 5 is given twice (job objects 1 and 2, counting from 1); give each job its own id",
        id="duplicate-id",
    ),
    pytest.param(
        {"id": "7", "owner": "bob", "bogus": 1},
        "job 7: unknown job field 'bogus' (fields: docs/jobs.md)",
        id="unknown-field",
    ),
    pytest.param(
        3,
        "job object 2 (counting from 1): expected a job object, got a number",
        id="not-an-object",
    ),
]


@pytest.mark.parametrize(("second", "said"), CASES)
@pytest.mark.parametrize("line", READERS[:5], ids=lambda line: line[0])
def test_a_bad_job_object_is_named_by_its_id_else_by_its_place(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
    second: Any,
    said: str,
) -> None:
    """``fs sprio --jobs-file jobs.json`` of ``[{"id": "5", ...}, {"id": "7", "status":
    "x", ...}]`` said ``jobs.json: job 1.status: ...`` (the index from 0); now ``job 7:
    status: ...``, in each reader's words alike."""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([ALICE, second]))
    args = [str(path) if word == "{file}" else word for word in line]
    result = run(*args, *common(env))
    refused(result)
    assert result.stderr == f"fs: error: {path}: {said}\n"


def test_a_slurm_refusal_and_a_field_refusal_name_one_job_alike(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sprio --jobs-file jobs.json``: the Slurm model names the second object by its
    id (``job 7: unknown partition``), and so, now, does the field reader (``job 7:
    status``), where it said ``job 1.status``."""
    path = tmp_path / "jobs.json"
    bob = {"id": "7", "owner": "bob", "account": "hep", "partition": "nope"}
    path.write_text(json.dumps([ALICE, bob]))
    result = run("sprio", "--jobs-file", str(path), *common(env))
    refused(result, f'{path}: job 7: unknown partition "nope"')
    path.write_text(json.dumps([ALICE, {**bob, "partition": None, "status": "x"}]))
    result = run("sprio", "--jobs-file", str(path), *common(env))
    refused(result, f"{path}: job 7: status: expected one of")


@pytest.mark.parametrize("line", READERS, ids=lambda line: line[0])
def test_a_key_given_twice_names_the_job_by_its_id(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
) -> None:
    """``fs submit --file jobs.json`` whose second object gives ``attributes.A`` twice said
    ``job 1: the key "A" ...``; now ``job 7`` (and, for a twice-given ``id``, the place)."""
    path = tmp_path / "jobs.json"
    path.write_text(
        '[{"id": "5", "owner": "alice"}, {"id": "7", "owner": "bob", "attributes": {"A": 1, "A": 2}}]'
    )
    args = [str(path) if word == "{file}" else word for word in line]
    head = str(path)
    result = run(*args, *common(env))
    refused(result)
    assert result.stderr == (
        f'fs: error: {head}: job 7: the key "A" is given twice (in attributes); '
        "give each key once\n"
    )
    path.write_text('[{"id": "5", "owner": "alice"}, {"id": "7", "id": "8", "owner": "bob"}]')
    result = run(*args, *common(env))
    refused(result)
    assert result.stderr == (
        f'fs: error: {head}: job object 2 (counting from 1): the key "id" is given twice; '
        "give each key once\n"
    )


def test_a_job_without_an_id_is_told_what_to_do_and_submit_file_numbers_it(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs simulate --workload noid.json --until 1:00:00`` pointed to ``fs submit --file``,
    "which numbers the jobs that have none", as if the workload could be numbered so; only
    ``fs submit --file`` numbers them, which the hint now says; that line takes the file."""
    path = tmp_path / "noid.json"
    path.write_text('[{"id": "5", "owner": "alice"}, {"owner": "alice"}]')
    result = run("simulate", "--workload", str(path), "--until", "1:00:00", *common(env))
    refused(result)
    assert result.stderr == (
        f"fs: error: {path}: job object 2 (counting from 1): missing required field 'id' "
        '(give the job an id, "1" or "12.0"; only fs submit --file numbers jobs without one)\n'
    )
    result = run("submit", "--file", str(path), *common(env))
    assert result.exit_code == 0, result.stderr
