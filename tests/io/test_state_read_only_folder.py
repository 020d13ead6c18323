"""Every writing command on a pool in a folder this user may read but not write (its state
and config readable, not writable): one line, exit 1 (docs/exit-codes.md: a runtime
failure, "a read-only folder or file"), nothing written, no temporary file left.

Without root, the folder is made read-only by ``tests/fixtures/readonly_shim.c``
(``LD_PRELOAD``): every call that would change it fails with EACCES, as the kernel fails
them for a user without write permission; as root (whom the kernel lets write) too. With
root and a Python another user may run, one command also runs as that user on a real
0755 folder of root's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import needs_linux_cc

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"
FIXTURES = REPO / "tests" / "fixtures"
NOW = "2026-11-21T12:00:00Z"
#: An owner and group that are not root's (``daemon`` on Linux).
OTHER = 1


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under ``folder``: its mode and bytes."""
    return {
        str(p.relative_to(folder)): (p.stat().st_mode, p.read_bytes() if p.is_file() else b"")
        for p in sorted(folder.rglob("*"))
    }


def _fs(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairshare_cli", *args],
        env={**os.environ, **env, "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=cwd, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


#: ``{D}``: the pool's folder; ``{F}``: the test fixtures. The state is the config's
#: ``sample-state.json`` unless a line names another.
WRITERS = [
    pytest.param("setfactor group_physics.hep.alice@example.org 2", "state file", id="setfactor"),
    pytest.param("submit --owner alice", "state file", id="submit"),
    pytest.param("rm 101.0", "state file", id="rm"),
    pytest.param("negotiate", "state file", id="negotiate"),
    pytest.param("import history {D}/history.csv", "state file", id="import-history"),
    pytest.param(
        "import condor-userprio {F}/htcondor-25.0/flat_users/condor_userprio.long.txt",
        "state file",
        id="import-condor-userprio",
    ),
    pytest.param(
        "import sacctmgr {F}/slurm-22.05/cl1_idle/sacctmgr_assoc_tree.txt "
        "--into {D}/pool.toml --replace",
        "config file {D}/pool.toml: Permission denied (the file is read-only",
        id="import-into",
    ),
    pytest.param("init --force {D}/pool.toml", "config file {D}/pool.toml", id="init-force"),
    pytest.param("init {D}/new.toml", "config file {D}/new.toml: Permission denied", id="init"),
    pytest.param(
        "simulate --workload {D}/workload.json --html {D}/out.html",
        "HTML page {D}/out.html: its folder is not writable",
        id="simulate-html",
    ),
    pytest.param(
        "sweep {D}/sweep.toml --out {D}/runs", "sweep manifest {D}/runs/sweep.json", id="sweep"
    ),
    pytest.param(
        "submit --owner alice --state {D}/new-state.json",
        "lock file {D}/new-state.json.lock: Permission denied (the folder is read-only",
        id="new-state",
    ),
]


@needs_linux_cc
@pytest.mark.parametrize(("line", "says"), WRITERS)
def test_a_writing_command_in_a_read_only_folder(
    readonly_shim: Path, tmp_path: Path, line: str, says: str
) -> None:
    folder = tmp_path / "pool"
    shutil.copytree(SAMPLE, folder)
    scratch = tmp_path / "tmp"  # (TMPDIR: an import's sort files; none may be left)
    scratch.mkdir()
    before = _snapshot(folder)
    words = line.format(D=folder, F=FIXTURES).split()
    if "--into" not in words and words[0] not in ("init", "sweep"):  # (a sweep's spec names them)
        words += ["--config", str(folder / "pool.toml"), "--now", NOW]
    env = {"LD_PRELOAD": str(readonly_shim), "READONLY_DIR": str(folder), "TMPDIR": str(scratch)}
    done = _fs(words, env, tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"fs: error: cannot write {says.format(D=folder)}") or lines[
        0
    ].startswith(f"fs: error: cannot create {says.format(D=folder)}"), lines[0]
    assert done.stdout == ""
    assert _snapshot(folder) == before
    assert list(scratch.iterdir()) == []


@needs_linux_cc
def test_a_lock_another_user_left_readable_is_used(readonly_shim: Path, tmp_path: Path) -> None:
    """``fs submit`` beside a lock file this user may read but not write (another user's,
    0644) failed: "cannot create lock file ...: Permission denied", though the state was
    the user's to write. ``flock`` needs no write access: the lock is opened to read."""
    folder = tmp_path / "pool"
    shutil.copytree(SAMPLE, folder)
    lock = folder / "sample-state.json.lock"
    lock.write_bytes(b"")
    state = folder / "sample-state.json"
    before = state.read_bytes()
    args = ["submit", "--owner", "alice", "--config", str(folder / "pool.toml"), "--now", NOW]
    done = _fs(args, {"LD_PRELOAD": str(readonly_shim), "READONLY_DIR": str(lock)}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert state.read_bytes() != before
    assert lock.read_bytes() == b""


def test_as_another_user_in_a_real_read_only_folder() -> None:
    """As root: ``fs submit`` run as another user on a pool in root's 0755 folder, its
    state root's 0644: one line, exit 1, the folder as it was."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run as another user")
    with tempfile.TemporaryDirectory() as scratch:  # (tmp_path's parents are root's 0700)
        top = Path(scratch)
        top.chmod(0o755)
        folder = top / "pool"
        shutil.copytree(SAMPLE, folder)
        before = _snapshot(folder)
        other = ["setpriv", f"--reuid={OTHER}", f"--regid={OTHER}", "--clear-groups"]
        home = {**os.environ, "HOME": scratch, "PYTHONDONTWRITEBYTECODE": "1"}
        probe = [*other, sys.executable, "-c", "import fairshare_cli"]
        if subprocess.run(probe, cwd=top, env=home, capture_output=True).returncode:
            pytest.skip("the other user cannot run this Python or read fs (a private venv)")
        args = ["submit", "--owner", "alice", "--config", str(folder / "pool.toml"), "--now", NOW]
        done = subprocess.run(
            [*other, sys.executable, "-m", "fairshare_cli", *args],
            cwd=top, env=home, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert done.stderr == (
            f"fs: error: cannot write state file {folder}/sample-state.json: Permission denied "
            "(the file is read-only to this user); nothing was written\n"
        )
        assert _snapshot(folder) == before
