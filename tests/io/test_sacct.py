"""``fs import sacct``: a line with a blank JobID or Account is refused, naming its line.

sacct prints a JobID and an Account for every job (``sacct -X``'s job lines); a blank one
is not a job sacct printed, and charging it would put usage on no association.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
HEAD = "JobID|User|Account|Partition|QOS|AllocCPUS|Start|End\n"
GOOD = "7|alice|hep|batch|normal|1|2026-11-21T10:00:00|2026-11-21T11:00:00\n"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("|alice|hep|batch|normal|1|2026-11-21T10:00:00|2026-11-21T11:00:00\n", "JobID"),
        ("  |alice|hep|batch|normal|1|2026-11-21T10:00:00|2026-11-21T11:00:00\n", "JobID"),
        ("8|alice||batch|normal|1|2026-11-21T10:00:00|2026-11-21T11:00:00\n", "Account"),
        ("8|alice| |batch|normal|1|2026-11-21T10:00:00|2026-11-21T11:00:00\n", "Account"),
    ],
)
def test_a_blank_jobid_or_account_is_refused(
    line: str, says: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    before = state.read_bytes()
    dump = tmp_path / "jobs.txt"
    dump.write_text(HEAD + GOOD + line, encoding="utf-8")
    result = run(
        "import", "sacct", str(dump), "--config", str(REPO / "sample_configs" / "pool.toml"),
        "--state", str(state), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == f"fs: error: {dump}:3: {says} is empty\n"
    assert state.read_bytes() == before
