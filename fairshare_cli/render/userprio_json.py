"""``fs userprio --json``: the rows as msgspec structs, column by column.

The general writer (:func:`fairshare_cli.render.formats.emit_rows`) prepares a dict per row
and an ISO time per cell in Python; over 20,000 submitters that was most of the command
(``benchmarks/run.py --rows userprio-json``). Here each field is one column: floats that
msgspec prints as ``repr`` does (:func:`fastjson.plain_floats`) go in as they are, the others
through :func:`fastjson.prepared`; times become ISO text once per distinct value; then one
struct per row (its fields in :data:`JSON_FIELDS` order, as the dict's keys were) and one
encode a chunk of rows at a time. The text is the general writer's byte for byte; what it
cannot vouch for (text
``json.dumps`` would escape, a value of another type) returns None, and the caller asks the
general writer (``tests/cli/test_userprio_json.py`` holds the two equal).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from operator import attrgetter
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
