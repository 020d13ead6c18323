"""Ctrl-C and SIGTERM: the one line a command stopped by either ends with, and the SIGTERM
handler that stops a command as Ctrl-C does. A leaf (no click): the program's entry
reads it before anything else is imported, so that an interrupt while ``fs`` starts ends
with the same line."""

from __future__ import annotations

import contextlib
import signal

TYPE_CHECKING = False  # (typing is not imported before the command)
if TYPE_CHECKING:
    from collections.abc import Iterator

#: The signals that stop a command, held back outside it.
STOPPING = frozenset({signal.SIGINT, signal.SIGTERM})

#: The line of a command stopped by Ctrl-C (SIGINT), which exits with 128 + 2 as a shell's
#: commands do. A file it was writing is the old one or the new one, whole.
INTERRUPTED = "interrupted (Ctrl-C)"
#: The line of a command stopped by SIGTERM (``kill``, a batch system preempting ``fs sweep
#: run-point``), which exits with 128 + 15.
TERMINATED = "terminated (SIGTERM)"


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is (:func:`terminate`): it stops as Ctrl-C stops it,
    every cleanup run (no temporary file, no half-made history left behind)."""


def terminate(signum: int, frame: object) -> None:
    """The SIGTERM handler ``fs`` installs: raise :class:`Terminated`; a second SIGTERM, during
    the cleanups, ends the process at once (the default)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise Terminated()


def interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM an error stands for: Python 3.11 reports an interrupt that
    comes while a class is made (a dataclass of a module imported as the command runs) as
    a ``RuntimeError`` caused by it (``Error calling __set_name__``), which printed a
    traceback and exit 1; an error raised while an interrupt was being handled has it as
    its context."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None


def interrupted(exc: KeyboardInterrupt) -> tuple[str, int]:
    """The one line and exit code of a command stopped by Ctrl-C (130) or SIGTERM (143)."""
    if isinstance(exc, Terminated):
        return TERMINATED, 143
    return INTERRUPTED, 130


def hold() -> None:
    """Hold Ctrl-C and SIGTERM back (blocked: the kernel keeps them pending) outside the
    command: while click reads the command line, and ends the command, it takes an
    interrupt for its own ("Aborted!", exit 1); and after the command, while Python
    ends, one killed the process (-15, -2) without a line."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)


#: Whether the command's change is on the disk (:func:`written`), for the program's entry.
_WRITTEN: list[bool] = []
#: Whether the command set out to change the state (:func:`change_begun`).
_BEGUN: list[bool] = []


def change_begun() -> None:
    """The command has loaded the state to change it: until :func:`written`, a closed
    output that stops it leaves its change unmade (:func:`change_unmade`)."""
    _BEGUN.append(True)


def change_ended() -> None:
    """The command's change is written, or there was none to write."""
    _BEGUN.clear()


def change_unmade() -> bool:
    """Whether the command set out to change the state and has not ended its change."""
    return bool(_BEGUN)


def written() -> None:
    """The command's state is replaced: hold Ctrl-C and SIGTERM back for the rest of it (its
    output), to be dropped when it ends (:func:`change_written`), so that its exit code says
    the change was made. One that came there ended it with 130 although the state was
    written: a script retrying ``fs submit`` (no ``--id``) on 130 made its jobs twice."""
    _WRITTEN.append(True)
    hold()


def change_written() -> bool:
    """Whether :func:`written` was called since :func:`forget_written`."""
    return bool(_WRITTEN)


def forget_written() -> None:
    """A command starts: none of its changes is begun or written yet."""
    _WRITTEN.clear()
    _BEGUN.clear()


def let_in() -> set[int | signal.Signals]:
    """Let Ctrl-C and SIGTERM in (one held back comes at once); the mask as it was."""
    return signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


@contextlib.contextmanager
def released() -> Iterator[None]:
    """Let Ctrl-C and SIGTERM in while the command runs (one held back comes at once), and
    hold them back again after it, as they were."""
    kept = let_in()
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, kept)


def drop_held() -> None:
    """Forget a Ctrl-C or SIGTERM held back: the command has ended with its own line."""
    while signal.sigtimedwait(STOPPING, 0) is not None:
        pass
