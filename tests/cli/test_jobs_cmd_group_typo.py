"""``fs submit --accounting-group`` whose parent group is a typo of a configured one
(core/htcondor/pool.py ``check_jobs``): the refusal names the group it is close to."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool

CONFIG = """
[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 1
[groups."group_physics"]
quota = 1
[groups."group_physics.hep"]
quota = 1
"""


def test_a_mistyped_parent_group_is_named_with_the_close_one(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit --owner alice --accounting-group group_phyiscs.alice`` said only that
    "group_phyiscs" has no configured group; it now adds (did you mean 'group_physics'?).
    Exit 2, the state unchanged."""
    pool = write_pool(tmp_path, CONFIG)
    before = pool["state"].read_bytes()
    line = ["submit", "--owner", "alice", "--accounting-group", "group_phyiscs.alice"]
    result = run(*line, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: fs submit: job 2: accounting_group "group_phyiscs.alice" has no configured'
        " parent group \"group_phyiscs\" (did you mean 'group_physics'?); add"
        ' [groups."group_phyiscs"] or fix the job\n'
    )
    assert pool["state"].read_bytes() == before
