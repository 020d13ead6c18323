"""A replay of a state that records no usage (a new pool; a state file not made yet) says
nothing of a missing usage history (cli/whatif_replay.py): ``fs whatif --set
accountant.priority_halflife=600 userprio`` of an empty state said 'no usage history is
kept beside ..., so the after side revalues no recorded usage', where there was none to
revalue, and ``fs sweep`` said it once per point."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import EMPTY_STATE, NOW, write_pool


def test_an_empty_state_has_nothing_to_revalue(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path, state=EMPTY_STATE)
    result = run(
        "whatif", "--set", "accountant.priority_halflife=600", "userprio",
        "--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW,
    )  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert "usage history" not in result.stdout
