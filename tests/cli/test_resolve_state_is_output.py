"""A state or config that is fs's own standard output or error is refused (exit 2, one
line, the file untouched), as ``cat`` refuses an input file that is its output.

``fs userprio --state st.json >> st.json`` appended the table to the state (exit 0; the
next command refused it as not valid JSON), and ``fs userprio --state /dev/stdout >
out.txt`` said ``state file out.txt is empty (truncated?)``, naming a file not given.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import common, write_pool
from tests.conftest import REPO


def _sh(script: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        ["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, check=False
    )


def _one_line(text: str, *must: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fs: error: "), text
    for part in must:
        assert part in lines[0], (part, lines[0])


@pytest.mark.parametrize("line", ["userprio", "setfactor alice@example.org 2 --create"])
def test_a_state_appended_to_by_the_output_is_refused(line: str, tmp_path: Path) -> None:
    """``fs userprio --config pool.toml --state state.json --now ... >> state.json``."""
    env = write_pool(tmp_path)
    before = env["state"].read_bytes()
    fs = f"{sys.executable} -m fairshare_cli {line} {' '.join(common(env))}"
    done = _sh(f"{fs} >> {env['state']}", tmp_path)
    assert done.returncode == 2
    _one_line(
        done.stderr,
        f"state file {env['state']} is also fs's standard output (redirected to it)",
    )
    assert env["state"].read_bytes() == before


def test_the_state_named_dev_stdout_is_refused(tmp_path: Path) -> None:
    """``fs userprio ... --state /dev/stdout > out.txt``, and ``/dev/stderr 2> err.txt``."""
    env = write_pool(tmp_path)
    fs = f"{sys.executable} -m fairshare_cli userprio --config {env['config']} --now 0"
    done = _sh(f"{fs} --state /dev/stdout > out.txt", tmp_path)
    assert done.returncode == 2
    _one_line(done.stderr, "state file /dev/stdout is also fs's standard output")
    assert not (tmp_path / "out.txt.lock").exists()
    done = _sh(f"{fs} --state /dev/stderr 2> err.txt", tmp_path)
    assert done.returncode == 2
    _one_line((tmp_path / "err.txt").read_text(), "is also fs's standard error")


def test_a_config_appended_to_by_the_output_is_refused(tmp_path: Path) -> None:
    """``fs userprio --config pool.toml ... >> pool.toml``."""
    env = write_pool(tmp_path)
    before = env["config"].read_bytes()
    fs = f"{sys.executable} -m fairshare_cli userprio {' '.join(common(env))}"
    done = _sh(f"{fs} >> {env['config']}", tmp_path)
    assert done.returncode == 2
    _one_line(done.stderr, f"config file {env['config']} is also fs's standard output")
    assert env["config"].read_bytes() == before


def test_output_to_another_file_is_written(tmp_path: Path) -> None:
    env = write_pool(tmp_path)
    fs = f"{sys.executable} -m fairshare_cli userprio {' '.join(common(env))}"
    done = _sh(f"{fs} > out.txt", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Last Priority Update" in (tmp_path / "out.txt").read_text()
