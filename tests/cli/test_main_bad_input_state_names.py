"""A hand-edited state naming a record or a claim with an empty or an over-long name is
refused (exit 2, one line, the file left as it was), as every other door refuses such
names: ``fs userprio`` printed a blank row for a record named ``""``, and a claim of ``""``
was kept, charged to no one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import STATE, common, refused

RECORD = {"priority": 0.5, "last_update": 1795258800.0}
CLAIM = {"job_id": "1", "submitter": "alice@example.org", "start_time": 1795258800.0}
LONG = "x" * 1025


def _records(name: str) -> dict[str, Any]:
    return {**STATE, "accountant": {"records": {name: RECORD}}}


def _claims(slot: str, submitter: str) -> dict[str, Any]:
    return {**STATE, "negotiator": {"claims": {slot: {**CLAIM, "submitter": submitter}}}}


CASES = [
    (_records(""), "accountant.records: expected a name, got an empty one"),
    (_records(LONG), "accountant.records: expected a name of at most 1024 characters, got 1025"),
    (_claims("", "alice@example.org"), "negotiator.claims: expected a name, got an empty one"),
    (
        _claims("slot1@exec001", ""),
        "negotiator.claims.slot1@exec001.submitter: expected a name, got an empty one",
    ),
    (
        _claims("slot1@exec001", LONG),
        "negotiator.claims.slot1@exec001.submitter: expected a name of at most 1024",
    ),
]


@pytest.mark.parametrize(("state", "message"), CASES)
@pytest.mark.parametrize(
    "line", [["userprio"], ["negotiate"], ["setfactor", "alice@example.org", "2", "--create"]]
)
def test_an_empty_or_long_name_in_the_state_is_refused(
    state: dict[str, Any],
    message: str,
    line: list[str],
    env: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    """``fs userprio --config pool.toml --state state.json --now 2026-11-21T12:00:00Z``
    of a state with ``"accountant": {"records": {"": {...}}}``."""
    env["state"].write_text(json.dumps(state), encoding="utf-8")
    before = env["state"].read_bytes()
    refused(run(*line, *common(env)), f"state file {env['state']}", message)
    assert env["state"].read_bytes() == before


def test_a_name_of_1024_characters_is_read(env: dict[str, Path], run: Callable[..., Any]) -> None:
    name = "x" * 1024
    env["state"].write_text(json.dumps(_records(name)), encoding="utf-8")
    result = run("userprio", "-allusers", "--json", *common(env))
    assert result.exit_code == 0, result.stderr
    assert name in {row["name"] for row in json.loads(result.stdout)}
