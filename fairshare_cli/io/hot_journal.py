"""A hot journal beside the usage history store (a write a process left unfinished: killed,
or its disk failing as it committed and as it rolled back) rolled back for a reader, as
SQLite means the next opener to: under the state lock, by a read-write open.

A reader opens the store read only (``fs whatif``), and SQLite refuses such an open
(``SQLITE_READONLY_ROLLBACK``) while the journal is hot: the file may hold pages of the
unfinished write. The next writer rolled it back; until then every ``fs whatif`` failed.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from fairshare_cli.errors import InputError, RuntimeFailure
from fairshare_cli.io.sqlite_errors import READONLY_ROLLBACK, disk_failure

#: SQLite's primary codes of an open that may not write the file: ``SQLITE_PERM``,
#: ``SQLITE_READONLY`` (``SQLITE_READONLY_ROLLBACK`` among them), ``SQLITE_CANTOPEN``.
_MAY_NOT_WRITE = (3, 8, 14)


def has_hot_journal(path: Path) -> bool:
    """Whether the store at ``path`` has a hot journal beside it: a non-empty
    ``-journal`` that a read-only open of the store refuses to read past."""
    journal = path.with_name(path.name + "-journal")
    try:
        if journal.stat().st_size == 0:
            return False
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return False
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        return code == READONLY_ROLLBACK or "rollback" in str(exc).lower()
    finally:
        conn.close()
    return False


def roll_back(state_path: Path, path: Path) -> None:
    """Roll back a hot journal beside the store at ``path`` (the store of the state at
    ``state_path``), as a writer's open does, under the state lock (a writer of fs holds
    it across its own write and put-back). Nothing happens where the journal is not hot.

    Raises:
        InputError: this user may not write the store, its folder or the state's lock:
            the one line names who can roll it back.
        RuntimeFailure: the disk fails the rollback (still full, failing).
    """
    from fairshare_cli.io.state import state_lock

    if not has_hot_journal(path):
        return
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(state_lock(state_path))
        except RuntimeFailure as exc:  # (a read-only state or folder: no lock file)
            raise _cannot_roll_back(path, str(exc)) from None
        _open_to_roll_back(path)


def _open_to_roll_back(path: Path) -> None:
    """Open the store read-write and read it: SQLite rolls a hot journal back first."""
    try:
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in _MAY_NOT_WRITE:
            raise _cannot_roll_back(path, str(exc)) from None
        failure = disk_failure(exc, f"usage history {path}")
        raise failure or RuntimeFailure(f"usage history {path}: {exc}") from None


def _cannot_roll_back(path: Path, why: str) -> InputError:
    return InputError(
        f"usage history {path} holds a write a process left unfinished (a hot journal), "
        f"which this user may not roll back ({why}); run any fs import as a user who may "
        f"write it, or sqlite3 {path} 'PRAGMA quick_check;'"
    )
