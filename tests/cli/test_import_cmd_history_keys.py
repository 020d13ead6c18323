"""``fs import history`` refuses a JSON line that gives a key twice, naming the line and
the key, exit 2, nothing written: msgspec and json.loads keep the last value without a
word (``"slots": 1, "slots": 4`` charged 4 slots)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

GOOD = '{"owner": "alice", "start": "2026-11-20T10:00:00Z", "end": "2026-11-20T11:00:00Z"}'


@pytest.mark.parametrize(
    ("line", "key"),
    [
        pytest.param(GOOD[:-1] + ', "slots": 1, "slots": 4}', "slots", id="typed-line"),
        pytest.param(GOOD[:-1] + ', "owner": "bob"}', "owner", id="required-key"),
        pytest.param(
            '{"owner": "alice", "start": 1795168800, "end": 1795172400, "cpus": 2, "cpus": 1}',
            "cpus",
            id="exact-parser-line",
        ),
    ],
)
def test_a_key_given_twice_is_refused_at_its_line(
    env: dict[str, Any], run: Callable[..., Any], tmp_path: Path, line: str, key: str
) -> None:
    """``fs import history h.jsonl`` whose third line gives a key twice (the batch's
    other lines are plain: the whole batch goes to the exact parser, which names it)."""
    history = tmp_path / "h.jsonl"
    history.write_text(f"{GOOD}\n{GOOD}\n{line}\n{GOOD}\n")
    before = env["state"].read_bytes()
    result = run("import", "history", str(history), *common(env))
    refused(result, f'{history}:3: the key "{key}" is given twice; give each key once')
    assert env["state"].read_bytes() == before


def test_lines_without_a_repeat_still_import(
    env: dict[str, Any], run: Callable[..., Any], tmp_path: Path
) -> None:
    """A name with a quote in it and a line giving every key once: no key is given twice,
    the records are imported (the first through the exact parser)."""
    history = tmp_path / "h.jsonl"
    full = GOOD[:-1] + ', "slots": 2, "cpus": 1, "nice_user": false, "accounting_group": null}'
    history.write_text(f"{full}\n{GOOD}\n")
    result = run("import", "history", str(history), *common(env))
    assert result.exit_code == 0, result.stderr
    assert "Imported 2 usage records" in result.stdout
