"""Ctrl-C and SIGTERM at the edges of a state write: one that comes as the temporary file is
made leaves none behind (130, nothing written), and one that comes just after the rename
is dropped (0: the state is replaced, and a script retrying on 130 would make its change
twice). Real processes: the signal is sent from inside, at that moment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

#: Sends the signal once the temporary file of the state exists, as mkstemp returns.
_AS_TEMP_IS_MADE = """
import os, signal, sys, tempfile
from fairshare_cli.cli.entry import main

made = tempfile.mkstemp

def mkstemp(*args, **kwargs):
    fd, name = made(*args, **kwargs)
    os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"]))
    return fd, name

tempfile.mkstemp = mkstemp
sys.argv = ["fs", "submit", "--owner", "alice", "--config", "pool.toml", "--state", "s.json"]
main()
"""

#: Sends the signal as the rename that replaces the state returns.
_AS_STATE_IS_RENAMED = """
import os, signal, sys
from fairshare_cli.cli.entry import main

renamed = os.replace

def replace(src, dst, *args, **kwargs):
    renamed(src, dst, *args, **kwargs)
    if str(dst).endswith("s.json"):
        os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"]))

os.replace = replace
sys.argv = ["fs", "submit", "--owner", "alice", "--config", "pool.toml", "--state", "s.json"]
main()
"""

POOL = '[pool]\ndefaults = "current"\n[[machines]]\nname = "m"\ncount = 2\n'


def _driver(tmp_path: Path, text: str, signal_name: str) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "driver.py").write_text(text, encoding="utf-8")
    (tmp_path / "pool.toml").write_text(POOL, encoding="utf-8")
    path = os.pathsep.join([str(tmp_path), str(REPO)])
    env = {**os.environ, "PYTHONPATH": path, "SIGNAL": signal_name, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "driver"],
        env=env, cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("signal_name", "code", "line"),
    [
        ("SIGINT", 130, b"fs: error: interrupted (Ctrl-C)\n"),
        ("SIGTERM", 143, b"fs: error: terminated (SIGTERM)\n"),
    ],
)
def test_a_stop_as_the_temporary_state_is_made_leaves_none(
    tmp_path: Path, signal_name: str, code: int, line: bytes
) -> None:
    """fs submit --owner alice --config pool.toml --state s.json, Ctrl-C just as the state's
    temporary file was made: the one line and 130, and the empty .s.json.XXXX.tmp left
    beside the state (its name was not known yet to remove it)."""
    proc = _driver(tmp_path, _AS_TEMP_IS_MADE, signal_name)
    assert (proc.returncode, proc.stderr) == (code, line)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "driver.py", "pool.toml", "s.json.lock"
    ]  # fmt: skip


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_stop_just_after_the_state_is_replaced_is_dropped(
    tmp_path: Path, signal_name: str
) -> None:
    """fs submit --owner alice --config pool.toml --state s.json, Ctrl-C as the rename that
    replaced the state returned: 'interrupted (Ctrl-C)' and 130 of a job submitted (a
    retry submitted it twice). Now 0, nothing on stderr, the job in the state."""
    proc = _driver(tmp_path, _AS_STATE_IS_RENAMED, signal_name)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout.startswith(b"Submitted 1 job")
    state = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert [job["owner"] for job in state["jobs"]] == ["alice"]
