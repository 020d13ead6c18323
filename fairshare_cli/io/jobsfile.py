"""Read a ``--jobs-file``: a JSON list of job objects (docs/jobs.md), fast for big queues."""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterator
from typing import Any

from fairshare_cli.errors import InputError


def load_job_objects(path: str) -> list[Any]:
    """The raw job objects of a jobs file (``-`` is stdin).

    Call it inside :func:`gc_paused` for big files.

    Raises:
        InputError: the file cannot be read, is not JSON, or is not a list.
    """
    from fairshare_cli.io.history import not_utf8, open_input

    with open_input(path) as fh:
        try:
            text = fh.read()
        except UnicodeDecodeError as exc:
            raise not_utf8(path, exc) from None
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror}") from None
    try:
        objs = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "expected a list of job objects"
        ) from None
    except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
        raise InputError(
            f"{path}: not valid JSON ({exc}); expected a list of job objects"
        ) from None
    if not isinstance(objs, list):
        raise InputError(f"{path}: expected a JSON list of job objects, got {type(objs).__name__}")
    return objs


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (reference counting still frees memory).

    A million job objects are a million new containers; collecting among them while they
    are built and grouped triples the time, and none of them forms a cycle.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
