"""An import's ``--into`` summary counts config keys both times: merged into a new file,
the keys it wrote; merged again, the same keys unchanged. It counted the top-level tables
a first merge created ("6 accounts, 5 user associations (1 added, ...)", then "(0 added,
0 replaced, 16 unchanged)")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures"


@pytest.mark.parametrize(
    ("kind", "dump", "keys"),
    [
        pytest.param(
            "sacctmgr", "slurm-22.05/ft1_running/sacctmgr_assoc_tree.txt", 16, id="sacctmgr"
        ),
        pytest.param(
            "condor-config",
            "htcondor-25.0/flat_users/condor_config_val.dump.txt",
            35,  # (NEGOTIATOR_DEPTH_FIRST, _IGNORE_USER_PRIORITIES and _MATCHLIST_CACHING among them)
            id="condor-config",
        ),
    ],
)
def test_into_a_new_config_counts_the_keys_a_second_merge_finds_unchanged(
    tmp_path: Path, run: Callable[..., Any], kind: str, dump: str, keys: int
) -> None:
    into = tmp_path / "pool.toml"
    line = ["import", kind, str(FIXTURES / dump), "--into", str(into)]
    first = run(*line)
    assert first.exit_code == 0, first.stderr
    assert f"({keys} added, 0 replaced, 0 unchanged)" in first.stderr
    second = run(*line)
    assert second.exit_code == 0, second.stderr
    assert f"(0 added, 0 replaced, {keys} unchanged)" in second.stderr
