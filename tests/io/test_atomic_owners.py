"""Files fs replaces or adds beside a state keep the state's owner, group and permissions:
the state itself, its lock and its usage history."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, common, write_pool

#: Root may give a file away: the tests that need it run as root only.
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="gives files to another user")
#: An owner and group that are not root's (``daemon`` on Linux).
OTHER = 1


def owner(path: Path) -> tuple[int, int, int]:
    """(uid, gid, permission bits) of ``path``."""
    status = path.stat()
    return status.st_uid, status.st_gid, status.st_mode & 0o777


@as_root
def test_a_state_keeps_its_owner_and_group(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Root's ``fs submit`` on a state condor owns (0640, group-readable) left it root's
    (root:root 0640): condor could no longer write it, nor its group read it."""
    env = write_pool(tmp_path)
    os.chown(env["state"], OTHER, OTHER)
    env["state"].chmod(0o640)
    result = run("submit", "--id", "2", "--owner", "bob", *common(env))
    assert result.exit_code == 0, result.stderr
    assert owner(env["state"]) == (OTHER, OTHER, 0o640)


@as_root
def test_a_new_lock_is_the_states_owners(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Root's first ``fs submit`` beside condor's state made the lock root's, 0600: condor's
    next ``fs submit`` then failed (cannot create lock file ...: Permission denied). A new
    lock has the state's owner, group and read-write bits."""
    env = write_pool(tmp_path)
    os.chown(env["state"], OTHER, OTHER)
    env["state"].chmod(0o660)
    result = run("submit", "--id", "2", "--owner", "bob", *common(env))
    assert result.exit_code == 0, result.stderr
    assert owner(tmp_path / "state.json.lock") == (OTHER, OTHER, 0o660)


def test_the_usage_history_is_as_private_as_its_state(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import history`` into a new state wrote the state private (0600) and its usage
    history (``state.history.sqlite``: who ran what, when) for everyone to read (0644, the
    umask's). The history gets the state's permissions: 0600 for a new state, the state's
    own (0640, a group's) for one that is there."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text("owner,start,end,slots\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z,1\n")
    new = tmp_path / "new.json"
    line = ["import", "history", str(history), "--config", str(env["config"]), "--now", NOW]
    assert run(*line, "--state", str(new)).exit_code == 0
    assert new.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "new.history.sqlite").stat().st_mode & 0o777 == 0o600
    env["state"].chmod(0o640)
    assert run(*line, "--state", str(env["state"])).exit_code == 0
    assert env["state"].stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "state.history.sqlite").stat().st_mode & 0o777 == 0o640


def test_a_state_read_only_to_the_user_is_not_replaced(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs submit`` on a state this user may not write (root's 0644 in a folder the user's
    group may write; or one made 0444 to freeze it) replaced it all the same: the rename
    asks only the folder. It is refused now (exit 1) and left as it was; ``--dry-run`` and
    the views still read it. (Root may write any file: as root, ``os.access`` stands for
    the user who may not.)"""
    env = write_pool(tmp_path)
    env["state"].chmod(0o444)
    before = env["state"].read_bytes()
    real_access = os.access

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        if Path(path) == env["state"] and mode & os.W_OK:
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    result = run("submit", "--id", "2", "--owner", "bob", *common(env))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"fs: error: cannot write state file {env['state']}: Permission denied (the file is "
        "read-only to this user); nothing was written\n"
    )
    assert env["state"].read_bytes() == before
    assert run("submit", "--id", "2", "--owner", "bob", "--dry-run", *common(env)).exit_code == 0
    assert run("userprio", *common(env)).exit_code == 0


def test_a_state_on_a_read_only_mount_says_so(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs submit`` on a state on a file system mounted read-only (``mount -o ro``; a
    0600 state of root's, run as root) said "Permission denied (the file is read-only to
    this user)", which sends one to chmod a file whose mode is fine. It names the file
    system now, exit 1, the state as it was. (The mount is stood for: ``os.access`` says
    no and ``os.statvfs`` gives ``ST_RDONLY``, as Linux does on such a mount.)"""
    env = write_pool(tmp_path)
    before = env["state"].read_bytes()
    real_access, real_statvfs = os.access, os.statvfs

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        if Path(path) == env["state"] and mode & os.W_OK:
            return False
        return real_access(path, mode, **kwargs)

    class ReadOnly:
        f_flag = os.ST_RDONLY

    def statvfs(path: Any) -> Any:
        return ReadOnly() if Path(path) == env["state"] else real_statvfs(path)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "statvfs", statvfs)
    result = run("submit", "--id", "2", "--owner", "bob", *common(env))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"fs: error: cannot write state file {env['state']}: Read-only file system; "
        "nothing was written\n"
    )
    assert env["state"].read_bytes() == before


def test_a_state_made_0444_is_refused_to_root_too(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root's ``fs submit`` on a state made 0444 to freeze it replaced it (0444 still):
    ``os.access`` grants root everything. vim opens a file without a write bit read-only
    for root too (``:w`` refused), and fs now refuses it so (exit 1), the state as it was;
    ``--dry-run`` still runs. Root's view (``os.access`` saying yes) is taken here for any
    user; another user's 0644 stays root's to replace (test_a_state_keeps_its_owner...)."""
    env = write_pool(tmp_path)
    env["state"].chmod(0o444)
    before = env["state"].read_bytes()
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: True)
    result = run("submit", "--id", "2", "--owner", "bob", *common(env))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"fs: error: cannot write state file {env['state']}: the file is read-only (mode "
        "0444, root included); make it writable (chmod u+w) to let fs replace it; nothing "
        "was written\n"
    )
    assert env["state"].read_bytes() == before
    assert env["state"].stat().st_mode & 0o777 == 0o444
    assert run("submit", "--id", "2", "--owner", "bob", "--dry-run", *common(env)).exit_code == 0
    env["state"].chmod(0o644)
    assert run("submit", "--id", "2", "--owner", "bob", *common(env)).exit_code == 0


def test_a_state_behind_a_folder_the_user_may_not_search_is_named_so(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio --state nox/state.json`` with ``nox`` 0766 (read, no search for this
    user) said 'nox/state.json: Permission denied; give a shorter path', the hint for a
    name too long. Root searches any folder: as root, the command runs as another user."""
    import shutil
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:  # (tmp_path's parents are root's 0700)
        top = Path(scratch)
        env = write_pool(top)
        (top / "nox").mkdir()
        shutil.copy(env["state"], top / "nox" / "state.json")
        (top / "nox").chmod(0o766)
        top.chmod(0o777)
        line = ["userprio", "--config", "pool.toml", "--state", "nox/state.json", "--now", NOW]
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("root, and no setpriv to run as another user")
            other = ["setpriv", f"--reuid={OTHER}", f"--regid={OTHER}", "--clear-groups"]
            home = {**os.environ, "HOME": scratch}
            probe = [*other, sys.executable, "-c", "import fairshare_cli"]
            if subprocess.run(probe, cwd=top, env=home, capture_output=True).returncode:
                pytest.skip("the other user cannot run this Python or read fs (a private venv)")
            done = subprocess.run(
                [*other, sys.executable, "-m", "fairshare_cli", *line],
                cwd=top, capture_output=True, text=True, check=False, env=home,
            )  # fmt: skip
            code, stderr = done.returncode, done.stderr
        else:
            cwd = os.getcwd()
            os.chdir(top)
            try:
                result = run(*line)
            finally:
                os.chdir(cwd)
            code, stderr = result.exit_code, result.stderr
        (top / "nox").chmod(0o755)
    assert (code, stderr) == (
        2,
        "fs: error: nox/state.json: Permission denied (a folder on the path may not be "
        "searched by this user)\n",
    )
