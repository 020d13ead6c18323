"""The typed record lines of a usage history checked a batch at a time, per column: what
:func:`~.usage.parse_record` makes of each line it surely accepts, times read through a
cache of minutes (``io.history``'s fast path; a measured hot path, ``benchmarks/run.py
--rows import``)."""

from __future__ import annotations

import operator
import re
from collections.abc import Collection, Iterable, Sequence
from functools import partial
from itertools import compress, repeat
from operator import itemgetter
from typing import Any, cast

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import INT64_MAX, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import check_name
from fairshare_cli.core.tres import history_tres
from fairshare_cli.core.usage import _GOOD_NAMES, UsageRecord
from fairshare_cli.errors import InputError

#: ``YYYY-MM-DDTHH:MM:`` of the times met so far -> that minute's epoch seconds (by
#: :func:`~.epoch.parse_time`); with :data:`_SECONDS`, a time is two lookups and an add.
_MINUTES: dict[str, float] = {}
_SECONDS = {f"{s:02d}Z": float(s) for s in range(61)}  # parse_time allows a leap second
_MINUTE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:")
_MINUTES_KEPT = 100_000  # then forgotten at once (records come in time order: flat memory)


def _learn_minutes(prefixes: Iterable[str]) -> bool:
    """Cache each ``YYYY-MM-DDTHH:MM:`` of ``prefixes`` not cached yet, with every other
    minute of its day (a day at a time: a batch of records in time order then seldom
    meets a minute not cached, and :func:`_times` reads its times once); False when one
    is not of that shape or not a time :func:`~.epoch.parse_time` accepts."""
    for prefix in prefixes:
        if prefix in _MINUTES:
            continue
        if _minute(prefix) is None:
            return False
        if len(_MINUTES) + len(_DAY) >= _MINUTES_KEPT:
            _MINUTES.clear()
        _learn_day(prefix[:11])
    return True


def _learn_day(day: str) -> None:
    """Cache every minute of ``day`` (``YYYY-MM-DDT``, a real date): its midnight by
    :func:`_minute`, the others that plus 60 s a minute (whole seconds: exact, as
    :func:`~.epoch.parse_time` reads them), those in range."""
    midnight = _minute(day + _DAY[0])
    if midnight is None:  # (out of range at midnight: each minute on its own)
        for hour_minute in _DAY:
            _minute(day + hour_minute)
        return
    for k, hour_minute in enumerate(_DAY):  # (_DAY[k] starts k minutes after midnight)
        minute = midnight + 60 * k
        if minute <= TIME_MAX - 60:
            _MINUTES[day + hour_minute] = minute


#: ``HH:MM:`` of every minute of a day.
_DAY = [f"{h:02d}:{m:02d}:" for h in range(24) for m in range(60)]


def _minute(prefix: str) -> float | None:
    """Cache and return the minute ``prefix`` (``YYYY-MM-DDTHH:MM:``) starts; None when it
    is not of that shape or not a time :func:`~.epoch.parse_time` accepts."""
    found = _MINUTES.get(prefix)
    if found is not None:
        return found
    if not _MINUTE.fullmatch(prefix):
        return None
    try:
        # prefix + "SSZ" parses as this + SS: float(whole seconds), exact either way
        minute = parse_time(prefix + "00Z", "")
    except InputError:
        return None
    if not TIME_MIN <= minute <= TIME_MAX - 60:  # (so that every cached time is in range)
        return None
    _MINUTES[prefix] = minute
    return minute


def _times(
    start: Sequence[str], end: Sequence[str | None]
) -> tuple[list[float], list[float | None]] | None:
    """The start and end of each line as :func:`~.epoch.parse_time` reads them (None: an
    end is absent or ""), or None when one is not ``YYYY-MM-DDTHH:MM:SSZ`` of a real time
    (those given are all between :data:`~.limits.TIME_MIN` and :data:`~.limits.TIME_MAX`:
    only minutes whose every second is are cached)."""
    minutes, seconds = _MINUTES, _SECONDS
    try:
        starts = _seconds_of(start)
        ends: list[float | None]
        if not all(end):  # (an end absent: None or "")
            ends = [minutes[e[:17]] + seconds[e[17:]] if e else None for e in end]
        else:
            ends = list(_seconds_of(cast("Sequence[str]", end)))
    except KeyError:
        prefixes = {t[:17] for t in start}
        prefixes.update([e[:17] for e in end if e])
        if not _learn_minutes(prefixes.difference(minutes)):
            return None
        try:
            starts = [minutes[t[:17]] + seconds[t[17:]] for t in start]
            ends = [minutes[e[:17]] + seconds[e[17:]] if e else None for e in end]
        except KeyError:  # (a minute forgotten as the cache filled)
            return None
    return starts, ends


_MINUTE_PART, _SECOND_PART = itemgetter(slice(None, 17)), itemgetter(slice(17, None))


def _seconds_of(times: Sequence[str]) -> list[float]:
    """``[_MINUTES[t[:17]] + _SECONDS[t[17:]] for t in times]``, in C (``map``): a measured
    hot path (``benchmarks/run.py --rows import``).

    Raises:
        KeyError: a minute not cached, or not seconds and ``Z``.
    """
    minutes = map(_MINUTES.__getitem__, map(_MINUTE_PART, times))
    return list(map(operator.add, minutes, map(_SECONDS.__getitem__, map(_SECOND_PART, times))))


_is_given = partial(operator.is_not, None)  # _is_given(x): x is not None


#: The fields of a typed record line (``io.history``) in the order :func:`records_of_columns`
#: takes them: the order the docs give a record's keys in (msgspec then finds each key of
#: such a line at its first try).
LINE_FIELDS = ("owner", "accounting_group", "account", "partition", "qos", "dirac_group",
               "start", "end", "slots", "cpus", "nice_user", "tres")  # fmt: skip
_NEVER = object()


def records_of_columns(
    columns: Sequence[Sequence[Any]], absent: Any = _NEVER, quotes: int | None = None
) -> list[UsageRecord] | None:
    """What :func:`parse_record` makes of each typed row, when it surely accepts them all.

    The rows are typed record lines' fields (``io.history``), given as columns in
    :data:`LINE_FIELDS`' order, times as text, ``absent`` where a line does not give the
    key (its default then). None when any row needs :func:`parse_record` (a time not
    ``YYYY-MM-DDTHH:MM:SSZ``, a bad name, an end before its start, a count out of range,
    an empty owner, ...): the caller then reads the lines one by one, for the record or
    the error naming its line. Checked per column (in C where it can: ``min``, ``set``,
    ``map``): a measured hot path (``benchmarks/run.py --rows import``).

    ``quotes``: how many quote characters the lines hold; None too when the rows' keys and
    texts are fewer than half as many. Every key and text of a JSON line is a string
    between two quotes (a quote inside one written ``\\"``): a line that gives a key twice
    (the decoder kept its last value) holds a string more than its row, and is refused.
    """
    owner, group, account, partition, qos, dirac, start, end, slots, cpus, nice, tres = columns
    strings = 4 * len(owner)  # (owner and start: a key and a text each)
    if not all(end):  # (an end absent or null: None or "")
        end, keys, texts = _given(end, end, absent, None)
        strings += keys + texts
    else:
        strings += 2 * len(end)
    counts = set(slots)  # (a few distinct counts: min and max of those)
    counts.update(cpus)
    slots, keys, _ = _given(slots, counts, absent, 1)
    cpus, more, _ = _given(cpus, counts, absent, 1)
    nice, flags, _ = _given(nice, set(nice), absent, False)
    tres, tres_keys, texts = _given(tres, tres, absent, None)
    strings += keys + more + flags + tres_keys + texts
    if absent in counts:
        counts.discard(absent)
        counts.add(1)
    names: set[str | None] = set(owner)
    if "" in names:
        return None
    named: list[Sequence[str | None]] = [group, account, partition, qos, dirac]
    for k, column in enumerate(named):
        values = set(column)
        column, keys, texts = _given(column, values, absent, None)
        strings += keys + texts
        values.discard(absent)
        named[k] = [v or None for v in column] if "" in values else column  # ("": absent)
        names |= values
    if quotes is not None and quotes != 2 * strings:
        return None
    times = _times(start, end)
    if times is None:
        return None
    starts, ends = times  # (in range: _times)
    ended: Sequence[Any] = ends
    began: Sequence[float] = starts
    if not all(end):  # (work still running, its end None or "": no end to check)
        given = list(map(_is_given, ends))
        ended, began = list(compress(ends, given)), list(compress(starts, given))
    if any(map(operator.lt, ended, began)):
        return None
    if min(counts) < 0 or max(counts) > INT64_MAX or not _good_names(names):
        return None
    kept: Sequence[str | None] = [None] * len(owner)
    if any(tres):  # (a few distinct texts: each read once; "" is absent, as None)
        try:
            pairs = set(zip(tres, cpus, strict=True))
            made = {t: history_tres(t, c, "")[1] if t else None for t, c in pairs}
        except InputError:  # (cpus given twice differently, or given by tres alone)
            return None
        kept = list(map(made.__getitem__, tres))
    charged = [None] * len(owner)  # (a history file gives no charged_cpus)
    fields = (owner, starts, ends, named[0], nice, *named[1:], slots, cpus, kept, charged)
    return list(map(tuple.__new__, repeat(UsageRecord), zip(*fields, strict=True)))


def _given(
    column: Sequence[Any], values: Collection[Any], absent: Any, default: Any
) -> tuple[Sequence[Any], int, int]:
    """``column`` with ``default`` where it holds ``absent``, the keys its lines gave and
    the texts among them (values not null); ``values`` holds its distinct values."""
    n = len(column)
    missing = column.count(absent) if absent in values else 0
    if missing == n:  # (a key no line gives: its default, at once)
        return [default] * n, 0, 0
    texts = n - missing - (column.count(None) if None in values else 0)
    if missing:
        column = [default if value is absent else value for value in column]
    return column, n - missing, texts


def _good_names(names: set[str | None]) -> bool:
    """Every name but None and "" is a good name (:func:`~.names.check_name`), remembered."""
    names.difference_update((None, ""), _GOOD_NAMES)
    for name in names:
        try:
            good = check_name(name, "", submitter=True)
        except InputError:
            return False
        if len(_GOOD_NAMES) < 100_000:
            _GOOD_NAMES.add(good)
    return True
