"""A folder, a loop of symbolic links or a link to nothing where the state's lock file goes
(``state.json.lock``) is refused as bad input, exit 2, one line naming the lock file: it
was exit 1, as a failure to write (``cannot create lock file ...: Is a directory``, or
``No such file or directory`` for a link to nothing). The state is left as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("folder", "a folder"),
        ("loop", "a loop of symbolic links"),
        ("dangling", "a symbolic link to nothing"),
    ],
)
@pytest.mark.parametrize("line", [["setfactor", "alice", "2", "--create"], ["rm", "1"]])
def test_a_lock_file_that_is_no_file_is_refused(
    env: dict[str, Path], run: Callable[..., Any], kind: str, said: str, line: list[str]
) -> None:
    """``fs setfactor alice 2 --create`` and ``fs rm 1`` with the lock file in the way."""
    lock = env["dir"] / "state.json.lock"
    if kind == "folder":
        lock.mkdir()
    elif kind == "loop":
        lock.symlink_to(env["dir"] / "other.lock")
        (env["dir"] / "other.lock").symlink_to(lock)
    else:
        lock.symlink_to(env["dir"] / "nowhere" / "x.lock")
    before = env["state"].read_bytes()
    result = run(*line, *common(env))
    refused(result, f"lock file {lock} is {said}, not a file: fs locks the state file with it")
    assert env["state"].read_bytes() == before
