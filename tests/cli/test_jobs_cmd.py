"""``fs submit``, ``fs prio``, ``fs rm`` (cli/jobs_cmd.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO


def test_submit_dirac_group_count(tmp_path: Path) -> None:
    """New jobs of a DIRAC group are checked once they have their ids."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    before = json.loads(state.read_text()).get("jobs", [])
    args = ["submit", "--owner", "erin", "--dirac-group", "lhcb_user", "--count", "3"]
    args += ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = CliRunner().invoke(cli, [*args, "--now", "2026-11-21T12:00:00Z"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "Submitted 3 jobs as cluster 1\n"
    after = json.loads(state.read_text())["jobs"]
    assert after[: len(before)] == before
    assert after[len(before) :] == [
        {"dirac_group": "lhcb_user", "id": f"1.{i}", "owner": "erin", "submit_time": 1795262400.0}
        for i in range(3)
    ]
