"""Open an input file (or stdin) and read it as UTF-8 text or one JSON document."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from fairshare_cli.errors import InputError


def open_input(path: str) -> IO[str]:
    """Open ``path`` for reading text (``-`` is stdin).

    Raises:
        InputError: the file cannot be opened.
    """
    if path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def not_utf8(path: str, exc: UnicodeDecodeError) -> InputError:
    """The error for an input file that is not UTF-8 text."""
    return InputError(f"{path}: not UTF-8 text (byte {exc.start} of a read); expected a text file")


def read_text(stream: IO[str], name: str) -> str:
    """All of ``stream``'s text.

    Raises:
        InputError: it cannot be read or is not UTF-8, naming ``name``.
    """
    try:
        return stream.read()
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror}") from None


class JSONFault(Exception):
    """The document is not valid JSON; each reader words the error for its own file.

    Attributes:
        line: the line of a syntax error (None for a huge number or too deep a nesting).
        column: its column.
        reason: what is wrong (the decoder's message).
    """

    def __init__(self, line: int | None, column: int | None, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.column = column
        self.reason = reason


def read_json(path: str, name: str | None = None) -> Any:
    """The JSON document in ``path`` (``-`` is stdin, left open).

    ``name`` names the input in errors (default: ``path``).

    Raises:
        InputError: the file cannot be opened or read, or is not UTF-8.
        JSONFault: the text is not valid JSON.
    """
    if path != "-":
        fast = _fast_json(path)
        if fast is not _SLOW:
            return fast
    fh = open_input(path)
    try:
        text = read_text(fh, name or path)
    finally:
        if fh is not sys.stdin:
            fh.close()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONFault(exc.lineno, exc.colno, exc.msg) from None
    except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
        raise JSONFault(None, None, str(exc)) from None


_SLOW = object()


def _fast_json(path: str) -> Any:
    """The document in ``path`` parsed by :func:`fast_loads`, or ``_SLOW``."""
    try:
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


def loads(text: str) -> Any:
    """``json.loads(text)`` (a JSON-lines record, a ``--set`` value, a whole document), by
    msgspec when it accepts it
    (see :func:`fast_loads`); what msgspec refuses, :func:`json.loads` parses or refuses.

    Raises:
        ValueError: as :func:`json.loads` raises it.
    """
    obj = fast_loads(text, _SLOW)
    return json.loads(text) if obj is _SLOW else obj
