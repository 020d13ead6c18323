"""Stream a big jobs file into the distinct DIRAC entries ``fs taskqueues`` groups.

Tuned for ``benchmarks/run.py`` row ``taskqueues`` (a million jobs in 5000 queues):
instead of decoding the whole file into a million dicts (1.3 GB, seconds), the file is
read in chunks into one reused buffer (``io/dirac_jobs_window.py``) and each chunk's jobs
are decoded by ``msgspec`` into a slotted record whose task-queue fields stay raw JSON
text: a record of a usual DIRAC job's fields, or of every job field from the first batch
that has another. Every other field is decoded to the type and range the job
parser (:func:`~fairshare_cli.core.jobs.parse_job`) wants, so that what it refuses (a
negative ``request_cpus``, a blank in an account name, a 5000-digit number) is refused
here too, in C (a job is checked whole wherever it is read). A job's key is the six
raw texts joined by a NUL byte (a byte JSON text cannot hold), so counting the keys hashes
one short ``bytes`` per job, in C. Only the distinct keys (about one per queue and
priority) are decoded into Python values.

The fast reader refuses (:class:`FastPathRefused`) whatever it cannot decide alone: a
file that is not a JSON list of objects with known fields and string ids, a duplicate
id (``count`` stanzas' ids included), a value the job parser would refuse. The caller then reads
the file whole (:func:`~fairshare_cli.io.jobs.load_job_objects`, then every job
through the job parser), which gives the job parser's error message, or the same queues when the
file was valid after all (a number as id, a name beyond ASCII, a Slurm time string).
"""

from __future__ import annotations

import itertools
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from io import BufferedIOBase
from operator import attrgetter
from typing import Any

from fairshare_cli.core.config import DiracGroupSpec
from fairshare_cli.core.dirac.jobs import (
    WAITING_STATUSES,
    check_entry_fields,
    definer,
    definition_key,
    overflowed,
    task_queues_from_objects,
)
from fairshare_cli.core.dirac.taskqueues import TaskQueue, TaskQueueDefinition, build_task_queues
from fairshare_cli.core.jobs import (
    Job,
    check_job_field,
    job_field_kind,
    lowest_job_value,
    parse_jobs,
)
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, MAX_JOB_COUNT, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import MAX_NAME_LENGTH
from fairshare_cli.errors import InputError
from fairshare_cli.io.dirac_jobs_window import FastPathRefused, json_list_batches

__all__ = ["FastPathRefused", "read_dirac_job_keys", "task_queues_from_file"]

CHUNK = 1 << 17
"""Bytes read at a time (see :data:`~fairshare_cli.io.dirac_jobs_window.CHUNK`)."""

KEY_FIELDS = ("owner", "dirac_group", "user_priority", "count", "status", "dirac_requirements")
"""The job fields a task queue reads, as raw JSON texts joined into a job's key."""

MAX_BUFFER = 1 << 26
"""Past 64 MiB without a complete element, the file is read by the job parser."""

_MAX_CHECKED = 100_000

QueueJob = tuple[tuple[bytes, bytes, bytes], "int | float", int]
"""A waiting job as :func:`~fairshare_cli.core.dirac.taskqueues.build_task_queues` takes
it: (raw key: its owner, group and requirement texts; user priority; count)."""


@dataclass
class DiracJobKeys:
    """The distinct keys of a jobs file: how many jobs each stands for, and their jobs.

    A key is the raw JSON texts of a job's :data:`KEY_FIELDS`, joined by a NUL byte (which
    JSON text cannot hold). ``jobs`` holds each key's job as a task queue takes it (None: a
    job no queue holds), ``values`` each distinct field text's value. ``order`` (when asked
    for) is each job's index into ``keys``, in file order.
    """

    keys: list[bytes]
    counts: list[int]
    jobs: list[QueueJob | None]
    values: dict[bytes, Any]
    order: array[int] | None = None

    def definer(
        self, define: Callable[[Hashable], TaskQueueDefinition]
    ) -> Callable[[Hashable], TaskQueueDefinition]:
        """The ``define`` of :func:`~fairshare_cli.core.dirac.taskqueues.build_task_queues`
        for the raw keys of :attr:`jobs`, from :func:`~fairshare_cli.core.dirac.jobs.definer`'s.

        The returned function raises TypeError for a requirement value that is not a number,
        a name or a list of names, and what ``define`` raises.
        """
        values = self.values

        def define_job(raw_key: Hashable) -> TaskQueueDefinition:
            texts: tuple[bytes, bytes, bytes] = raw_key  # type: ignore[assignment]
            owner, group, req = (values[text] for text in texts)
            return define(definition_key(owner, group, req))

        return define_job


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
            jobs, define = keys.jobs, keys.definer(definer(groups, segments))
            counted = [(k, p, c * n) for (k, p, c), n in _waiting(jobs, keys.counts)]
            queues = build_task_queues(counted, define)
            if overflowed(queues):
                raw.seek(0)
                order = read_dirac_job_keys(raw, ordered=True).order
                assert order is not None
                queues = build_task_queues(
                    (job for job in map(jobs.__getitem__, order) if job is not None), define
                )
            return queues
    except (FastPathRefused, OSError, ValueError, TypeError):
        pass
    objs = load_job_objects(path, name)
    parse_jobs(objs, name)  # every field as the job parser reads it: its message
    return task_queues_from_objects(objs, name, groups, segments)


def _waiting(jobs: list[QueueJob | None], counts: list[int]) -> Iterator[tuple[QueueJob, int]]:
    """The waiting jobs among distinct keys' jobs, with how many jobs each key stands for."""
    return ((job, n) for job, n in zip(jobs, counts, strict=True) if job is not None)


def read_dirac_job_keys(raw: BufferedIOBase, ordered: bool = False) -> DiracJobKeys:
    """Stream the jobs file ``raw`` (binary, at its start) into its distinct keys
    (:func:`scan_job_keys`, then :func:`job_keys`).

    Raises:
        FastPathRefused: see the module docstring.
    """
    return job_keys(scan_job_keys(raw, ordered))


@dataclass
class KeyScan:
    """What a pass over a jobs file (or a part of one) gathers: each key's count in order
    of first sight (or, ``ordered``, each key's number and each job's), the ids as written,
    how many jobs, the ``count`` stanzas (id, count text) and the slots running jobs
    hold."""

    counts: Counter[bytes]
    ids: set[str]
    jobs: int
    stanzas: list[tuple[str, bytes]]
    taken: set[str]
    index: dict[bytes, int]
    order: array[int] | None


def scan_job_keys(raw: BufferedIOBase, ordered: bool = False) -> KeyScan:
    """One pass over the jobs file ``raw`` (binary, at its start): its jobs checked batch
    by batch, their keys counted.

    Hot loop of ``benchmarks/run.py`` row ``taskqueues``: every per-job step is a C call
    over a batch (``map``, ``Counter.update``, ``set.update``); Python runs once per batch
    of some 500 jobs.

    Args:
        raw: the open file.
        ordered: also record each job's key, in order (to replay a full queue).

    Raises:
        FastPathRefused: see the module docstring.
    """
    import msgspec

    slim, record = _record_types()
    decoders = [msgspec.json.Decoder(list[r]) for r in (slim, record)]  # type: ignore[valid-type]
    key_of = attrgetter(*KEY_FIELDS)
    id_of, count_of, slot_of = attrgetter("id"), attrgetter("count"), attrgetter("slot")
    join = b"\x00".join
    counts: Counter[bytes] = Counter()
    index: dict[bytes, int] = {}
    order: array[int] = array("q")
    serial = itertools.count()
    ids: set[str] = set()
    single = msgspec.Raw(b"1").__eq__
    stanzas: list[tuple[str, bytes]] = []  # (id, count text) of the jobs with a count
    checked: dict[str, set[Any]] = {}
    taken: set[str] = set()
    jobs = 0
    for batch in json_list_batches(raw, decoders, CHUNK, MAX_BUFFER):
        keys = map(join, map(key_of, batch))
        if ordered:
            order.extend(map(index.setdefault, keys, serial))
        else:
            counts.update(keys)
        batch_ids = list(map(id_of, batch))
        _check_ids_are_names(batch_ids)
        ids.update(batch_ids)
        jobs += len(batch_ids)
        if not all(map(single, map(count_of, batch))):
            stanzas.extend((r.id, bytes(r.count)) for r in batch if not single(r.count))
        full = not isinstance(batch[0], slim)  # the slim record has no slot, one time
        _check_values(batch, checked, VALUE_GETTERS if full else SLIM_VALUE_GETTERS)
        if full and any(map(slot_of, batch)):
            _check_slots([(r.status, r.slot) for r in batch if r.slot is not None], taken)
    return KeyScan(counts, ids, jobs, stanzas, taken, index, order if ordered else None)


def job_keys(scan: KeyScan, ids_checked: bool = False) -> DiracJobKeys:
    """The distinct keys of a whole file's :class:`KeyScan`, once its ids are checked
    (unless ``ids_checked``: unique, and no ``count`` stanza among them).

    Raises:
        FastPathRefused: duplicate ids, a bad count, a key's text the job parser refuses.
    """
    if not ids_checked:
        _check_ids(scan.ids, scan.jobs, scan.stanzas)
    order = scan.order
    if order is not None:
        codes = {code: i for i, code in enumerate(scan.index.values())}
        order = array("q", map(codes.__getitem__, order))
        distinct, tallies = list(scan.index), []
    else:
        distinct, tallies = list(scan.counts), list(scan.counts.values())
    jobs_of, values = queue_jobs(distinct)
    return DiracJobKeys(distinct, tallies, jobs_of, values, order)


def _check_ids(ids: set[str], jobs: int, stanzas: list[tuple[str, bytes]]) -> None:
    """Refuse duplicate job ids, ``count`` stanzas' ``C.0`` … ``C.(N-1)`` included.

    ``ids``: the jobs' ids as written (a stanza's own id among them, which is not a job's).

    Raises:
        FastPathRefused: a duplicate (or a stanza's id also written as a job's, which the
            job parser decides), or a count that is not a whole number.
    """
    if len(ids) != jobs:
        raise FastPathRefused("duplicate job ids")
    if not stanzas:
        return
    names: set[str] = set()
    clusters: set[str] = set()
    total = 0
    for job_id, text in stanzas:
        try:
            count = int(text)
        except ValueError:
            raise FastPathRefused("count") from None
        if not 1 <= count <= MAX_JOB_COUNT or text != str(count).encode():
            raise FastPathRefused("count")
        ids.discard(job_id)
        cluster = job_id.split(".", 1)[0]
        if cluster in clusters:
            raise FastPathRefused("duplicate job ids")
        clusters.add(cluster)
        names.update(f"{cluster}.{k}" for k in range(count))
        total += count
    if len(names) != total or not names.isdisjoint(ids):
        raise FastPathRefused("duplicate job ids")


DIRAC_FIELDS = (
    *("id", "owner", "dirac_group", "status", "submit_time", "user_priority"),
    *("dirac_requirements", "count"),
)
"""The fields of a usual DIRAC job, in their usual order: a record of only these
(:func:`_record_types`) is decoded faster (msgspec fills in and frees every field of a
record, absent or not)."""


def _record_types() -> tuple[type, type]:
    """msgspec records of a job: one of :data:`DIRAC_FIELDS`, then one of every field.

    The task-queue fields (:data:`KEY_FIELDS`) stay raw text, checked once per distinct
    key (:func:`queue_jobs`); absent is null (as the job parser reads it), except count,
    which is then 1. Every other field is decoded to the type the job parser wants, with
    its range (:func:`~fairshare_cli.core.jobs.job_field_kind`), so msgspec refuses in C
    what the parser would; strings the parser reads further (times) are checked once per
    distinct value (:func:`_check_values`). Both records refuse unknown fields; a batch
    the first refuses is decoded with the second. A refusal by both sends the file the
    usual way, for the usual message.
    """
    from typing import Annotated

    import msgspec

    job_id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME_LENGTH)]
    # A DIRAC job's usual fields first: msgspec finds a field fastest where it expects it.
    names = [*DIRAC_FIELDS]
    names += [n for n in Job.__struct_fields__ if n not in names]
    fields: list[tuple[str, Any, Any]] = [
        ("id", job_id, msgspec.NODEFAULT)
        if name == "id"
        else (name, msgspec.Raw, msgspec.Raw(b"1" if name == "count" else b"null"))
        if name in KEY_FIELDS
        else (name, _field_type(name, msgspec) | None, None)
        for name in names
    ]
    return tuple(  # type: ignore[return-value]
        msgspec.defstruct(
            name,
            [(n, t) if d is msgspec.NODEFAULT else (n, t, d) for n, t, d in chosen],
            forbid_unknown_fields=True,
            gc=False,
            kw_only=True,
        )
        for name, chosen in (
            ("DiracJob", [f for f in fields if f[0] in DIRAC_FIELDS]),
            ("JobFields", fields),
        )
    )


def _field_type(name: str, msgspec: Any) -> Any:
    """The msgspec type of a job field (see _record_type); None is added by the caller."""
    from typing import Annotated

    kind = job_field_kind(name)
    if kind == "whole":
        low = lowest_job_value(name)
        return Annotated[int, msgspec.Meta(ge=INT64_MIN if low is None else low, le=INT64_MAX)]
    if kind == "time":
        return Annotated[float, msgspec.Meta(ge=TIME_MIN, le=TIME_MAX)] | str
    if kind == "duration":  # a Slurm time string is read by the job parser
        return Annotated[float, msgspec.Meta(ge=0)]
    if kind == "flag":
        return bool
    if kind == "object":
        return dict[str, Any]
    if kind == "text":
        return str
    if kind == "name":  # every such field is a submitter name; other names the job parser
        return Annotated[str, msgspec.Meta(pattern=_ASCII_SUBMITTER)]
    if kind == "partition":
        return Annotated[str, msgspec.Meta(pattern=_ASCII_PARTITIONS)]
    raise AssertionError(f"job field {name}: no streamed type for kind {kind}")


_NAME_CHAR = "[!-?A-~]"  # printable ASCII but the space and '@'
_ASCII_SUBMITTER = rf"\A(?={_NAME_CHAR}|@)(?:{_NAME_CHAR}|@(?!.*@)){{1,{MAX_NAME_LENGTH}}}\Z"
"""Names that :func:`~fairshare_cli.core.names.name_problem` accepts as submitters, in
printable ASCII (at most one '@'); a name beyond ASCII is read by the job parser."""

_PART = f"[!-+\\--~]{{1,{MAX_NAME_LENGTH}}}"  # printable ASCII but the space and ','
_ASCII_PARTITIONS = rf"\A{_PART}(?:,{_PART})*\Z"
"""Comma-separated partition names (each a name), in printable ASCII."""

VALUE_FIELDS = tuple(
    n for n in Job.__struct_fields__ if n not in KEY_FIELDS and job_field_kind(n) == "time"
)
"""Fields whose strings the job parser reads further (ISO-8601 times): checked once per
distinct value."""

VALUE_GETTERS = tuple((name, attrgetter(name)) for name in VALUE_FIELDS)
SLIM_VALUE_GETTERS = tuple(item for item in VALUE_GETTERS if item[0] in DIRAC_FIELDS)


def _check_values(
    batch: list[Any], checked: dict[str, set[Any]], getters: Sequence[tuple[str, Any]]
) -> None:
    """Check each distinct value of :data:`VALUE_FIELDS` in ``batch`` as the job parser would.

    ``getters``: those of the batch's record. ``checked`` remembers the values already
    checked per field (up to a bound), across batches. One set per field: a tuple of the
    fields per job costs more.

    Raises:
        FastPathRefused: a value the parser refuses.
    """
    for key, values_of in getters:
        seen = checked.setdefault(key, {None})
        for value in set(map(values_of, batch)) - seen:
            try:
                check_job_field(key, value, "job")
            except InputError:
                raise FastPathRefused(key) from None
            if len(seen) < _MAX_CHECKED:
                seen.add(value)


def _check_ids_are_names(ids: list[str]) -> None:
    """The ids of a batch are names (:func:`~fairshare_cli.core.names.name_problem`).

    Checked on the batch at once, in C: every id printable (so no blank but the space) and
    no space; the record checked their lengths.

    Raises:
        FastPathRefused: an id that is not a name.
    """
    text = "".join(ids)
    if " " in text or not text.isprintable():
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


def queue_jobs(keys: list[bytes]) -> tuple[list[QueueJob | None], dict[bytes, Any]]:
    """Each distinct key's job as a task queue takes it (None: a job no queue holds), and
    each distinct field text's value.

    Each distinct text of a field is decoded and checked once, as the job parser would
    (:func:`~fairshare_cli.core.dirac.jobs.check_entry_fields`); a waiting job's raw key
    is its owner, group and requirement texts (:meth:`DiracJobKeys.definer`).

    Raises:
        FastPathRefused: a value the job parser would refuse, or text that is not JSON
            (then the file is read by the job parser, for its message).
    """
    import msgspec

    rows = [key.split(b"\x00") for key in keys]
    columns = [{row[i] for row in rows} for i in range(len(KEY_FIELDS))]
    try:
        values = {text: msgspec.json.decode(text) for column in columns for text in column}
        owners, groups, priorities, counts, statuses, reqs = (
            [values[text] for text in column] for column in columns
        )
        check_entry_fields(owners, groups, priorities, counts, statuses, reqs)
    except ValueError as exc:  # msgspec.DecodeError is a ValueError
        raise FastPathRefused(str(exc)) from None
    waiting = {text for text in columns[4] if values[text] in WAITING_STATUSES}
    priority = {text: 1 if values[text] is None else values[text] for text in columns[2]}
    null = b"null"
    jobs: list[QueueJob | None] = [
        None
        if group == null or status not in waiting
        else ((owner, group, req), priority[prio], values[count])
        for owner, group, prio, count, status, req in rows
    ]
    return jobs, values
