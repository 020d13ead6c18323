"""``--json`` text through orjson, byte for byte what ``json.dumps(jsonable(v), indent=2)`` gives.

The standard library's encoder is pure Python with ``indent``: for ``fs sprio -l --json``
over 100,000 jobs it was three quarters of the run (``benchmarks/run.py --rows sprio-json``).
orjson writes the same layout with ``OPT_INDENT_2``; where the two differ this module steers
it back or falls back to the standard library:

- floats: orjson's shortest round-trip digits equal ``repr`` except below 1e-4 in magnitude
  (``1e-05`` against ``0.00001``), so those go in as ``repr`` text (:class:`orjson.Fragment`);
  NaN and infinities become ``null`` and ``"inf"``/``"-inf"`` as :func:`jsonable` does;
- strings: ``json.dumps`` escapes every character outside printable ASCII; orjson writes
  UTF-8 and DEL raw, so any such byte in the output means the standard library redoes it;
- anything orjson refuses (integers beyond 64 bits, keys that are not strings, other
  types) also goes to the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from fairshare_cli.render.formats import Time, iso, jsonable

_SMALL = 1e-4
#: Subclasses, dataclasses and datetimes are refused, as ``json.dumps`` refuses them.
_INDENT = (
    orjson.OPT_INDENT_2
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)


def _float(value: float) -> Any:
    """A float orjson would not print as ``repr`` does (tiny, NaN or infinite)."""
    if value != value:
        return None
    if value - value != 0:
        return "inf" if value > 0 else "-inf"
    return orjson.Fragment(repr(value))


def _prep(value: Any) -> Any:
    """:func:`jsonable` for orjson (see the module docstring)."""
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool:
        return value
    if kind is float:
        if (value >= _SMALL or value <= -_SMALL or value == 0.0) and value - value == 0:
            return value
        return _float(value)
    if kind is dict:
        return _prep_map(value, value)
    if kind is Time:
        return iso(float(value))
    if isinstance(value, float):
        return _prep(float(value))
    if isinstance(value, Mapping):
        return _prep_map(value, value)
    if isinstance(value, (list, tuple)):
        return [_prep(v) for v in value]
    return value


def _prep_map(value: Mapping[str, Any], keys: Any) -> dict[Any, Any]:
    """``{k: _prep(value.get(k)) for k in keys}`` with the common leaves inline.

    A measured hot loop (``benchmarks/run.py --rows sprio-json,userprio-json``).
    """
    out: dict[Any, Any] = {}
    get = value.get
    for k in keys:
        v: Any = get(k)
        kind: type = type(v)
        if (
            kind is str
            or kind is int
            or v is None
            or kind is bool
            or (kind is float and (v >= _SMALL or v <= -_SMALL or v == 0.0) and v - v == 0)
        ):
            out[k] = v
        else:
            out[k] = _prep(v)
    return out


def plain_floats(values: Iterable[float]) -> bool:
    """Whether orjson prints each of these floats as ``repr`` does (C-level calls only).

    Zeros are plain; the rest must be finite (a NaN or an infinity makes the sum so) and at
    least 1e-4 in magnitude.
    """
    nonzero = [*filter(None, values)]
    if not nonzero:
        return True
    total = sum(map(abs, nonzero))
    return total - total == 0 and min(map(abs, nonzero)) >= _SMALL


def prepared(value: Any) -> Any:
    """``value`` made ready for :func:`dumps_ready` (see the module docstring)."""
    return _prep(value)


def dumps_ready(value: Any) -> str | None:
    """The indented text of a value built for orjson (dicts, lists, str, int, None, bool,
    :func:`plain_floats` and :func:`prepared` parts), or None when the standard library
    must print it (non-ASCII text, a big integer, another type)."""
    try:
        data = orjson.dumps(value, option=_INDENT)
    except TypeError:
        return None
    if not data.isascii() or b"\x7f" in data:
        return None
    return data.decode("ascii")


def dumps_indented(value: Any) -> str:
    """``json.dumps(jsonable(value), indent=2)``, fast."""
    try:
        data = orjson.dumps(_prep(value), option=_INDENT)
    except TypeError:
        return json.dumps(jsonable(value), indent=2)
    if not data.isascii() or b"\x7f" in data:
        return json.dumps(jsonable(value), indent=2)
    return data.decode("ascii")


def dumps_rows(rows: Sequence[Mapping[str, Any]], cols: Sequence[str]) -> str:
    """``json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)``."""
    try:
        data = orjson.dumps([_prep_map(r, cols) for r in rows], option=_INDENT)
    except TypeError:
        data = b"\x80"
    if not data.isascii() or b"\x7f" in data:
        return json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)
    return data.decode("ascii")
