"""Open an input file (or stdin) and read it as UTF-8 text or one JSON document (a JSON array
streamed object by object is :mod:`fairshare_cli.io.json_stream`'s)."""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, cast

from fairshare_cli.core.limits import MAX_LINE
from fairshare_cli.core.names import shown
from fairshare_cli.core.usage import refuse_byte_order_mark
from fairshare_cli.errors import ClosedStdin, InputError, UnreadableInput, decoder_fault
from fairshare_cli.io.input_heads import (
    BLANK,
    BLANK_LIMIT,
    BLOCK,
    ZERO_BLOCK,
    TextOnly,
    blank_on,
    judged_pipe,
    piped,
    refuse_blank_stdin,
    refuse_zeros,
)
from fairshare_cli.io.json_keys import RepeatedKeys, surely_distinct
from fairshare_cli.io.json_numbers import number_hooks

#: ``(st_dev, st_ino)`` of what stands for a standard input the process started without
#: (:func:`stand_in_for_closed_stdin`); None: it had one.
CLOSED_STDIN: tuple[int, int] | None = None


class _ClosedInput(io.RawIOBase):
    """A standard input that was closed: every read fails, saying so."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise ClosedStdin


def stand_in_for_closed_stdin() -> None:
    """A process started with its standard input closed (``fs ... <&-``): descriptor 0 is
    taken by an empty pipe, so that no file fs opens later lands on it (``/dev/stdin``
    read the temporary copy or the lock file fs had opened there: "Imported 0 usage
    records"), and ``-`` or ``/dev/stdin`` as an input file is refused, one line (Python
    left ``sys.stdin`` None: a reader of ``-`` crashed on it)."""
    global CLOSED_STDIN
    read, write = os.pipe()  # (the lowest free descriptors: 0 among them)
    os.close(write)
    found = os.fstat(read)
    CLOSED_STDIN = (found.st_dev, found.st_ino)
    raw = io.BufferedReader(_ClosedInput())
    sys.stdin = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape")


def refuse_device(path: str | os.PathLike[str]) -> None:
    """Refuse a device as an input file: ``/dev/zero`` or ``/dev/urandom`` never end (read
    whole, they would fill the memory), a disk is no input; ``/dev/null`` (empty) and pipes
    pass; ``-`` is standard input (see :func:`refuse_blank_stdin`). A file that starts
    with nothing but zero bytes is refused too (:func:`refuse_zeros`), and one that starts
    with 16 MB of whitespace (:func:`blank_on`). Called before each input file is opened,
    inside the reader's ``except OSError``, which words it as its own read error.

    Raises:
        OSError: ``path`` is a character or block device other than ``/dev/null``, a
            file of zero bytes, or one whose first :data:`BLANK_LIMIT` bytes are blank.
    """
    if str(path) == "-":
        refuse_blank_stdin()
        return
    try:
        found = os.stat(path)
    except OSError:
        return  # (opening it names the fault)
    if (found.st_dev, found.st_ino) == CLOSED_STDIN:  # (/dev/stdin, /proc/self/fd/0)
        raise ClosedStdin
    device = stat.S_ISCHR(found.st_mode) or stat.S_ISBLK(found.st_mode)
    if device and found.st_rdev != os.stat(os.devnull).st_rdev:
        raise OSError(errno.EINVAL, "a device, not a file")
    if stat.S_ISREG(found.st_mode) and found.st_size:
        try:
            with open(path, "rb") as fh:
                head = fh.read(ZERO_BLOCK)
                blank = found.st_size >= BLANK_LIMIT and not head.strip()
                blank = blank and blank_on(fh.fileno(), len(head), BLANK_LIMIT)
        except OSError:
            return  # (opening it again names the fault)
        refuse_zeros(head)
        if blank:
            raise OSError(errno.EINVAL, BLANK)


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of ``path``, a regular file (or a symbolic link to one): the state and the
    config, which fs reads whenever it runs and may rewrite, are files, never a named pipe
    (whose open waits for ever for a writer), a socket or a device (``/dev/null`` too).
    The file is opened without waiting (``O_NONBLOCK``) and checked on the open descriptor,
    so a path swapped for a pipe between the look and the open cannot block either.

    Raises:
        OSError: ``path`` is missing, unreadable, a folder (``IsADirectoryError``) or no
            regular file (its ``strerror`` says which kind).
    """
    _refuse_not_regular(os.stat(path).st_mode)  # (a socket's open fails: say what it is)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        _refuse_not_regular(os.fstat(fd).st_mode)
        os.set_blocking(fd, True)
        refuse_zeros(fh.read(ZERO_BLOCK))
        fh.seek(0)  # (a regular file: the whole of it, without joining two reads)
        return fh.read()


def _refuse_not_regular(mode: int) -> None:
    """Raise the ``OSError`` :func:`read_regular` raises for a file of ``mode`` that is
    no regular file."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    fifo, sock = stat.S_ISFIFO(mode), stat.S_ISSOCK(mode)
    kind = "a named pipe" if fifo else "a socket" if sock else "a device"
    raise OSError(errno.EINVAL, f"{kind}, not a file")


def rereadable(path: str) -> bool:
    """Whether opening ``path`` again gives the same text: not for stdin (``-``), a pipe
    (``<(condor_q -json)``, a named FIFO) or a socket, whose text a first reading takes.
    A path that cannot be looked at counts as rereadable: opening it names the fault."""
    if path == "-":
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    return not piped(mode)


#: The temporary copies of pipes filled as they are read (:func:`~fairshare_cli.io.spool.spooled`
#: with ``lazy``), by path: each opens a reading of its copy, as bytes.
FILLED: dict[str, Callable[[], IO[bytes]]] = {}


def open_bytes(path: str) -> IO[bytes]:
    """The one opening of an input file ``path`` as bytes, each reader's: ``-`` is stdin
    (:func:`refuse_blank_stdin` judges it), a path :func:`refuse_device` refuses is
    refused, a temporary copy of a pipe being filled (:data:`FILLED`) is read as it is
    filled, and a named pipe (``<(yes '')``, a FIFO) is judged as a piped stdin is
    (:func:`judged_pipe`): the same refusals, in the same words. A regular file is opened
    as it is.

    Raises:
        OSError: it cannot be opened, or is refused.
    """
    refuse_device(path)
    if path == "-":
        return cast(IO[bytes], sys.stdin.buffer)
    filled = FILLED.get(path)
    if filled is not None:
        return filled()
    fh = open(path, "rb")  # noqa: SIM115 - the caller's to close
    try:
        if piped(os.fstat(fh.fileno()).st_mode):  # (as fs's entry point reads stdin's)
            pipe = io.BufferedReader(TextOnly(fh.fileno(), path, fh.close), 1 << 16)
            return judged_pipe(pipe)
    except BaseException:
        fh.close()
        raise
    return fh


def open_input(path: str, name: str | None = None) -> IO[str]:
    """Open ``path`` for reading text (``-`` is stdin); ``name`` names it in errors.

    Raises:
        InputError: the file cannot be opened.
    """
    try:
        if path == "-":
            refuse_device(path)  # (redirected from a blank file, a blank pipe)
            return sys.stdin
        return io.TextIOWrapper(open_bytes(path), encoding="utf-8", newline="")
    except OSError as exc:
        raise cannot_read(name or path, exc) from None


def no_such_file(path: str) -> str:
    """A named input file that is not there, in click's words for the file options it
    checks itself (``fs whatif --history``): ``File 'jobs.json' does not exist.``, the one
    wording of every reader."""
    return f"File {path!r} does not exist."


def is_a_folder(path: str) -> str:
    """A folder named as an input file, in click's words for the file options it checks
    itself (``fs simulate --workload``): ``File 'runs' is a directory.``, the one wording
    of every reader."""
    return f"File {path!r} is a directory."


def cannot_read(name: str, exc: OSError) -> InputError:
    """The error for an unreadable input (an import says what it reads: a folder too, in
    click's words, :func:`is_a_folder`), but for a standard input that was closed (no file
    is wrong: said as it is) and a file that is not there (:func:`no_such_file`: what it
    reads is no help)."""
    if isinstance(exc, ClosedStdin):
        return InputError(f"cannot read {name}: {exc.strerror}")
    if exc.errno == errno.ENOENT:
        return InputError(no_such_file(name))
    if exc.errno == errno.EISDIR:
        return UnreadableInput(is_a_folder(name))
    if exc.errno == errno.ENAMETOOLONG:  # (a name of thousands: shown shortened)
        return UnreadableInput(f"cannot read {shown(name)}: {exc.strerror}; give a shorter path")
    return UnreadableInput(f"cannot read {name}: {exc.strerror}")


def cannot_be_read(what: str, path: str, exc: OSError) -> str:
    """``{what} {path} cannot be read: ...``; a name too long for the system, shortened."""
    if exc.errno == errno.ENAMETOOLONG:  # (a name of thousands: shown shortened)
        return f"{what} {shown(path)} cannot be read: {exc.strerror}; give a shorter path"
    return f"{what} {path} cannot be read: {exc.strerror}"


def not_utf8(path: str, exc: UnicodeDecodeError) -> InputError:
    """The error for an input file that is not UTF-8 text."""
    message = f"{path}: not UTF-8 text (byte {exc.start} of a read); expected a text file"
    return UnreadableInput(message)


def read_text(stream: IO[str], name: str, size: int = -1) -> str:
    """All of ``stream``'s text, or its next ``size`` characters (InputError: it cannot be
    read or is not UTF-8, naming ``name``)."""
    try:
        return stream.read(size)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    except OSError as exc:
        raise cannot_read(name, exc) from None


class JSONFault(Exception):
    """The document is not valid JSON; each reader words the error for its own file.

    Attributes:
        line: the line of a syntax error (None for a huge number or too deep a nesting).
        column: its column; reason: what is wrong (the decoder's message, or ours).
    """

    def __init__(self, line: int | None, column: int | None, reason: str) -> None:
        super().__init__(reason)
        self.line, self.column, self.reason = line, column, reason


def not_json(name: str, fault: JSONFault, expected: str) -> InputError:
    """The refusal of input ``name`` that is not valid JSON (``fault``), expected to hold
    ``expected``."""
    if fault.reason is _EMPTY:
        return InputError(f"{name}: empty; expected {expected}")
    at = "" if fault.line is None else f"line {fault.line}, column {fault.column}: "
    return InputError(f"{name}: not valid JSON ({at}{fault.reason}); expected {expected}")


#: The reason of a document that holds nothing but JSON's blank space (worded "empty").
_EMPTY = "empty"


def read_json(path: str, name: str | None = None, pairs: Callable[..., Any] | None = None) -> Any:
    """The JSON document in ``path`` (``-`` is stdin, left open). ``name`` names the input in
    errors (default: ``path``); ``pairs``: an ``object_pairs_hook`` (then msgspec is not tried).

    Raises:
        InputError: the file cannot be opened or read, is not UTF-8, or starts with a
            byte-order mark.
        JSONFault: the text is not valid JSON.
    """
    if pairs is None and rereadable(path):  # (a pipe is read once, by the exact reader)
        fast = _fast_json(path)
        if fast is not _SLOW:
            return fast
    fh = open_input(path, name)
    try:
        text = _text_to_nul(fh, name or path)
    finally:
        if fh is not sys.stdin:
            fh.close()
    refuse_byte_order_mark(text, f"{name or path}:1")
    if not text.strip(" \t\r\n"):
        raise JSONFault(None, None, _EMPTY)
    try:
        return json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        raise JSONFault(exc.lineno, exc.colno, exc.msg) from None
    except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
        raise JSONFault(None, None, decoder_fault(exc, text)) from None


def _text_to_nul(stream: IO[str], name: str) -> str:
    """``stream``'s text (:func:`read_text`), or its text to its first NUL character,
    that one included: JSON takes a NUL nowhere, so its reader stops at or before that one
    with the error the whole text gives, where a document ending in NUL bytes (``truncate
    -s 2G jobs.json``) was read whole, some 4 GB of memory."""
    parts = []
    while part := read_text(stream, name, BLOCK):
        if (nul := part.find("\0")) >= 0:
            parts.append(part[: nul + 1])
            break
        parts.append(part)
    return "".join(parts)


_SLOW = object()


def _fast_json(path: str) -> Any:
    """The document in ``path`` parsed by :func:`fast_loads`, or ``_SLOW``."""
    try:
        refuse_device(path)
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return _SLOW
    return fast_loads(data, _SLOW)


def fast_loads(data: bytes | str, slow: Any) -> Any:
    """``json.loads(data)`` by msgspec (faster than the standard library), or ``slow``.

    msgspec gives the same objects when it accepts a document: integers stay exact at any
    length it accepts, floats are correctly rounded, a repeated key keeps its last value.
    Anything it refuses (a syntax error, not UTF-8, a byte-order mark, NaN or an infinity,
    a lone surrogate, a number beyond its range) is left to :func:`json.loads`, whose
    results and messages are the ones users see.
    """
    import msgspec

    try:
        return msgspec.json.decode(data)
    except (ValueError, RecursionError):  # msgspec.DecodeError is a ValueError
        return slow


def loads(text: str, once: bool = False, finite: bool = False) -> Any:
    """``json.loads(text)`` (a JSON-lines record, a ``--set`` value, a whole document), by
    msgspec when it accepts it (see :func:`fast_loads`); what msgspec refuses,
    :func:`json.loads` parses or refuses; ``once``: an object giving a key twice too;
    ``finite``: NaN, an infinity or a number beyond a double too (msgspec refuses them).

    Raises:
        ValueError: as json.loads; DuplicateKey, NonFiniteNumber: as ``once``, ``finite``.
    """
    obj = fast_loads(text, _SLOW)
    if obj is _SLOW or (once and not surely_distinct(text, obj)):
        repeats = RepeatedKeys()
        obj = json.loads(text, object_pairs_hook=repeats if once else None, **number_hooks(finite))
        repeats.refuse(obj)
    return obj


def long_line(name: str, number: int, expected: str) -> InputError:
    """The refusal of line ``number`` of ``name``, longer than
    :data:`~fairshare_cli.core.limits.MAX_LINE` (a pipe without a newline, ``yes | tr -d
    '\\n'``, was read until memory ran out)."""
    return InputError(
        f"{name}:{number}: a line longer than {MAX_LINE >> 20} MiB (no newline in "
        f"{MAX_LINE:,} characters); expected {expected}"
    )


def bounded_lines(stream: IO[str], name: str, expected: str, first: int = 1) -> Iterator[str]:
    """``stream``'s lines as iterating it gives them, each at most
    :data:`~fairshare_cli.core.limits.MAX_LINE` characters: a longer one is refused once
    that much of it is read (:func:`long_line`, ``first`` the number of the first line),
    not held until memory runs out (``yes | tr -d '\\n' | fs import dirac-cfg -``).

    Raises:
        InputError: such a line; as :func:`read_text`.
    """
    number = first
    while line := _read_line(stream, name):
        if len(line) > MAX_LINE:
            raise long_line(name, number, expected)
        yield line
        number += 1


def _read_line(stream: IO[str], name: str) -> str:
    """The next line of ``stream``, cut after :data:`~fairshare_cli.core.limits.MAX_LINE`
    characters and one more (as :func:`read_text` reads)."""
    try:
        return stream.readline(MAX_LINE + 1)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    except OSError as exc:
        raise cannot_read(name, exc) from None


def line_blocks(read: Callable[[int], Any], name: str, expected: str) -> Iterator[Any]:
    """The text (or bytes) ``read(n)`` gives, in blocks of whole lines (the last block
    may end without a newline), each as a stream to iterate line by line at the speed of
    a file; a line longer than :data:`~fairshare_cli.core.limits.MAX_LINE` is refused,
    unless the input is a JSON document (its first character ``[`` or ``{``), whose lines
    are its writer's choice (then read whole, as its reader reads it)."""
    carry, lines, json = read(0), 0, None
    nl = "\n" if isinstance(carry, str) else b"\n"
    make = (lambda t: io.StringIO(t, newline="\n")) if isinstance(carry, str) else io.BytesIO
    while block := read(BLOCK):
        block = carry + block if carry else block
        if json is None and block.strip():
            json = block.lstrip()[:1] in ("[", "{", b"[", b"{")
        end = block.rfind(nl) + 1
        if json:  # (read whole, as its reader reads it)
            yield make(block + read(-1))
            return
        carry = block[end:]
        if len(carry) > MAX_LINE:
            raise long_line(name, lines + block.count(nl, 0, end) + 1, expected)
        if end:
            lines += block.count(nl, 0, end)
            yield make(block[:end])
    if carry:
        yield make(carry)
