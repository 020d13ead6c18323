"""fs simulate's progress bar fits the terminal it is drawn on.

The bar is redrawn with a carriage return, so it must stay on one line: a line wider than
the terminal wraps, the ``\\r`` returns only to the start of its last part, and every
redraw leaves a line behind. Before, the line was 62 characters whatever the terminal
(``COLUMNS=60 fs simulate --until 2:00:00`` in a 60-column terminal filled it with copies
of the bar); now the bar shrinks so that the line leaves the last column free.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

SAMPLE = REPO / "sample_configs"
LINE = (
    "fs simulate --until 2:00:00 --workload sample_configs/workload.json "
    "--config sample_configs/pool.toml --state {state} --now 2026-11-21T12:00:00Z"
)


def _bar_lines(columns: int, state: Path) -> list[str]:
    """The pieces of what ``LINE`` drew on a terminal ``columns`` wide (stderr a pty)."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRSHARE_")}
    env["COLUMNS"] = str(columns)
    args = LINE.format(state=state).split()[1:]
    with subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=follower,
    ) as proc:
        os.close(follower)
        chunks = []
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:  # (the pty is closed once the process ends)
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait() == 0
    os.close(leader)
    text = b"".join(chunks).decode()
    return [p for p in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if p]


@pytest.mark.parametrize("columns", [60, 200])
def test_the_bar_leaves_the_last_column_free(columns: int, tmp_path: Path) -> None:
    (tmp_path / "s.json").write_bytes((SAMPLE / "sample-state.json").read_bytes())
    lines = _bar_lines(columns, tmp_path / "s.json")
    bars = [line for line in lines if line.startswith("simulating [")]
    assert bars, lines
    assert all(len(line) < columns for line in bars), bars
    # 30 marks where there is room (the width before); fewer where there is not.
    marks = len(bars[-1].split("[", 1)[1].split("]", 1)[0])
    assert marks == min(30, columns - 33)
    assert bars[-1].endswith("done")
