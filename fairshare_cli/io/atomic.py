"""Atomic file replacement: temp file in the same folder, flush, fsync, rename, fsync folder."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from fairshare_cli.errors import RuntimeFailure


def atomic_write_text(path: Path, text: str, what: str, mode: int = 0o600) -> None:
    """Replace ``path`` by ``text`` so that a reader sees the old file or the new one, whole.

    ``what`` names the file in errors ("state file", "config file").

    Raises:
        RuntimeFailure: the folder cannot be created or written (the old file is kept).
    """
    import tempfile  # here, not at import: read-only commands never write

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise RuntimeFailure(f"cannot write {what} {path}: {exc.strerror}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (best effort: some file systems refuse)."""
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
