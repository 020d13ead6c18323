"""The records a jobs-file sink may take instead of :class:`~fairshare_cli.core.jobs.Job`:
projections that hold some fields as raw JSON text (:func:`raw_job_record`), the
decoders of them, and the checks of their times written as text. Read by the one reader
of the format, :mod:`fairshare_cli.io.jobs`."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from operator import attrgetter
from typing import Any

import msgspec

from fairshare_cli.core.job_fields import check_job_field
from fairshare_cli.core.jobs import NO_FIELDS, POOL_DEFAULTS, Job
from fairshare_cli.errors import InputError


@cache
def raw_job_record(raw: tuple[str, ...], usual: tuple[str, ...] = (), texts: bool = True) -> type:
    """A projection of :class:`~fairshare_cli.core.jobs.Job` for a sink that reads some
    fields as raw JSON text (``msgspec.Raw``, absent: the text of the field's default, or
    ``null`` for an empty mapping and for ``POOL_DEFAULTS``, which the sink fills in).

    Every field has the type :class:`~fairshare_cli.core.jobs.Job` gives it, so the reader
    refuses what it refuses, except the fields in ``raw`` (which the sink checks) and the
    times, which may stay text: each distinct text is checked by the job parser's rule.
    With ``usual`` (the fields most jobs write), the reader first tries a record of only
    those, in that order, the others its class's defaults (msgspec fills in every field
    of a record, absent or not, and looks for them in order), until a piece has another.
    Not ``texts``: times as Job holds them, and its properties (the ``usual`` record: Job's).
    """
    fields: list[tuple[str, Any, Any]] = []
    for field in msgspec.structs.fields(Job):
        kind, default = field.type, field.default
        if field.name in raw:
            kind = msgspec.Raw
            if default is not msgspec.NODEFAULT:
                nothing = isinstance(default, Mapping) or field.name in POOL_DEFAULTS
                default = msgspec.Raw(msgspec.json.encode(None if nothing else default))
        elif field.name in _RECORD_TIMES and texts:
            kind = kind | str
        fields.append((field.name, kind, default))
    records: list[type] = []
    fields.sort(key=lambda f: usual.index(f[0]) if f[0] in usual else len(usual))
    for held in (usual, tuple(Job.__struct_fields__)) if usual else (Job.__struct_fields__,):
        record = _record(f"Job_{'_'.join(raw)}", fields, held, {} if texts else _PROPERTIES)
        record.raw_fields = raw  # type: ignore[attr-defined]
        record.usual = records[0] if records else None  # type: ignore[attr-defined]
        records.append(record)
    return records[-1]


#: The fields a record holds as seconds that a file may write as times in text.
_RECORD_TIMES = frozenset(("submit_time", "eligible_time", "accrue_time", "start_time"))
_STRICT: dict[str, Any] = dict(forbid_unknown_fields=True, frozen=True, kw_only=True, gc=False)
_PROPERTIES = {"partitions": Job.partitions, "cluster_proc": Job.cluster_proc}


def _record(name: str, fields: list[Any], held: Any, namespace: dict[str, Any]) -> type:
    """The ``fields`` (name, type, default) in ``held``; the others' defaults on the class."""
    spec = [(n, t) if d is msgspec.NODEFAULT else (n, t, d) for n, t, d in fields if n in held]
    namespace = {**{n: d for n, _, d in fields if n not in held}, **namespace}
    return msgspec.defstruct(name, spec, namespace=namespace, **_STRICT)


@cache
def skipped_fields(record: type) -> frozenset[str]:
    """The fields the checks of a record skip: those it holds raw or does not hold."""
    held = set(record.__struct_fields__) - set(getattr(record, "raw_fields", ()))  # type: ignore[attr-defined]
    return frozenset(Job.__struct_fields__) - held


def text_times_pass(
    jobs: list[Any], checked: dict[tuple[str, str], bool], skip: frozenset[str]
) -> bool:
    """Whether each distinct time written as text in a projection's records passes the job
    parser's rule (``checked``: the texts seen so far, across pieces)."""
    for key in _RECORD_TIMES - skip:
        texts = set(map(attrgetter(key), jobs))
        for text in texts:
            if type(text) is str and (key, text) not in checked:
                if type(text_seconds(key, text)) is str:
                    return False
                if len(checked) < 100_000:
                    checked[key, text] = True
    return True


def projected(job: Job, record: type) -> Any:
    """A record of :func:`raw_job_record` holding what ``job`` holds (the exact reader's).

    Raises:
        ValueError: a raw field holds NaN or an infinity (``{"cpu_time": NaN}``, which
            the exact reader reads): msgspec would write it as ``null``, another value, so
            the sink's caller must read the objects themselves.
    """
    values = {}
    raw: tuple[str, ...] = record.raw_fields  # type: ignore[attr-defined]
    for name in record.__struct_fields__:  # type: ignore[attr-defined]
        value = getattr(job, name)
        if name in raw:
            plain = (
                None if value is NO_FIELDS else dict(value) if isinstance(value, Mapping) else value
            )
            if _non_finite(plain):
                raise ValueError(f"{name}: NaN or an infinity, which JSON text cannot hold")
            value = msgspec.Raw(msgspec.json.encode(plain))
        values[name] = value
    return record(**values)


def _non_finite(value: Any) -> bool:
    """Whether ``value`` (a decoded JSON value) holds a float NaN or infinity anywhere."""
    if type(value) is float:
        return value != value or value in (_INF, -_INF)
    if type(value) is list:
        return any(map(_non_finite, value))
    if isinstance(value, Mapping):
        return any(map(_non_finite, value.values()))
    return False


_INF = float("inf")


def text_seconds(key: str, text: str) -> Any:
    """A time or duration written as text, as the job parser reads it (else the text)."""
    try:
        return check_job_field(key, text, "job")
    except InputError:
        return text
