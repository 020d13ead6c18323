"""Usage history records (one per piece of work that ran) and the sink protocol.

``fs import history`` streams records to one sink per scheduler model: ``sink.add(record)``
for each, then ``sink.finish()`` returns that model's new state section.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import chain, compress, islice, repeat
from operator import itemgetter
from typing import Any, NamedTuple, NoReturn, Protocol, cast

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import INT64_MAX, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError, did_you_mean


class UsageRecord(NamedTuple):
    """Work that ran: ``slots`` identical slots of ``cpus`` CPUs each, from start to end.

    ``end`` None means still running. ``tres``: the rest of a slot's allocation, where
    known (``fs import sacct``'s ``AllocTRES``), as :func:`~.slurm.billing.tres_text` writes
    it (``mem=8192,node=1,gres/gpu=1``, memory in MB): what a partition's
    ``TRESBillingWeights`` bill besides the CPUs; None: the CPUs alone. (A named tuple: a
    million are built per import.)
    """

    owner: str
    start: float
    end: float | None = None
    accounting_group: str | None = None
    nice_user: bool = False
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    dirac_group: str | None = None
    slots: int = 1
    cpus: int = 1
    tres: str | None = None


#: A record's end, read by position (a column of a batch in one C pass:
#: ``list(map(record_end, batch))``).
record_end = operator.itemgetter(UsageRecord._fields.index("end"))

#: The fields of a record that are names.
NAME_FIELDS = ("owner", "accounting_group", "account", "partition", "qos", "dirac_group")
_FIELDS = (*NAME_FIELDS, "start", "end", "slots", "cpus", "nice_user")


_FIELD_SET = frozenset(_FIELDS)
_ABSENT = (None, "")
_TRUE = ("true", "True", "TRUE", "1")
_FALSE = ("false", "False", "FALSE", "0")


def _bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value in _TRUE + _FALSE:
        return value in _TRUE
    raise InputError(f"{where}: expected true or false, got {value!r}")


def _str(value: Any, where: str) -> str:
    """A name: a string (a CSV cell always is), or a number in JSON, as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{where}: expected a string, got {value!r}")


def refuse_byte_order_mark(first: str, where: str) -> None:
    """Refuse an input whose first text ``first`` starts with a byte-order mark (a Windows
    editor's): no scheduler writes one, and read as part of the first word it makes
    messages about a header or a key that looked right. The one wording, for every import.

    Raises:
        InputError: naming ``where``.
    """
    if first.startswith("\ufeff"):
        raise InputError(
            f"{where}: the file starts with a byte-order mark (U+FEFF); save it as UTF-8 "
            "without one"
        )


def check_header(names: Iterable[str], where: str) -> None:
    """Refuse a CSV header naming a field no record has, or without ``owner`` and ``start``
    (before any row is read: a file of another kind is refused even when it has no row).

    Raises:
        InputError: naming ``where`` and the header's first unknown field, a field named
            twice (a row's second value would silently replace its first), or a byte-order
            mark.
    """
    names = list(names)
    if names:
        refuse_byte_order_mark(str(names[0]), where)
    unknown = [name for name in names if name not in _FIELD_SET]
    if unknown:
        _refuse_unknown(unknown[:1], where)  # (the first as the line has it)
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise InputError(f"{where}: field '{name}' is in the header twice")
        seen.add(name)
    missing = [field for field in ("owner", "start") if field not in names]
    if missing:  # (every row would be refused; a header cut short imported none)
        raise InputError(f"{where}: no '{missing[0]}' column (each record needs owner and start)")


def _refuse_unknown(unknown: Iterable[Any], where: str) -> NoReturn:
    key = sorted(unknown, key=str)[0]
    if key is None:
        raise InputError(f"{where}: more values than header columns")
    raise InputError(f"{where}: unknown usage history field '{key}'{did_you_mean(key, _FIELDS)}")


def parse_record(obj: Mapping[str, Any], where: str) -> UsageRecord:
    """A record from a JSON object or a CSV row (strings; empty = absent).

    Raises:
        InputError: naming ``where`` and the field.
    """
    unknown = obj.keys() - _FIELD_SET
    if unknown:
        _refuse_unknown(unknown, where)
    get = obj.get
    owner = get("owner")
    start = get("start")
    if owner in _ABSENT or start in _ABSENT:
        missing = "owner" if owner in _ABSENT else "start"
        raise InputError(f"{where}: missing required field '{missing}'")
    try:
        t0 = parse_time(start, "")
    except InputError:
        t0 = parse_time(start, f"{where}: start")
    end = get("end")
    if end in _ABSENT:
        t1 = None
    else:
        try:
            t1 = parse_time(end, "")
        except InputError:
            t1 = parse_time(end, f"{where}: end")
        if t1 < t0:
            raise InputError(f"{where}: end is before start")
    slots = get("slots")
    slots = 1 if slots in _ABSENT else _count(slots, f"{where}: slots")
    cpus = get("cpus")
    cpus = 1 if cpus in _ABSENT else _count(cpus, f"{where}: cpus")
    nice = get("nice_user")
    return UsageRecord(
        _named(owner if type(owner) is str else _str(owner, f"{where}: owner"), where, "owner"),
        t0,
        t1,
        _text(get("accounting_group"), where, "accounting_group"),
        False if nice in _ABSENT else _bool(nice, f"{where}: nice_user"),
        _text(get("account"), where, "account"),
        _text(get("partition"), where, "partition"),
        _text(get("qos"), where, "qos"),
        _text(get("dirac_group"), where, "dirac_group"),
        slots,
        cpus,
    )


def _text(value: Any, where: str, key: str) -> str | None:
    if value in _ABSENT:
        return None
    text = value if type(value) is str else _str(value, f"{where}: {key}")
    return _named(text, where, key)


_GOOD_NAMES: set[str] = set()


def _named(text: str, where: str, key: str) -> str:
    """``text`` if it is a name (``core.names``); names seen before are not checked again."""
    if text not in _GOOD_NAMES:
        check_name(text, f"{where}: {key}", submitter=True)
        if len(_GOOD_NAMES) < 100_000:
            _GOOD_NAMES.add(text)
    return text


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


#: The fields of a typed record line (``io.history``) in the order :func:`known_columns`
#: takes them: the order the docs give a record's keys in (msgspec then finds each key of
#: such a line at its first try).
LINE_FIELDS = ("owner", "accounting_group", "account", "partition", "qos", "dirac_group",
               "start", "end", "slots", "cpus", "nice_user")  # fmt: skip
_NEVER = object()


def known_columns(
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
    owner, group, account, partition, qos, dirac, start, end, slots, cpus, nice = columns
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
    strings += keys + more + flags
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
    fields = (owner, starts, ends, named[0], nice, *named[1:], slots, cpus, [None] * len(owner))
    return list(map(tuple.__new__, repeat(UsageRecord), zip(*fields, strict=True)))


def _given(
    column: Sequence[Any], values: Collection[Any], absent: Any, default: Any
) -> tuple[Sequence[Any], int, int]:
    """``column`` with ``default`` where it holds ``absent``, the keys its lines gave and
    the texts among them (values not null); ``values`` holds its distinct values."""
    n = len(column)
    missing = column.count(absent) if absent in values else 0
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


def _count(value: Any, where: str) -> int:
    if type(value) is int and 0 <= value <= INT64_MAX:
        return value
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: expected a whole number, got {value!r}") from None
    if isinstance(value, bool) or not math.isfinite(f) or f < 0 or not f.is_integer():
        raise InputError(f"{where}: expected a whole number of 0 or more, got {value!r}")
    if f > INT64_MAX:
        raise InputError(f"{where}: expected a whole number that fits in 64 bits, got {value!r}")
    return int(f)


class HistorySink(Protocol):
    """Receives every record of an import, then returns its new state section."""

    def add(self, record: UsageRecord) -> None: ...

    def finish(self) -> Any: ...


BATCH = 1024
"""Records per batch: what a reader decodes and checks at once, and what sinks take.

A batch is walked by the reader, the usage store and each sink in turn: small enough that
its records (some 200 bytes each, with their times and the replay's events) stay in the
processor's cache from one walk to the next (``benchmarks/run.py --rows import``: 8,192 a
batch took about 0.5 s more CPU than 1,024 or 2,048 at a million records; 512, 0.4 s more).
"""


class Batches:
    """Records a list at a time (a reader's chunks, in order).

    Iterating gives the records one by one; :func:`batches_of` gives the lists, which
    :func:`~.operations.import_usage.import_usage` hands to each sink whole.
    """

    __slots__ = ("lists",)

    def __init__(self, lists: Iterable[list[UsageRecord]]) -> None:
        self.lists = lists

    def __iter__(self) -> Iterator[UsageRecord]:
        return chain.from_iterable(self.lists)


def batches_of(records: Iterable[UsageRecord], size: int = BATCH) -> Iterator[list[UsageRecord]]:
    """``records`` in lists of at most ``size`` (a :class:`Batches`' own lists as they are)."""
    if isinstance(records, Batches):
        yield from records.lists
        return
    it = iter(records)
    while True:
        chunk: list[UsageRecord] = []
        append = chunk.append
        try:
            for record in islice(it, size):
                append(record)
        except (InputError, UnicodeDecodeError):
            if chunk:  # the records before a bad one first, as a record-by-record reader
                yield chunk
            raise
        if not chunk:
            return
        yield chunk


def batch_adder(sink: HistorySink) -> Callable[[list[UsageRecord]], None]:
    """``sink.add_batch`` when the sink has one (the same result as ``add`` for each record,
    in order), else a loop over ``sink.add``."""
    add_batch: Callable[[list[UsageRecord]], None] | None = getattr(sink, "add_batch", None)
    if add_batch is not None:
        return add_batch
    add = sink.add

    def each(batch: list[UsageRecord]) -> None:
        for record in batch:
            add(record)

    return each


SinkFactory = Callable[..., HistorySink]
"""``factory(config, section_json, now, rebuild, presorted=True) -> HistorySink``.

A sink that needs records in start-time order and sees one out of order raises
:class:`UnsortedHistory` when ``presorted`` is true; the import then starts again with
``presorted=False``.
"""


class UnsortedHistory(Exception):
    """Raised by a streaming sink when records stop arriving in start-time order.

    The import then replays the file again with ``presorted=False`` (events buffered and
    sorted), which is exact for any order but keeps every event in memory.
    """
