"""The one copy of a pipe (or stdin) that a reader opens more than once: a temporary file,
filled as the first reading reads (a bad first line is refused before the rest is read),
or whole before any reading."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO

from fairshare_cli.core.limits import MAX_LINE
from fairshare_cli.errors import InputError
from fairshare_cli.io.input_heads import BLANK, BLANK_LIMIT, BLOCK
from fairshare_cli.io.inputs import (
    FILLED,
    JSONFault,
    cannot_read,
    long_line,
    not_json,
    open_bytes,
    rereadable,
)

#: The copy of stdin kept to the end of a :func:`stdin_kept` block (its holder, and the
#: copy's name once a reading of ``-`` has made it), innermost last.
_KEPT: list[tuple[contextlib.ExitStack, list[str]]] = []


@contextlib.contextmanager
def stdin_kept() -> Iterator[None]:
    """A block in which stdin is copied once: the first :func:`spooled` of ``-`` keeps its
    copy to the block's end, and every later one reads that copy (``fs whatif`` runs its
    view twice: its after side read an empty stdin, ``-: not valid JSON``)."""
    with contextlib.ExitStack() as holder:
        _KEPT.append((holder, []))
        try:
            yield
        finally:
            _KEPT.pop()


@contextlib.contextmanager
def spooled(
    path: str, expected: str, documents: bool = False, lazy: bool = False, json: bool = False
) -> Iterator[str]:
    """A path that a reader may open twice (to sniff, or the exact reader after a fast
    one): ``path`` itself when :func:`~fairshare_cli.io.inputs.rereadable`, else a
    temporary copy of its bytes (stdin's for ``-``), removed on leaving. The copy is held
    to :data:`~fairshare_cli.core.limits.MAX_LINE` as
    :func:`~fairshare_cli.io.inputs.line_blocks` holds a reader (a pipe that never sends a
    newline would fill the temporary folder), ``expected`` naming the input in the refusal;
    with ``documents``, a JSON document (its first character ``[`` or ``{``) is not held to
    it. With ``lazy``, the copy is filled as it is read, through
    :func:`~fairshare_cli.io.inputs.open_input`, ``open_dump`` and the dump readers'
    ``text_lines`` (the readers that open it must): a reader that refuses the first line
    has read no more of the pipe than that (``yes | fs import history -`` filled the
    temporary folder before line 1 was refused);
    every later opening reads what was copied, then copies on as it reads. With ``json``
    (the input is one JSON document, a jobs file), a pipe is refused as soon as its first
    character is one no JSON value starts with, in the JSON reader's words, or as soon as
    :data:`~fairshare_cli.io.input_heads.BLANK_LIMIT` bytes of it are blank, as a file is
    (``yes | fs sprio --jobs-file -`` was copied for ever before either was said).

    Raises:
        InputError: the pipe cannot be read, or holds a line longer than ``MAX_LINE``
            (with ``lazy``: when a reader comes to it); with ``json``, as said.
    """
    if rereadable(path):
        yield path
        return
    kept = _KEPT[-1] if path == "-" and _KEPT else None
    if kept is not None and kept[1]:  # (stdin copied whole by an earlier reading)
        yield kept[1][0]
        return
    # (its suffix kept: a reader may tell the format by it, as fs import history does)
    suffix = os.path.splitext(path)[1] or ".input"
    import tempfile  # (only to copy a pipe)

    with contextlib.ExitStack() as shut:
        holder = shut if kept is None else kept[0]  # (a kept copy outlives this reading)
        tmp = holder.enter_context(tempfile.NamedTemporaryFile("wb", suffix=suffix))
        # Bytes as they come: decoding (and its errors) is the reader's job.
        read: Callable[[int], bytes] = _nothing
        try:
            if path == "-" and getattr(sys.stdin, "buffer", None) is None:  # pragma: no cover
                tmp.write(sys.stdin.read().encode("utf-8", "surrogateescape"))  # (text only)
            else:  # (stdin and a path judged alike: open_bytes)
                source = open_bytes(path)
                if path != "-":  # (stdin is not this reading's to close)
                    shut.enter_context(source)
                read = source.read1  # type: ignore[attr-defined]
        except OSError as exc:
            raise cannot_read(path, exc) from None
        copy = _Copy(read, tmp, path, expected, documents)
        copy.head = _JSONHead(path, expected) if json else None
        if not lazy:
            while copy.pull():
                pass
            if kept is not None:
                kept[1].append(tmp.name)
            yield tmp.name
            return
        FILLED[tmp.name] = copy.open
        try:
            yield tmp.name
        finally:
            del FILLED[tmp.name]
        if kept is not None:  # (read on: a later reading opens the copy as a file)
            while copy.pull():
                pass
            kept[1].append(tmp.name)


def _nothing(_size: int) -> bytes:
    """What a read of a pipe at its end gives."""
    return b""


class _Copy:
    """The copy of a pipe in ``tmp``, a block at a time as :meth:`pull` is called; a line
    longer than :data:`~fairshare_cli.core.limits.MAX_LINE` refused once that much of it
    is read (``named``: the input's name; ``expected``: what it should hold), but in a JSON
    document (``documents``: its first character ``[`` or ``{``). Lines are counted only
    for the refusal (in what was copied): a count of every block was half the copy's time."""

    def __init__(
        self,
        read: Callable[[int], bytes],
        tmp: IO[bytes],
        named: str,
        expected: str,
        documents: bool,
    ) -> None:
        self.read, self.tmp, self.named, self.expected = read, tmp, named, expected
        self.sniff = documents  # (True: its first non-blank byte is still to be looked at)
        self.run: int | None = 0  # (bytes since the last newline; None: not counted)
        self.ended = False
        self.head: _JSONHead | None = None  # (its first character still to be judged)

    def pull(self) -> bool:
        """Copy the next block of the pipe (False: it has ended).

        Raises:
            InputError: it cannot be read, or a line is too long.
        """
        if self.ended:
            return False
        try:
            block = self.read(BLOCK)
            self.tmp.write(block)
            self.tmp.flush()
        except OSError as exc:
            raise cannot_read(self.named, exc) from None
        if not block:
            self.ended = True
            return False
        if self.head is not None and self.head.judged(block):
            self.head = None
        if self.sniff and block.strip():
            if block.lstrip()[:1] in (b"[", b"{"):  # (a JSON document: its lines are its
                self.run = None  # writer's choice)
            self.sniff = False
        if self.run is not None:
            end = block.rfind(b"\n") + 1
            self.run = len(block) - end if end else self.run + len(block)
            if self.run > MAX_LINE:
                with open(self.tmp.name, "rb") as copied:
                    parts = iter(lambda: copied.read(BLOCK), b"")
                    lines = sum(part.count(b"\n") for part in parts)
                raise long_line(self.named, lines + 1, self.expected)
        return True

    def open(self) -> IO[bytes]:
        """The copy to read from its start: what is copied, then the pipe as it is copied."""
        return io.BufferedReader(_Filled(self), BLOCK)


#: The bytes a JSON value starts with (after JSON's blank space: space, tab, CR, LF).
_JSON_STARTS = frozenset(b'[{"-0123456789tfn')


class _JSONHead:
    """The start of a pipe that should hold one JSON document, judged a block at a time:
    a first character (printable ASCII) no value starts with is refused as
    :func:`json.loads` refuses it (``Expecting value``, at its line and column); a start
    of :data:`~fairshare_cli.io.input_heads.BLANK_LIMIT` blank bytes as
    :func:`~fairshare_cli.io.inputs.refuse_device` refuses such a file. Any other first
    character is left to the readers (a byte-order mark, binary data: theirs to word). A
    first line longer than :data:`~fairshare_cli.core.limits.MAX_LINE` is refused as such
    first, as before: the refusal waits for the newline ending it."""

    def __init__(self, named: str, expected: str) -> None:
        self.named, self.expected = named, expected
        self.seen, self.lines, self.last = 0, 0, -1  # (bytes, newlines, the last's offset)
        self.bad: InputError | None = None  # (said once its line ends)

    def judged(self, block: bytes) -> bool:
        """Whether the first character is in ``block`` (the next bytes), judged.

        Raises:
            InputError: it is one no JSON value starts with (once its line ends), or the
                start is too blank.
        """
        if self.bad is not None:
            if b"\n" in block:
                raise self.bad
            return False
        rest = block.lstrip(b" \t\r\n")
        at = len(block) - len(rest)  # (the first character's offset in the block)
        self.lines += block.count(b"\n", 0, at)
        end = block.rfind(b"\n", 0, at)
        self.last = self.seen + end if end >= 0 else self.last
        if not rest.strip():  # (blank space that JSON refuses too: \v, \f)
            self.seen += len(block)
            if self.seen >= BLANK_LIMIT:
                raise cannot_read(self.named, OSError(errno.EINVAL, BLANK))
            return bool(rest)
        first = rest[0]
        if 0x20 < first < 0x7F and first not in _JSON_STARTS:
            line, column = self.lines + 1, self.seen + at - self.last
            self.bad = not_json(
                self.named, JSONFault(line, column, "Expecting value"), self.expected
            )
            if b"\n" in rest:
                raise self.bad
            return False
        return True


class _Filled(io.RawIOBase):
    """A reading of a :class:`_Copy`: its bytes so far, then more pulled as they are read."""

    def __init__(self, copy: _Copy) -> None:
        super().__init__()
        self.copy = copy
        self.fh = open(copy.tmp.name, "rb", buffering=0)  # noqa: SIM115 - closed with this

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while True:
            got = self.fh.readinto(buffer)
            if got or not self.copy.pull():
                return got or 0

    def close(self) -> None:
        self.fh.close()
        super().close()
