"""A state folder removed while a command that writes the state runs (``rm -rf`` of the
pool, a scratch folder cleaned): the write is refused, not made into a folder made again,
where the lock the command holds (in the removed folder) guards nothing."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fairshare_cli.io.state as state_io

CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "m"
count = 2
"""


def test_submit_whose_state_folder_is_removed_writes_nothing(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fs submit --owner alice --state pool/s.json, pool removed once the lock was taken:
    fs made pool again (0700) and wrote the state there, exit 0, beside no lock, so that a
    second fs would lock a new lock file in it and write at the same time."""
    config = write_config(CONFIG)
    folder = tmp_path / "pool"
    folder.mkdir()
    state = folder / "s.json"
    line = ["submit", "--owner", "alice", "--config", str(config), "--state", str(state)]
    assert run(*line).exit_code == 0
    made = state_io.state_to_json

    def removed_first(*args: Any) -> Any:
        shutil.rmtree(folder)
        return made(*args)

    monkeypatch.setattr(state_io, "state_to_json", removed_first)
    result = run(*line)
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: cannot write state file {state}: No such file or directory (its folder "
        "was removed)\n"
    )
    assert not folder.exists()
