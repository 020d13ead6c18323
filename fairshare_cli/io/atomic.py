"""Atomic file replacement: temp file in the same folder, flush, fsync, rename, fsync folder."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from fairshare_cli.errors import InputError, RuntimeFailure

#: The signals that stop fs (cli/interrupts.py), held back where a file is made.
_STOPS = frozenset({signal.SIGINT, signal.SIGTERM})


def atomic_write_text(
    path: Path,
    text: str | Sequence[bytes],
    what: str,
    mode: int = 0o600,
    before_rename: Callable[[], None] | None = None,
    make_folders: bool = True,
    hold_stops: bool = False,
) -> None:
    """Replace ``path`` by ``text`` so that a reader sees the old file or the new one, whole
    (a text in UTF-8, or pieces of bytes written as they are, one after another).

    The new file has ``mode``, and the owner and group of the file it replaces
    (:func:`keep_owner`). ``what`` names the file in errors ("state file", "config file").
    ``before_rename`` is called once the new file is on the disk, before it replaces
    ``path``: a write that goes with it (the usage history's commit) happens only when
    this one can no longer fail for want of space, and what it raises leaves ``path`` as
    it was. Without ``make_folders`` a gone folder is not made again; Ctrl-C and SIGTERM wait
    while the temporary file is made, and with ``hold_stops`` from the rename on (dropped).

    Raises:
        InputError: ``path`` is a device, a pipe or a folder, which the rename would replace
            (run as root, ``--html /dev/null`` replaced the system's ``/dev/null``).
        RuntimeFailure: the folder cannot be created or written (the old file is kept).
    """
    import tempfile  # here, not at import: read-only commands never write

    refuse_special(path, what)
    replaced = refuse_read_only(path, what)
    made = _missing(path.parent) if make_folders else []
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        if make_folders:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _remove_empty(made)
        blocker = _not_a_folder(path.parent)  # (mkdir said "File exists" of a broken link)
        _refuse_blocker(blocker, f"cannot write {what} {path}")
        gone = "" if make_folders or path.parent.is_dir() else " (its folder was removed)"
        raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}{gone}") from None
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # (one held back comes here)
        _write(fd, text)
        keep_owner(tmp, replaced)
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        if before_rename is not None:
            before_rename()
        if hold_stops:
            signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _remove_empty(made)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if isinstance(exc, OSError):
            raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
        raise
    fsync_folder(path.parent)


def keep_owner(path: str | Path | int, like: os.stat_result | None) -> None:
    """Give ``path`` (or an open file) the owner and group of ``like``, the file it
    replaces or goes with (None: a new one, left as made), as far as this user may: root
    keeps both (root's ``fs submit`` left condor's state root's, which condor could then
    no longer write), another user the group it is a member of (a state a group reads
    stays the group's); else the file stays the writer's."""
    if like is None:
        return
    for owner in (like.st_uid, -1):
        try:
            os.chown(path, owner, like.st_gid)
        except OSError:
            continue
        return


def make_like(path: Path, state: Path) -> None:
    """Make ``path``, a file that goes with the state at ``state`` (its usage history),
    where it is not there yet: empty, with the state's permissions, owner and group (a new
    state's where there is none yet: 0600, the writer's). SQLite made it with the umask's
    (0644): the usage of a private state was for everyone to read.

    Raises:
        RuntimeFailure: it cannot be made (named as ``path``).
    """
    like = _stat(state)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise RuntimeFailure(f"cannot write usage history {path}: {exc.strerror}") from None
    try:
        keep_owner(fd, like)
        if like is not None:
            with contextlib.suppress(OSError):
                os.fchmod(fd, like.st_mode & 0o777)
    finally:
        os.close(fd)


def _stat(path: Path) -> os.stat_result | None:
    """``path``'s status (through a link), or None where it is not there."""
    with contextlib.suppress(OSError):
        return os.stat(path)
    return None


def stage_file(path: Path, text: Sequence[bytes], what: str, mode: int, tag: str) -> Path:
    """Write ``text`` whole to a new hidden file beside ``path`` (``.TAG.NAME.XXXX.tmp``),
    flushed to the disk, for the caller to rename over ``path``; its name. A file a killed
    writer left is found by ``tag`` (:func:`remove_staged`).

    Raises:
        RuntimeFailure: it cannot be written (named as ``path``); nothing is left.
    """
    import tempfile

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)  # (till its name is known)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{tag}.{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # (one held back comes here)
        _write(fd, text)
        os.chmod(tmp, mode)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
        raise
    return Path(tmp)


def replace_files(files: Mapping[Path, Sequence[bytes]], what: str, mode: int, tag: str) -> None:
    """Write each of ``files`` (path -> bytes) whole: all staged beside their places first
    (:func:`stage_file`), then each renamed into place, in the order given (a writer killed
    among the renames leaves the first ones; none before). A failure removes what it
    staged and the files it made anew.

    Raises:
        RuntimeFailure: a file cannot be written or renamed (named).
    """
    staged: dict[Path, Path] = {}
    new: list[Path] = []
    try:
        for path, text in files.items():
            staged[path] = stage_file(path, text, what, mode, tag)
        for path in files:
            existed = os.path.lexists(path)
            try:
                os.replace(staged.pop(path), path)
            except OSError as exc:
                raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
            if not existed:
                new.append(path)
    except BaseException:
        for left in (*staged.values(), *new):
            with contextlib.suppress(OSError):
                left.unlink()
        raise
    for folder in {path.parent for path in files}:
        fsync_folder(folder)


def remove_staged(folder: Path, tag: str) -> None:
    """Remove what a writer killed before its renames staged in ``folder`` under ``tag``
    (files of :func:`stage_file`, folders of :func:`write_new_folder`); call under the lock
    that writer held."""
    import glob
    import shutil

    with contextlib.suppress(OSError):
        for left in folder.glob(f".{glob.escape(tag)}.*.tmp"):
            if left.is_dir() and not left.is_symlink():
                shutil.rmtree(left, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    left.unlink()


def write_new_folder(
    folder: Path, files: Mapping[str, Sequence[bytes]], what: str, mode: int, tag: str
) -> None:
    """Make ``folder`` holding ``files`` (name -> bytes), all or nothing: they are written
    into a hidden folder beside it (``.TAG.XXXX.tmp``), which is renamed to ``folder`` once
    every file is on the disk. A failure leaves nothing (the parents it made removed); a
    writer killed before the rename leaves only the hidden folder (:func:`remove_staged`).

    Raises:
        RuntimeFailure: a folder or file cannot be made (a full disk, a read-only folder,
            something there that is no folder), named as the file it would be.
    """
    import shutil
    import tempfile

    first = folder / next(iter(files))
    made = _missing(folder.parent)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)  # (till the staging is named)
    try:
        if os.path.lexists(folder):  # (a link to nothing, a loop: the rename would replace it)
            raise FileExistsError(errno.EEXIST, "File exists")
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{tag}.", suffix=".tmp", dir=folder.parent))
    except OSError as exc:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _remove_empty(made)
        _refuse_blocker(_not_a_folder(folder), f"cannot write {what} {first}")
        raise RuntimeFailure(f"cannot write {what} {first}: {exc.strerror}") from None
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # (one held back comes here)
        for name, text in files.items():
            try:
                fd = os.open(staging / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                _write(fd, text)
            except OSError as exc:
                why = exc.strerror
                raise RuntimeFailure(f"cannot write {what} {folder / name}: {why}") from None
        fsync_folder(staging)
        try:
            os.rename(staging, folder)
        except OSError as exc:
            raise RuntimeFailure(f"cannot write {what} {first}: {exc.strerror}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(made)
        raise
    fsync_folder(folder.parent)


def through_link(path: Path) -> Path:
    """The file to read and write for ``path``: ``path``, or the file its symbolic link
    names (a link to nothing yet included), so that the link stays a link, as a user who
    made it expects (the rename that writes a file would replace the link itself), and
    two links to one state or config share its lock (the state's ``.lock`` and history
    beside the file itself). ``fs init``, the state and a merge into a config use it.

    Raises:
        InputError: the link's target is in a folder that does not exist, or the links
            loop (nothing to write through to); a name too long for the file system, or
            behind a folder this user may not search.
    """
    if not is_link(path):
        return path
    target = Path(os.path.realpath(path))
    if target.is_symlink():  # (realpath stops where links loop)
        raise InputError(f"{path} is a loop of symbolic links; remove it or name a file")
    if not target.parent.is_dir():
        raise InputError(
            f"{path} is a symbolic link to {target}, whose folder does not exist; create "
            "the folder, or remove the link"
        )
    return target


def is_link(path: Path) -> bool:
    """Whether ``path`` is a symbolic link (a loop of links is one).

    Raises:
        InputError: a name too long for the file system, or behind a folder this user may
            not search (the line shortens a long name, as every other does).
    """
    try:
        return path.is_symlink()
    except OSError as exc:  # (a name longer than the file system takes: ENAMETOOLONG)
        from fairshare_cli.core.names import shown

        hint = {
            errno.ENAMETOOLONG: "; give a shorter path",
            errno.EACCES: " (a folder on the path may not be searched by this user)",
        }.get(exc.errno or 0, "")
        raise InputError(f"{shown(str(path))}: {exc.strerror}{hint}") from None


@contextlib.contextmanager
def folder_lock(path: Path, what: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the folder of ``path`` (the nearest one that exists)
    for a read-modify-write of ``path``: two fs merging into one config take turns (a lock
    on the file itself would stay on the file the rename replaces, and make no lock file
    beside a user's config); the temp files a killed writer of ``path`` left are removed
    once it is held. A folder that cannot be opened is not locked."""
    folder = path.parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield
        return
    try:
        lock_saying_so(fd, f"{os.path.abspath(folder)}: another fs is changing a {what} in it")
        remove_stale_temp_files(path)
        yield
    finally:
        os.close(fd)  # (and the lock with it)


def remove_stale_temp_files(path: Path) -> None:
    """Delete the temp files (``.NAME.XXXX.tmp``) a killed writer of ``path`` left beside
    it; call under the lock its writers take, when no other writer has one open."""
    import glob

    with contextlib.suppress(OSError):
        for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()


def lock_saying_so(fd: int, waiting_for: str) -> None:
    """Take an exclusive ``flock`` on ``fd``; where another fs holds it, say so on stderr
    (``fs: note: waiting for WAITING_FOR``) before waiting: else a wait looks like a hang."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"fs: note: waiting for {waiting_for}", file=sys.stderr, flush=True)
        fcntl.flock(fd, fcntl.LOCK_EX)


def _not_a_folder(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that is there but no folder (a file, a
    link to nothing or a loop of links), or None."""
    for place in (folder, *folder.parents):
        if os.path.lexists(place) and not place.is_dir():
            return place
    return None


def _refuse_blocker(blocker: Path | None, cannot: str) -> None:
    """A path through ``blocker``, which is no folder (a file, a pipe, a link to nothing, a
    loop of links), is bad input (exit 2, as a pipe or a folder for the file itself is),
    not a failure to write; ``cannot`` starts the message.

    Raises:
        InputError: ``blocker`` is not None.
    """
    if blocker is not None:
        raise InputError(f"{cannot}: {blocker} is not a folder")


def _missing(folder: Path) -> list[Path]:
    """``folder`` and its parents up to the first that exists (innermost first)."""
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders a failed write made for its file (innermost first), where they
    are still empty: a full disk leaves no empty ``runs/`` behind."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def refuse_special(path: Path, what: str) -> None:
    """Refuse to replace anything but a regular file, or a symbolic link to one (or to
    nothing): a link to a device or a pipe is refused as they are (root's ``--html
    /dev/stdout`` replaced the system's link to ``/proc/self/fd/1`` with the page).

    Raises:
        InputError: ``path`` is (or links to) a device, a pipe, a socket or a folder.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:  # (missing, a link to nothing or a loop: the write says what it does)
        return
    if not stat.S_ISREG(mode):
        raise InputError(
            f"cannot write {what} {path}: not a regular file (a device, a pipe or a folder), "
            "which fs would replace; name a file"
        )


def refuse_read_only(path: Path, what: str) -> os.stat_result | None:
    """Refuse to replace a file this user may not write: the rename needs only the folder's
    permission, so a state read-only to a user (root's 0644 in a folder the user's group
    may write, or one made 0444 to freeze it) was replaced all the same. A file no one may
    write (no write bit: 0444) is refused to root as well, whom ``os.access`` grants
    everything, as vim's ``readfile()`` opens such a file read-only for root too (``:w``
    refused, ``:w!`` needed); ``cp`` and SQLite, which write into the file, do not ask.

    Returns:
        ``path``'s status (through a link; None where it is not there), for the write
        that replaces it (:func:`keep_owner`).

    Raises:
        RuntimeFailure: ``path`` is there and this user may not write it, or it has no
            write bit.
    """
    found = _stat(path)  # (missing: made new; unreadable: the write says why)
    if found is None:
        return None
    mode = found.st_mode
    if not os.access(path, os.W_OK):  # (no to root too on a read-only mount)
        why = (
            "Read-only file system"
            if _on_read_only_mount(path)
            else "Permission denied (the file is read-only to this user)"
        )
        raise RuntimeFailure(f"cannot write {what} {path}: {why}; nothing was written")
    if not mode & 0o222:
        raise RuntimeFailure(
            f"cannot write {what} {path}: the file is read-only (mode {mode & 0o7777:04o}, "
            "root included); make it writable (chmod u+w) to let fs replace it; nothing "
            "was written"
        )
    return found


def _on_read_only_mount(path: Path) -> bool:
    """Whether ``path`` sits on a file system mounted read-only (``mount -o ro``)."""
    with contextlib.suppress(OSError):
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    return False


def _write(fd: int, text: str | Sequence[bytes]) -> None:
    """Write ``text`` to ``fd`` (in UTF-8; bytes as they are) and close it, flushed to the disk."""
    with os.fdopen(fd, "wb") as raw:
        raw.writelines([text.encode("utf-8")] if isinstance(text, str) else text)
        raw.flush()
        os.fsync(raw.fileno())


def fsync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (best effort: some file systems refuse)."""
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
