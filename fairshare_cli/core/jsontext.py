"""The one JSON writer: plain values in, ``json.dumps``'s text out, byte for byte.

Every ``--json`` view and the state file hand this module plain values (dicts, lists,
tuples, str, int, float, bool, None, and :class:`Time` for epoch times) and write the text
it returns. Two forms, each exactly what the standard library prints:

- :func:`dumps_indented` (and :func:`dumps_rows`, its list of rows picked by column), the
  ``--json`` form: ``json.dumps(jsonable(value), indent=2)``, where :func:`jsonable` turns
  NaN into ``null``, the infinities into ``"inf"``/``"-inf"`` and a :class:`Time` into
  ISO-8601 UTC text; :func:`dumps_line` is one ndjson line, ``json.dumps(jsonable(value))``;
- the state file's ``json.dumps(value, indent=2, sort_keys=True, allow_nan=False)``
  (NaN and infinities: ``ValueError``), in :mod:`fairshare_cli.core.jsonstate`, which
  shares the float and key rules below.

In ``core``: ``io`` (the state) and ``render`` (the views) use it. The standard library's
encoder is pure Python with ``indent`` (once 3/4 of ``fs sprio -l --json``): the text is
msgspec's, laid out as ``indent=2`` by :func:`msgspec.json.format`; where the two differ
the value is steered back, or the standard library prints it:

- floats: msgspec's shortest digits equal ``repr`` only from :data:`SMALL` (1e-4) to below
  :data:`LARGE` (1e16) in magnitude (``0.00001``, ``1e16`` for ``repr``'s ``1e-05``,
  ``1e+16``): the others go in as ``repr`` text (:class:`msgspec.Raw`, :func:`float_texts`);
- strings: ``json.dumps`` escapes every character outside printable ASCII; msgspec writes
  UTF-8 and DEL raw, so any such byte in the output means the standard library redoes it;
- keys that are not strings, and every type beyond dict, list, tuple, str, int, float,
  bool and None (msgspec would encode dataclasses, enums or datetimes), also go to the
  standard library, which prints or refuses them as it always did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from itertools import chain, compress, repeat
from operator import and_, gt, itemgetter, lt, methodcaller, not_
from typing import Any

import msgspec

from fairshare_cli.core.epoch import utc_text
from fairshare_cli.core.jsonlayout import Shared, layout_text

#: msgspec prints a float as ``repr`` does from SMALL to below LARGE in magnitude (and 0).
SMALL = 1e-4
LARGE = 1e16


class Time(float):
    """An epoch time that serializes as ISO-8601 UTC (0 or less ⇒ null)."""


def iso(t: float | None) -> str | None:
    """ISO-8601 UTC (``2026-11-21T12:00:00Z``); None for missing or non-positive times."""
    if t is None or t <= 0 or not math.isfinite(t):
        return None
    return utc_text(t)


def jsonable(value: Any) -> Any:
    """A value in its ``--json`` form: NaN null, infinities ``"inf"``/``"-inf"``, times ISO."""
    if isinstance(value, Time):
        return iso(float(value))
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


class Refused(Exception):
    """A value :func:`json.dumps` must print."""


def refuse(value: Any) -> Any:
    """msgspec's ``enc_hook``: any type beyond JSON's own is the standard library's."""
    raise Refused


def repr_float(value: float) -> msgspec.Raw:
    """A finite float outside ``SMALL..LARGE`` as ``repr`` prints it (``1e-05``, ``1e+16``)."""
    return msgspec.Raw(repr(value).encode("ascii"))


def _indented(data: bytes) -> str | None:
    """Compact JSON ``data`` laid out as ``indent=2``, or None when it holds a byte
    ``json.dumps`` would escape (non-ASCII or DEL)."""
    out = msgspec.json.format(data, indent=2)
    if not out.isascii() or b"\x7f" in out:
        return None
    return out.decode("ascii")


_encode = msgspec.json.Encoder(enc_hook=refuse).encode


# -- the --json form ---------------------------------------------------------------------


def dumps_indented(value: Any) -> str:
    """``json.dumps(jsonable(value), indent=2)``.

    Raises:
        TypeError: a value ``json.dumps`` refuses (a set, a date, a Decimal).
    """
    try:
        text = _indented(_encode(prepared(value)))
    except Refused:
        text = None
    return json.dumps(jsonable(value), indent=2) if text is None else text


def dumps_rows(rows: Sequence[Mapping[str, Any]], cols: Sequence[str]) -> str:
    """``json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)``."""
    keys = list(dict.fromkeys(cols))
    if not keys:
        return json.dumps([{} for _ in rows], indent=2)
    return dumps_columns(dict(zip(keys, _columns(rows, keys), strict=True)), len(rows))


def rows_text(
    rows: Iterable[Mapping[str, Any]], cols: Sequence[str], chunk: int = 1000
) -> Iterator[str]:
    """The text of ``dumps_rows(list(rows), cols)`` in pieces, ``chunk`` rows at a time
    (a long run's rows are never all held, nor their text)."""
    first = True
    yield "["
    batch: list[Mapping[str, Any]] = []
    for row in chain(rows, [None]):
        if row is not None:
            batch.append(row)
        if batch and (row is None or len(batch) == chunk):
            # each chunk's list text without its brackets, the chunks joined as its items
            yield ("\n" if first else ",\n") + dumps_rows(batch, cols)[2:-2]
            first, batch = False, []
    yield "]" if first else "\n]"


def dumps_columns(columns: Mapping[str, Any], count: int, times: Iterable[str] = ()) -> str:
    """:func:`columns_text` joined."""
    return "".join(columns_text(columns, count, times))


def columns_text(
    columns: Mapping[str, Any], count: int, times: Iterable[str] = ()
) -> Iterable[str]:
    """The text :func:`dumps_rows` gives for ``count`` rows handed over a column at a time,
    in pieces to write one after another (the whole is never joined):
    ``json.dumps([{k: jsonable(v) for k, v in row} ...], indent=2)`` with row ``i`` holding
    each key's ``i``-th value (a column of ``count`` values per key, in order). The columns
    named in ``times`` hold epoch times (floats or None), printed as :class:`Time` is.
    Each column is made ready for msgspec at once (:func:`_column`), the rows made from the
    columns in C (a struct per row where the keys are identifiers, else a dict); with a
    ``jsonlayout.Shared`` column or a mapping of columns (an object a row), ``jsonlayout``.
    """
    keys = tuple(columns)
    timed = set(times)
    if any(isinstance(c, (Shared, Mapping)) for c in columns.values()):
        dated = {
            k: [None if t is None else Time(t) for t in columns[k]] for k in timed & set(columns)
        }
        return layout_text({**columns, **dated}, count, dumps_indented, float_texts)
    if not keys:
        return [json.dumps([{}] * count, indent=2)]
    values = [list(column) for column in columns.values()]
    if any(len(column) != count for column in values):
        raise ValueError("columns of different lengths")
    try:
        str_keys(columns)
        ready = [
            _time_column(column) if key in timed else _column(column)
            for key, column in zip(keys, values, strict=True)
        ]
        pieces = _rows_indented(_row_type(keys), ready, count)
    except Refused:
        pieces = None
    if pieces is None:
        for k, key in enumerate(keys):
            if key in timed:
                values[k] = [None if t is None else Time(t) for t in values[k]]
        rows = [dict(zip(keys, row, strict=True)) for row in zip(*values, strict=True)]
        return [json.dumps(jsonable(rows), indent=2)]
    return pieces


#: Rows encoded and laid out together (the compact and the laid-out bytes of at most this
#: many rows are held at once).
_CHUNK = 2048


def _rows_indented(
    make: Callable[..., Any], ready: list[list[Any]], count: int
) -> list[str] | None:
    """The rows made from the ready columns, as ``indent=2`` text in pieces to write one
    after another (None: non-ASCII), laid out :data:`_CHUNK` rows at a time: each chunk's
    list text without its brackets, the chunks joined as the list's items are."""
    if count <= _CHUNK:
        text = _indented(_encode(list(map(make, *ready))))
        return None if text is None else [text]
    pieces = ["[\n"]
    for start in range(0, count, _CHUNK):
        part = [column[start : start + _CHUNK] for column in ready]
        text = _indented(_encode(list(map(make, *part))))
        if text is None:
            return None
        pieces.extend((",\n" if start else "", text[2:-2]))
    pieces.append("\n]")
    return pieces


_ROW_TYPES: dict[tuple[str, ...], Callable[..., Any]] = {}


def _row_type(keys: tuple[str, ...]) -> Callable[..., Any]:
    """What makes one row's object from its values: a msgspec struct with these fields
    (encoded as an object, keys in order), or a dict where a key is no identifier."""
    made = _ROW_TYPES.get(keys)
    if made is None:
        try:
            made = msgspec.defstruct("Row", list(keys), gc=False)
        except (TypeError, ValueError):  # (struct fields must be identifiers)
            made = lambda *values: dict(zip(keys, values, strict=True))  # noqa: E731
        _ROW_TYPES[keys] = made
    return made


def _columns(rows: Sequence[Mapping[str, Any]], keys: list[str]) -> list[Iterable[Any]]:
    """``[r.get(k) for r in rows]`` for each key: rows that hold every key transposed at
    once, else a key at a time."""
    if len(keys) > 1 and rows:
        try:
            return list(zip(*map(itemgetter(*keys), rows), strict=True))
        except (KeyError, TypeError):  # a key missing (or rows that are not dicts)
            pass
    return [list(map(methodcaller("get", k), rows)) for k in keys]


LEAF_TYPES = {str, int, bool, type(None)}
_LEAF_AND_FLOAT = {float, *LEAF_TYPES}
_TIMES = {Time, type(None)}


def _column(values: list[Any]) -> list[Any]:
    """One column made ready for msgspec: kept as it is when msgspec prints each value as
    ``json.dumps`` does (text, ints, bools, None, floats :func:`plain_floats`), times through
    :func:`_time_column`, anything else value by value (:func:`_prep`)."""
    kinds = set(map(type, values))
    if kinds <= LEAF_TYPES:
        return values
    if kinds <= _LEAF_AND_FLOAT:
        floats = values if len(kinds) == 1 else [v for v in values if type(v) is float]
        if _one_sign_in_range(floats) or plain_floats(floats):
            return values
    elif kinds <= _TIMES:
        return _time_column(values)
    return [prepared(v) for v in values]


#: From 1970 to before the year 10000 ``gmtime`` and ``datetime`` agree on the date.
_YEAR_10000 = 253402300800.0


def _time_column(times: list[Any]) -> list[Any]:
    """Each time (a :class:`Time`, a float or None) as msgspec should print :func:`iso`'s
    text: whole seconds from 1970 to before the year 10000 (``%Y-%m-%dT%H:%M:%SZ``) as UTC
    datetimes made in C (msgspec prints those so); each distinct other value (a fractional
    ``now``, 0, NaN, None) through :func:`iso` once. Such a column only (``--rows
    userprio-json``) is told by min, max and a map in C."""
    none = None in times
    in_range = not none and min(times, default=1.0) > 0 and max(times, default=1.0) < _YEAR_10000
    if in_range and all(map(float.is_integer, times)):  # (a NaN, which min/max may skip: False)
        return msgspec.convert(list(map(float, times)), list[datetime], strict=False)
    if none:
        whole = [t is not None and 0 < t < _YEAR_10000 and t.is_integer() for t in times]
    else:  # in C: float.is_integer(t) and 0 < t < _YEAR_10000
        within = map(and_, map(gt, times, repeat(0.0)), map(lt, times, repeat(_YEAR_10000)))
        whole = list(map(and_, map(float.is_integer, times), within))
    whole_times = list(map(float, compress(times, whole)))
    stamps = iter(msgspec.convert(whole_times, list[datetime], strict=False))
    others = {t: iso(t) for t in set(compress(times, map(not_, whole)))}
    # (a NaN other than the one kept is not found: its iso is None as well)
    return [next(stamps) if w else others.get(t) for t, w in zip(times, whole, strict=True)]


def float_texts(values: list[float]) -> list[str]:
    """``json.dumps``' text of each of these finite floats (and ints, which both print
    alike): msgspec's, which is ``repr``'s but where it has an ``e`` (``1e16`` for
    ``1e+16``) or writes out a fraction under 1e-4 (``0.00001`` for ``1e-05``): a text
    with ``e`` or ``0.0000`` in it is ``repr``'s (a search of the list's text in C,
    ``--rows sprio-json``)."""
    data = msgspec.json.encode(values)
    texts = data.decode("ascii")[1:-1].split(",") if values else []
    if b"e" in data or b"0.0000" in data:
        for i, text in enumerate(texts):
            if "e" in text or "0.0000" in text:
                texts[i] = repr(values[i])
    return texts


def dumps_line(value: Any) -> str:
    """``json.dumps(jsonable(value))``: one line of ndjson (``", "`` and ``": "`` between)."""
    return json.dumps(jsonable(value))


def _float(value: float) -> Any:
    """A float msgspec would not print as ``repr`` does (tiny, huge, NaN or infinite)."""
    if value != value:
        return None
    if value - value != 0:
        return "inf" if value > 0 else "-inf"
    return repr_float(value)


def prepared(value: Any) -> Any:
    """:func:`jsonable` for msgspec, ready for :func:`dumps_ready` (see the module docstring)."""
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool:
        return value
    if kind is float:
        if SMALL <= abs(value) < LARGE or value == 0.0:
            return value
        return _float(value)
    if kind is dict:
        return _prep_map(value, str_keys(value))
    if kind is Time:
        return iso(float(value))
    if isinstance(value, float):
        return prepared(float(value))
    if isinstance(value, Mapping):
        return _prep_map(value, str_keys(value))
    if isinstance(value, (list, tuple)):
        return [prepared(v) for v in value]
    raise Refused


def dumps_ready(value: Any) -> str | None:
    """The indented text of :func:`prepared` parts, or None where json.dumps must print it."""
    try:
        return _indented(_encode(value))
    except Refused:
        return None


def str_keys(value: Mapping[Any, Any]) -> Any:
    """The keys of ``value``, all exact strings (msgspec prints ``1`` as ``"1"`` as
    ``json.dumps`` does, but ``None`` or ``True`` unlike it)."""
    for k in value:
        if type(k) is not str:
            raise Refused
    return value


def _prep_map(value: Mapping[str, Any], keys: Any) -> dict[Any, Any]:
    """``{k: prepared(value.get(k)) for k in keys}`` with the common leaves inline."""
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
            or (kind is float and (SMALL <= abs(v) < LARGE or v == 0.0))
        ):
            out[k] = v
        else:
            out[k] = prepared(v)
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
    return total - total == 0 and min(nonzero) >= SMALL and max(nonzero) < LARGE


def _one_sign_in_range(floats: list[float]) -> bool:
    """Whether these floats are finite, of one sign and from :data:`SMALL` to below
    :data:`LARGE` in magnitude: three passes in C, no list made (the common column)."""
    total = sum(floats)
    if not floats or total - total != 0:  # (a NaN or an infinity among them)
        return False
    low, high = min(floats), max(floats)
    return (low >= SMALL and high < LARGE) or (low > -LARGE and high <= -SMALL)
