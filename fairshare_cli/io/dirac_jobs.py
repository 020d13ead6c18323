"""Stream a big jobs file into the distinct DIRAC entries ``fs taskqueues`` groups.

Tuned for ``benchmarks/bench_taskqueues.py`` (a million jobs in 5000 queues): instead of
decoding the whole file into a million dicts (1.3 GB, seconds), the file is read in chunks
and each chunk's jobs are decoded by ``msgspec`` into a slotted record whose task-queue
fields stay raw JSON text. Every other field is decoded to the type and range the job
parser (:func:`~fairshare_cli.core.jobs.parse_job`) wants, so that what it refuses (a
negative ``request_cpus``, a blank in an account name, a 5000-digit number) is refused
here too, in C (issue 10: a job is checked whole wherever it is read). A job's key is the six
raw texts joined by a NUL byte (a byte JSON text cannot hold), so counting the keys hashes
one short ``bytes`` per job, in C. Only the distinct keys (about one per queue and
priority) are decoded into Python values.

The fast reader refuses (:class:`FastPathRefused`) whatever it cannot decide alone: a
file that is not a JSON list of objects with known fields and string ids, a duplicate
id (``count`` stanzas' ids included), a value the job parser would refuse. The caller then reads
the file the usual way (:func:`~fairshare_cli.io.jobs.load_job_objects`, then every job
through the job parser), which gives the usual error message, or the same queues when the
file was valid after all (a number as id, a name beyond ASCII, a Slurm time string).
"""

from __future__ import annotations

import itertools
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import IO, Any

from fairshare_cli.core.config import DiracGroupSpec
from fairshare_cli.core.dirac.jobs import (
    definer,
    entry_of,
    overflowed,
    queues_from_counts,
    queues_in_order,
    task_queues_from_objects,
)
from fairshare_cli.core.dirac.taskqueues import TaskQueue
from fairshare_cli.core.jobs import (
    Job,
    check_job_field,
    job_field_kind,
    lowest_job_value,
    parse_jobs,
)
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, MAX_JOB_COUNT, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import MAX_NAME_LENGTH, name_problem
from fairshare_cli.errors import InputError

CHUNK = 1 << 20
"""Bytes read at a time (1 MiB: some 4,000 jobs; bigger chunks only cost page faults)."""

KEY_FIELDS = ("owner", "dirac_group", "user_priority", "count", "status", "dirac_requirements")
"""The job fields a task queue reads, in the order of :func:`entry_of`'s arguments."""

MAX_BUFFER = 1 << 26
"""Past 64 MiB without a complete element, the file is read the usual way."""

_WHITESPACE = b" \t\r\n"
_MAX_TRIES = 16
_MAX_CHECKED = 100_000


class FastPathRefused(Exception):
    """The fast reader cannot decide; read the file the usual way."""


@dataclass
class DiracJobKeys:
    """The distinct entries of a jobs file, with how many jobs each stands for.

    ``order`` (when asked for) is each job's index into ``entries``, in file order.
    """

    entries: list[tuple[Any, ...]]
    counts: list[int]
    order: array[int] | None = None


def task_queues_from_file(
    path: str, groups: Mapping[str, DiracGroupSpec], segments: Sequence[int]
) -> list[TaskQueue]:
    """The task queues of a jobs file (``-`` is stdin), streamed when it can be.

    Gives exactly what :func:`~fairshare_cli.core.dirac.jobs.task_queues_from_objects` gives
    for the file's objects, errors included (those come from that path). Stdin is first
    copied to a temporary file, so that it too can be read again.

    Raises:
        InputError: the file cannot be read, is not a list of valid jobs, ...
    """
    if path != "-":
        return _from_path(path, path, groups, segments)
    import shutil
    import sys
    import tempfile

    with tempfile.NamedTemporaryFile(prefix="fs-jobs-", suffix=".json") as spool:
        shutil.copyfileobj(sys.stdin.buffer, spool)
        spool.flush()
        return _from_path(spool.name, path, groups, segments)


def _from_path(
    path: str, name: str, groups: Mapping[str, DiracGroupSpec], segments: Sequence[int]
) -> list[TaskQueue]:
    from fairshare_cli.io.jobs import load_job_objects

    try:
        with open(path, "rb") as raw:
            keys = read_dirac_job_keys(raw)
            define = definer(groups, segments)
            queues = queues_from_counts(zip(keys.entries, keys.counts, strict=True), define)
            if overflowed(queues):
                raw.seek(0)
                keys = read_dirac_job_keys(raw, ordered=True)
                assert keys.order is not None
                queues = queues_in_order(map(keys.entries.__getitem__, keys.order), define)
            return queues
    except (FastPathRefused, OSError, ValueError, TypeError):
        pass
    objs = load_job_objects(path, name)
    parse_jobs(objs, name)  # every field as the door reads it: the usual message
    return task_queues_from_objects(objs, name, groups, segments)


def read_dirac_job_keys(raw: IO[bytes], ordered: bool = False) -> DiracJobKeys:
    """Stream the jobs file ``raw`` (binary, at its start) into its distinct entries.

    Args:
        raw: the open file.
        ordered: also record each job's entry, in order (to replay a full queue).

    Raises:
        FastPathRefused: see the module docstring.
    """
    import msgspec

    record = _record_type()
    decoder = msgspec.json.Decoder(list[record])  # type: ignore[valid-type]
    key_of = attrgetter(*KEY_FIELDS)
    id_of = attrgetter("id")
    join = b"\x00".join
    counts: Counter[bytes] = Counter()
    index: dict[bytes, int] = {}
    order: array[int] = array("q")
    serial = itertools.count()
    id_hashes: array[int] = array("q")  # a set of a million strings costs more
    one = msgspec.Raw(b"1")
    stanzas: list[tuple[str, bytes]] = []  # (id, count text) of the jobs with a count
    values_of = attrgetter(*VALUE_FIELDS)
    slot_of = attrgetter("slot")
    checked: set[tuple[Any, ...]] = set()
    taken: set[str] = set()
    jobs = 0
    for batch in _batches(raw, decoder):
        keys = map(join, map(key_of, batch))
        if ordered:
            order.extend(map(index.setdefault, keys, serial))
        else:
            counts.update(keys)
        ids = list(map(id_of, batch))
        _check_ids_are_names(ids)
        id_hashes.extend(map(hash, ids))
        stanzas.extend((r.id, bytes(r.count)) for r in batch if r.count != one)
        _check_values(set(map(values_of, batch)), checked)
        if any(map(slot_of, batch)):
            _check_slots([(r.status, r.slot) for r in batch if r.slot is not None], taken)
        jobs += len(batch)
    _check_ids(id_hashes, jobs, stanzas)
    if ordered:
        codes = {code: i for i, code in enumerate(index.values())}
        order = array("q", map(codes.__getitem__, order))
        distinct = list(index)
    else:
        distinct = list(counts)
    entries = _decode_keys(distinct)
    return DiracJobKeys(entries, [counts[k] for k in distinct], order if ordered else None)


def _check_ids(id_hashes: array[int], jobs: int, stanzas: list[tuple[str, bytes]]) -> None:
    """Refuse duplicate job ids, ``count`` stanzas' ``C.0`` … ``C.(N-1)`` included.

    Works on the ids' hashes: two ids of one hash (a duplicate, or very rarely a clash)
    go the usual way, which then decides.

    Raises:
        FastPathRefused: a possible duplicate, or a count that is not a whole number.
    """
    singles = set(id_hashes)
    if len(singles) != jobs:
        raise FastPathRefused("duplicate job ids")
    names: set[int] = set()
    clusters: set[str] = set()
    for job_id, text in stanzas:
        try:
            count = int(text)
        except ValueError:
            raise FastPathRefused("count") from None
        if not 1 <= count <= MAX_JOB_COUNT or text != str(count).encode():
            raise FastPathRefused("count")
        singles.discard(hash(job_id))
        cluster = job_id.split(".", 1)[0]
        if cluster in clusters:
            raise FastPathRefused("duplicate job ids")
        clusters.add(cluster)
        names.update(hash(f"{cluster}.{k}") for k in range(count))
    if stanzas and (len(names) != sum(int(t) for _, t in stanzas) or not names.isdisjoint(singles)):
        raise FastPathRefused("duplicate job ids")


def _record_type() -> type:
    """A msgspec record of a job: the task-queue fields as raw text, the others typed.

    The task-queue fields (:data:`KEY_FIELDS`) stay raw text, checked once per distinct
    key (:func:`entry_of`); absent is null (as the job parser reads it), except count,
    which is then 1. Every other field is decoded to the type the job parser wants, with
    its range (:func:`~fairshare_cli.core.jobs.job_field_kind`), so msgspec refuses in C
    what the parser would; strings the parser reads further (names, times, durations) are
    checked once per distinct value (:func:`_check_values`). A refusal sends the file the
    usual way, for the usual message.
    """
    import msgspec

    # A DIRAC job's usual fields first: msgspec finds a field fastest where it expects it.
    first = ("owner", "dirac_group", "status", "submit_time", "user_priority")
    names = [*first, *(n for n in (*Job.__dataclass_fields__, "count") if n not in first)]
    fields: list[tuple[str, Any, Any]] = [
        (name, msgspec.Raw, msgspec.Raw(b"1" if name == "count" else b"null"))
        if name in KEY_FIELDS
        else (name, _field_type(name, msgspec) | None, None)
        for name in names
        if name != "id"
    ]
    return msgspec.defstruct(
        "JobFields", [("id", str), *fields], forbid_unknown_fields=True, gc=False
    )


def _field_type(name: str, msgspec: Any) -> Any:
    """The msgspec type of a job field that task queues do not read (see _record_type)."""
    from typing import Annotated

    kind = job_field_kind(name)
    if kind == "whole":
        low = lowest_job_value(name)
        return Annotated[int, msgspec.Meta(ge=INT64_MIN if low is None else low, le=INT64_MAX)]
    if kind == "time":
        return Annotated[float, msgspec.Meta(ge=TIME_MIN, le=TIME_MAX)] | str
    if kind == "duration":  # a Slurm time string is read the usual way
        return Annotated[float, msgspec.Meta(ge=0)]
    if kind == "flag":
        return bool
    if kind == "object":
        return dict[str, Any]
    if kind == "text":
        return str
    if kind == "name":  # every such field is a submitter name; other names the usual way
        return Annotated[str, msgspec.Meta(pattern=_ASCII_SUBMITTER)]
    if kind == "partition":
        return Annotated[str, msgspec.Meta(pattern=_ASCII_PARTITIONS)]
    raise AssertionError(f"job field {name}: no streamed type for kind {kind}")


_NAME_CHAR = "[!-?A-~]"  # printable ASCII but the space and '@'
_ASCII_SUBMITTER = rf"\A(?={_NAME_CHAR}|@)(?:{_NAME_CHAR}|@(?!.*@)){{1,{MAX_NAME_LENGTH}}}\Z"
"""Names that :func:`~fairshare_cli.core.names.name_problem` accepts as submitters, in
printable ASCII (at most one '@'); a name beyond ASCII is read the usual way."""

_PART = f"[!-+\\--~]{{1,{MAX_NAME_LENGTH}}}"  # printable ASCII but the space and ','
_ASCII_PARTITIONS = rf"\A{_PART}(?:,{_PART})*\Z"
"""Comma-separated partition names (each a name), in printable ASCII."""

VALUE_FIELDS = tuple(
    n for n in Job.__dataclass_fields__ if n not in KEY_FIELDS and job_field_kind(n) == "time"
)
"""Fields whose strings the job parser reads further (ISO-8601 times): checked once per
distinct value."""


def _check_values(values: set[tuple[Any, ...]], checked: set[tuple[Any, ...]]) -> None:
    """Check each distinct tuple of :data:`VALUE_FIELDS` values as the job parser would.

    ``checked`` remembers tuples already checked (up to a bound), across batches.

    Raises:
        FastPathRefused: a value the parser refuses.
    """
    for row in values - checked:
        for key, value in zip(VALUE_FIELDS, row, strict=True):
            if value is not None:
                try:
                    check_job_field(key, value, "job")
                except InputError:
                    raise FastPathRefused(key) from None
        if len(checked) < _MAX_CHECKED:
            checked.add(row)


def _check_ids_are_names(ids: list[str]) -> None:
    """The ids of a batch are names (:func:`~fairshare_cli.core.names.name_problem`).

    Checked on the batch at once, in C: every id printable (so no blank but the space),
    no space, none empty or too long.

    Raises:
        FastPathRefused: an id that is not a name.
    """
    if not ids:
        return
    text = "".join(ids)
    lengths = list(map(len, ids))
    if " " in text or not text.isprintable() or min(lengths) < 1 or max(lengths) > MAX_NAME_LENGTH:
        raise FastPathRefused("id")


def _check_slots(slotted: list[tuple[Any, str]], taken: set[str]) -> None:
    """No two running jobs on one slot (``slotted``: (raw status, slot) pairs).

    Raises:
        FastPathRefused: a slot taken twice.
    """
    import msgspec

    for status, slot in slotted:
        if msgspec.json.decode(status) == "running":
            if slot in taken:
                raise FastPathRefused("slot")
            taken.add(slot)


def _batches(raw: IO[bytes], decoder: Any) -> Iterator[list[Any]]:
    """The file's jobs, a chunk at a time (a JSON list of objects, checked as it goes).

    Each chunk is cut after its last complete element: a cut after a ``}`` that closes
    something else, or inside a string, leaves a text that does not decode, so the next
    ``}`` back is tried.

    Raises:
        FastPathRefused: not a JSON list of objects, or a job the record refuses.
    """
    import msgspec

    buf = raw.read(CHUNK).lstrip(_WHITESPACE)
    if not buf.startswith(b"["):
        raise FastPathRefused("not a JSON list")
    buf = buf[1:]
    eof = False
    first: bool | None = True  # True: no element yet; False: after one; None: after a comma
    while True:
        buf = buf.lstrip(_WHITESPACE)
        if not buf and not eof:
            data = raw.read(CHUNK)
            eof = not data
            buf += data
            continue
        if buf.startswith(b"]"):
            if first is None or buf[1:].strip(_WHITESPACE) or raw.read().strip(_WHITESPACE):
                raise FastPathRefused("not a JSON list")  # a trailing comma, or more after ]
            return
        if first is False:
            if not buf.startswith(b","):
                raise FastPathRefused("expected a comma")
            buf = buf[1:].lstrip(_WHITESPACE)
            first = None  # an element must follow
        batch, used = _decode_prefix(buf, decoder, msgspec)
        if batch is None:
            if eof:
                raise FastPathRefused("truncated")
            if len(buf) > MAX_BUFFER:
                raise FastPathRefused("an element too big to stream")
            data = raw.read(CHUNK)
            eof = not data
            buf += data
            continue
        buf = buf[used:]
        first = False
        yield batch


def _decode_prefix(buf: bytes, decoder: Any, msgspec: Any) -> tuple[list[Any] | None, int]:
    """Decode the complete elements at the start of ``buf``: (records, bytes used).

    (None, 0) when no complete element is found among the last ``}`` tried.

    Raises:
        FastPathRefused: an element the record refuses.
    """
    cut = len(buf)
    for _ in range(_MAX_TRIES):
        cut = buf.rfind(b"}", 0, cut)
        if cut < 0:
            return None, 0
        try:
            return decoder.decode(b"[" + buf[: cut + 1] + b"]"), cut + 1
        except msgspec.ValidationError as exc:
            raise FastPathRefused(str(exc)) from None
        except msgspec.DecodeError:
            continue
    return None, 0


def _decode_keys(keys: list[bytes]) -> list[tuple[Any, ...]]:
    """Each distinct key's six fields as Python values, as entries (:func:`entry_of`).

    A key is six JSON texts joined by NUL, which JSON text cannot hold: all keys decode as
    one JSON list of lists once every NUL is a comma.

    Raises:
        FastPathRefused: a field the job parser would refuse, or text that is not JSON.
    """
    import msgspec

    text = b"[[" + b"],[".join(keys).replace(b"\x00", b",") + b"]]" if keys else b"[]"
    try:
        rows = msgspec.json.decode(text)
        names = {row[0] for row in rows} | {row[1] for row in rows if row[1] is not None}
        if any(name_problem(name, submitter=True) for name in names):
            raise FastPathRefused("owner or dirac_group")
        entries = [entry_of(o, g, p, c, s, r, names_checked=True) for o, g, p, c, s, r in rows]
    except (msgspec.DecodeError, ValueError, TypeError) as exc:
        raise FastPathRefused(str(exc)) from None
    return entries
