"""SQLite's failures told apart, each as one line that says the usage history is not
damaged: a disk that refuses a write (full, failing), a file another program holds locked,
a hot journal a read-only open may not roll back, a folder where SQLite cannot make its
journal. Any other SQLite error is left to the caller (a damaged or foreign file)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from fairshare_cli.errors import RuntimeFailure, StateError

#: SQLite's primary result codes of a write the device refused (``SQLITE_FULL``,
#: ``SQLITE_IOERR``; an extended code keeps its primary in the low byte).
_DEVICE_ERRORS = {
    13: ("the disk is full", "free some space and run it again"),
    10: ("the disk failed to write (an I/O error)",
         "check the disk (the kernel's log, the file system) and run it again"),
}  # fmt: skip
#: ``SQLITE_BUSY`` and ``SQLITE_LOCKED``: another program holds the file (``sqlite3 FILE
#: 'BEGIN EXCLUSIVE;'``): not a damaged file to move aside.
_BUSY = (5, 6)
#: ``SQLITE_READONLY_ROLLBACK``: a hot journal a read-only reader may not roll back.
READONLY_ROLLBACK = 776


def disk_failure(exc: BaseException, what: str) -> RuntimeFailure | None:
    """A SQLite write the disk refused (full, failing), or a file another program holds
    locked, as one line of exit 1 saying the file is not damaged; None for any other error
    (a damaged or foreign file)."""
    code = getattr(exc, "sqlite_errorcode", None)  # (Python 3.11+; else the message)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary is None:
        text = str(exc).lower()
        primary = 13 if "disk is full" in text else 10 if "disk i/o error" in text else None
        primary = 5 if "database is locked" in text else primary
    if code == READONLY_ROLLBACK:
        return RuntimeFailure(
            f"cannot read {what}: it holds a write a process left unfinished (a hot journal), "
            "which a read-only open does not roll back; fs whatif, any fs import, a committed "
            "fs negotiate or sqlite3 FILE 'PRAGMA quick_check;' rolls it back"
        )
    if primary in _BUSY:
        return RuntimeFailure(
            f"cannot use {what}: another program holds it locked ({exc}); nothing was "
            "written (the state and the history are unchanged); run it again once it is done"
        )
    if primary not in _DEVICE_ERRORS:
        return None
    failure, advice = _DEVICE_ERRORS[primary]
    return RuntimeFailure(
        f"cannot write {what}: {failure}; nothing was written (the state and the history "
        f"are unchanged); {advice}"
    )


#: ``SQLITE_READONLY_DIRECTORY``: the journal's folder may not be written.
_READONLY_DIRECTORY = 1544


def cannot_open(exc: sqlite3.Error, path: Path) -> RuntimeFailure | None:
    """SQLite's ``SQLITE_CANTOPEN`` once the file is open, or ``SQLITE_READONLY_DIRECTORY``
    (a store this user may write in a folder it may not: "attempt to write a readonly
    database"), as one line of exit 1: it could not make its journal beside the file (a
    disk out of inodes, a folder that refuses a new file), which is no fault of the file's;
    None for another error."""
    code = getattr(exc, "sqlite_errorcode", None)  # (Python 3.11+; else the message)
    cannot_open = code & 0xFF == 14 if isinstance(code, int) else "unable to open" in str(exc)
    read_only_folder = code == _READONLY_DIRECTORY
    if not cannot_open and not read_only_folder:
        return None
    try:
        room = os.statvfs(Path(path).parent)
    except OSError:
        room = None
    why = (
        "the folder is read-only to this user"
        if read_only_folder
        else "the folder refuses a new file"
        if room is None or (room.f_favail and room.f_bavail)
        else "the disk has no room for a new file"
    )
    return RuntimeFailure(
        f"cannot write usage history {path}: SQLite cannot make its journal beside it "
        f"({exc}: {why}); nothing was written (the state and the history are unchanged)"
    )


def refuse_folders(paths: list[Path]) -> None:
    """Refuse a folder (or a link to one) where fs or SQLite write a usage history's own
    files (its journal, a new history made whole): removing it or writing there failed
    half-way, blamed on the state file ('cannot write state file s.json: Is a directory')
    or told as Python's bare words, exit 1.

    Raises:
        StateError: one of ``paths`` is a folder (exit 2, as a folder for the lock is).
    """
    for path in paths:
        if path.is_dir():
            raise StateError(
                f"{path} is a folder, not a file: fs and SQLite write the usage history's "
                "own files there (its journal, a new history) while fs changes the state; "
                "remove it"
            )
