"""``fs import condor-status DUMP --into CONFIG`` keeps a hard link to the config it
replaces (``.CONFIG.XXXXXXXX.kept``) until the state is written, to put the config back
if that write fails. An fs killed (SIGKILL) between the merge and the state write left
the link for good, and every such kill one more. Now a merge into the config removes the
links a killed fs left, under the folder's lock, before it reads the config; a link a live
fs holds (its ``flock``, as SQLite tells a hot journal from a live one) is left to it."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, REPO

FLAT = FIXTURES / "htcondor-25.0" / "flat_users"
AT = "2026-11-23T18:25:33Z"

#: ``fs`` whose state write kills the process (SIGKILL) before it writes anything.
KILLED_AT_STATE_WRITE = """
import os, signal, sys
import fairshare_cli.io.state as state
state.save_state = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
from fairshare_cli.cli.entry import main
sys.argv = ["fs", *sys.argv[1:]]
main()
"""


def _links(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".kept"))


def test_a_link_a_killed_import_left_is_removed_by_the_next(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-status condor_status.json --into htc.toml --state s.json --now
    2026-11-23T18:25:33Z`` killed at its state write leaves ``.htc.toml.XXXXXXXX.kept``
    (and the config merged, the state unwritten); the same command run again exits 0,
    writes the dump's 18 claims (its Claimed slots) and leaves no link."""
    cfg, state = tmp_path / "htc.toml", tmp_path / "s.json"
    assert run("import", "condor-config", str(FLAT / "condor_config"), "--into", str(cfg))
    args = ["import", "condor-status", str(FLAT / "condor_status.json"), "--into", str(cfg),
            "--state", str(state), "--now", AT]  # fmt: skip
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AT_STATE_WRITE, *args], capture_output=True, cwd=REPO,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False,
    )  # fmt: skip
    assert killed.returncode == -9
    assert len(_links(tmp_path)) == 1 and not state.exists()
    again = run(*args)
    assert again.exit_code == 0, again.stderr
    assert again.stderr.endswith("18 claim(s) into " + str(state) + "\n")
    assert _links(tmp_path) == []
    claims = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["claims"]
    assert len(claims) == 18


def test_a_link_a_live_fs_holds_is_left(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A link whose ``flock`` another process holds (a live ``fs import condor-status``
    between its merge and its state write) stays through ``fs import condor-config
    condor_config --into htc.toml``; once let go, the next merge removes it."""
    cfg = tmp_path / "htc.toml"
    merge = ["import", "condor-config", str(FLAT / "condor_config"), "--into", str(cfg)]
    assert run(*merge).exit_code == 0
    link = tmp_path / ".htc.toml.0123abcd.kept"
    os.link(cfg, link)
    other = tmp_path / ".htc.toml.notours.kept"  # (no link of a merge's name: not ours)
    other.write_text("x")
    fd = os.open(link, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        held = subprocess.run(
            [sys.executable, "-m", "fairshare_cli", *merge], capture_output=True, cwd=REPO,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False,
        )  # fmt: skip
        assert held.returncode == 0, held.stderr
        assert _links(tmp_path) == [".htc.toml.0123abcd.kept", ".htc.toml.notours.kept"]
    finally:
        os.close(fd)
    assert run(*merge).exit_code == 0
    assert _links(tmp_path) == [".htc.toml.notours.kept"]
