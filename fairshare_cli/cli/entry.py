"""The ``fs`` program: a command, then the end of the process without tearing Python down.

Python's own exit frees every object one by one and finalizes every module: some 5 % of a
100,000-job ``fs sprio`` (``benchmarks/run.py --rows sprio``) spent on memory the system
takes back at once. Every file a command writes is closed, flushed and synced before it
returns (``io/atomic.py``, the usage store's commit), no command registers exit handlers or
leaves threads, so :func:`main` flushes the standard streams and ends with ``os._exit``.
Tests run :data:`~fairshare_cli.cli.main.cli` in their own process, which goes on.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

#: What commands :func:`hold` until the process ends; None where the process goes on after
#: a command (tests): then nothing is held.
_held: list[tuple[object, ...]] | None = None


def hold(*objects: object) -> None:
    """Keep ``objects`` (a command's big structures) until the process ends, where
    :func:`main` ends it without freeing them: freeing a queue of 100,000 jobs and its
    table one object at a time is 4 % of ``fs sprio``'s instructions. Elsewhere, a no-op."""
    if _held is not None:
        _held.append(objects)


def main() -> NoReturn:
    """Run ``fs`` with the process's arguments; end the process with the command's exit
    code (an error while flushing the output, such as a closed pipe: 1, as the commands
    end on one)."""
    from fairshare_cli.cli.main import cli

    global _held
    _held = []
    try:
        cli()
    except SystemExit as exc:
        code = exit_code(exc.code)
    else:  # (click always exits; a group called without standalone mode would not)
        code = 0
    try:
        if sys.stdout is not None:  # (None: started with its descriptor closed)
            sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # a closed pipe (or a stream closed on one)
        code = code or 1
    except OSError as exc:  # what was left to write did not fit (a full disk)
        from fairshare_cli.cli.main import os_error_line

        with contextlib.suppress(OSError, ValueError, AttributeError):
            print(f"fs: error: {os_error_line(exc)}", file=sys.stderr)
        code = code or 1
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    os._exit(code)


def exit_code(code: object) -> int:
    """The process's exit status for ``SystemExit(code)``, as Python sets it: None is 0,
    an integer itself, anything else printed on stderr and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
