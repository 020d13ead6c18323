"""Job values that reach classad2 (a job's ad is built from its id and ``attributes``): a
value the ad cannot hold is refused in one line where it is read, an id beyond 64 bits is
kept as text. Each of these once ended in a traceback (``SystemError``) or a segmentation
fault (exit 139, no message)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import STATE, common, refused

BIG = 2**63

#: (the job's attributes, as JSON text; what the error names)
ATTRIBUTE_CASES = [
    (
        '{"X": ' + str(BIG) + "}",
        "job 5.0: attributes.X: expected a whole number that fits in 64 bits",
    ),
    ('{"X": ' + str(-BIG - 1) + "}", "job 5.0: attributes.X: expected a whole number that fits"),
    (
        '{"X": [1, {"y": [' + str(BIG) + "]}]}",
        "job 5.0: attributes.X[1].y[0]: expected a whole number",
    ),
    ('{"X": "\\udcff"}', "job 5.0: attributes.X: expected Unicode text"),
    ('{"X": ["ok", "\\udcff"]}', "job 5.0: attributes.X[1]: expected Unicode text"),
    ('{"\\udcff": 1}', "job 5.0: attributes: expected names of Unicode text"),
]

COMMANDS = [
    ["negotiate", "--dry-run", "--jobs-file"],
    ["quota", "--jobs-file"],
    ["simulate", "--until", "300", "--workload"],
]


def _jobs_text(attributes: str) -> str:
    return '[{"id": "5.0", "owner": "alice", "attributes": ' + attributes + "}]"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("attributes", "key"), ATTRIBUTE_CASES)
def test_job_attributes_a_classad_cannot_hold_are_refused(
    attributes: str, key: str, command: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(_jobs_text(attributes))
    refused(run(*command, str(jobs), *common(env)), str(jobs), key)


@pytest.mark.parametrize(("attributes", "key"), ATTRIBUTE_CASES)
def test_submit_refuses_such_attributes_and_leaves_the_state(
    attributes: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(_jobs_text(attributes))
    before = env["state"].read_bytes()
    refused(run("submit", "--file", str(jobs), *common(env)), key)
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(("attributes", "key"), ATTRIBUTE_CASES)
def test_a_state_queue_with_such_attributes_is_refused_and_untouched(
    attributes: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    state = dict(STATE, jobs=[{"id": "5.0", "owner": "alice", "attributes": {}}])
    text = json.dumps(state).replace('"attributes": {}', f'"attributes": {attributes}')
    env["state"].write_text(text)
    refused(run("negotiate", *common(env)), str(env["state"]), key)
    assert env["state"].read_text() == text


def test_attributes_at_the_64_bit_bounds_are_taken(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(_jobs_text(json.dumps({"X": [BIG - 1, {"y": -BIG}], "Z": "ü"})))
    result = run("negotiate", "--dry-run", "--jobs-file", str(jobs), *common(env))
    assert result.exit_code == 0, result.stderr
    assert "1 matches" in result.stdout


@pytest.mark.parametrize("job_id", [str(BIG), f"1.{BIG}", f"{BIG}.{BIG}", "9" * 40])
def test_job_ids_beyond_64_bits_negotiate(
    job_id: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """A numeric id past a ClassAd integer: ``ClusterId``/``ProcId`` are its text."""
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(json.dumps([{"id": job_id, "owner": "alice"}]))
    result = run("negotiate", "--dry-run", "--jobs-file", str(jobs), *common(env))
    assert result.exit_code == 0, result.stderr
    assert "1 matches" in result.stdout
    simulated = run("simulate", "--until", "300", "--workload", str(jobs), *common(env))
    assert simulated.exit_code == 0, simulated.stderr


def test_a_submitted_job_id_beyond_64_bits_is_committed(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(json.dumps([{"id": str(BIG), "owner": "alice"}]))
    assert run("submit", "--file", str(jobs), *common(env)).exit_code == 0
    result = run("negotiate", *common(env))
    assert result.exit_code == 0, result.stderr
    claims = json.loads(env["state"].read_text())["negotiator"]["claims"]
    assert str(BIG) in [c["job_id"] for c in claims.values()]


# ------------------------------------------------------------------------ lone surrogates
#: A job's DIRAC fields holding a lone surrogate (JSON's "\udcff", no text any output takes).
SURROGATE_JOB = (
    '{"id": "7", "owner": "alice", "dirac_group": "lhcb_user", '
    '"dirac_requirements": {"sites": ["A", "\\udcff"]}}'
)


def test_submit_refuses_dirac_requirements_that_are_not_text(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """It was taken, then the state could not be written: exit 1, 'cannot write state
    file ...: surrogates not allowed'."""
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(f"[{SURROGATE_JOB}]")
    before = env["state"].read_bytes()
    result = run("submit", "--file", str(jobs), *common(env))
    refused(result, "job 7: dirac_requirements.sites[1]: expected Unicode text")
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("job", "commands", "key"),
    [
        # sprio: a traceback (msgspec's UnicodeEncodeError); the others refused it
        (
            '"\\udcff"',
            ["sprio", "taskqueues", "negotiate"],
            "job object 1 (counting from 1): expected a job object",
        ),
        # taskqueues: listed (and printed as a byte that is not UTF-8), exit 0
        (
            '{"id": "7", "owner": "alice", "dirac_group": "\\udcff"}',
            ["sprio", "taskqueues", "negotiate"],
            "job 7: dirac_group: expected a name",
        ),
        # taskqueues: listed, exit 0; negotiate: exit 1, 'cannot write state file'
        (SURROGATE_JOB, ["taskqueues", "negotiate"], "job 7: dirac_requirements.sites[1]"),
    ],
)
def test_a_state_queue_with_a_lone_surrogate_is_refused(
    job: str, commands: list[str], key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    text = json.dumps(dict(STATE, jobs=["JOB"])).replace('"JOB"', job)
    env["state"].write_text(text)
    for command in commands:
        refused(run(command, *common(env)), str(env["state"]), key)
    assert env["state"].read_text() == text
