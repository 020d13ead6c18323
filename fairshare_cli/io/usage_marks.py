"""What a state includes of its usage history store: the marks in its ``usage_history``
section (the last row id of each table, and which file they count in); whether the store
is there (a file, missing, or a path refused: a pipe, a folder, a link to nothing)."""

from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from fairshare_cli.core.state import State
from fairshare_cli.errors import StateError

SECTION = "usage_history"
"""The state section holding the store's marks: what the state includes of the file."""


@dataclass(frozen=True)
class Marks:
    """Where the state's view of the store ends: the last row id of each table, and the
    store's ``generation`` (a token each new store file gets; "" for a file made before
    there were tokens). Row ids count in one file only: an import that replaced the store
    and died before writing the state leaves the old state's marks beside another file,
    whose generation differs."""

    records: int = 0
    ends: int = 0
    generation: str = ""

    def to_json(self) -> dict[str, int | str]:
        marks: dict[str, int | str] = {"records": self.records, "ends": self.ends}
        if self.generation:
            marks["generation"] = self.generation
        return marks

    def includes_rows(self) -> bool:
        """Whether the state includes any row of the store."""
        return bool(self.records or self.ends)


def store_path(state_path: Path) -> Path:
    """``state.json`` -> ``state.history.sqlite`` (same folder); a symbolic link there to a
    file, the file it names: a store written whole (``--rebuild``) is renamed over that
    file and the link stays a link, as a state's does (a link to nothing stays the link,
    which :func:`present_file` refuses).
    """
    path = state_path.with_name(f"{state_path.stem}.history.sqlite")
    if os.path.islink(path) and os.path.isfile(path):
        return Path(os.path.realpath(path))
    return path


def present_file(path: Path, what: str) -> bool:
    """Whether ``path`` is there: a file (or a link to one); missing, not.

    A symbolic link to nothing is neither: the file it names may be on a disk not mounted,
    and a writer would replace the link (or SQLite create a file through it). Every reader
    and writer of the usage history asks here, so all refuse it alike.

    Raises:
        StateError: it is a pipe, a device, a socket or a folder, which opening could wait
            on for ever (a pipe nobody writes) or read as no file; it cannot be looked at
            (a loop of symbolic links); or it is a symbolic link to nothing.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            raise StateError(
                f"{what} is a symbolic link to nothing ({os.readlink(path)}); restore the "
                "file it names, or remove the link to start a new history"
            ) from None
        return False
    except OSError as exc:  # (a symbolic link loop: neither missing nor there)
        raise StateError(f"{what} cannot be read: {exc.strerror}; move it aside") from None
    if not stat.S_ISREG(mode):
        raise StateError(
            f"{what} is not a regular file (a pipe, a device or a folder); move it aside"
        )
    return True


def new_generation() -> str:
    """The token of a new store file."""
    return secrets.token_hex(8)


def marks_of(section: object) -> Marks:
    """The marks a state section records (none: nothing of the file is the state's).

    Raises:
        StateError: the section is not two whole numbers (and a generation's token).
    """
    if section is None:
        return Marks()
    if isinstance(section, dict):
        r, e = section.get("records", 0), section.get("ends", 0)
        generation = section.get("generation", "")
        if (
            type(r) is int
            and type(e) is int
            and 0 <= r < 2**63  # (SQLite ids)
            and 0 <= e < 2**63
            and isinstance(generation, str)
            and len(generation) <= 64
        ):
            return Marks(r, e, generation)
    raise StateError(
        f'state section "{SECTION}": expected {{"records": N, "ends": N}} and a "generation" token'
    )


def check_kept_marks(before: State, after: State) -> None:
    """The marks a command writes back as it found them are marks (:func:`marks_of`).

    Raises:
        StateError: they are not.
    """
    kept = after.section(SECTION)
    if kept is not None and kept is before.section(SECTION):
        marks_of(kept)
