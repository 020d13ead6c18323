"""``--last-decay`` after the import's time names where that time came from and both
times, as the HTCondor dump imports name a dump of a later time (a FAIRSHARE_NOW left set
from the README's sample session, a pass given in epoch seconds)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

DUMP = REPO / "tests" / "fixtures" / "slurm-26.05-local" / "ft1_running" / "scontrol_assoc_mgr.txt"


def test_a_pass_after_fairshare_now_is_named_in_utc(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """FAIRSHARE_NOW=2026-11-21T12:00:00Z fs import scontrol-assoc ... --last-decay
    1796217382 said '--last-decay 1796217382 is after --now': neither the variable nor
    either time."""
    state = tmp_path / "s.json"
    result = run("import", "scontrol-assoc", str(DUMP), "--last-decay", "1796217382",
                 "--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
                 env={"FAIRSHARE_NOW": "2026-11-21T12:00:00Z"})  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --last-decay 1796217382 (2026-12-02T13:16:22Z) is after FAIRSHARE_NOW "
        "2026-11-21T12:00:00Z; the pass must have run already\n"
    )
    assert not state.exists()
