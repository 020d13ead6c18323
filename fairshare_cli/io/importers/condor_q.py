"""``condor_q -json`` / ``-long`` (``-allusers``, ``-all``) output: job ads as job objects.

Each ad becomes a job object (docs/jobs.md) through :func:`parse_job`, with what the
negotiator reads: ``ClusterId.ProcId``, ``Owner``, ``AccountingGroup``, ``NiceUser``,
``JobPrio``, ``QDate``, ``RequestCpus``, ``RequestMemory``, ``Requirements``, ``Rank``, and
the job's own attributes those two expressions name (``RequestDisk``,
``FileSystemDomain``, ...), kept for ClassAd evaluation. ``JobStatus`` 1 is idle; 2, 6
(transferring output) and 7 (suspended) hold a slot and are running, on ``RemoteHost``
since ``JobCurrentStartDate``; 5 is held; removed and completed jobs are skipped.

An ``AccountingGroup`` of ``nice-user.<name>`` (what ``nice_user = true`` submits in
HTCondor 25) becomes a nice-user job of owner ``<name>`` unless ``nice-user`` is a
configured group.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from fairshare_cli.core.jobs import Job, parse_job
from fairshare_cli.core.operations.submit_ids import ID_FORMS, scheduler_id
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.classad_dumps import (
    Ad,
    Expr,
    iter_ads,
    other_dump,
    refuse_nonfinite,
)

STATUS = {1: "idle", 2: "running", 5: "held", 6: "running", 7: "running"}
_IDENT = re.compile(r"(?<![\w.])(?:MY\.)?([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()")
_TARGET = re.compile(r"\bTARGET\.[A-Za-z_][A-Za-z0-9_]*", re.IGNORECASE)
#: Job fields the job object carries itself (not copied into ``attributes``).
_OWN = frozenset(
    a.lower()
    for a in [
        "Owner",
        "User",
        "NiceUser",
        "JobPrio",
        "QDate",
        "JobStatus",
        "RequestCpus",
        "RequestMemory",
        "ClusterId",
        "ProcId",
        "AccountingGroup",
        "Requirements",
        "Rank",
        "ConcurrencyLimits",
    ]
)


@dataclass(frozen=True)
class QueuedJob:
    """A job of the dump, with the line its ad starts on."""

    job: Job
    line: int


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, Expr):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def referenced(ad: Ad, *texts: str | None, ignored: set[str] | None = None) -> dict[str, Any]:
    """The job's literal attributes that its expressions name (``MY.X`` or plain ``X``);
    the names of those that are expressions (``real("INF")`` too: HTCondor writes a real
    that is not finite so) go to ``ignored``: fs keeps no expression there, so its
    Requirements and Rank read them as undefined."""
    keys = {k.lower(): k for k in ad}
    out: dict[str, Any] = {}
    for text in texts:
        if not text:
            continue
        bare = _TARGET.sub(" ", re.sub(r'"(?:[^"\\]|\\.)*"', '""', text))
        for m in _IDENT.finditer(bare):
            key = keys.get(m.group(1).lower())
            if key is None or key.lower() in _OWN:
                continue
            value = ad[key]
            if isinstance(value, (str, int, float, bool)) and not isinstance(value, Expr):
                out[key] = value
            elif isinstance(value, Expr) and ignored is not None:
                ignored.add(key)
    return out


def _int(ad: Ad, key: str, where: str, default: int) -> int:
    value = ad.get(key, default)
    if isinstance(value, Expr):
        refuse_nonfinite(where, _job_name(ad), key, value)
        return default
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: {key} = {value!r}; expected a number")
    if isinstance(value, float) and not math.isfinite(value):  # (JSON's NaN, 1e400)
        raise InputError(f"{where}: {key} = {value!r}; expected a finite number")
    return int(value)


def _check_times(ad: Ad, where: str, keys: tuple[str, ...]) -> None:
    """The job's times ``keys`` are no ``real("NaN")`` or ``real("INF")`` (no time at all).

    Raises:
        InputError: naming ``where``, the job and the attribute.
    """
    for key in keys:
        if (value := ad.get(key)).__class__ is Expr:
            refuse_nonfinite(where, _job_name(ad), key, value)


def _status(ad: Ad, where: str, job_id: str) -> str | None:
    """The job's state, None for a removed or completed job, once its id and ``JobStatus``
    are ones HTCondor gives (a cluster from 1, its jobs numbered from 0; ``JobStatus`` 1 to
    7, proc.h's states: 8 and 9 are kept for future use), not a damaged capture's.

    Raises:
        InputError: naming ``where`` and the id or the status.
    """
    if not scheduler_id(job_id):
        raise InputError(f'{where}: job id "{job_id}" (ClusterId.ProcId): {ID_FORMS}')
    code = _int(ad, "JobStatus", where, 1)
    if not 1 <= code <= 7:
        raise InputError(
            f"{where}: job {job_id}: JobStatus = {code}; expected 1 to 7, the states HTCondor"
            " gives a job (1 idle, 2 running, 3 removed, 4 completed, 5 held, 6 transferring"
            " output, 7 suspended)"
        )
    return STATUS.get(code)


def _job_name(ad: Ad) -> str:
    """``job 12.0``: the job of ``ad``, for a refusal."""
    return f"job {ad.get('ClusterId')}.{ad.get('ProcId')}"


def job_from_ad(
    ad: Ad, where: str, groups: frozenset[str], ignored: set[str] | None = None
) -> Job | None:
    """The job object of one job ad; None for a removed or completed job. The attributes
    its Requirements and Rank name that are expressions go to ``ignored``.

    Raises:
        InputError: naming ``where`` for an ad without ClusterId/ProcId or Owner, or with a
            malformed value (an id or a JobStatus HTCondor never gives too).
    """
    cluster, proc = ad.get("ClusterId"), ad.get("ProcId")
    if not isinstance(cluster, int) or not isinstance(proc, int):
        raise InputError(
            f"{where}: expected a job ad with ClusterId and ProcId{other_dump(ad, 'job')}"
        )
    _check_times(ad, where, ("QDate",))
    status = _status(ad, where, f"{cluster}.{proc}")
    if status is None:
        return None
    owner = ad.get("Owner") or ad.get("User")
    if not isinstance(owner, str) or not owner:
        raise InputError(f"{where}: job {cluster}.{proc} has no Owner")
    group = ad.get("AccountingGroup")
    nice = ad.get("NiceUser") is True
    if (
        isinstance(group, str)
        and group.lower().startswith("nice-user.")
        and ("nice-user" not in groups)
    ):
        owner, group, nice = group.split(".", 1)[1], None, True
    requirements, rank = _text(ad.get("Requirements")), _text(ad.get("Rank"))
    obj: dict[str, Any] = {
        "id": f"{cluster}.{proc}",
        "owner": owner,
        "accounting_group": group if isinstance(group, str) and group else None,
        "nice_user": nice,
        "job_prio": _int(ad, "JobPrio", where, 0),
        "submit_time": ad.get("QDate"),
        "status": status,
        "request_cpus": _int(ad, "RequestCpus", where, 1),
        "request_memory": _int(ad, "RequestMemory", where, 0),
        "requirements": requirements,
        "rank": rank,
        "attributes": referenced(ad, requirements, rank, ignored=ignored),
    }
    limits = ad.get("ConcurrencyLimits")  # a string, or an expression to evaluate per slot
    if isinstance(limits, Expr):
        obj["concurrency_limits_expr"] = limits.text
    elif isinstance(limits, str) and limits:
        obj["concurrency_limits"] = limits
    if status == "running":
        _check_times(ad, where, ("JobCurrentStartDate", "JobStartDate"))
        host = ad.get("RemoteHost")
        obj["slot"] = host if isinstance(host, str) and host else None
        if ad.get("CurrentHosts") == 0:  # marked running, no shadow: the schedd counts it idle
            obj["current_hosts"] = 0
        obj["start_time"] = ad.get("JobCurrentStartDate") or ad.get("JobStartDate")
    return parse_job(obj, where)[0]


def read_queue(
    fh: IO[str],
    label: str,
    groups: frozenset[str],
    skipped: dict[str, str] | None = None,
    ignored: set[str] | None = None,
) -> Iterator[QueuedJob]:
    """Jobs of ``condor_q -json`` or ``-long`` output, in the dump's order.

    The ids of removed and completed jobs (``-all``) go to ``skipped``, each with which
    (``"removed"``: ``JobStatus`` 3); the names of the attributes left out of the jobs'
    (:func:`referenced`) to ``ignored``.

    Raises:
        InputError: ``FILE:LINE`` of a malformed line or job ad, or no job ad at all (an
            empty file: nothing to import).
    """
    ads = 0
    for line, ad in iter_ads(fh, label, wanted="condor_q -json or -long output"):
        ads += 1
        job = job_from_ad(ad, f"{label}:{line}", groups, ignored)
        if job is not None:
            yield QueuedJob(job, line)
        elif skipped is not None:
            over = "removed" if ad.get("JobStatus") == 3 else "completed"
            skipped[f"{ad.get('ClusterId')}.{ad.get('ProcId')}"] = over
    if not ads:
        raise InputError(
            f"{label}: no job ads; expected condor_q -json or -long output (an empty queue "
            "prints nothing: then there is no job to import)"
        )
