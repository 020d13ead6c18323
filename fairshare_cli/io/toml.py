"""The TOML reader: ``rtoml`` (Rust) first, ``tomllib`` (``tomli`` before 3.11) for the rest.

``rtoml`` parses a pool config about eight times faster than ``tomllib`` (the
170 KB config of 10,000 associations in 6 ms instead of 50), and gives the same values in
the same key order for every TOML 1.0 document. :func:`loads` hands ``tomllib`` whatever
``rtoml`` refuses, so an error is always ``tomllib``'s (its words, line and column), and
what ``rtoml`` cannot hold (nesting deeper than its limit) is still read. A document with
a date-time goes to ``tomllib`` as well: ``rtoml``'s offset date-times carry a time zone
class of its own, and a message that quotes such a value would read differently.

``rtoml`` also takes a few things TOML 1.1 allows and 1.0 does not (a byte-order mark,
trailing commas and line breaks in inline tables, times without seconds, ``\\xHH`` escapes);
docs/config.md says so.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import rtoml

__all__ = ["exact_loads", "loads"]

#: What every TOML date-time holds (``-MM-DDTHH:``; a literal first, so a search of a big
#: config skips along at C speed: 0.1 ms for 450 KB, where ``\d{4}-...`` took 6).
_DATE_TIME = re.compile(r"-\d\d-\d\d[Tt ]\d\d:")


def loads(text: str) -> dict[str, Any]:
    """Parse TOML ``text``: what ``tomllib.loads`` returns, or raises.

    Raises:
        tomllib.TOMLDecodeError: not valid TOML (``tomllib``'s message).
        ValueError, RecursionError: an over-long integer, too deep a nesting (``tomllib``).
    """
    if _DATE_TIME.search(text) is None:
        try:
            data: dict[str, Any] = rtoml.loads(text)
            return data
        except ValueError:  # rtoml.TomlParsingError: tomllib says what is wrong, or reads it
            pass
    return exact_loads(text)


def exact_loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)`` (``tomli`` before 3.11), imported only when it is needed.

    Raises:
        tomllib.TOMLDecodeError, ValueError, RecursionError: as ``tomllib`` raises them.
    """
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib

    data: dict[str, Any] = tomllib.loads(text)
    return data
