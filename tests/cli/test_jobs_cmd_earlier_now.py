"""A ``--now`` before the state's last update: README.md said every command refuses it,
while docs/slurm.md submits its jobs hours before the sample state's last update. The
queue commands (``fs submit``, ``fs prio``, ``fs release``) take it, as README.md now
says; ``fs rm``, which charges the jobs it ends, refuses it and leaves the state as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

Run = Callable[..., Any]


def test_queue_commands_take_an_earlier_now_and_rm_refuses_it(tmp_path: Path, run: Run) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    files = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    lines = [
        (
            ["submit", "--id", "7", "--owner", "bob", "--account", "hep"],
            "08:00",
            "Submitted 1 job as cluster 7",
        ),
        (["prio", "7", "0", "--slurm"], "09:00", "Set admin priority of 7 to 0"),
        (["release", "7"], "10:00", "Released 1 job: 7"),
    ]
    for words, hour, said in lines:
        result = run(*words, *files, "--now", f"2026-11-21T{hour}:00Z")
        assert (result.exit_code, result.stdout, result.stderr) == (0, f"{said}\n", "")
    before = state.read_bytes()
    result = run("rm", "7", *files, "--now", "2026-11-21T10:00:00Z")
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: --now 2026-11-21T10:00:00Z is before the last update of state file {state}"
        " (2026-11-21T12:00:00Z): a view cannot show the past from decayed values and an edit"
        " cannot go back; give that time or a later one\n"
    )
    assert state.read_bytes() == before
