"""A state file whose object gives a key twice is refused by every command, one line
naming the key and its object, exit 2, the file left as it was (the last value had won:
``"schema_version": 2, "schema_version": 1`` read as 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.cli.conftest import common, refused

TWICE = '{"format": "fairshare-cli state", "schema_version": 2, "schema_version": 1}'
NESTED = (
    '{"format": "fairshare-cli state", "schema_version": 1, "accountant": {"records": '
    '{"alice@example.org": {"priority": 5.0, "priority_factor": 1.0, "priority": 0.5}}}}'
)


def test_a_view_and_an_edit_refuse_a_key_given_twice(
    env: dict[str, Any], run: Callable[..., Any]
) -> None:
    """``fs userprio`` and ``fs setfactor alice 2`` with the state above."""
    for text, key, where in (
        (TWICE, '"schema_version"', "at the top level"),
        (NESTED, '"priority"', "in accountant.records.alice@example.org"),
    ):
        env["state"].write_text(text)
        for line in (["userprio"], ["setfactor", "alice", "2"]):
            result = run(*line, *common(env))
            refused(result, f"state file {env['state']}: the key {key} is given twice ({where})")
            assert env["state"].read_text() == text
