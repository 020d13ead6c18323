"""A state or config that is standard input or a pipe (``--state /dev/stdin``, ``/proc/self/fd/0``,
``-``): fs reads the state, locks it and renames a new one over it, which a
stream cannot take. The link ``/dev/stdin`` of a pipe names ``pipe:[...]``, no file, so
views showed an empty pool (as if the state were missing) and edits failed on a lock file
beside ``pipe:[...]`` with exit 1. Now one line naming the stream, exit 2, before a lock
or a read; a state redirected from a file (``< state.json``) still reads as that file, and
a named pipe's messages are as before. A config piped in said 'cannot be read: a named
pipe' (or, for ``-``, 'does not exist'); it says why a config is a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import NOW, write_pool

SAYS = ", not a file: fs reads, locks and replaces its state file; save the state to a file"


def _fs(args: list[str], stdin: bytes | Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``python -m fairshare_cli ARGS`` with ``stdin`` piped in (bytes) or redirected
    from a file (a path)."""
    env = {**os.environ, "COLUMNS": "200", "TZ": "UTC"}
    line = [sys.executable, "-m", "fairshare_cli", *args]
    if isinstance(stdin, Path):
        with stdin.open("rb") as fh:
            return subprocess.run(line, stdin=fh, capture_output=True, env=env, cwd=cwd)
    return subprocess.run(line, input=stdin, capture_output=True, env=env, cwd=cwd)


@pytest.mark.parametrize("given", ["/dev/stdin", "/proc/self/fd/0", "-"])
@pytest.mark.parametrize(
    "command", [["userprio"], ["setfactor", "alice@example.org", "2", "--create"]]
)
def test_a_piped_state_is_refused(tmp_path: Path, given: str, command: list[str]) -> None:
    """``cat state.json | fs COMMAND --state GIVEN --config pool.toml --now NOW``."""
    if given != "-" and not os.path.exists(given):
        pytest.skip(f"no {given}")
    pool = write_pool(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    line = [*command, "--config", str(pool["config"]), "--state", given, "--now", NOW]
    proc = _fs(line, pool["state"].read_bytes(), tmp_path)
    kind = "standard input" if given == "-" else "a pipe"
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == b""
    assert (
        proc.stderr.decode()
        == f"fs: error: state file {given} is {kind}{SAYS} and pass that path\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # (no lock, no file "-")


def test_a_state_in_the_environment_piped_is_refused(tmp_path: Path) -> None:
    """``cat state.json | FAIRSHARE_STATE=/dev/stdin fs sshare --config pool.toml``."""
    if not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin")
    pool = write_pool(tmp_path)
    line = ["sshare", "--config", str(pool["config"]), "--now", NOW]
    env = {**os.environ, "FAIRSHARE_STATE": "/dev/stdin"}
    cmd = [sys.executable, "-m", "fairshare_cli", *line]
    proc = subprocess.run(cmd, input=b"{}", capture_output=True, env=env, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("fs: error: state file /dev/stdin is a pipe, not a file")


def test_a_state_redirected_from_a_file_reads_as_that_file(tmp_path: Path) -> None:
    """``fs userprio --state /dev/stdin < state.json``: the file itself (as before)."""
    if not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin")
    pool = write_pool(tmp_path)
    line = ["sprio", "--config", str(pool["config"]), "--now", NOW]
    by_name = _fs([*line, "--state", str(pool["state"])], b"", tmp_path)
    redirected = _fs([*line, "--state", "/dev/stdin"], pool["state"], tmp_path)
    assert redirected.returncode == 0, redirected.stderr
    assert redirected.stdout == by_name.stdout and b"\n              1 batch" in by_name.stdout


@pytest.mark.parametrize("given", ["/dev/stdin", "/proc/self/fd/0", "-"])
def test_a_piped_config_is_refused(tmp_path: Path, given: str) -> None:
    """``cat pool.toml | fs sshare --config GIVEN --state state.json --now NOW``."""
    if given != "-" and not os.path.exists(given):
        pytest.skip(f"no {given}")
    pool = write_pool(tmp_path)
    line = ["sshare", "--config", given, "--state", str(pool["state"]), "--now", NOW]
    proc = _fs(line, pool["config"].read_bytes(), tmp_path)
    kind = "standard input" if given == "-" else "a pipe"
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        f"fs: error: config file {given} is {kind}, not a file: fs reads its config whenever "
        "it runs; save the config to a file and pass that path\n"
    )
