"""The start of an input judged before any reader reads it, one way for standard input
(``-``) and a named pipe given as a path (``<(yes '')``, a FIFO): a pipe refused at its first
NUL byte (:class:`TextOnly`) and when its first :data:`BLANK_LIMIT` bytes are blank
(:func:`judged_pipe`); a file or a redirected stdin whose start is zero bytes or blank."""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Callable
from typing import Any, cast

#: How much a reader of a pipe or a file reads at a time
#: (:func:`~fairshare_cli.io.inputs.line_blocks`, a pipe's judge and its copy).
BLOCK = 1 << 20

#: How much of a file's start :func:`refuse_zeros` looks at.
ZERO_BLOCK = 4096

#: How much blank space (whitespace only) may open an input file: no tool's dump or jobs
#: file starts with this much, and read whole such a file cost twice its size in memory
#: (a copy of the bytes and of the text) before any reader could say it held nothing.
BLANK_LIMIT = 16 * 1024 * 1024
BLANK = f"it starts with {BLANK_LIMIT >> 20} MB of whitespace only (no JSON value or record)"


def blank_on(fd: int, start: int, end: int) -> bool:
    """Whether bytes ``start`` to ``end`` of the regular file open on ``fd`` are all
    whitespace (spaces, tabs, line ends): no JSON value, record or line of text. Read in
    blocks with ``pread``, so the descriptor's offset stays (stdin is read from it)."""
    while start < end:
        block = os.pread(fd, min(1 << 20, end - start), start)
        if not block or block.strip():
            return False
        start += len(block)
    return True


def refuse_blank_stdin() -> None:
    """Refuse a standard input that :func:`~fairshare_cli.io.inputs.refuse_device` refuses
    as a file: redirected from a device (``fs import condor-q - < /dev/zero``: read whole,
    it filled the memory; a terminal and ``/dev/null`` pass), or from a file whose next
    bytes are zero bytes only (``< big.sparse``: spooled whole into a temporary file
    first) or whose next :data:`BLANK_LIMIT` bytes are whitespace; or a pipe whose first
    :data:`BLANK_LIMIT` bytes are whitespace (:func:`_judge_piped_stdin`).

    Raises:
        OSError: it is such a device or file.
    """
    try:
        found = os.fstat(0)
        if stat.S_ISCHR(found.st_mode) or stat.S_ISBLK(found.st_mode):
            if not os.isatty(0) and found.st_rdev != os.stat(os.devnull).st_rdev:
                raise OSError(errno.EINVAL, "a device, not a file")
            return
        if piped(found.st_mode):
            _judge_piped_stdin()
            return
        if not stat.S_ISREG(found.st_mode):
            return
        at = os.lseek(0, 0, os.SEEK_CUR)
        head = os.pread(0, ZERO_BLOCK, at)
        blank = found.st_size - at >= BLANK_LIMIT and blank_on(0, at, at + BLANK_LIMIT)
    except OSError as exc:
        if exc.errno == errno.EINVAL:  # (ours, above)
            raise
        return  # (reading it names the fault)
    refuse_zeros(head)
    if blank:
        raise OSError(errno.EINVAL, BLANK)


def _judge_piped_stdin() -> None:
    """Judge the piped standard input as :func:`judged_pipe` judges a pipe, and put what
    was read back in front of the rest (``sys.stdin`` then reads it first): ``yes '' |
    fs import squeue -`` was read for ever, no reader ever seeing a line that is not
    blank. Judged once (a later opening of ``-`` reads what was put back); a standard
    input that is not descriptor 0 (closed, or a test's) is left alone.

    Raises:
        OSError: the pipe's first :data:`BLANK_LIMIT` bytes are blank.
    """
    stdin = sys.stdin
    buffer = getattr(stdin, "buffer", None)
    if buffer is None or isinstance(getattr(buffer, "raw", None), _PutBack):
        return
    try:
        if buffer.fileno() != 0:
            return
    except (OSError, ValueError):  # (io.UnsupportedOperation: no descriptor)
        return
    raw = judged_pipe(buffer, closes=False)
    cast(io.TextIOWrapper, stdin).detach()  # (not closed when the old stream goes)
    # (as fs's entry point reads a pipe: line ends as they come)
    sys.stdin = io.TextIOWrapper(raw, encoding=stdin.encoding, errors=stdin.errors, newline="\n")


def judged_pipe(buffer: Any, closes: bool = True) -> io.BufferedReader:
    """The pipe ``buffer`` (a piped stdin's, or a named pipe's: ``<(yes '')``) read on to
    its first byte that is not whitespace, and what was read put back in front of the rest:
    a pipe whose first :data:`BLANK_LIMIT` bytes are blank is refused as a file of them is,
    before any reader reads it; a shorter blank start is left to the readers, whose words
    for it stay. Closing what it gives closes ``buffer`` (but with ``closes`` False).

    Raises:
        OSError: the pipe's first :data:`BLANK_LIMIT` bytes are blank.
    """
    head, blank = bytearray(), True
    try:
        while blank and len(head) < BLANK_LIMIT:
            block = buffer.read1(min(BLOCK, BLANK_LIMIT - len(head)))
            head += block
            blank = not block.strip()
            if not block:
                break
    except OSError:
        pass  # (reading on names the fault)
    if blank and len(head) >= BLANK_LIMIT:
        raise OSError(errno.EINVAL, BLANK)
    return io.BufferedReader(_PutBack(bytes(head), buffer, closes), 1 << 16)


class _PutBack(io.RawIOBase):
    """A stream's bytes ``head`` already read, then the rest of it (``rest``, closed with
    it when ``closes``)."""

    def __init__(self, head: bytes, rest: Any, closes: bool) -> None:
        super().__init__()
        self.head, self.at, self.rest, self.closes = head, 0, rest, closes

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return int(self.rest.fileno())

    def readinto(self, buffer: Any) -> int:
        if self.at < len(self.head):
            size = min(len(buffer), len(self.head) - self.at)
            buffer[:size] = self.head[self.at : self.at + size]
            self.at += size
            return size
        return int(self.rest.readinto1(buffer))

    def readall(self) -> bytes:
        head, self.at = self.head[self.at :], len(self.head)
        return head + bytes(self.rest.read())

    def close(self) -> None:
        if self.closes and not self.closed:
            self.rest.close()
        super().close()


def refuse_zeros(head: bytes) -> None:
    """Refuse a file whose first bytes ``head`` (up to :data:`ZERO_BLOCK`) are all zero: a
    sparse file (``truncate -s 2G``) or one a crash left unwritten is no text, and read
    whole (a 2 GB line of NULs) it filled the memory before any reader saw a byte of it.

    Raises:
        OSError: ``head`` is not empty and holds only zero bytes.
    """
    if head and not head.strip(b"\0"):
        raise OSError(errno.EINVAL, "it starts with zero bytes only (a sparse or unwritten file)")


def piped(mode: int) -> bool:
    """Whether a file of ``mode`` is a pipe (or a socket): read once, as it comes."""
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class TextOnly(io.RawIOBase):
    """A pipe or a socket, refused at its first NUL byte: standard input's (descriptor 0,
    named ``-``) or a named pipe's (``<(cat /dev/zero)``, a FIFO: ``name`` is its path, and
    ``shut`` closes it).

    A pipe has no size to look at first: ``cat /dev/zero | fs import condor-q -`` was read
    into one endless line until the kernel killed fs. No input fs reads holds a NUL byte
    (HTCondor's and Slurm's text output, JSON, CSV, TOML, a DIRAC ``.cfg``: a NUL in JSON
    is written ``\\u0000``), so the first one ends the read, as ``grep`` calls such input
    binary; what was read before it is never more than a chunk.
    """

    def __init__(self, fd: int, name: str = "-", shut: Callable[[], None] | None = None) -> None:
        super().__init__()
        self._fd, self._at, self._name, self._shut = fd, 0, name, shut

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: Any) -> int:
        data = self._checked(os.read(self._fd, len(buffer)))
        buffer[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        chunks = []
        while data := self._checked(os.read(self._fd, 1 << 20)):
            chunks.append(data)
        return b"".join(chunks)

    def _checked(self, data: bytes) -> bytes:
        """``data``, the next bytes read.

        Raises:
            UnreadableInput: they hold a NUL byte (naming its offset in the input).
        """
        nul = data.find(b"\0")
        if nul >= 0:
            from fairshare_cli.errors import UnreadableInput  # (not on fs --help's path)

            what = "standard input" if self._name == "-" else "the pipe"
            raise UnreadableInput(
                f"cannot read {self._name}: binary data (a NUL byte at byte "
                f"{self._at + nul:,}), not text; fs stopped reading {what} there"
            )
        self._at += len(data)
        return data

    def close(self) -> None:
        if self._shut is not None and not self.closed:
            self._shut()
        super().close()
