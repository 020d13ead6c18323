"""``fs simulate --plot`` where files cannot grow (``ulimit -f``, a full disk): matplotlib
also failed to save its font cache in a fresh HOME and said so on stderr, so the failure
was two lines (``Could not save font_manager cache [Errno 27] File too large``, then fs's
own). Its notes are silenced below errors: one line, exit 1. A real process: the limit is
the process's."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytest.importorskip("matplotlib")
SAMPLE = REPO / "sample_configs"


def _small_files() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_plot_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    """``ulimit -f 4; HOME=EMPTY fs simulate --workload W --until 1:00:00 --plot P``."""
    (tmp_path / "home").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("MPLCONFIGDIR", "XDG_CACHE_HOME")}
    env |= {"HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    line = [sys.executable, "-m", "fairshare_cli", "simulate", "--config"]
    line += [str(SAMPLE / "pool.toml"), "--state", str(tmp_path / "state.json")]
    line += ["--now", "2026-11-21T12:00:00Z", "--workload", str(SAMPLE / "workload.json")]
    line += ["--until", "1:00:00", "--plot", str(tmp_path / "p.png")]
    done = subprocess.run(
        line, env=env, capture_output=True, text=True, preexec_fn=_small_files, timeout=300
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"fs: error: cannot write plot {tmp_path / 'p.png'}: File too large\n"
