"""``--json`` text through msgspec, byte for byte what ``json.dumps(jsonable(v), indent=2)`` gives.

The standard library's encoder is pure Python with ``indent``: for ``fs sprio -l --json``
over 100,000 jobs it was three quarters of the run (``benchmarks/run.py --rows sprio-json``).
msgspec encodes compact text and :func:`msgspec.json.format` lays it out as ``indent=2``
does; where the two differ this module steers it back or falls back to the standard library:

- floats: msgspec's shortest round-trip digits equal ``repr`` only from 1e-4 to below 1e16
  in magnitude (it prints ``0.00001`` and ``1e16`` where ``repr`` prints ``1e-05`` and
  ``1e+16``), so the others go in as ``repr`` text (:class:`msgspec.Raw`); NaN and
  infinities become ``null`` and ``"inf"``/``"-inf"`` as :func:`jsonable` does;
- strings: ``json.dumps`` escapes every character outside printable ASCII; msgspec writes
  UTF-8 and DEL raw, so any such byte in the output means the standard library redoes it;
- keys that are not strings, and every type beyond dict, list, str, int, float, bool and
  None (msgspec would encode dataclasses, enums or datetimes that ``json.dumps`` refuses),
  also go to the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from fairshare_cli.core.jsontext import LARGE as _LARGE
from fairshare_cli.core.jsontext import SMALL as _SMALL
from fairshare_cli.core.jsontext import Refused as _Refused
from fairshare_cli.core.jsontext import indented, refuse, repr_float
from fairshare_cli.render.formats import Time, iso, jsonable

_encode = msgspec.json.Encoder(enc_hook=refuse).encode


def _float(value: float) -> Any:
    """A float msgspec would not print as ``repr`` does (tiny, huge, NaN or infinite)."""
    if value != value:
        return None
    if value - value != 0:
        return "inf" if value > 0 else "-inf"
    return repr_float(value)


def _prep(value: Any) -> Any:
    """:func:`jsonable` for msgspec (see the module docstring)."""
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool:
        return value
    if kind is float:
        if _SMALL <= abs(value) < _LARGE or value == 0.0:
            return value
        return _float(value)
    if kind is dict:
        return _prep_map(value, _str_keys(value))
    if kind is Time:
        return iso(float(value))
    if isinstance(value, float):
        return _prep(float(value))
    if isinstance(value, Mapping):
        return _prep_map(value, _str_keys(value))
    if isinstance(value, (list, tuple)):
        return [_prep(v) for v in value]
    raise _Refused


def _str_keys(value: Mapping[Any, Any]) -> Any:
    """The keys of ``value``, all exact strings (msgspec prints ``1`` as ``"1"`` as
    ``json.dumps`` does, but ``None`` or ``True`` unlike it)."""
    for k in value:
        if type(k) is not str:
            raise _Refused
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
            or (kind is float and (_SMALL <= abs(v) < _LARGE or v == 0.0))
        ):
            out[k] = v
        else:
            out[k] = _prep(v)
    return out


def plain_floats(values: Iterable[float]) -> bool:
    """Whether msgspec prints each of these floats as ``repr`` does (C-level calls only).

    Zeros are plain; the rest must be finite (a NaN or an infinity makes the sum so) and
    lie from 1e-4 to below 1e16 in magnitude.
    """
    nonzero = [*map(abs, filter(None, values))]
    if not nonzero:
        return True
    total = sum(nonzero)
    return total - total == 0 and min(nonzero) >= _SMALL and max(nonzero) < _LARGE


def prepared(value: Any) -> Any:
    """``value`` made ready for :func:`dumps_ready` (see the module docstring)."""
    return _prep(value)


def dumps_ready(value: Any) -> str | None:
    """The indented text of a value built for msgspec (dicts with string keys, lists, str,
    int, None, bool, :func:`plain_floats` and :func:`prepared` parts), or None when the
    standard library must print it (non-ASCII text, another type)."""
    try:
        return indented(_encode(value))
    except _Refused:
        return None


def dumps_indented(value: Any) -> str:
    """``json.dumps(jsonable(value), indent=2)``, fast."""
    try:
        text = indented(_encode(_prep(value)))
    except _Refused:
        text = None
    return json.dumps(jsonable(value), indent=2) if text is None else text


def dumps_rows(rows: Sequence[Mapping[str, Any]], cols: Sequence[str]) -> str:
    """``json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)``."""
    keys = dict.fromkeys(cols)
    try:
        _str_keys(keys)
        text = indented(_encode([_prep_map(r, keys) for r in rows]))
    except _Refused:
        text = None
    if text is None:
        return json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)
    return text
