"""Standard input from a pipe is read up to its first NUL byte: ``cat /dev/zero | fs import
condor-q -`` read one endless line until the kernel killed fs (a pipe has no size to look
at first); no input fs reads holds a NUL byte, so the first one ends the command (exit 2,
one line, the state as it was)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.conftest import REPO


def _piped(source: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``SOURCE | fs ARGS`` in a shell, as a user types it (``fs`` run by this Python)."""
    fs = f"{shlex.quote(sys.executable)} -m fairshare_cli"
    line = f"{source} | {fs} {shlex.join(args)}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        ["/bin/sh", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "reads"),
    [
        (["import", "condor-q", "-"], "(fs import condor-q reads condor_q -json or -long"),
        (["import", "history", "-"], "(fs import history reads a usage history"),
        (["import", "squeue", "-"], "(fs import squeue reads squeue --json"),
        (["submit", "--file", "-"], ""),
    ],
)
def test_cat_dev_zero_into_an_input_is_refused_at_once(
    args: list[str], reads: str, tmp_path: Path
) -> None:
    """``cat /dev/zero | fs import condor-q - --config pool.toml --state state.json``:
    byte 0 is a NUL."""
    env = write_pool(tmp_path)
    before = env["state"].read_bytes()
    common = ["--config", "pool.toml", "--state", "state.json", "--now", NOW]
    result = _piped("cat /dev/zero", [*args, *common], tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(
        "fs: error: cannot read -: binary data (a NUL byte at byte 0), not text; fs stopped "
        "reading standard input there"
    )
    assert reads in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert env["state"].read_bytes() == before


def test_text_before_the_nul_is_counted_in_its_offset(tmp_path: Path) -> None:
    """A header of 45 bytes and a record of 54, then a NUL: it is byte 99 (counted from 0)."""
    env = write_pool(tmp_path)
    before = env["state"].read_bytes()
    head = "owner,account,start,end,cpus,slots,partition\n"
    row = "alice,hep,2026-11-21T08:00:00Z,2026-11-21T10:00:00Z,1\n"
    assert (len(head), len(row)) == (45, 54)
    (tmp_path / "h.csv").write_bytes(f"{head}{row}".encode() + b"\0tail\n")
    common = ["--config", "pool.toml", "--state", "state.json", "--now", NOW]
    result = _piped("cat h.csv", ["import", "history", "-", *common], tmp_path)
    assert result.returncode == 2, result.stderr
    assert "(a NUL byte at byte 99)" in result.stderr
    assert env["state"].read_bytes() == before


def test_a_piped_history_without_nul_is_imported_as_before(tmp_path: Path) -> None:
    """``cat h.csv | fs import history -``: two hours of one CPU for alice."""
    write_pool(tmp_path)
    text = "owner,account,start,end\nalice,hep,2026-11-21T08:00:00Z,2026-11-21T10:00:00Z\n"
    (tmp_path / "h.csv").write_text(text)
    common = ["--config", "pool.toml", "--state", "state.json", "--now", NOW]
    result = _piped("cat h.csv", ["import", "history", "-", *common], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Imported 1 usage record from - into state.json\n"
