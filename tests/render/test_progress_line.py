"""A progress line on stderr (render/progress.py) ended before an error's line: ``fs simulate``
on a terminal stopped by Ctrl-C wrote ``simulating [#---...]  2.5%   0:20 leftfs: error:
interrupted (Ctrl-C)``, the message glued to the bar."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fairshare_cli.cli.main import FsError
from fairshare_cli.render import progress

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"


def test_an_error_starts_its_own_line_after_an_open_progress_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    progress.progress_line("simulating [#-----]  10.0%", False)
    FsError("interrupted (Ctrl-C)", 130).show()
    progress.progress_line("simulating [######] 100.0%", True)
    FsError("another", 1).show()
    assert capsys.readouterr().err == (
        "\rsimulating [#-----]  10.0%\nfs: error: interrupted (Ctrl-C)\n"
        "\rsimulating [######] 100.0%\nfs: error: another\n"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_ctrl_c_on_a_terminal_during_simulate(tmp_path: Path) -> None:
    """``fs simulate --workload ... --html out.html`` with stderr a terminal, SIGINT once the
    bar shows: the interrupt's line starts a line of its own, exit 130, no page written."""
    import pty

    master, slave = pty.openpty()
    line = [sys.executable, "-m", "fairshare_cli", "simulate", "--workload",
            str(SAMPLE / "workload.json"), "--config", str(SAMPLE / "pool.toml"),
            "--now", "2026-11-21T12:00:00Z", "--html", str(tmp_path / "out.html")]  # fmt: skip
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "100"}
    proc = subprocess.Popen(
        line, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path,
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    out, sent, began = b"", False, time.monotonic()
    while time.monotonic() - began < 300:
        if not sent and b"simulating [" in out:
            proc.send_signal(signal.SIGINT)
            sent = True
        ready, _, _ = select.select([master], [], [], 0.05)
        data = b""
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # (the terminal's other end closed)
                data = b""
        out += data
        if not data and proc.poll() is not None:
            break
    proc.wait(timeout=60)
    os.close(master)
    text = out.decode()
    if not sent:
        pytest.skip("the run ended before its progress bar showed")
    assert proc.returncode == 130, text
    before, found, _ = text.partition("fs: error: interrupted (Ctrl-C)")
    assert found, text
    assert before.endswith("\n"), repr(text[-200:])
    assert not (tmp_path / "out.html").exists()
