"""The second half of a long job, done by a forked child beside the first.

``fs sprio -l`` over a 100,000-job file spends most of its time decoding the jobs, making
their rows and printing them, a job at a time in Python. On two cores, a child forked once
the config, state and association tree are read makes the second half of the listing while
the process makes the first (``benchmarks/run.py --rows sprio,sprio-json``). ``fs
taskqueues`` has its child read the second half of a jobs file and send what it counted:
its report is all it gives (it is then given up).

The protocol, over two pipes:
- the child does its half and sends a report (a ``marshal``-ed value; nothing when its
  half cannot be done this way), then makes the half's text until released;
- the parent makes its own half and reads the report. It then either gives the child up
  (:meth:`Half.cancel`: killed; nothing of it reaches the output) and lists the whole queue
  itself, or writes its half (while the child makes its text) and releases the child
  (:meth:`Half.release`);
- a released child writes its half to the output the two share (one file description, so
  one offset: after the parent's text), what it made first then the rest as it makes it,
  then sends how the writing ended (a closed pipe, an ``OSError``), which the parent raises
  as its own writing would have.

Used only where ``os.fork`` exists and at least two CPUs are usable (:func:`can_fork`), and
the output, if any, has a file descriptor (:func:`usable`). The child never writes anything
else, stops writing if its parent is gone, and ends with ``os._exit``: no exit handlers, no
buffers flushed twice.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, TextIO

from fairshare_cli.errors import RuntimeFailure

#: What the child's work returns: its report, its text's pieces (made once the report is
#: sent) and what writes them when released; or None when its half cannot be listed this
#: way.
Made = tuple[Any, Iterable[str], Callable[[Iterable[str]], None]] | None

_LENGTH = 4
_UNREAD: Any = object()


def can_fork() -> bool:
    """Whether a half can be forked at all: the system forks and two CPUs or more are
    usable."""
    if not hasattr(os, "fork"):
        return False
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cpus or 1) >= 2


def usable(stream: TextIO) -> bool:
    """Whether a half can be forked for output to ``stream``: :func:`can_fork`, and the
    stream has a file descriptor (a test's captured output has none)."""
    if not can_fork():
        return False
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation is an OSError)
        return False
    return True


class Half:
    """The parent's end of a forked half: its report, then its release or cancellation.

    A context manager: leaving it without a release cancels the child, so no path (an
    error, Ctrl-C) leaves it running or unwaited.
    """

    def __init__(self, pid: int, reports: int, go: int) -> None:
        self.pid = pid
        self._reports = reports
        self._go = go
        self._done = False
        self._report: Any = _UNREAD

    def __enter__(self) -> Half:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._done:
            self.cancel()

    def report(self) -> Any:
        """The child's report once its half is made; None when it made none (its half
        cannot be listed this way, or it failed)."""
        if self._report is _UNREAD:
            self._report = _receive(self._reports)
        return self._report

    def gave_up(self) -> bool:
        """Whether the child has already reported that it made no half (or died), told
        without waiting: the parent can then stop its own half early."""
        if self._report is _UNREAD and select.select([self._reports], [], [], 0)[0]:
            self._report = _receive(self._reports)
        return self._report is None

    def release(self, stream: TextIO) -> None:
        """Flush ``stream``, let the child write its half after it, and wait for it.

        Raises:
            BrokenPipeError: the output's reader went away while the child wrote.
            OSError: the child's writing failed so (a full disk).
            RuntimeFailure: the child failed otherwise, or died.
        """
        stream.flush()
        self._done = True
        try:
            os.write(self._go, b"g")
        except BrokenPipeError:  # (the child is gone: told below)
            ended = None
        else:
            ended = _receive(self._reports)
        finally:
            self._close()
            _, status = os.waitpid(self.pid, 0)
        if ended == ("ok",) and os.waitstatus_to_exitcode(status) == 0:
            return
        if ended == ("pipe",):
            raise BrokenPipeError
        if isinstance(ended, tuple) and len(ended) == 3 and ended[0] == "os":
            raise OSError(ended[1], ended[2])
        raise RuntimeFailure(
            "the process writing the listing's second half failed "
            f"({ended[1] if isinstance(ended, tuple) and len(ended) == 2 else 'it died'})"
        )

    def cancel(self) -> None:
        """Kill the child (its half unwritten) and wait for it."""
        self._done = True
        self._close()
        with contextlib.suppress(ProcessLookupError):  # (already ended: waited for below)
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

    def _close(self) -> None:
        for fd in (self._reports, self._go):
            with contextlib.suppress(OSError):  # (closed already)
                os.close(fd)


def fork_half(work: Callable[[], Made], stream: TextIO | None) -> Half | None:
    """A child forked to run ``work`` (making the second half), or None when none can be
    (:func:`usable` for ``stream``, :func:`can_fork` without one, or ``fork`` fails: then
    the caller does everything itself). Without a stream, the child's report is all it
    gives (it writes nothing).

    The standard streams are flushed first, so the child inherits no pending text.
    """
    if not (can_fork() if stream is None else usable(stream)):
        return None
    if stream is not None:
        stream.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    reports_r, reports_w = os.pipe()
    go_r, go_w = os.pipe()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:  # (no process to spare)
        for fd in (reports_r, reports_w, go_r, go_w):
            os.close(fd)
        return None
    if pid == 0:  # pragma: no cover - the child (its results are tested through the parent)
        os.close(reports_r)
        os.close(go_w)
        _child(work, reports_w, go_r, parent)
    os.close(reports_w)
    os.close(go_r)
    return Half(pid, reports_r, go_w)


def _child(  # pragma: no cover
    work: Callable[[], Made], reports: int, go: int, parent: int
) -> None:
    """The child: make the half, report, make its text, write it when released (while
    the ``parent`` lives), report how that ended, and end (``os._exit``) whatever
    happens."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it
        made = work()
        if made is None:
            _send(reports, None)
            os._exit(0)
        report, pieces, write = made
        _send(reports, report)
        text = _made_until_released(pieces, go)
        if os.read(go, 1) != b"g":  # given up (the pipe closed)
            os._exit(0)
        try:
            write(while_parent_lives(text, parent))
            ended: tuple[Any, ...] = ("ok",)
        except Orphaned:  # (killed: nobody waits for the rest)
            os._exit(1)
        except BrokenPipeError:
            ended = ("pipe",)
        except OSError as exc:
            ended = ("os", exc.errno, exc.strerror)
        except Exception as exc:  # told to the parent, which fails on it
            ended = ("error", f"{type(exc).__name__}: {exc}")
        _send(reports, ended)
        code = 0 if ended == ("ok",) else 1
    except BaseException:  # the parent sees the exit code, or the pipe closed
        code = 1
    finally:
        os._exit(code)


class Orphaned(Exception):
    """The parent ended while the child wrote its half."""


def while_parent_lives(pieces: Iterable[str], parent: int) -> Iterator[str]:
    """The pieces, one by one while the process ``parent`` is this one's parent (a
    parent killed mid-listing, by ``timeout`` say, ends the listing: the child's half
    stops between two pieces).

    Raises:
        Orphaned: the parent is gone.
    """
    for piece in pieces:
        if os.getppid() != parent:
            raise Orphaned
        yield piece


def _made_until_released(pieces: Iterable[str], go: int) -> Iterable[str]:
    """The pieces, those made before the parent releases the child (or gives it up)
    held, the rest made as they are written: the child's text is never held whole when
    the parent is done first."""
    held: list[str] = []
    rest = iter(pieces)
    for piece in rest:
        held.append(piece)
        if select.select([go], [], [], 0)[0]:  # (released, or given up: told by the read)
            break
    return chain(held, rest)


def _send(fd: int, value: Any) -> None:
    """One length-prefixed ``marshal`` message."""
    data = marshal.dumps(value)
    data = len(data).to_bytes(_LENGTH, "big") + data
    while data:
        data = data[os.write(fd, data) :]


def _receive(fd: int) -> Any:
    """One message of :func:`_send`; None at the end of the pipe."""
    head = _read(fd, _LENGTH)
    if head is None:
        return None
    body = _read(fd, int.from_bytes(head, "big"))
    return None if body is None else marshal.loads(body)


def _read(fd: int, size: int) -> bytes | None:
    """Exactly ``size`` bytes, or None when the pipe ends first."""
    parts = []
    while size:
        part = os.read(fd, size)
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)
