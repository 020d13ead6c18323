"""``fs submit`` of a running job naming a slot a running job of the queue holds
(cli/jobs_cmd.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"


def _run(tmp_path: Path, *line: str) -> tuple[int, str, str]:
    state = tmp_path / "state.json"
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = CliRunner().invoke(cli, [*line, *common, "--now", NOW])
    return result.exit_code, result.stdout, result.stderr


def test_a_running_job_on_a_slot_a_queued_job_holds_is_refused(tmp_path: Path) -> None:
    """``fs submit --owner bob --set status=running --set slot=slot1@exec001`` beside a
    running job 1 on that slot took the slot over: job 1 stayed running with no slot, and
    alice's use dropped by one. Refused, naming both jobs; nothing written."""
    running = ["--set", "status=running", "--set", "slot=slot1@exec001"]
    assert _run(tmp_path, "submit", "--owner", "alice", "--id", "1", *running)[0] == 0
    state = tmp_path / "state.json"
    before = state.read_bytes()
    code, out, err = _run(tmp_path, "submit", "--owner", "bob", *running)
    assert (code, out) == (2, "")
    assert err == (
        "fs: error: fs submit: job 2: slot 'slot1@exec001' already runs job 1 of the queue;"
        " name another slot, or fs rm 1 first\n"
    )
    assert state.read_bytes() == before
    assert _run(tmp_path, "rm", "1")[0] == 0
    assert _run(tmp_path, "submit", "--owner", "bob", *running)[0] == 0
    claims = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["claims"]
    assert claims["slot1@exec001"]["submitter"] == "bob@example.org"
