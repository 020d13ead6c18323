"""Ctrl-C and SIGTERM outside the command: while click reads the command line (before the
command) they are held back and come as the command starts, the one line and 130 (143);
after the command has ended, as Python ends, they are dropped (the command is done)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

#: Sends the signal while click reads the command line, as a Ctrl-C in that moment does.
_WHILE_PARSING = """
import os, signal, sys
from fairshare_cli.cli import main as group
from fairshare_cli.cli.entry import main

read = group.LazyGroup.parse_args

def parse_args(self, ctx, args):
    os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"]))
    return read(self, ctx, args)

group.LazyGroup.parse_args = parse_args
sys.argv = ["fs", "init", "new.toml"]
main()
"""

#: Sends the signal as Python ends, after the command and its output.
_AS_PYTHON_ENDS = """
import atexit, os, signal, sys
from fairshare_cli.cli.entry import main

atexit.register(lambda: os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"])))
sys.argv = ["fs", "init", "new.toml"]
main()
"""


def _driver(tmp_path: Path, text: str, signal_name: str) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "driver.py").write_text(text, encoding="utf-8")
    path = os.pathsep.join([str(tmp_path), str(REPO)])
    env = {**os.environ, "PYTHONPATH": path, "SIGNAL": signal_name}
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
def test_an_interrupt_while_click_reads_the_line_is_the_one_line(
    tmp_path: Path, signal_name: str, code: int, line: bytes
) -> None:
    """``fs init new.toml`` stopped while click read its command line: click took the
    interrupt for its own, a blank line and "Aborted!", exit 1. Now it comes as the
    command starts: the one line, 130 (143), nothing written."""
    proc = _driver(tmp_path, _WHILE_PARSING, signal_name)
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, b"", line)
    assert not (tmp_path / "new.toml").exists()


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_an_interrupt_as_python_ends_is_dropped(tmp_path: Path, signal_name: str) -> None:
    """``fs init new.toml`` stopped after it had written the config, as Python ended: a
    death by the signal (-15) or an interrupt Python ignored on stderr, the file written.
    The command is done: exit 0, nothing more said."""
    proc = _driver(tmp_path, _AS_PYTHON_ENDS, signal_name)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout.startswith(b"Wrote a starter pool config")
    assert (tmp_path / "new.toml").exists()
