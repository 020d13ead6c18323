"""A fast reader of job objects for sprio's 100,000-job queues.

``parse_jobs`` (in :mod:`fairshare_cli.core.jobs`) validates every field of the full
:class:`~fairshare_cli.core.jobs.Job`. sprio needs a dozen fields, so plain Slurm job
objects (only the fields below, of the expected types) become light :class:`SlurmJob`
views directly; anything else goes through ``parse_job``, so the accepted input and the
error messages are exactly those of ``parse_jobs``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.jobs import (
    JOB_STATUSES,
    Job,
    cluster_proc,
    parse_job,
    require_job_list,
    split_partitions,
)
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import name_problem
from fairshare_cli.errors import InputError

_FAST = frozenset(
    (
        "id",
        "owner",
        "status",
        "submit_time",
        "accrue_time",
        "time_limit",
        "admin_priority",
        "account",
        "partition",
        "qos",
        "num_nodes",
        "request_cpus",
        "request_memory",
        "site_factor",
        "nice",
    )
)
_STATUSES = frozenset(JOB_STATUSES)


class SlurmJob:
    """The fields of a job that Slurm's priority reads (same names as :class:`Job`)."""

    __slots__ = (
        "account",
        "accrue_time",
        "admin_priority",
        "attributes",
        "id",
        "nice",
        "num_nodes",
        "owner",
        "partition",
        "qos",
        "request_cpus",
        "request_memory",
        "site_factor",
        "status",
        "submit_time",
        "time_limit",
    )

    def __init__(  # noqa: PLR0913  a __slots__ record: one parameter per Job field
        self,
        id: str,
        owner: str,
        account: str | None = None,
        partition: str | None = None,
        qos: str | None = None,
        status: str = "idle",
        submit_time: float | None = None,
        time_limit: float | None = None,
        num_nodes: int = 1,
        request_cpus: int = 1,
        request_memory: int = 0,
        site_factor: int = 0,
        nice: int = 0,
        admin_priority: int | None = None,
        attributes: Mapping[str, Any] | None = None,
        accrue_time: float | None = None,
    ) -> None:
        self.id = id
        self.owner = owner
        self.account = account
        self.partition = partition
        self.qos = qos
        self.status = status
        self.submit_time = submit_time
        self.time_limit = time_limit
        self.num_nodes = num_nodes
        self.request_cpus = request_cpus
        self.request_memory = request_memory
        self.site_factor = site_factor
        self.nice = nice
        self.admin_priority = admin_priority
        self.attributes: Mapping[str, Any] = attributes if attributes is not None else {}
        self.accrue_time = accrue_time

    @classmethod
    def of(cls, job: Job) -> SlurmJob:
        """The view of a full :class:`Job`."""
        return cls(**{name: getattr(job, name) for name in cls.__slots__})

    @property
    def partitions(self) -> tuple[str, ...]:
        """The partitions the job may run in (``"batch,express"`` lists two)."""
        return split_partitions(self.partition)

    @property
    def cluster_proc(self) -> tuple[int, int]:
        """(cluster, proc) from an id like ``12.3``; non-numeric ids sort last."""
        return cluster_proc(self.id)


def _int(value: Any, default: int, least: int = INT64_MIN) -> int | None:
    """``default`` for None, the value for an int from ``least``, None (not fast) otherwise."""
    if value is None:
        return default
    return value if type(value) is int and least <= value <= INT64_MAX else None


def _fast(obj: Any) -> SlurmJob | None:
    """The view of a plain Slurm job object, or None when it needs the full parser."""
    if type(obj) is not dict or not _FAST.issuperset(obj):
        return None
    get = obj.get
    job_id = get("id")
    owner = get("owner")
    if type(job_id) is not str or type(owner) is not str:
        return None
    account = get("account")
    partition = get("partition")
    qos = get("qos")
    if (
        (account is not None and type(account) is not str)
        or (partition is not None and type(partition) is not str)
        or (qos is not None and type(qos) is not str)
    ):
        return None
    if not _good_names(job_id, owner, account, partition, qos):
        return None
    status = get("status")
    if status is None:
        status = "idle"
    elif type(status) is not str or status not in _STATUSES:
        return None
    nodes = _int(get("num_nodes"), 1, least=1)
    cpus = _int(get("request_cpus"), 1, least=0)
    memory = _int(get("request_memory"), 0, least=0)
    site = _int(get("site_factor"), 0)
    nice = _int(get("nice"), 0)
    if nodes is None or cpus is None or memory is None or site is None or nice is None:
        return None
    admin = get("admin_priority")
    if admin is not None and _int(admin, 0) is None:
        return None
    when = _time(get("submit_time"))
    accrue = _time(get("accrue_time"))
    if when is _BAD or accrue is _BAD:
        return None
    limit = get("time_limit")
    if limit is not None:
        if type(limit) not in (int, float) or not 0 <= limit < math.inf:
            return None
        limit = float(limit)
    return SlurmJob(
        job_id,
        owner,
        account,
        partition,
        qos,
        status,
        when,
        limit,
        nodes,
        cpus,
        memory,
        site,
        nice,
        admin,
        None,
        accrue,
    )


_BAD = object()
_GOOD_NAMES: set[str] = set()


def _good_names(*names: str | None) -> bool:
    """Each name passes the one name rule (remembered, so each is checked once)."""
    for name in names:
        if name is None or name in _GOOD_NAMES:
            continue
        if any(name_problem(part, submitter=True) is not None for part in name.split(",")):
            return False
        if len(_GOOD_NAMES) < 100_000:
            _GOOD_NAMES.add(name)
    return True


def names_good(names: Iterable[str | None]) -> bool:
    """Each of ``names`` (None skipped) passes the one name rule as a submitter's name
    does, each comma-separated part of it (a job id, owner, account, partition or QOS)."""
    return _good_names(*names)


def _time(when: Any) -> Any:
    """Epoch seconds of a job time (None stays None); ``_BAD`` when it needs the parser."""
    if when is None:
        return None
    kind = type(when)
    if kind is float or kind is int:
        value = float(when)
        return value if TIME_MIN <= value <= TIME_MAX else _BAD
    if kind is str:
        try:
            return parse_time(when, "")
        except InputError:
            return _BAD
    return _BAD


def slurm_jobs(objs: Iterable[Any], source: str) -> list[SlurmJob]:
    """Job views from a list of job objects; ``source`` names the file in errors.

    Raises:
        InputError: not a list, a malformed job or a duplicate id (as ``parse_jobs``
            words them).
    """
    require_job_list(objs, source)
    out: list[SlurmJob] = []
    seen: set[str] = set()
    slots: set[str] = set()
    for i, obj in enumerate(objs):
        view = _fast(obj)
        if view is not None:
            views = [view]
        else:
            full = parse_job(obj, f"{source}: job {i}")
            for parsed in full:
                if parsed.status == "running" and parsed.slot is not None:
                    if parsed.slot in slots:
                        raise InputError(
                            f"{source}: job {i}: slot '{parsed.slot}' already runs another job"
                        )
                    slots.add(parsed.slot)
            views = [SlurmJob.of(parsed) for parsed in full]
        for job in views:
            if job.id in seen:
                raise InputError(f"{source}: job {i}: duplicate job id '{job.id}'")
            seen.add(job.id)
            out.append(job)
    return out
