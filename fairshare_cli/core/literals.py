"""ClassAd literals from JSON: the values a job's ``attributes`` may hold (and the check of
a job's other mapping, ``dirac_requirements``: an object of Unicode text).

classad2 builds a job's ad from them and fails on a whole number beyond 64 bits (a
``SystemError``) or crashes on a string with a lone surrogate (JSON's ``"\\udcff"``), so
every door that takes them checks them first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from msgspec import Meta

from fairshare_cli.core.limits import INT64_MAX, INT64_MIN
from fairshare_cli.core.names import json_shown
from fairshare_cli.errors import InputError

_Scalar = str | bool | None | Annotated[int, Meta(ge=INT64_MIN, le=INT64_MAX)] | float
#: A literal as the decoders take it (a list or object of plain values too; one nested
#: deeper is left to :func:`check_literals`, which checks it to the bottom).
Literal = _Scalar | list[_Scalar] | dict[str, _Scalar]


def check_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` as a dict if it is an object (a JSON object, a mapping) whose names and
    strings (in lists and objects too) are Unicode text.

    Raises:
        InputError: naming ``where`` (and the value's place).
    """
    return _checked(value, where, numbers=False)


def check_literals(value: Any, where: str) -> dict[str, Any]:
    """``value`` as a dict if it is an object of literals (in lists and objects too): whole
    numbers that fit in 64 bits, finite numbers, names and strings of Unicode text.

    Raises:
        InputError: naming ``where``, the attribute and what is wrong.
    """
    return _checked(value, where, numbers=True)


def _checked(value: Any, where: str, numbers: bool) -> dict[str, Any]:
    """``value`` as a dict, checked: its text, and with ``numbers`` its numbers.

    Raises:
        InputError: naming ``where``, the place in ``value`` and what is wrong.
    """
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: expected an object")
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        at, v = stack.pop()
        if isinstance(v, Mapping):
            for k in v:
                if not _unicode(k):
                    raise InputError(f"{at}: expected names of Unicode text, got {k!r}")
            stack.extend((f"{at}.{k}", item) for k, item in v.items())
        elif isinstance(v, (list, tuple)):
            stack.extend((f"{at}[{k}]", item) for k, item in enumerate(v))
        elif isinstance(v, str) and not _unicode(v):
            raise InputError(f"{at}: expected Unicode text, got {json_shown(v)}")
        elif not numbers:
            continue
        elif isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
            raise InputError(f"{at}: expected a whole number that fits in 64 bits, got {v}")
        elif isinstance(v, float) and not math.isfinite(v):
            raise InputError(f"{at}: expected a finite number, got {v}")
    return dict(value)


def _unicode(text: Any) -> bool:
    """Whether ``text`` is a string of Unicode text (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except (UnicodeEncodeError, AttributeError):
        return False
    return True
