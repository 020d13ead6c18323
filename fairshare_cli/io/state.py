"""Load and save the JSON state file: atomic writes, a lock for read-modify-write.

A missing file is an empty state. A corrupt, foreign or newer-schema file is refused and
left byte-for-byte untouched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fairshare_cli.core.names import json_shown, unicode_only
from fairshare_cli.core.state import (
    FORMAT_MARK,
    SCHEMA_VERSION,
    State,
    state_to_json,
)
from fairshare_cli.errors import RuntimeFailure, StateError
from fairshare_cli.io.atomic import (
    atomic_write_text,
    keep_owner,
    lock_saying_so,
    refuse_read_only,
    refuse_special,
    remove_stale_temp_files,
)
from fairshare_cli.io.inputs import fast_loads, read_regular
from fairshare_cli.io.json_keys import DuplicateKey, RepeatedKeys, surely_distinct
from fairshare_cli.io.json_numbers import FINITE, NonFiniteNumber

#: The state size from which msgspec decodes it: importing msgspec costs 8-14 ms
#: of CPU, json.loads about 3.3 ms more than msgspec per 100 KB (measured on the sshare
#: benchmark's 197 KB state: json 7.4-9 ms, msgspec 1.4-1.9 ms).
MSGSPEC_FROM = 384 * 1024

#: What a state file that cannot be read as one is told.
AFRESH = "fix it or move it aside to start afresh"

#: Upgrades from schema version N to N + 1, by N. Empty while there is only version 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def load_state(path: Path) -> State:
    """Read the state at ``path`` (missing ⇒ empty).

    Raises:
        StateError: unreadable, not JSON, not ours, or of a newer schema.
    """
    try:
        data = read_regular(path)
    except FileNotFoundError:
        return State()
    except IsADirectoryError:
        raise StateError(f"state file {path} is a directory; give a file path") from None
    except OSError as exc:
        raise StateError(f"state file {path} cannot be read: {exc.strerror}") from None
    if not data or data.isspace():  # the same test as strip(), without a copy of the file
        raise StateError(
            f"state file {path} is empty (truncated?); fix it or move it aside to start afresh"
        )
    # msgspec reads a big state fastest; a small one the standard library reads before
    # msgspec is even imported (unless something else loaded it already).
    big = len(data) >= MSGSPEC_FROM or "msgspec" in sys.modules
    try:
        doc = _doc(data, path, big)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_MARK:
            raise StateError(
                f'state file {path} is not a fairshare-cli state file (no "format": '
                f'"{FORMAT_MARK}"); refusing to use or overwrite it'
            )
    except StateError as exc:  # (a pool config given as --state: not "move it aside")
        from fairshare_cli.io.importers.sniff import STATE_FILE, other_file

        raise other_file(exc, str(path), STATE_FILE, AFRESH) from None
    version = doc.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StateError(f"state file {path} has no valid schema_version")
    if version > SCHEMA_VERSION:
        raise StateError(
            f"state file {path} has schema_version {version}, newer than this fs supports "
            f"({SCHEMA_VERSION}); upgrade fairshare-cli"
        )
    while version < SCHEMA_VERSION:
        doc = MIGRATIONS[version](State(sections=doc).section_values())
        version += 1
    sections = {k: v for k, v in doc.items() if k not in ("format", "schema_version")}
    return State(sections=sections)


def _not_json(exc: Exception) -> str:
    """What is wrong with a state ``json.loads`` refused with ``exc`` (it said 'line ?' for
    all but a syntax error)."""
    if isinstance(exc, UnicodeDecodeError):
        return f"is not UTF-8 text (byte {exc.start})"
    if isinstance(exc, json.JSONDecodeError):
        return f"is not valid JSON (line {exc.lineno})"
    if isinstance(exc, RecursionError):
        return "is not valid JSON (nested too deep)"
    return "is not valid JSON (a whole number too long)"


def _doc(data: bytes, path: Path, big: bool) -> Any:
    """The state document, every section decoded (by msgspec when ``big``, where it
    takes the document).

    Raises:
        StateError: not UTF-8 (a byte-order mark allowed) nor JSON, a number that is
            not finite, or an object that gives a key twice.
    """
    doc = fast_loads(data, None) if big else None  # never None for a state: an object
    if doc is not None and not surely_distinct(data, doc):
        doc = None  # (a key given twice, maybe: the exact reader tells)
    try:
        if doc is None:  # msgspec refused it: the standard library words why
            # UTF-8 (a byte-order mark allowed, as in a config): json.loads would read
            # UTF-16 too, and UTF-8-encoded surrogates fs could never write back.
            text = data.decode("utf-8-sig")
            repeats = RepeatedKeys()
            doc = json.loads(
                text,
                object_pairs_hook=repeats,
                **FINITE,
            )
            repeats.refuse(doc)
    except DuplicateKey as exc:  # (fs never writes one: either value may be the one meant)
        raise StateError(
            f"state file {path}: {exc} ({exc.place()}); fix it or move it aside to start afresh"
        ) from None
    except NonFiniteNumber as exc:
        raise StateError(
            f"state file {path} holds the number {exc}, expected finite numbers only; "
            "fix it or move it aside to start afresh"
        ) from None
    except (ValueError, RecursionError) as exc:
        # JSONDecodeError, UnicodeDecodeError, an integer too long to convert, too deep.
        raise StateError(f"state file {path} {_not_json(exc)}; {AFRESH}") from None
    return doc


def _first_not_text(doc: Any) -> str:
    """Where the first lone surrogate in the state ``doc`` sits (:func:`_not_text`)."""
    try:
        return _not_text(doc, "") or _LONE_SURROGATE
    except RecursionError:
        return _LONE_SURROGATE


_LONE_SURROGATE = "a lone surrogate (\\udXXX), not Unicode text"


def _not_text(obj: Any, where: str) -> str | None:
    """Where the first string in ``obj`` that is not Unicode text (a lone surrogate) sits
    and what was expected, as the sections word it; None if there is none."""
    if isinstance(obj, str):
        return (
            None if unicode_only(obj) else f"{where}: expected Unicode text, got {json_shown(obj)}"
        )
    items = (
        obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    )
    for key, value in items:
        at = f"{where}.{key}" if where else str(key)
        if isinstance(key, str) and not unicode_only(key):
            return f"{at}: expected a name of Unicode text"
        found = _not_text(value, at)
        if found is not None:
            return found
    return None


def save_state(
    path: Path,
    state: State,
    before_rename: Callable[[], None] | None = None,
    make_folders: bool = True,
    hold_stops: bool = False,
) -> None:
    """Write atomically: temp file in the same folder, flush, fsync, rename, fsync folder;
    the file keeps its permissions (a new one is private: 0600). ``before_rename`` runs
    between the fsync and the rename (:func:`~fairshare_cli.io.atomic.atomic_write_text`).
    Without ``make_folders`` a folder that is gone is not made again: under
    :func:`state_lock`, whose lock file is in it (a folder removed while fs ran, made again,
    would hold a state no lock guards). With ``hold_stops`` Ctrl-C and SIGTERM are held back
    from the rename on (:func:`~fairshare_cli.io.atomic.atomic_write_text`).

    Raises:
        StateError: a string in it is not Unicode text (a lone surrogate the state read
            held, in a section the command did not read, which checks what it reads).
        RuntimeFailure: the folder cannot be created or written (the old file is kept).
    """
    from fairshare_cli.core.jsonstate import sorted_bytes  # msgspec: not on --help paths

    doc = state_to_json(state)
    try:  # (bytes: a 36 MB state is not copied into a text, nor the text encoded again)
        text = [sorted_bytes(doc), b"\n"]
    except UnicodeEncodeError:  # a lone surrogate ("\udc80") in a section not read
        raise StateError(
            f"state file {path}: {_first_not_text(doc)}; fix it or move it aside to start afresh"
        ) from None
    except ValueError as exc:  # a NaN or infinity: JSON has no such number
        raise RuntimeFailure(
            f"cannot write state file {path}: {exc}; nothing was written"
        ) from None
    try:  # (the mode it has: a state a group shares stays readable to the group)
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o600
    atomic_write_text(path, text, "state file", mode, before_rename, make_folders, hold_stops)


@contextlib.contextmanager
def state_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``<state>.lock`` for a read-modify-write.

    Raises:
        InputError: the state path is a device, a pipe or a folder (no lock is made).
        StateError: a folder, a loop of links or a link to nothing is where the lock goes.
        RuntimeFailure: the lock file cannot be created.
    """
    lock_path = path.with_name(path.name + ".lock")
    _refuse_file_in_path(path)
    refuse_special(path, "state file")  # (no lock beside a device: /dev/null.lock)
    refuse_read_only(path, "state file")  # (before the work, not at its write)
    try:
        lock_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:  # (--create-dirs: a folder of the path, not the lock, failed)
        _refuse_lock_in_the_way(lock_path)
        folder = exc.filename or lock_path.parent
        raise RuntimeFailure(f"cannot create folder {folder}: {exc.strerror}") from None
    try:
        fd = _open_lock(lock_path, path)
    except OSError as exc:
        _refuse_lock_in_the_way(lock_path)
        why = exc.strerror or str(exc)
        if exc.errno == errno.EACCES and not os.access(lock_path.parent, os.W_OK):
            why += " (the folder is read-only to this user)"
        raise RuntimeFailure(f"cannot create lock file {lock_path}: {why}") from None
    try:
        lock_saying_so(fd, f"{lock_path}: another fs is changing the state")
        remove_stale_temp_files(path)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _refuse_lock_in_the_way(lock_path: Path) -> None:
    """A folder, a loop of links or a link to nothing where the state's lock file goes is
    bad input (exit 2, as such a state path is), not a failure to write.

    Raises:
        StateError: ``lock_path`` is one of those.
    """
    if lock_path.is_dir():
        kind = "a folder"
    elif not lock_path.is_symlink():
        return
    else:
        loops = os.path.islink(os.path.realpath(lock_path))  # (realpath stops at a loop)
        kind = "a loop of symbolic links" if loops else "a symbolic link to nothing"
    raise StateError(
        f"lock file {lock_path} is {kind}, not a file: fs locks the state file with it "
        "while it changes the state; remove it (fs makes it again)"
    )


def _open_lock(lock_path: Path, path: Path) -> int:
    """Open the lock file of the state at ``path``; a new one gets the state's owner,
    group and read-write bits, so that whoever may write the state may lock it (root's
    first ``fs submit`` made a lock of root's, 0600, beside condor's state, and condor's
    next one failed: cannot create lock file, Permission denied); one there already that
    this user may read but not write (made so by another user) is opened to read."""
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            return os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except PermissionError:  # (another user's, readable: flock needs no write access)
            return os.open(lock_path, os.O_RDONLY)
    try:
        like = os.stat(path)
    except OSError:  # (a new state: private, and the writer's)
        return fd
    keep_owner(fd, like)
    with contextlib.suppress(OSError):
        os.fchmod(fd, like.st_mode & 0o666 | 0o600)
    return fd


def _refuse_file_in_path(path: Path) -> None:
    """A state path below a plain file is bad input (exit 2), named as such.

    Raises:
        StateError: some folder of ``path`` is a file.
    """
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise StateError(
                    f"state file {path}: {parent} is a file, not a folder; give another path"
                )
            return
