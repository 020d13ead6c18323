"""``scontrol show jobs`` records as job objects (``scontrol -o``'s one line a job too).

A record starts at its ``JobId=`` line; its fields are the ``Key=Value`` pairs of the lines
before its node layout (``Socks/Node=``) and free text (``Command=``, ``SubmitLine=``, ...,
``src/scontrol/info_job.c``). 22.05 prints the job's TRES as ``TRES=``; 23.02 on print
``ReqTRES=`` and ``AllocTRES=``. Times without a zone are read as UTC. The records of a kind
(the same keys in the same order) are matched by one pattern, learnt from the first of them,
that names the fields a job is read from (:data:`WANTED`); a record of no kind is split into
tokens, or read line by line, as the first of a kind is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from itertools import accumulate, chain, repeat
from operator import add
from typing import Any, cast

from fairshare_cli.core.epoch import cached_utc, parse_time
from fairshare_cli.core.timestr import TimeStringError, time_str2secs
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import cut_capture
from fairshare_cli.io.importers.scontrol_lines import (
    LAYOUT,
    WANTED,
    RecordKinds,
    exact_fields,
    fast_fields,
)
from fairshare_cli.io.importers.slurm_jobs import (
    ONE_PRIORITY,
    STATES,
    UNREAD,
    ImportedJob,
    JobDump,
    add_finished,
    billing,
    charged,
    gres_attributes,
    held,
    refuse_tres,
)

__all__ = ["JobDump", "read_scontrol"]

#: Where each of :data:`WANTED` is in a record's values.
_PLACE = {key: i for i, key in enumerate(WANTED)}


class _Record:
    """One ``scontrol show jobs`` record (``text[at:end]``, from line ``start``): its
    :data:`WANTED` fields' values (None: not in the record), and where each is, when asked."""

    __slots__ = ("at", "end", "label", "start", "text", "values")

    def __init__(
        self, values: tuple[str | None, ...], label: str, start: int, text: str, at: int, end: int
    ) -> None:
        self.values = values
        self.label = label
        self.start = start
        self.text = text
        self.at = at
        self.end = end

    def get(self, key: str, default: str | None = None) -> str | None:
        """Field ``key``'s value, else ``default``."""
        value = self.values[_PLACE[key]]
        return default if value is None else value

    def where(self, key: str | None = None) -> str:
        line = self.start
        if key is not None:
            pattern = re.compile(rf"(?<![\w/:]){key}=")
            found = pattern.search(self.text, self.at, self.end)
            if found is not None:
                line += self.text.count("\n", self.at, found.start())
        return f"{self.label}:{line}"


def read_scontrol(
    text: str, first_line: int, label: str, out: JobDump, rest: Iterable[str] = ()
) -> None:
    """The records of ``text`` (from line ``first_line`` on) and of the pieces after it
    (``rest``: whole records), kinds and times learnt in one known in the next (:func:`_records`).

    Raises:
        InputError: no record first, a record without its fields, a field twice or a bad
            value, or text after the last newline (``common.cut_capture``: a cut record).
    """
    dump, kinds, line = _Dump(label, out), RecordKinds(), first_line
    first = text[: text.find("\n\n")]  # (the first record; one line with scontrol -o)
    out.before_23_02 = " TRES=" in first and " ReqTRES=" not in first
    pieces = chain([text], rest)
    piece: str | None = next(pieces)
    while piece is not None:
        if not piece.startswith("JobId="):
            either = " or squeue --json output" if line == first_line else ""
            raise InputError(f'{label}:{line}: expected "JobId=..." (scontrol show jobs){either}')
        after = next(pieces, None)
        tail = piece[piece.rfind("\n") + 1 :]
        if after is None and tail.strip():
            number = line + piece.count("\n")
            raise cut_capture(label, number, tail, "scontrol show jobs output")
        dump.text = piece
        line = _records(piece, line, dump, kinds)
        piece = after


def _records(text: str, first_line: int, dump: _Dump, kinds: RecordKinds) -> int:
    """Records split at each ``JobId=`` line (the number of the line after the last
    returned), their fields those of the lines before the node layout (``Socks/Node=``):
    matched by their kind's pattern (``scontrol_lines.RecordKinds``), else split into tokens
    (:func:`fast_fields`), else read line by line (:func:`exact_fields`, which words a
    fault). Hot (``--rows import-squeue``): matched in the text (none copied nor split),
    each record's lines counted once: its fields' (its kind's) and the rest."""
    starts = [0]
    find = text.find
    at = find("\nJobId=")
    while at >= 0:
        starts.append(at + 1)
        at = find("\nJobId=", at + 1)
    ends = [*starts[1:], len(text) + 1]  # (a record ends before the newline of the next)
    cuts = [*map(find, repeat(LAYOUT), starts, ends)]
    bounds = (
        cuts if -1 not in cuts else [e if c < 0 else c for c, e in zip(cuts, ends, strict=True)]
    )
    heads = [*map(text.count, repeat("\n"), starts, bounds)]
    tails = map(text.count, repeat("\n"), bounds, ends)
    numbers: list[int] = [*accumulate(map(add, heads, tails), initial=first_line)]
    for start, end, cut, head, number in zip(starts, ends, cuts, heads, numbers, strict=False):
        values = kinds.values(text, start, cut, head) if cut >= 0 else None
        if values is None:
            chunk = text[start : end - 1]
            fields = fast_fields(chunk)
            if fields is None:
                fields = exact_fields(chunk, number, dump.label)
            elif cut >= 0:
                kinds.learn(fields, chunk, head)
            values = tuple(map(fields.get, WANTED))
        _scontrol_job(values, number, start, end - 1, dump)
    return numbers[-1]


def _need(record: _Record, key: str) -> str:
    value = record.get(key)
    if value is None:
        raise InputError(f"{record.where()}: the job record has no {key}=")
    return value


_UNSEEN: Any = object()  # (a time text not read yet)
_NO_TIME = ("", "Unknown", "None", "N/A", "(null)")  # (what Slurm prints for a time unset)
#: The seconds of a time's ``:MM:SS`` within its hour (``:59:60``, a leap second, too).
_IN_HOUR = {f":{m:02d}:{s:02d}": m * 60 + s for m in range(60) for s in range(61)}


#: A record's :data:`WANTED` values, its first line and where it is: ``text[at:end]``.
_Place = tuple[tuple[str | None, ...], int, int, int]


class _Dump:
    """What the records of a dump are read into: its label and the piece read (to word an
    error), the jobs, the times read (each text's seconds, the unset, each hour's first
    second: ``YYYY-MM-DDTHH``, where :func:`~fairshare_cli.core.epoch.cached_utc` read it)."""

    __slots__ = ("add", "hours", "label", "out", "owners", "text", "times")

    def __init__(self, label: str, out: JobDump) -> None:
        self.text, self.label, self.out, self.add = "", label, out, out.jobs.append
        self.times: dict[str | None, float | None] = dict.fromkeys((*_NO_TIME, None))
        self.hours: dict[str, int] = {}
        self.owners: dict[str, str] = {}  # (a UserId= text's user: one text each)

    def record(self, values: tuple[str | None, ...], line: int, at: int, end: int) -> _Record:
        """The record at ``text[at:end]`` (from ``line`` on), to read a field the slow way."""
        return _Record(values, self.label, line, self.text, at, end)

    def owner(self, user: str) -> str:
        """The user of a ``UserId=`` text (``u1(1000)``: ``u1``), kept in :attr:`owners`."""
        self.owners[user] = owner = user.partition("(")[0] if user.endswith(")") else user
        return owner

    def num(self, here: _Place, key: str) -> int:
        """Whole-number field ``key`` of the record ``here``, the slow way (:func:`_num`)."""
        return _num(self.record(*here), key)

    def seconds(self, value: str, key: str, here: _Place) -> float | None:
        """Time text ``value`` of field ``key`` of the record ``here``, not in :attr:`times`:
        of an hour seen before, its first second and the seconds into it (the same float
        as :func:`_time`'s), else as :func:`_time` reads it; then kept in :attr:`times`."""
        base = self.hours.get(value[:13])
        into = _IN_HOUR.get(value[13:])
        if base is not None and into is not None:
            seconds: float | None = float(base + into)
            self.times[value] = seconds
            return seconds
        seconds = _time(self.record(*here), key, self.times)
        if into is not None and len(value) == 19 and value[10] == "T":
            read = cached_utc(value + "Z")  # (its day known now, when the time was good)
            if read is not None:
                self.hours[value[:13]] = int(read) - into
        return seconds


def _time(record: _Record, key: str, times: dict[str | None, float | None]) -> float | None:
    """Field ``key`` as epoch seconds (``times``: the texts read so far, and the unset)."""
    value = record.get(key) or ""
    seen = times.get(value, _UNSEEN)
    if seen is not _UNSEEN:
        return cast("float | None", seen)
    # Slurm prints local time without a zone; read as UTC (the Z form is the fast one).
    naive = len(value) == 19 and value[10] == "T"
    text = value + "Z" if naive else value
    seconds = cached_utc(text) if naive else None
    if seconds is None:
        seconds = parse_time(text, f"{record.where(key)}: {key}")
    times[value] = seconds
    return seconds


def _int(value: str, where: str, key: str) -> int:
    if not re.fullmatch(r"-?\d+", value):
        raise InputError(f'{where}: {key}: expected a whole number, got "{value}"')
    return int(value)


def _time_limit(record: _Record) -> float | str | None:
    try:
        return _limit(record.get("TimeLimit") or "")
    except TimeStringError as exc:
        raise InputError(f"{record.where('TimeLimit')}: TimeLimit: {exc}") from None


@functools.lru_cache(maxsize=4096)
def _limit(value: str) -> float | str | None:
    """A ``TimeLimit`` as seconds, ``INFINITE`` or None (a dump repeats a few limits).

    Raises:
        TimeStringError: not a Slurm time string.
    """
    if value in ("", "N/A", "(null)", "Partition_Limit"):  # (the last: NO_VAL, no limit)
        return None
    if value.upper() in ("UNLIMITED", "INFINITE"):
        return "INFINITE"
    return time_str2secs(value)


def _num(record: _Record, key: str, default: str | None = None) -> int:
    """A whole-number field (``NumNodes=1-2``: its first number)."""
    value = record.get(key, default) or _need(record, key)  # (raises if it has none)
    if value.isdecimal():
        return int(value)
    if key == "NumNodes":
        value = value.split("-")[0]
    return _int(value, record.where(key), key)


def _scontrol_job(  # noqa: C901 - the common fields read inline (hot)
    values: tuple[str | None, ...], line: int, at: int, end: int, dump: _Dump
) -> None:
    """The job (or finished job) of the record at ``text[at:end]`` (from ``line`` on), from
    its :data:`WANTED` ``values``. Hot (``benchmarks/run.py --rows import-squeue``): a time
    text read once (:meth:`_Dump.seconds`), a kind of TRES once (:func:`charged`); a
    :class:`_Record` made only to read a field the slow way or to word an error."""
    # The id is JobId, what sprio prints (an array's pending tasks: the array's id), not
    # the ArrayJobId_ArrayTaskId squeue shows.
    (job_id, user, prio, nice, account, qos, state, limit_text) = values[:8]
    (submit_text, eligible_text, accrue_text, start_text, _, partition, nodes, cpus) = values[8:16]
    site, sluid = values[16:18]
    here = (values, line, at, end)
    state = state or _need(dump.record(*here), "JobState")
    job_id = job_id or _need(dump.record(*here), "JobId")
    user = user or _need(dump.record(*here), "UserId")
    owner = dump.owners.get(user) or dump.owner(user)
    tres, memory, cpus_value, rate = charged(*values[18:], cpus) or refuse_tres(dump.record(*here))
    status = STATES.get(state)
    if status is None:
        _finished(dump, dump.record(*here), job_id, account, owner, tres, qos)
        return
    # The job's object as the state writes it (job_to_json's: its defaults left out).
    obj: dict[str, Any] = {"id": job_id, "owner": owner, **gres_attributes(tres), **_sluid(sluid)}
    nice_value = 0 if nice is None else int(nice) if nice.isdecimal() else dump.num(here, "Nice")
    if cpus_value is None or rate is None:
        cpus_value = dump.num(here, "NumCPUs")
        rate = billing(tres, cpus_value)
    node_count = (
        1 if nodes is None else int(nodes) if nodes.isdecimal() else dump.num(here, "NumNodes")
    )
    times = dump.times
    submit = times.get(submit_text, _UNSEEN)
    if submit is _UNSEEN:
        submit = dump.seconds(submit_text or "", "SubmitTime", here)
    eligible = submit if eligible_text == submit_text else times.get(eligible_text, _UNSEEN)
    if eligible is _UNSEEN:
        eligible = dump.seconds(eligible_text or "", "EligibleTime", here)
    accrue = submit if accrue_text == submit_text else times.get(accrue_text, _UNSEEN)
    if accrue is _UNSEEN:
        accrue = dump.seconds(accrue_text or "", "AccrueTime", here)
    if submit is not None:
        obj["submit_time"] = submit
    if eligible is not None:
        obj["eligible_time"] = eligible
    if accrue is not None:
        obj["accrue_time"] = accrue
    if status != "idle":
        obj["status"] = status
    if cpus_value != 1:
        obj["request_cpus"] = cpus_value
    if memory:
        obj["request_memory"] = memory
    if account:
        obj["account"] = account
    if partition:
        obj["partition"] = partition
    if qos:
        obj["qos"] = qos
    if node_count != 1:
        obj["num_nodes"] = node_count
    try:
        limit = _limit(limit_text or "")
    except TimeStringError:
        limit = _time_limit(dump.record(*here))  # raises, naming the line
    if limit is not None:
        obj["time_limit"] = limit
    if nice_value:
        obj["nice"] = nice_value
    if site is not None and dump.num(here, "SiteFactor"):
        obj["site_factor"] = dump.num(here, "SiteFactor")
    if status == "running":
        begun = times.get(start_text, _UNSEEN)
        if begun is _UNSEEN:
            begun = dump.seconds(start_text or "", "StartTime", here)
        if begun is not None:
            obj["start_time"] = begun
    printed = None if not prio else int(prio) if prio.isdecimal() else dump.num(here, "Priority")
    printed = held(obj, printed) if printed == 0 else printed  # (held: rare; no call a job)
    dump.add(ImportedJob(obj, line, UNREAD, printed, ONE_PRIORITY, rate, True, dump.label))


def _sluid(text: str | None) -> Mapping[str, str]:
    """A job's ``sluid`` from its ``SLUID=`` (``scontrol -d``'s line of a job with one,
    Slurm 25.11 on), or none."""
    return {"sluid": text} if text else _NO_SLUID


_NO_SLUID: Mapping[str, str] = {}


def _finished(
    dump: _Dump,
    record: _Record,
    job_id: str,
    account: str | None,
    user: str,
    tres: Mapping[str, float],
    qos: str | None,
) -> None:
    """A job that ended: its id skipped, its charge kept if it ran (:func:`add_finished`)."""
    dump.out.skipped.append(job_id)
    start = _time(record, "StartTime", dump.times)
    end = _time(record, "EndTime", dump.times)
    add_finished(dump.out, account, user, tres, qos, start, end)
