"""Usage history records (one per piece of work that ran) and the sink protocol.

``fs import history`` streams records to one sink per scheduler model: ``sink.add(record)``
for each, then ``sink.finish()`` returns that model's new state section.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import chain, islice
from typing import Any, NamedTuple, NoReturn, Protocol

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import INT64_MAX
from fairshare_cli.core.names import check_name, dirac_group_problem, json_shown
from fairshare_cli.core.tres import history_tres
from fairshare_cli.errors import InputError, did_you_mean


class UsageRecord(NamedTuple):
    """Work that ran: ``slots`` identical slots of ``cpus`` CPUs each, from start to end.

    ``end`` None means still running. ``tres``: the rest of a slot's allocation, where
    known (``fs import sacct``'s ``AllocTRES``, a history file's ``tres``), as
    :func:`~.tres.tres_text` writes it (``mem=8192,node=1,gres/gpu=1``, memory in MB):
    what a partition's ``TRESBillingWeights`` bill besides the CPUs; None: the CPUs alone.
    ``charged_cpus``: the CPUs HTCondor's accountant weighs each slot by instead of
    ``cpus`` (None: ``cpus``): a committed match on a partitionable slot is charged the
    whole slot's ``SlotWeight`` until the next cycle (``Accountant::AddMatch``), so its
    usage history holds that interval as a record of its own whose ``charged_cpus`` are the
    slot's free CPUs at the match. Only the usage history store keeps it (``fs negotiate``
    writes it); a history file cannot give it. Slurm and DIRAC read ``cpus``. A record of
    0 ``cpus`` (only the store holds one: a history file's are 1 or more) is the accountant's
    charge alone, of a match no job took (``NEGOTIATOR_DEPTH_FIRST``) until the next cycle:
    no work ran, so Slurm and DIRAC charge nothing (it names no DIRAC group either). One of
    -1 ``slots`` and 0 ``cpus`` (the store's too) is the charge such a match took off the
    slot's holder until the next cycle (``AddMatch`` ``RemoveMatch``es it first): the
    accountant's alone, the holder's job running on in its own record.
    (A named tuple: a million are built per import.)
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
    charged_cpus: int | None = None


#: A record's end, read by position (a column of a batch in one C pass:
#: ``list(map(record_end, batch))``).
record_end = operator.itemgetter(UsageRecord._fields.index("end"))

#: The fields of a record that are names.
NAME_FIELDS = ("owner", "accounting_group", "account", "partition", "qos", "dirac_group")
_FIELDS = (*NAME_FIELDS, "start", "end", "slots", "cpus", "nice_user", "tres")


_FIELD_SET = frozenset(_FIELDS)
#: Fields the real tools (sacct's ``User``, HTCondor's ``User``) and the job object
#: (``start_time``) name otherwise: the record's field for each, which difflib does not
#: find (it offers ``nice_user`` for ``user``).
_NAMED_OTHERWISE = {"user": "owner", "start_time": "start", "end_time": "end"}
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
    raise InputError(f"{where}: expected true or false, got {json_shown(value)}")


def _str(value: Any, where: str) -> str:
    """A name: a string (a CSV cell always is), or a number in JSON, as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{where}: expected a string, got {json_shown(value)}")


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
    hint = did_you_mean(_NAMED_OTHERWISE.get(str(key).casefold(), key), _FIELDS)
    split = next((s for s in (";", "\t", "|") if s in str(key) and "owner" in str(key)), None)
    if split is not None:  # (a spreadsheet's export: one field of every name)
        shown = repr(split).strip("'")
        hint = f" (the header is split by '{shown}': a usage history's CSV is split by commas)"
    raise InputError(f"{where}: unknown usage history field '{key}'{hint}")


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
    cpus = None if cpus in _ABSENT else _count(cpus, f"{where}: cpus")
    tres = get("tres")
    if tres not in _ABSENT:
        cpus, tres = history_tres(tres, cpus, where)
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
        1 if cpus is None else cpus,
        None if tres in _ABSENT else tres,
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
        if key == "dirac_group" and " " in text:  # (a DIRAC group's blanks: not cached)
            if (problem := dirac_group_problem(text)) is not None:
                raise InputError(f"{where}: {key}: {problem}")
            return text
        check_name(text, f"{where}: {key}", submitter=True)
        if len(_GOOD_NAMES) < 100_000:
            _GOOD_NAMES.add(text)
    return text


def _count(value: Any, where: str) -> int:
    if type(value) is int and 0 <= value <= INT64_MAX:
        return value
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: expected a whole number, got {json_shown(value)}") from None
    if isinstance(value, bool) or not math.isfinite(f) or f < 0 or not f.is_integer():
        raise InputError(f"{where}: expected a whole number of 0 or more, got {json_shown(value)}")
    if f > INT64_MAX:
        raise InputError(
            f"{where}: expected a whole number that fits in 64 bits, got {json_shown(value)}"
        )
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
