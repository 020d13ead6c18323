"""An edit of a name the accountant has no record of (cli/names.py ``no_record``): a
typo of a record's name (another domain, another case, a swapped letter) is told the
record it likely means; a name close to none is told nothing more."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

HISTORY = [
    {"owner": "ivan", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T11:00:00Z"},
    {"owner": "ops", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T11:00:00Z"},
]


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("ivan@example.com", " (did you mean 'ivan@example.org'?)"),
        ("Ivan@example.org", " (did you mean 'ivan@example.org'?)"),
        ("ivna@example.org", " (did you mean 'ivan@example.org'?)"),
        ("zzzz@example.org", ""),
    ],
)
def test_a_mistyped_name_is_told_the_record_it_means(
    tmp_path: Path, run: Callable[..., Any], name: str, hint: str
) -> None:
    """``fs setfactor ivan@example.com 2`` said "no record ivan@example.com; pass
    --create ..." alone; it now names ivan@example.org. Exit 2, the state unchanged."""
    pool = write_pool(tmp_path)
    history = tmp_path / "h.jsonl"
    history.write_text("".join(json.dumps(r) + "\n" for r in HISTORY), encoding="utf-8")
    assert run("import", "history", str(history), *common(pool)).exit_code == 0
    before = pool["state"].read_bytes()
    result = run("setfactor", name, "2", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: no record {name}{hint}; pass --create to make a new record"
        " (condor_userprio would create it silently)\n"
    )
    assert pool["state"].read_bytes() == before


def test_delete_of_a_mistyped_name_is_told_the_record(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs delete ivan@example.com`` said the accountant has no record by that name and
    no more; it now adds the record it likely means, as a user inside a group is."""
    pool = write_pool(tmp_path)
    history = tmp_path / "h.jsonl"
    history.write_text("".join(json.dumps(r) + "\n" for r in HISTORY), encoding="utf-8")
    assert run("import", "history", str(history), *common(pool)).exit_code == 0
    before = pool["state"].read_bytes()
    result = run("delete", "ivan@example.com", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: cannot delete 'ivan@example.com': the accountant has no record by that"
        " name (condor_userprio -delete would report it deleted and change nothing); did you"
        " mean ivan@example.org\n"
    )
    assert pool["state"].read_bytes() == before
