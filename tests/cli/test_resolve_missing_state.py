"""A view of a state file that was named but does not exist (core of the note:
cli/resolve.py ``note_missing_state``): ``fs userprio --state staet.json`` printed a table of
no one, exit 0, without a word, as if the pool had no users. It still reads the empty pool
(a fresh pool is one, and exit 0 keeps scripts going), with one note on stderr."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool


@pytest.mark.parametrize("view", [["userprio"], ["sshare"], ["sprio"]])
def test_a_mistyped_state_is_noted_once(
    tmp_path: Path, run: Callable[..., Any], view: list[str]
) -> None:
    pool = write_pool(tmp_path)
    typo = tmp_path / "staet.json"
    result = run(*view, "--config", str(pool["config"]), "--state", str(typo), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"fs: note: state file {typo} does not exist: read as an empty pool (no usage, no jobs)\n"
    )
    assert not typo.exists()


def test_whatif_notes_it_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path)
    typo = tmp_path / "staet.json"
    result = run(
        "whatif", "--set", "accountant.priority_halflife=600", "userprio",
        "--config", str(pool["config"]), "--state", str(typo), "--now", NOW,
    )  # fmt: skip
    assert result.stderr.count("does not exist") == 1, result.stderr


def test_a_state_that_exists_is_not_noted(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path)
    result = run("userprio", "--config", str(pool["config"]), "--state", str(pool["state"]),
                 "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
