"""The ``fs`` program: a command, then the process's exit with the command's exit code.

A reader gone away (``fs sprio -l | head -1``) ends it with the command's code, 0, and
nothing on stderr (1 when the closed pipe stopped a command before its change was
written): whether a table fitted the pipe before the reader left is a race, so 1 could not
be every time's code. A full disk (``fs userprio > /dev/full``) ends it with 1 and the one
line that names what failed. What is left unwritten is dropped, so that Python's own exit
has nothing to flush and nothing to complain about. Tests run
:data:`~fairshare_cli.cli.main.cli` in their own process.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gc
import io
import os
import stat
import sys

TYPE_CHECKING = False  # (typing is not imported before the command: see main)
if TYPE_CHECKING:
    from typing import Any, NoReturn


def main() -> NoReturn:
    """Run ``fs`` with the process's arguments; exit with the command's exit code (a
    closed pipe while flushing the output leaves it; another error there: 1). Ctrl-C or
    SIGTERM as ``fs`` starts or ends, outside the command, ends it with
    the command's one line too (it was a ``KeyboardInterrupt`` traceback): only what
    imports this module is left to Python."""
    try:
        code = _run()
    except KeyboardInterrupt as exc:
        from fairshare_cli.cli.interrupts import hold, interrupted

        hold()  # (a second one while the line is written: the first is said)
        line, code = interrupted(exc)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            print(f"fs: error: {line}", file=sys.stderr, flush=True)
    gc.freeze()  # Python's exit collects garbage: not among what the command left
    _forget_caught_interrupt()
    sys.exit(code)


def _run() -> int:
    """The command, its output flushed: its exit code."""
    import signal

    from fairshare_cli.cli.interrupts import (
        change_written,
        drop_held,
        forget_written,
        hold,
        let_in,
        terminate,
    )

    signal.signal(signal.SIGTERM, terminate)  # (stopped as by Ctrl-C: cleanups run)
    hold()  # (click reads the line and ends the command: the command lets them in)
    from fairshare_cli.cli.main import cli

    _open_closed_streams()
    _whole_writes()
    _output_takes_argument_bytes()
    forget_written()
    try:
        cli()
    except SystemExit as exc:
        code = exit_code(exc.code)
    else:  # (click always exits; a group called without standalone mode would not)
        code = 0
    if code or change_written():
        drop_held()  # (the command said why it failed, or its change is made: that stands)
    let_in()  # (one held back comes here)
    try:
        if sys.stdout is not None:  # (None: started with its descriptor closed)
            sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # a closed pipe (or a stream closed on one):
        _drop_output()  # the reader left (| head -1) after the command ended: its code
    except OSError as exc:  # what was left to write did not fit (a full disk)
        from fairshare_cli.cli.main import os_error_line

        _drop_output()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            print(f"fs: error: {os_error_line(exc)}", file=sys.stderr)
        code = code or 1
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    hold()  # (the command has ended: one now is dropped as Python ends, not a death by it)
    return code


def _forget_caught_interrupt() -> None:
    """Clear CPython's note of a Ctrl-C left uncaught by code run from a text (``exec``,
    ``eval``: the methods of a dataclass are made so): one that came while a module the
    command imports made a dataclass was noted there although ``fs`` caught it, and
    ``python -m fairshare_cli`` then ended by SIGINT (-2) after its one line, not with
    130 (``Py_RunMain``; the ``fs`` script exits before it looks). Running any text clears
    the note."""
    exec("")


def _open_closed_streams() -> None:
    """A standard stream started closed (``fs negotiate >&-``, ``2>&-``) is None in Python:
    point it at ``/dev/null`` so that what goes there is dropped, as a command's output to
    a closed descriptor is, instead of failing on None (``sys.stderr.isatty()``) after
    the state is written or, for a traceback, in silence. A closed standard input stays
    closed: reading it is refused (:func:`~fairshare_cli.io.inputs.stand_in_for_closed_stdin`);
    a piped one is read up to its first NUL byte (:func:`_refuse_binary_pipes`)."""
    if sys.stdin is None:  # (first: descriptor 0 is the lowest free one)
        from fairshare_cli.io.inputs import stand_in_for_closed_stdin

        with contextlib.suppress(OSError):
            stand_in_for_closed_stdin()
    else:
        _refuse_binary_pipes()
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            with contextlib.suppress(OSError):
                setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _refuse_binary_pipes() -> None:
    """Read standard input through :class:`~fairshare_cli.io.input_heads.TextOnly` when it
    is a pipe or a socket (a file
    redirected is refused before it is read, by :func:`~fairshare_cli.io.inputs.
    refuse_blank_stdin`)."""
    stdin = sys.stdin
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return
    if stdin is None or not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return
    from fairshare_cli.io.input_heads import TextOnly  # (only for a pipe)

    raw = io.BufferedReader(TextOnly(0), buffer_size=1 << 16)
    sys.stdin = io.TextIOWrapper(raw, encoding=stdin.encoding, errors=stdin.errors, newline="\n")


class _WholeFile(io.FileIO):
    """The standard output's file, whose ``write`` writes all it is given or raises.

    A write to a pipe whose reader leaves midway writes part (``fs taskqueues ... | head
    -1`` prints a table of megabytes in one piece); Python's text stream ignores the short
    count, so with ``PYTHONUNBUFFERED`` set (the output's text then goes straight to the
    file) the rest was dropped unsaid and fs ended with 0, not 1. Writing the rest meets
    the closed pipe, and the command ends as on any closed pipe."""

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            more = super().write(view[done:])
            if not more:  # (a blocking descriptor takes at least a byte, or fails)
                raise BrokenPipeError(errno.EPIPE, "the output took nothing")
            done += more
        return len(view)


def _whole_writes() -> None:
    """Put the standard output's text on a :class:`_WholeFile` of its descriptor, buffered,
    encoded and flushed as it was (the stream Python made stays open, unused)."""
    out = sys.stdout
    if out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return  # (not Python's own stream, which sys.__stdout__ keeps open: left as it is)
    if type(out.buffer) not in (io.FileIO, io.BufferedWriter):
        return
    out.flush()
    raw = _WholeFile(out.fileno(), "w", closefd=False)
    buffer = raw if type(out.buffer) is io.FileIO else io.BufferedWriter(raw)
    sys.stdout = io.TextIOWrapper(
        buffer,
        encoding=out.encoding,
        errors=out.errors,
        newline="\n",
        line_buffering=out.line_buffering,
        write_through=out.write_through,
    )


def _output_takes_argument_bytes() -> None:
    """Write the bytes of an argument that are not UTF-8 (``fs sprio -o $'%i\\xff'``,
    read as ``"\\udcff"``) back as they came: under a strict UTF-8 output
    (``PYTHONIOENCODING=utf-8``, a UTF-8 locale other than C.UTF-8) printing one crashed
    (a UnicodeEncodeError traceback). Text the output's encoding has no bytes for (a
    submitter ``é@example.org`` in the C locale's ASCII) is written escaped (``\\xe9``),
    as Python writes the standard error: it crashed every table that showed it."""
    codecs.register_error(_OUTPUT_ERRORS, _argument_bytes_else_escaped)
    with contextlib.suppress(AttributeError, ValueError):  # (not a text stream of ours)
        sys.stdout.reconfigure(errors=_OUTPUT_ERRORS)  # type: ignore[union-attr]


_OUTPUT_ERRORS = "fairshare-output"
"""The standard output's error handler: :func:`_argument_bytes_else_escaped`."""


def _argument_bytes_else_escaped(exc: UnicodeError) -> tuple[str | bytes, int]:
    """An argument's byte that is not UTF-8 (``"\\udcff"``) as the byte
    (``surrogateescape``); any other character the encoding lacks as ``\\xe9``
    (``backslashreplace``)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    char = exc.object[exc.start]
    if 0xDC80 <= ord(char) <= 0xDCFF:
        return bytes([ord(char) - 0xDC00]), exc.start + 1
    return codecs.backslashreplace_errors(
        UnicodeEncodeError(exc.encoding, exc.object, exc.start, exc.start + 1, exc.reason)
    )


def _drop_output() -> None:
    """Point the standard output at ``/dev/null``: what its buffer still holds could not
    be written, and Python's exit flushes it once more (an error there would print
    "Exception ignored" and make the exit code 120)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


def exit_code(code: object) -> int:
    """The process's exit status for ``SystemExit(code)``, as Python sets it: None is 0,
    an integer itself, anything else printed on stderr and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
