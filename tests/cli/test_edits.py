"""The accountant edits (cli/edits.py): refusals that leave the state as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool


def test_delete_refuses_a_record_that_does_not_exist(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs delete nobody@example.org`` once said "was deleted" of a record that never
    was (as condor_userprio -delete does); a typo would pass for a deletion."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    result = run("delete", "nobody@example.org", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: cannot delete 'nobody@example.org': the accountant has no record by that "
        "name (condor_userprio -delete would report it deleted and change nothing)\n"
    )
    assert pool["state"].read_bytes() == before


def test_delete_removes_a_record_that_exists(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path)
    assert run("setprio", "alice", "3", "--create", *common(pool)).exit_code == 0
    result = run("delete", "alice@example.org", *common(pool))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "The accountant record named alice@example.org was deleted\n"
    assert run("delete", "alice@example.org", *common(pool)).exit_code == 2
