"""The usage history store as it was, unless the state write it goes with ends well.

An import commits the store once the new state is on the disk, just before its rename;
one that keeps no old row renames a new file over the store then. A rename of the state
that then fails (or a Ctrl-C between) would leave the new file: a first import a store
beside no state that includes it, and a ``--rebuild`` the old history replaced for good.
Rows appended in place are dropped again past the old state's marks (else, a process
killed between, the next writer drops them: io/usage_store.py).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from fairshare_cli.core.operations.usage_log import ClaimUsage
from fairshare_cli.core.state import State
from fairshare_cli.io.atomic import fsync_folder, make_like
from fairshare_cli.io.usage_marks import SECTION, Marks, marks_of, store_path


@contextlib.contextmanager
def store_kept(state_path: Path, section: object) -> Iterator[None]:
    """Leave the store beside ``state_path`` as it was when the body (whose last step
    writes the state, whose usage history ``section`` holds the marks until then) raises:
    a store the body made is removed, one renamed over the old one is the old one again (a
    hard link to the old file is kept meanwhile, beside it, and removed when the body ends
    well).

    Call under the state lock. A hard link a killed fs left is put back when the state's
    marks count in it and not in the store, else removed.
    """
    path = store_path(state_path)
    kept = path.with_name(path.name + ".kept")
    if os.path.lexists(kept):
        _settle_left(path, kept, section)
    existed = os.path.lexists(path)
    linked = False
    if existed:
        with contextlib.suppress(OSError):  # (no hard links here: a failed --rebuild keeps
            os.link(path, kept)  # the new file, as before)
            linked = True
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            _put_back(path, kept if linked else None, existed)
        if existed:
            _drop_past_marks(path, section)
        raise
    if linked:
        with contextlib.suppress(OSError):
            kept.unlink()


def _put_back(path: Path, kept: Path | None, existed: bool) -> None:
    """``path`` as it was: the file ``kept`` links to, or none (if there was none)."""
    # (the links themselves compared: a link to nothing is still the link that was there)
    same = kept is not None and os.path.lexists(path) and _same_entry(path, kept)
    if same or (kept is None and existed):  # (the same file: rows past the marks)
        if kept is not None:
            kept.unlink()
        return
    for side in ("-journal", "-wal", "-shm"):  # (the new file's, not the old one's)
        path.with_name(path.name + side).unlink(missing_ok=True)
    if kept is None:
        path.unlink(missing_ok=True)
    else:
        try:
            os.replace(kept, path)
        except OSError:  # (a rename that keeps failing, as the state's did: linked back)
            path.unlink(missing_ok=True)
            os.link(kept, path)
            kept.unlink()
    fsync_folder(path.parent)


def _same_entry(path: Path, other: Path) -> bool:
    """Whether ``path`` and ``other`` are links to one inode (a symbolic link's own)."""
    return os.path.samestat(os.lstat(path), os.lstat(other))


def _drop_past_marks(path: Path, section: object) -> None:
    """Drop the rows of the store at ``path`` past the marks ``section`` holds: a write that
    committed them and failed after (the state's rename) leaves the history as the state
    counts it. Best effort: what fails here (a full disk) leaves them to the next writer."""
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.usage_store import open_store

    with contextlib.suppress(FairshareError, OSError):
        marks = marks_of(section)
        with open_store(path, create=False) as store:
            if store is not None and store.holds(marks):
                store.rollback_after(marks)


def _settle_left(path: Path, kept: Path, section: object) -> None:
    """A link left by a killed fs: put back when it holds the state's marks and the store
    does not (killed between the rename and the state write), else removed."""
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.usage_marks import marks_of
    from fairshare_cli.io.usage_store import open_store

    try:
        marks = marks_of(section)
    except FairshareError:  # (the state's loader refuses such a section)
        marks = Marks()

    def holds(file: Path) -> bool:
        try:
            with open_store(file, create=False) as store:
                return store is not None and store.holds(marks)
        except FairshareError:
            return False

    with contextlib.suppress(OSError):
        if marks.includes_rows() and holds(kept) and not holds(path):
            _put_back(path, kept, existed=True)
        else:
            kept.unlink()


@contextlib.contextmanager
def log_usage(
    state_path: Path, state: State, usage: ClaimUsage
) -> Iterator[tuple[State, Callable[[], None] | None]]:
    """What a command charged (claims opened and closed), to append to the store beside
    ``state_path``: the state with the marks the rows will have, and the append to call
    once that state is on the disk and before it replaces the old one (``save_state``'s
    ``before_rename``; None: nothing to append). A state write that fails (a full disk,
    Ctrl-C) leaves no row past the state's marks, and the append's transaction is open
    no longer than before. Call under the state lock, before the state is written (rows
    past the state's marks, left by a writer killed between the append and the rename,
    are dropped first).

    Raises:
        StateError: the store or the state's marks are not ours; a folder where SQLite
            keeps its journal.
        RuntimeFailure: the store cannot be opened, or SQLite fails on it (the append too:
            then the state is not replaced).
    """
    from fairshare_cli.errors import RuntimeFailure
    from fairshare_cli.io.sqlite_errors import refuse_folders
    from fairshare_cli.io.usage_store import open_store, side_files

    if not usage:
        yield state, None
        return
    refuse_folders(side_files(store_path(state_path)))
    start = marks_of(state.section(SECTION))
    make_like(store_path(state_path), state_path)  # (a new store: the state's permissions)
    with open_store(store_path(state_path)) as store:
        assert store is not None
        if store.holds(start):
            store.rollback_after(start)
        else:  # (an import replaced it and died before it wrote the state)
            store.restart()
        # a record the store already holds for its claim is not started again (a claim
        # matched on a partitionable slot by an fs that kept no match-cost record)
        usage = replace(usage, started=store.not_kept(usage.started, start))
        now = store.marks()  # (row ids follow the largest: no other writer, under the lock)
        marks = Marks(now.records + len(usage.started), now.ends + len(usage.ended), now.generation)

        def append() -> None:
            if store.append(usage.started, usage.ended) != marks:
                raise RuntimeFailure(f"usage history {store.path}: rows were appended meanwhile")

        yield state.with_section(SECTION, marks.to_json()), append
