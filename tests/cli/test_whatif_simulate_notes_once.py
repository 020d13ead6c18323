"""``fs whatif`` runs its view twice, once a side (cli/whatif_simulate.py ``view_usage``):
a note or warning both sides print, about the command line or the input, was printed
twice; it is now printed once, and a note only one side prints still prints."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


@pytest.mark.parametrize(
    ("view", "note"),
    [
        pytest.param(
            ["sshare", "-u", "alice", "bob"],
            "fs: note: ignored 'bob', as sshare ignores an argument not an option's\n",
            id="sshare-argument",
        ),
        pytest.param(
            ["userprio", "-debug"],
            "fs: note: -debug: fs talks to no daemon, so it has no debug log to print; the"
            " output is as without it\n",
            id="userprio-debug",
        ),
    ],
)
def test_a_note_both_sides_print_is_printed_once(
    tmp_path: Path, run: Callable[..., Any], view: list[str], note: str
) -> None:
    """``fs whatif --set accountant.priority_halflife=600 sshare -u alice bob``: sshare's
    note on the ignored 'bob' came twice; now once. The files are unchanged."""
    pool = write_pool(tmp_path)
    before = [pool["config"].read_bytes(), pool["state"].read_bytes()]
    line = ["whatif", "--set", "accountant.priority_halflife=600", *view]
    result = run(*line, *common(pool))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == note
    assert [pool["config"].read_bytes(), pool["state"].read_bytes()] == before
