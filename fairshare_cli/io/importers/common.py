"""What every dump reader shares: numbered text lines, one-line errors, listings' tables."""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import islice
from typing import IO, TYPE_CHECKING, Any, cast

from fairshare_cli.core.limits import MAX_LINE
from fairshare_cli.core.usage import refuse_byte_order_mark
from fairshare_cli.errors import InputError
from fairshare_cli.io.inputs import cannot_read, line_blocks, long_line, open_bytes
from fairshare_cli.io.json_keys import DuplicateKey
from fairshare_cli.io.json_numbers import NonFiniteNumber, line_of

if TYPE_CHECKING:
    from io import BufferedIOBase


def as_float(value: float) -> float:
    """``float(value)``; a whole number beyond any float is an infinity of its sign (which
    the readers refuse as they refuse ``1e400``) instead of an OverflowError."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def _open_binary(path: str) -> IO[bytes]:
    try:
        return open_bytes(path)
    except OSError as exc:
        raise cannot_read(path, exc) from None


def refuse_bom(text: str, name: str) -> None:
    """Refuse a dump whose first line ``text`` starts with a byte-order mark (a Windows
    editor's): no real tool writes one, and read as part of the first word it made
    messages about a header or a key that looked right (``got "\\ufeff$ sacctmgr ..."``).

    Raises:
        InputError: naming ``NAME:1``, as ``fs import history`` does.
    """
    refuse_byte_order_mark(text, f"{name}:1")


def cut_capture(name: str, number: int, line: str, expected: str) -> InputError:
    """The error for a tool's output whose last line has no newline: the file was cut
    (a full disk, a copy stopped), and the value the line ends with may be cut too
    (``Priority7 = 860.16`` of ``860.165``, ``root|||0.000000|34`` of ``3463``). It names
    the output ``expected``: another file without a final newline is refused so too."""
    shown = line[:40].encode("unicode_escape").decode("ascii")
    return InputError(
        f"{name}:{number}: the file ends inside a line ('{shown}', no newline after it): "
        f"a cut capture of {expected}, whose last value may be cut too; capture it again"
    )


def given_twice(where: str, key: str, record: str) -> InputError:
    """The refusal of a text dump's record that gives a field twice, in the words the JSON
    readers use for an object giving a key twice (the real tool prints each field of a
    record once, so either value may be the one meant):
    ``FILE:LINE: the key "Priority" is given twice (in job 2); give each key once``."""
    repeat = DuplicateKey(key, record)
    return InputError(f"{where}: {repeat} ({repeat.place()}); give each key once")


def text_lines(
    path: str, label: str | None = None, expected: str = "text", whole: bool = False
) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a text dump, streamed; ``-`` is stdin. ``whole``: the
    dump is a tool's output, whose every line ends with a newline (not a file an editor
    saves, such as slurm.conf, whose last line may have none), unless it is a JSON
    document (``sshare --json``), which its parser finds cut or whole.

    Raises:
        InputError: the file cannot be read, or a line holds binary data (a NUL byte or
            bytes that are not UTF-8), naming ``label:LINE`` and what was ``expected``;
            with ``whole``, text after the last newline (:func:`cut_capture`).
    """
    name = label or path
    fh = _open_binary(path)
    bar = _progress(path, name)
    first: str | None = None  # (the first character of the first line that is not blank)
    try:
        number = 0
        for block in line_blocks(fh.read, name, expected):  # (a line without end refused)
            if bar is not None:
                bar.advance(fh.tell())
            text = _clean_text(block.getvalue())
            # (a block's lines checked one by one where it holds a fault)
            lines = _checked_lines(block, name, number, expected) if text is None else _split(text)
            line = ""
            for line in lines:
                number += 1
                if number == 1:
                    refuse_bom(line, name)
                if first is None and line.strip() and not is_prompt(line):
                    first = line.lstrip()[:1]
                yield number, line.rstrip("\r\n")  # (first: a reader may refuse it as it is)
            ends = block.getvalue().endswith(b"\n")
            if whole and first not in ("{", "[") and not ends and line.strip():
                raise cut_capture(name, number, line, expected)
    finally:
        if bar is not None:
            bar.stop()
        if fh is not getattr(sys.stdin, "buffer", None):
            fh.close()


def _clean_text(data: bytes) -> str | None:
    """A block's text, where it holds no NUL byte and is all UTF-8; else None (its lines
    are then checked one by one, so that the fault is named at its line, after the lines
    before it, which a reader may refuse first)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _split(text: str) -> list[str]:
    """A block's lines, without their newlines (the block ends with one, or is the last)."""
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # (the empty text after the last newline)
    return lines


def _checked_lines(block: Iterable[bytes], name: str, before: int, expected: str) -> Iterator[str]:
    """Each line's text of a ``block`` of bytes that holds a fault, the lines before it
    first; ``before``: the number of the line before the block's first.

    Raises:
        InputError: a line holds a NUL byte, or bytes that are not UTF-8, naming its
            ``name:LINE``.
    """
    for number, raw in enumerate(block, before + 1):
        if b"\0" in raw:
            raise InputError(f"{name}:{number}: binary data; expected {expected}")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{name}:{number}: not UTF-8 text; expected {expected}") from None


#: How many lines a reader of a whole dump reads before it looks at the dump's head
#: (:func:`judged_lines`): enough for any header, few enough to take no time.
HEAD_LINES = 1 << 16


def judged_lines(
    lines: Iterator[tuple[int, str]], judge: Callable[[list[tuple[int, str]]], None]
) -> list[tuple[int, str]]:
    """All of ``lines`` (:func:`text_lines`), ``judge`` called with the first
    :data:`HEAD_LINES` of them once that many are read, before the rest: a dump with no
    header of the kind is refused at its first line, as when it is read whole, without
    reading on (``yes | fs import sshare -`` never ended). A shorter dump is not judged
    (its reader refuses it whole, naming the first fault of all)."""
    head = list(islice(lines, HEAD_LINES))
    if len(head) == HEAD_LINES:
        judge(head)
    head.extend(lines)
    return head


def text_pieces(
    path: str,
    label: str | None = None,
    expected: str = "text",
    mark: bytes = b"\n",
    judge: Callable[[str], None] | None = None,
) -> Iterator[str]:
    """The text of a dump (``-`` is stdin) in pieces of about :data:`PIECE` bytes, each
    cut just after the newline of a ``mark`` (before a record: ``b"\\nJobId="``) or at the
    end (a piece grows until it holds a mark); checked as :func:`text_lines` checks each
    line. One buffer is read into again and again: a dump of 100 MB is never all held,
    twice (bytes and text), nor its pages faulted in afresh for each copy; its lines are
    counted only to name a bad one (the reader counts those of its records). ``judge``
    is called with the whole lines of a first piece that outgrows :data:`PIECE` bytes
    without a mark, before more is read: it refuses a head that is no dump of the kind
    (``yes | fs import squeue -`` was read to its end, which never came).

    Raises:
        InputError: as :func:`text_lines`, naming the first bad line; as ``judge``.
    """
    name = label or path
    fh = _open_binary(path)
    try:
        origin = fh.tell() if fh.seekable() else None
        buf, held, done, lines = bytearray(PIECE), 0, 0, 0
        while True:
            if held == len(buf):  # a full buffer with no mark: room for as much again
                if _long_line(buf, held):
                    before = lines if origin is None else _newlines(fh, origin, done)
                    raise long_line(name, before + buf.count(b"\n", 0, held) + 1, expected)
                if judge is not None and not done:  # (once: the head is judged)
                    judge(_text(buf, buf.rfind(b"\n", 0, held) + 1, name, expected, 0))
                    judge = None
                buf += bytes(held)
            with memoryview(buf)[held:] as free:
                got = cast("BufferedIOBase", fh).readinto(free)
            end = held + got
            cut = end if not got else buf.rfind(mark, 0, end) + 1
            if cut:
                if not done or origin is None:
                    text = _text(buf, cut, name, expected, lines)
                else:
                    text = _text(buf, cut, name, expected, partial(_newlines, fh, origin, done))
                yield text
                done += cut
                lines += 0 if origin is not None else buf.count(b"\n", 0, cut)
                buf[: end - cut] = buf[cut:end]
            held = end - cut
            if not got:
                return
    finally:
        if fh is not getattr(sys.stdin, "buffer", None):
            fh.close()


#: How many bytes :func:`text_pieces` reads at a time.
PIECE = 1 << 22


def _long_line(buf: bytearray, held: int) -> bool:
    """Whether the last line of the ``held`` bytes of a buffer of :func:`text_pieces`
    about to grow is longer than :data:`~fairshare_cli.core.limits.MAX_LINE` (a JSON
    document, told by its first character, is not held to it)."""
    if held <= MAX_LINE or buf.rfind(b"\n", held - MAX_LINE, held) >= 0:
        return False
    return bytes(buf[: min(held, 4096)].lstrip()[:1]) not in (b"{", b"[")


def _text(
    buf: bytearray, end: int, name: str, expected: str, before: int | Callable[[], int]
) -> str:
    """``buf[:end]`` as text: a piece of :func:`text_pieces`, ``before`` (or what it
    gives) the newlines of the input before it; the first piece is refused with a
    byte-order mark.

    Raises:
        InputError: binary data or bytes that are not UTF-8, naming their line.
    """
    try:
        text = _decoded(buf, end)
    except _BadBytes as bad:
        ahead = before if isinstance(before, int) else before()
        line = 1 + ahead + buf.count(b"\n", 0, bad.at)
        raise InputError(f"{name}:{line}: {bad}; expected {expected}") from None
    if before == 0:
        refuse_bom(text, name)
    return text


class _BadBytes(ValueError):
    """Bytes that are no text at ``at``: a NUL byte or bytes that are not UTF-8."""

    def __init__(self, words: str, at: int) -> None:
        super().__init__(words)
        self.at = at


def _decoded(buf: bytearray, end: int) -> str:
    """``buf[:end]`` as text.

    Raises:
        _BadBytes: the first NUL byte or bytes that are not UTF-8.
    """
    bad = buf.find(b"\0", 0, end)
    with memoryview(buf) as view:
        try:
            text = str(view[: end if bad < 0 else bad], "utf-8")
        except UnicodeDecodeError as exc:
            raise _BadBytes("not UTF-8 text", exc.start) from None
    if bad >= 0:
        raise _BadBytes("binary data", bad)
    return text


def _newlines(fh: IO[bytes], origin: int, size: int) -> int:
    """The newlines in the ``size`` bytes of ``fh`` from ``origin`` on (read again)."""
    fh.seek(origin)
    count = 0
    while size > 0:
        data = fh.read(min(size, PIECE))
        if not data:
            break
        count += data.count(b"\n")
        size -= len(data)
    return count


#: Inputs larger than this show a progress bar (when stderr is a terminal).
LARGE_INPUT = 64 * 1024 * 1024


class _Bar:
    """A Rich progress bar over the bytes of one file, on stderr."""

    def __init__(self, total: int, name: str) -> None:
        from rich.console import Console
        from rich.progress import Progress

        self.progress = Progress(console=Console(stderr=True), transient=True)
        self.task = self.progress.add_task(f"reading {name}", total=total)
        self.progress.start()

    def advance(self, done: int) -> None:
        self.progress.update(self.task, completed=done)

    def stop(self) -> None:
        self.progress.stop()


def _progress(path: str, name: str) -> _Bar | None:
    """A bar for a large file when stderr is a terminal; None otherwise."""
    if path == "-" or not sys.stderr.isatty():
        return None
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    return _Bar(size, name) if size > LARGE_INPUT else None


def is_prompt(line: str) -> bool:
    """A transcript's command line (``$ sacctmgr ...``): it starts a new listing."""
    return line.startswith("$ ")


def column_spans(dashes: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each column from a table's ``---- -----`` underline."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(dashes):
        if dashes[i] == "-":
            j = i
            while j < len(dashes) and dashes[j] == "-":
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def is_underline(line: str) -> bool:
    """A fixed-width table's underline: dashes separated by single spaces."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= {"-", " "} and "-" in stripped


def cut(line: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The cells of a fixed-width row (each stripped) by the underline's spans."""
    cells = []
    for k, (a, b) in enumerate(spans):
        end = spans[k + 1][0] if k + 1 < len(spans) else max(b, len(line))
        cells.append(line[a:end].strip())
    return cells


def summary_names(names: Sequence[str], limit: int = 12) -> str:
    """``a, b, c`` (and ``+N more`` beyond ``limit``) for a one-line summary."""
    shown = list(names[:limit])
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" (+{more} more)" if more > 0 else "")


def json_document(text: str, label: str) -> Any:
    """A dump's JSON text read (:func:`~fairshare_cli.io.inputs.loads`).

    Raises:
        InputError: not valid JSON (naming the line), nested too deeply, holding a whole
            number Python does not read (more than 4,300 digits), NaN or an infinity.
    """
    import json

    from fairshare_cli.io.inputs import loads

    try:
        return loads(text, once=True, finite=True)
    except DuplicateKey as exc:  # (either value may be the one meant)
        raise InputError(f"{label}: {exc} ({exc.place()}); give each key once") from None
    except NonFiniteNumber as exc:  # (no tool writes one: serializer_json.c, jsonSink.cpp)
        raise InputError(f"{label}:{line_of(text, exc.text)}: {exc.refusal()}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except ValueError:  # (a whole number of more than 4,300 digits: int() refuses it)
        raise InputError(f"{label}: not valid JSON (a whole number too long)") from None
    except RecursionError:
        raise InputError(f"{label}: JSON nested too deeply") from None


def refuse_pipe(path: str | os.PathLike[str]) -> None:
    """Refuse a named pipe or socket that a file names as another to read (a
    condor_config's ``include`` or ``LOCAL_CONFIG_DIR`` file): opened, it waits for a
    writer that may never come. (An input named on the command line may be a pipe.)

    Raises:
        OSError: ``path`` is one.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # (opening it names the fault)
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise OSError(errno.EINVAL, "a named pipe or socket, not a file")
