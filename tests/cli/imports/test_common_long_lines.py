"""A pipe with no newline and no NUL (``yes | tr -d '\\n' | fs import condor-q -``) was read
until memory ran out: the line-oriented readers held the one line whole. Now a line is at
most 64 MiB (``core/limits.MAX_LINE``, docs/exit-codes.md): past it, one line, exit 2,
after reading no more than that (the memory of a run stays bounded)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fairshare_cli.core.limits import MAX_LINE

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("condor-q", "condor_q -json or -long output"),
        ("squeue", "squeue --json or scontrol show jobs output"),
        ("sacctmgr", "sacctmgr output"),
        ("sacct", "sacct -P output (a header line, then jobs)"),
        ("dirac-cfg", "DIRAC's .cfg text"),
        ("condor-config", "a condor_config file"),
    ],
)
def test_a_pipe_without_newlines_is_refused_at_the_cap(
    tmp_path: Path, kind: str, expected: str
) -> None:
    """``yes | tr -d '\\n' | fs import KIND -`` (with --config, --state and --now where it
    writes a state): exit 2 and ``-:1: a line longer than 64 MiB``; 64 MiB is 67,108,864 =
    2**26 bytes. (sacct, dirac-cfg and condor-config held the line whole, past 2 GB.)"""
    assert MAX_LINE == 2**26 == 67_108_864
    state = ["--config", "sample_configs/pool.toml", "--state", str(tmp_path / "s.json"),
             "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    fs = [sys.executable, "-m", "fairshare_cli", "import", kind, "-"]
    writes = kind in ("condor-q", "squeue", "sacct")  # (the others print a config fragment)
    line = " ".join([*fs, *(state if writes else [])])
    result = subprocess.run(
        f"yes | tr -d '\\n' | {line}", shell=True, capture_output=True, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=REPO, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        "fs: error: -:1: a line longer than 64 MiB (no newline in 67,108,864 characters); "
        f"expected {expected}\n"
    )
    assert not (tmp_path / "s.json").exists()
