"""``fs userprio --json``: the rows' text from each field's JSON text, column by column.

The general writer (:func:`fairshare_cli.render.formats.emit_rows`) prepares a dict per row
and an ISO time per cell in Python; over 20,000 submitters that was most of the command
(``benchmarks/run.py --rows userprio-json``). Here each field of a chunk of rows is one
column of JSON texts made at once (:func:`json_texts`: numbers from one msgspec encode of
the column, times as msgspec writes datetimes, names as they are), and the chunk is one
``str.join`` of the columns with the keys between. Where a column is not of those kinds
the rows go as msgspec structs, column by column, as before (floats that msgspec prints as
``repr`` does as they are, the others through :func:`fastjson.prepared`, times as ISO text
once per distinct value, one encode a chunk of rows at a time). The text is the general
writer's byte for byte; what neither can vouch for (text ``json.dumps`` would escape, a
value of another type) returns None, and the caller asks the general writer
(``tests/cli/test_userprio_render.py``, ``tests/cli/test_userprio_json_text.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import chain, compress, repeat
from operator import and_, attrgetter, gt, itemgetter, lt, not_
from typing import Any

import msgspec

from fairshare_cli.core.htcondor.userprio import UserprioRow
from fairshare_cli.render.fastjson import dumps_ready, plain_floats, prepared
from fairshare_cli.render.formats import iso

JSON_FIELDS = (
    "name",
    "is_group",
    "effective_priority",
    "real_priority",
    "priority_factor",
    "resources_in_use",
    "weighted_resources_in_use",
    "accumulated_usage_hours",
    "weighted_accumulated_usage_hours",
    "begin_usage_time",
    "last_usage_time",
)
_NUMBERS = JSON_FIELDS[2:9]
_TIMES = JSON_FIELDS[9:]
#: One JSON object per row, its fields in order (a struct encodes as an object).
_Row = msgspec.defstruct("_Row", list(JSON_FIELDS), gc=False)
#: From 1970 to before the year 10000 ``gmtime`` and ``datetime`` agree on the date.
_YEAR_10000 = 253402300800.0


#: Rows laid out together: the text is written a piece at a time, never whole.
CHUNK = 2048


def userprio_json(rows: Sequence[UserprioRow]) -> list[str] | None:
    """``emit_rows``'s ``--json`` text of the rows (no final newline) in pieces to write one
    after another, or None when the general writer must print it."""
    pieces = joined_pieces(rows)
    if pieces is not None:  # each column's texts could be made
        return pieces
    columns: list[list[Any]] = [
        list(map(attrgetter("name"), rows)),
        list(map(attrgetter("is_group"), rows)),
    ]
    for field in _NUMBERS:
        values = list(map(attrgetter(field), rows))
        columns.append(values if plain_floats(values) else [prepared(v) for v in values])
    for field in _TIMES:
        columns.append(iso_times(map(attrgetter(field), rows)))
    structs = list(map(_Row, *columns))
    if len(structs) <= CHUNK:
        text = dumps_ready(structs)
        return None if text is None else [text]
    # Each chunk's "[\n" ... "\n]" dropped, the chunks joined as the list's items are.
    pieces = ["[\n"]
    for start in range(0, len(structs), CHUNK):
        text = dumps_ready(structs[start : start + CHUNK])
        if text is None:
            return None
        pieces.extend((",\n" if start else "", text[2:-2]))
    pieces.append("\n]")
    return pieces


def iso_times(times: Iterable[float]) -> list[str | None]:
    """:func:`iso` of each time, each distinct value formatted once.

    Whole seconds after 1970 and before the year 10000 go through ``strftime`` (three times
    faster than ``datetime``, the same text), each on its own (one fractional ``now`` among
    16,000 whole times no longer sends them all the slow way); any other value through
    :func:`iso` itself.
    """
    values = list(times)
    unique = list(set(values))
    quick: list[float] = []
    if set(map(type, unique)) == {float}:  # each whole one quick, the others through iso
        quick = list(filter(float.is_integer, [t for t in unique if 0 < t < _YEAR_10000]))
    made: dict[float, str | None] = dict(zip(quick, _whole_iso(quick), strict=True))
    for t in unique:
        if t not in made:
            made[t] = iso(t)
    return list(map(made.__getitem__, values))


#: ``THH:MM:`` by minute of the day, ``SSZ`` by second of the minute.
_HOUR_MINUTE = [f"T{h:02d}:{m:02d}:" for h in range(24) for m in range(60)]
_SECOND = [f"{s:02d}Z" for s in range(60)]


def _whole_iso(times: list[float]) -> list[str]:
    """``strftime("%Y-%m-%dT%H:%M:%SZ", gmtime(t))`` of whole-second times from 1970 to
    before 10000: the date formatted once per day, the time of day from tables.

    A measured hot loop (``benchmarks/run.py --rows userprio-json``: 16,000 distinct times
    a column, 1.6x faster than ``strftime`` each).
    """
    days: dict[int, str] = {}
    out: list[str] = []
    hour_minute, second = _HOUR_MINUTE, _SECOND
    for t in map(int, times):
        day, rest = divmod(t, 86400)
        date = days.get(day)
        if date is None:
            date = days[day] = time.strftime("%Y-%m-%d", time.gmtime(day * 86400))
        out.append(date + hour_minute[rest // 60] + second[rest % 60])
    return out


#: What comes before each field's text in a row of ``json.dumps(rows, indent=2)`` (the
#: name inside quotes), and after the last one (the next row's comma included).
_BEFORE = ['  {\n    "name": "'] + [
    f'",\n    "{f}": ' if f == "is_group" else f',\n    "{f}": ' for f in JSON_FIELDS[1:]
]
_AFTER = "\n  },\n"
#: Bytes in msgspec's text of a list of ints and floats where some float's text is not
#: ``repr``'s: an exponent (1e16 and up; ``repr`` writes ``1e+16``), the zeros of a
#: magnitude under 1e-4 (``0.00001``; ``repr`` writes ``1e-05``), ``null`` (NaN, the
#: infinities); ``tests/cli/test_userprio_json_text.py`` holds the rule over all floats.
_NOT_REPR = (b"e", b"0.0000", b"null")


def json_texts(rows: Sequence[UserprioRow]) -> list[list[str]] | None:
    """Each field's JSON text, column by column in :data:`JSON_FIELDS` order (the name
    without its quotes), or None when a column is not of the kinds made here: names of
    printable ASCII without ``"`` or ``\\`` (``json.dumps`` escapes no other), flags
    (bools), numbers (:func:`number_texts`), times (:func:`time_texts`)."""
    if not rows:
        return None
    index = UserprioRow._fields.index

    def column(field: str) -> list[Any]:
        return list(map(itemgetter(index(field)), rows))  # faster than the attribute

    names = column("name")
    try:
        joined = "".join(names)
    except TypeError:  # not text
        return None
    if not (joined.isascii() and joined.isprintable()) or '"' in joined or "\\" in joined:
        return None
    flags = column("is_group")
    if set(map(type, flags)) != {bool}:
        return None
    out: list[list[str]] = [names, list(map(_FLAG.__getitem__, flags))]
    for field in _NUMBERS:
        texts = number_texts(column(field))
        if texts is None:
            return None
        out.append(texts)
    out.extend(time_texts(column("begin_usage_time"), column("last_usage_time")))
    return out


_FLAG = {True: "true", False: "false"}


def number_texts(values: Sequence[Any]) -> list[str] | None:
    """``json.dumps(v)`` of each value, through one msgspec encode of the column, or None
    unless each is an int or a float msgspec prints as ``repr`` does (:data:`_NOT_REPR`):
    their texts hold no comma, so the list's text splits into them."""
    if not set(map(type, values)) <= {float, int}:
        return None
    data = msgspec.json.encode(values)
    if any(mark in data for mark in _NOT_REPR):
        return None
    return data.decode("ascii")[1:-1].split(",")


def time_texts(*columns: list[Any]) -> list[list[str]]:
    """The JSON text of each time's :func:`iso` (``"...Z"`` or ``null``), column by column:
    columns of floats by :func:`quoted_times`, any other through :func:`iso_times` (each
    distinct value of all the columns formatted once)."""
    quick = [quoted_times(column) for column in columns]
    if None not in quick:
        return quick  # type: ignore[return-value]  # no None in it
    unique = list(set().union(*columns))
    made = dict(zip(unique, iso_times(unique), strict=True))
    quoted = {t: "null" if text is None else f'"{text}"' for t, text in made.items()}
    return [list(map(quoted.__getitem__, column)) for column in columns]


def quoted_times(times: list[Any]) -> list[str] | None:
    """``'"' + iso(t) + '"'`` (``null`` for None) of each time, or None unless all are
    floats. Whole seconds after 1970 and before the year 10000 (where ``iso`` is
    ``%Y-%m-%dT%H:%M:%SZ``, as msgspec writes a UTC datetime without microseconds) are
    converted and written in C; the others (``now`` as a last usage time, 0, NaN) each
    distinct one through :func:`iso`."""
    if not times or set(map(type, times)) != {float}:
        return None
    whole = list(
        map(and_, map(float.is_integer, times), map(and_, map(gt, times, repeat(0.0)),
                                                    map(lt, times, repeat(_YEAR_10000))))
    )  # fmt: skip
    if all(whole):
        return _whole_texts(times)
    texts = iter(_whole_texts(list(compress(times, whole))))
    others = {t: iso(t) for t in set(compress(times, map(not_, whole)))}
    quoted = {t: "null" if text is None else f'"{text}"' for t, text in others.items()}
    return [next(texts) if w else quoted[t] for t, w in zip(times, whole, strict=True)]


def _whole_texts(times: list[float]) -> list[str]:
    """The quoted ISO text of whole-second times (1970 to 9999) through msgspec."""
    if not times:
        return []
    stamps = msgspec.convert(times, list[datetime], strict=False)
    return msgspec.json.encode(stamps).decode("ascii")[1:-1].split(",")


def joined_pieces(rows: Sequence[UserprioRow]) -> list[str] | None:
    """The rows' text, :data:`CHUNK` rows at a time from their fields' texts
    (:func:`json_texts`) joined with the keys between, or None when a chunk's texts cannot
    be made.

    A measured hot loop (``benchmarks/run.py --rows userprio-json``): a chunk's texts at a
    time, not the whole table's (less memory).
    """
    if not rows:
        return None
    pieces = ["[\n"]
    for start in range(0, len(rows), CHUNK):
        columns = json_texts(rows[start : start + CHUNK])
        if columns is None:
            return None
        parts: list[Iterable[str]] = []
        for before, texts in zip(_BEFORE, columns, strict=True):
            parts.extend((repeat(before), texts))
        parts.append(repeat(_AFTER))
        pieces.append("".join(chain.from_iterable(zip(*parts, strict=False))))
    pieces[-1] = pieces[-1][:-2]  # the last row's comma and newline
    pieces.append("\n]")
    return pieces
