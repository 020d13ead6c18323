"""JSON numbers no tool writes: NaN, the infinities and a number beyond a double.

Python's :func:`json.loads` reads ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON), and
``1e400`` as an infinity, without a word. fs never writes them (the state), and neither do
the real tools: Slurm's JSON serializer turns an infinite or NaN float into a number
(``src/plugins/serializer/json/serializer_json.c``, ``INFINITE64`` and ``NO_VAL64``) and its
data parser into ``{"infinite": true}`` or ``{"set": false}``; HTCondor's ``-json`` writes
such a real as the expression ``real("NaN")`` or ``real("INF")`` (``src/classad/jsonSink.cpp``).
A file holding one was edited or damaged, so the readers refuse it, at its line.
"""

from __future__ import annotations

import math
import re
from typing import Any


class NonFiniteNumber(ValueError):
    """A JSON number that is NaN or infinite (its text as written)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def refusal(self) -> str:
        """What is wrong, for a dump's message (after its ``FILE:LINE:``)."""
        return (
            f"{shown_number(self.text)}: expected a finite number (NaN, the infinities and "
            "numbers beyond a double are no JSON the tools write)"
        )


class RefusedNumber(ValueError):
    """A JSON number a reader's check refused (its text as written, and why)."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__(why)
        self.text, self.why = text, why


def shown_number(text: str) -> str:
    """A number's text as a message shows it: whole, or its head and length if long."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def refuse_constant(text: str) -> float:
    """A ``parse_constant`` for :func:`json.loads`: ``NaN``, ``Infinity``, ``-Infinity``.

    Raises:
        NonFiniteNumber: always.
    """
    raise NonFiniteNumber(text)


def finite_float(text: str) -> float:
    """A ``parse_float`` for :func:`json.loads` refusing a number beyond a double (``1e400``).

    Raises:
        NonFiniteNumber: it is one.
    """
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(text)
    return value


#: ``json.loads``'s hooks that refuse them.
FINITE: dict[str, Any] = {"parse_constant": refuse_constant, "parse_float": finite_float}


def number_hooks(finite: bool) -> dict[str, Any]:
    """:data:`FINITE` if ``finite``, else no hooks (``json.loads``'s own reading)."""
    return FINITE if finite else {}


#: A JSON string (skipped) or a number or constant (group 1).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"|(-?(?:Infinity|NaN|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))')


def line_of(text: str, number: str, start: int = 0, line: int = 1) -> int:
    """The line of the first number or constant of ``text[start:]`` written as ``number``
    (outside strings), ``start`` being on ``line``; ``line`` if there is none."""
    for m in _TOKEN.finditer(text, start):
        if m.group(1) == number:
            return line + text.count("\n", start, m.start())
    return line
