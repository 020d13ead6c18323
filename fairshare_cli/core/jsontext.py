"""What the msgspec JSON writers share (``render/fastjson.py`` for ``--json``,
``io/state_json.py`` for the state file), so both print ``json.dumps``'s bytes.

msgspec's shortest round-trip float digits equal ``repr``'s only from :data:`SMALL` to
below :data:`LARGE` in magnitude; a value a writer cannot hand to msgspec raises
:class:`Refused` (its encoder's ``enc_hook`` is :func:`refuse`), and :func:`indented`
gives up (None) on text ``json.dumps`` would escape, so the caller asks the standard library.
"""

from __future__ import annotations

from typing import Any

import msgspec

SMALL = 1e-4
LARGE = 1e16


class Refused(Exception):
    """A value :func:`json.dumps` must print."""


def refuse(value: Any) -> Any:
    """msgspec's ``enc_hook``: any type beyond JSON's own is the standard library's."""
    raise Refused


def repr_float(value: float) -> msgspec.Raw:
    """A finite float outside ``SMALL..LARGE`` as ``repr`` prints it (``1e-05``, ``1e+16``)."""
    return msgspec.Raw(repr(value).encode("ascii"))


def indented(data: bytes) -> str | None:
    """Compact JSON ``data`` laid out as ``indent=2``, or None when it holds a byte
    ``json.dumps`` would escape (non-ASCII or DEL)."""
    out = msgspec.json.format(data, indent=2)
    if not out.isascii() or b"\x7f" in out:
        return None
    return out.decode("ascii")
