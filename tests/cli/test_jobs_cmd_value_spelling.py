"""A jobs file's field of the wrong kind is echoed in JSON's spelling (core/names.py
``json_shown``): ``fs negotiate --dry-run --jobs-file`` of ``"request_cpus": true`` said
``got True``, of an object ``got {'a': 1}`` and of ``1e400`` ``got inf``, Python's words for
what the file holds, and a list of a million numbers was echoed whole (7 MB on one line)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.names import json_shown
from tests.cli.conftest import common, write_pool


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        pytest.param("true", "true", id="true"),
        pytest.param('{"a": 1}', '{"a": 1}', id="object"),
        pytest.param("[1, 2]", "[1, 2]", id="list"),
        pytest.param("1e400", "Infinity", id="past-a-float"),
        pytest.param('"4"', "'4'", id="text-quoted-as-typed-text-is"),
        pytest.param(
            "[" + ", ".join(["1"] * 1_000_000) + "]", "[" + "1, " * 26 + "1...", id="long"
        ),
    ],
)
def test_a_field_of_the_wrong_kind_is_echoed_as_the_file_writes_it(
    tmp_path: Path, run: Callable[..., Any], given: str, shown: str
) -> None:
    pool = write_pool(tmp_path)
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        '[{"id": "1.0", "owner": "alice", "submit_time": "2026-11-21T11:00:00Z", '
        f'"request_cpus": {given}}}]',
        encoding="utf-8",
    )
    before = pool["state"].read_bytes()
    result = run("negotiate", "--dry-run", "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 1.0: request_cpus: expected a whole number, got {shown}\n"
    )
    assert pool["state"].read_bytes() == before


def test_json_shown_escapes_what_a_terminal_would_act_on() -> None:
    """A control character in a list's text (JSON escapes those below U+0020 itself) and a
    lone surrogate are escaped, so the message stays one printable line."""
    assert json_shown(["a\u2028b"]) == '["a\\u2028b"]'
    assert json_shown("\x1b[2J") == "'\\x1b[2J'"
    assert json_shown(float("nan")) == "NaN"
    assert json_shown(None) == "null"
    assert json_shown(object()) == "a object"
