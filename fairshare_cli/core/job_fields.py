"""How each field of a job object is read from JSON (docs/jobs.md): the exact parser's
rules, each refusal worded for the user. :func:`read_job_fields` reads a whole object's
fields for :func:`~fairshare_cli.core.jobs.parse_stanza`; :func:`check_job_field` and
:func:`check_job_option` read one value (a jobs file's time written as text, an option of
``fs submit``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import (
    INT64_MAX,
    INT64_MIN,
    MAX_JOB_COUNT,
    NICE_LIMIT,
    SLURM_PRIORITY_MAX,
    TIME_MAX,
    TIME_MIN,
    UINT32_MAX,
)
from fairshare_cli.core.literals import check_literals, check_object
from fairshare_cli.core.names import check_name, dirac_group_problem, json_shown, name_problem
from fairshare_cli.errors import InputError, did_you_mean

JOB_STATUSES = ("idle", "running", "held", "completed", "removed")
#: A SLUID as Slurm prints it (``print_sluid``, src/common/sluid.c): ``s``, then 13 letters of
#: Crockford's Base32, the first of the top 4 bits (0 to F); not the SLUID 0 (none).
SLUID_PATTERN = "^s(?!0{13}$)[0-9A-F][0-9A-HJKMNP-TV-Z]{12}$"

#: The job fields ``fs submit``'s options name otherwise (``--cpus``), the history
#: record's ``cpus``, and the real tools' ``user`` (sacct's and squeue's column, HTCondor's
#: ``User``): the field a job object spells for each, which difflib does not find (it
#: offers ``nice_user`` for ``user``).
_OPTION_FIELDS = {"cpus": "request_cpus", "memory": "request_memory", "nodes": "num_nodes",
                  "user": "owner"}  # fmt: skip
_INT_FIELDS = {"job_prio", "request_cpus", "request_memory", "num_nodes", "nice", "site_factor",
               "admin_priority", "slurm_priority", "pre_job_prio1", "pre_job_prio2",
               "post_job_prio1", "post_job_prio2", "current_hosts"}  # fmt: skip
_TIME_FIELDS = {"submit_time", "start_time", "eligible_time", "accrue_time"}


def _duration(value: Any, where: str) -> float:
    from fairshare_cli.core.timestr import TimeStringError, time_str2secs, unit_hint

    if isinstance(value, str):
        try:
            return time_str2secs(value)
        except TimeStringError as exc:
            raise InputError(f"{where}: {exc}{unit_hint(value, 'the number ')}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise InputError(
            f"{where}: expected a duration of 0 or more seconds, got {json_shown(value)}"
        )
    return float(value) if value <= 1e308 else math.inf  # a longer integer: unlimited


def _time_limit(value: Any, where: str) -> float:
    """A duration, 0 read as INFINITE: sbatch's ``--time=0`` (``arg_set_time_limit``)."""
    return _duration(value, where) or math.inf


def read_job_fields(obj: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The fields of one job object as a job holds them (None: absent), ``count`` kept;
    ``id`` and ``owner`` required, the status known.

    Raises:
        InputError: naming ``where`` and the field.
    """
    kw: dict[str, Any] = {}
    for key, value in obj.items():
        quick = _quick(key, value)  # the usual values inline
        if quick is not _SLOW:
            kw[key] = quick
            continue
        if key == "count":
            kw[key] = _count(value, f"{where}: {key}")
            continue
        parse = _PARSERS.get(key)
        if parse is None:
            extra = did_you_mean(_OPTION_FIELDS.get(key.casefold()) or key, sorted(JOB_FIELDS))
            extra = extra or " (fields: docs/jobs.md)"
            raise InputError(f"{where}: unknown job field '{key}'{extra}")
        if value is not None:
            kw[key] = _checked(parse, key, value, f"{where}: {key}")
    for req in ("id", "owner"):  # (after the unknown fields: 'Owner' is named as one)
        if kw.get(req) is None:
            how = _NO_ID if req == "id" else ""
            raise InputError(f"{where}: missing required field '{req}'{how}")
    _status(kw.get("status", "idle"), f"{where}: status")
    return kw


#: What a job object with no id is told to give.
_NO_ID = ' (give the job an id, "1" or "12.0"; only fs submit --file numbers jobs without one)'


def job_label(source: str, obj: Any, index: int) -> str:
    """How a message names a job object of a list (docs/jobs.md): by the id it gives,
    ``{source}: job 12.0``, or where it gives none fs can read, by its place,
    ``{source}: job object 3 (counting from 1)``."""
    job_id = _id_text(obj.get("id")) if type(obj) is dict else None
    if name_problem(job_id) is None:
        return f"{source}: job {job_id}"
    return f"{source}: job object {index + 1} (counting from 1)"


def given_twice(source: str, job_id: str, first: int, index: int) -> str:
    """The refusal of a job id that two job objects of a list give (``first`` and ``index``
    their places, from 0; a ``count`` object gives each of its ids)."""
    return (
        f"{source}: job {job_id} is given twice (job objects {first + 1} and {index + 1}, "
        "counting from 1); give each job its own id"
    )


def _status(status: str, label: str) -> str:
    if status not in JOB_STATUSES:
        raise InputError(f'{label}: expected one of {", ".join(JOB_STATUSES)}, got "{status}"')
    return status


#: :func:`_quick`'s answer for a value it leaves to the field's parser.
_SLOW: Any = object()


def _quick(key: str, value: Any) -> Any:
    """``value`` of field ``key`` as its parser reads it, when it is a usual one (a whole
    number in range, a time in epoch seconds, a string, a good name); else :data:`_SLOW`."""
    kind = _FAST_KIND.get(key)
    if kind is _WHOLE:
        if type(value) is int and _INT_LOW[key] <= value <= _INT_HIGH[key]:
            return value
    elif kind is _TEXT:
        if type(value) is str:
            return value
    elif kind is _TIME:
        if type(value) in (int, float) and TIME_MIN <= value <= TIME_MAX:
            return float(value)
    elif (
        kind is not None
        and type(value) is str
        and name_problem(value, kind is _NAME) is None  # kind _NAME or _ID
    ):
        return value
    return _SLOW


def check_job_field(key: str, value: Any, where: str) -> Any:
    """``value`` of job field ``key`` as :func:`parse_job` reads it (None is absent).

    Raises:
        InputError: naming ``where`` and ``key``; KeyError: ``key`` is not a job field.
    """
    if key == "count":
        return _count(value, f"{where}: {key}")
    return None if value is None else _checked(_PARSERS[key], key, value, f"{where}: {key}")


def check_job_option(key: str, value: Any, option: str) -> Any:
    """:func:`check_job_field` for a command-line ``option`` (``--owner: expected a name``).

    Raises:
        InputError: naming ``option``; KeyError: ``key`` is not a job field.
    """
    parsed = _checked(_PARSERS[key], key, value, option)
    return _status(parsed, option) if key == "status" else parsed


def _checked(parse: Callable[[Any, str], Any], key: str, value: Any, label: str) -> Any:
    """``value`` of field ``key`` read by ``parse`` and held to its least amount, or to
    Slurm's range; refusals start with ``label``."""
    parsed = parse(value, label)
    low = _LOWEST.get(key)
    if low is not None and parsed < low:
        raise InputError(f"{label}: expected {low} or more, got {json_shown(value)}")
    if key in _SLURM_RANGE and abs(parsed) > NICE_LIMIT:
        raise InputError(
            f"{label}: {_SLURM_RANGE[key]} (+/- {NICE_LIMIT}), got {json_shown(value)}"
        )
    if key == "admin_priority" and parsed > SLURM_PRIORITY_MAX:
        raise InputError(
            f"{label}: expected 0 to {SLURM_PRIORITY_MAX} (scontrol update job priority=), "
            f"got {json_shown(value)}"
        )
    if key == "slurm_priority" and parsed > UINT32_MAX:
        raise InputError(
            f"{label}: expected 1 to {UINT32_MAX} (a uint32_t), got {json_shown(value)}"
        )
    return parsed


def job_field_kind(key: str) -> str:
    """How field ``key`` is read: whole, time, duration, flag, number, object, text, name,
    partition or id (the rules of :func:`parse_job`; ``count`` is whole)."""
    if key == "count":
        return "whole"
    return _KINDS[_PARSERS[key]]


def _count(value: Any, w: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{w}: expected a whole number of at least 1, got {json_shown(value)}")
    if value > MAX_JOB_COUNT:
        raise InputError(f"{w}: expected at most {MAX_JOB_COUNT:,} jobs, got {value}")
    return value


def _whole(value: Any, w: str) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not value.is_integer())
    ):
        raise InputError(f"{w}: expected a whole number, got {json_shown(value)}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise InputError(
            f"{w}: expected a whole number that fits in 64 bits, got {json_shown(value)}"
        )
    return int(value)


def _finite(value: Any, w: str) -> float:
    """A number that need not be whole (DIRAC's UserPriority; TaskQueueDB keeps ``int()``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{w}: expected a number, got {json_shown(value)}")
    # The range first: math.isfinite of an integer past a float's range raises.
    if not INT64_MIN <= value <= INT64_MAX or not math.isfinite(value):
        raise InputError(
            f"{w}: expected a finite number that fits in 64 bits, got {json_shown(value)}"
        )
    return value


def _flag(value: Any, w: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{w}: expected true or false, got {json_shown(value)}")
    return value


def _text(value: Any, w: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{w}: expected a string, got {json_shown(value)}")
    return value


def _job_id(value: Any, w: str) -> str:
    if type(value) is float:
        raise InputError(
            f"{w}: expected a string or a whole number, got {value}: write an id with a dot as "
            'text ("12.0"); as a number it loses digits (5.10 reads 5.1)'
        )
    return check_name(_text(_id_text(value), w), w)


def _id_text(value: Any) -> Any:
    """A job id written as a whole number (``12``) as its text, as an id is read; any
    other value as it is (a number with a dot is no id: ``5.10`` reads ``5.1``, ``NaN``
    ``nan``)."""
    return str(value) if type(value) is int else value


def _name(value: Any, w: str) -> str:
    return check_name(_text(value, w), w, submitter=True)


def _dirac_group(value: Any, w: str) -> str:
    """A name, or a DIRAC group's name with blanks inside (:func:`dirac_group_problem`)."""
    text = _text(value, w)
    if (problem := dirac_group_problem(text)) is not None:
        raise InputError(f"{w}: {problem}")
    return text


def sluid_text(value: int) -> str:
    """A SLUID's 64-bit value as Slurm prints it (``print_sluid``: ``s`` and 13 letters of
    5 bits each, the last the lowest; the first holds the top 4 bits)."""
    return "s" + "".join(_CB32[(value >> (5 * i)) & 31] for i in range(12, -1, -1))


_CB32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _sluid(value: Any, w: str) -> str:
    text = _text(value, w)
    if re.match(SLUID_PATTERN, text) is None:
        raise InputError(
            f"{w}: expected a SLUID as Slurm prints it (s and 13 of 0-9 and A-Z but I, L, O "
            f'and U, the first 0 to F, not all 0: "s805M8HP6BJP00"), got {json_shown(value)}'
        )
    return text


def _partitions(value: Any, w: str) -> str:
    text = _text(value, w)
    for name in text.split(","):
        check_name(name, w)
    return text


#: The least value of whole-number fields that are amounts (``--cpus -8`` is refused too).
_LOWEST = {"request_cpus": 0, "request_memory": 0, "num_nodes": 1, "admin_priority": 0,
           "slurm_priority": 1, "current_hosts": 0}  # fmt: skip
#: Fields held to +/- NICE_LIMIT, and how Slurm words a value beyond it (``arg_set_nice``
#: in src/common/slurm_opt.c; ``SiteFactor`` in src/scontrol/update_job.c).
_SLURM_RANGE = {"nice": "Invalid --nice value, out of range",
                "site_factor": "SiteFactor value out of range"}  # fmt: skip


#: How each job field is read from JSON (every field of :class:`Job` has one).
_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    **dict.fromkeys(_INT_FIELDS, _whole),
    **dict.fromkeys(_TIME_FIELDS, parse_time),
    "time_limit": _time_limit,
    "run_time": _duration,
    "nice_user": _flag,
    "user_priority": _finite,
    "dirac_requirements": check_object,
    "attributes": check_literals,
    **dict.fromkeys(
        ("requirements", "rank", "status", "concurrency_limits", "concurrency_limits_expr"), _text
    ),
    **dict.fromkeys(("owner", "accounting_group", "account", "qos", "slot"), _name),
    "dirac_group": _dirac_group,
    "partition": _partitions,
    "id": _job_id,
    "sluid": _sluid,
}


#: Field kinds whose usual values :func:`parse_job` takes inline (exactly as their parser).
_WHOLE, _TEXT, _TIME, _NAME, _ID = "whole", "text", "time", "name", "id"
_INLINE = {
    _whole: _WHOLE,
    _text: _TEXT,
    parse_time: _TIME,
    _name: _NAME,
    _dirac_group: _NAME,
    _job_id: _ID,
}  # fmt: skip  (_dirac_group: a name without blanks inline, the others parsed)
_FAST_KIND = {key: _INLINE[p] for key, p in _PARSERS.items() if p in _INLINE}
#: The least and most :func:`_checked` accepts, per whole-number field.
_INT_LOW = {key: max(INT64_MIN, _LOWEST.get(key, INT64_MIN)) for key in _INT_FIELDS}
_INT_HIGH = {key: NICE_LIMIT if key in _SLURM_RANGE else INT64_MAX for key in _INT_FIELDS}
_INT_LOW.update(dict.fromkeys(_SLURM_RANGE, -NICE_LIMIT))
_INT_HIGH["admin_priority"] = SLURM_PRIORITY_MAX
_INT_HIGH["slurm_priority"] = UINT32_MAX
_KINDS: dict[Callable[[Any, str], Any], str] = {
    _whole: "whole",
    parse_time: "time",
    _duration: "duration",
    _time_limit: "duration",
    _flag: "flag",
    _finite: "number",
    check_object: "object",
    check_literals: "object",
    _text: "text",
    _name: "name",
    _partitions: "partition",
    _job_id: "id",
    _sluid: "sluid",
}

#: Every field of a job object: each field :data:`_PARSERS` reads, and ``count``.
JOB_FIELDS = frozenset((*_PARSERS, "count"))
