"""The job records both Slurm job dumps read into (``squeue --json`` and ``scontrol show
jobs``), and what both read alike: the job states that stay queued, TRES strings, the
finished jobs kept for their charges.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn, Protocol

from msgspec import Struct

from fairshare_cli.core.jobs import Job
from fairshare_cli.core.names import shown
from fairshare_cli.core.tres import alloc_tres_counts
from fairshare_cli.errors import InputError

#: Slurm job states that stay in the queue, and ours.
STATES = {"PENDING": "idle", "RUNNING": "running", "SUSPENDED": "running", "CONFIGURING": "running"}


#: :attr:`ImportedJob.job` until the job is read.
UNREAD = Job(id="", owner="")
#: :attr:`ImportedJob.printed_by_partition` of a job printed with one priority: one
#: read-only empty mapping shared by all of them.
ONE_PRIORITY: Mapping[str, int] = MappingProxyType({})


class ImportedJob(Struct, gc=False):
    """A job, the object it was read from, where, and what Slurm printed as its priority
    (a struct: made in C, one for each job of a dump).

    ``job`` is read once, from ``obj``; a command that changes a field replaces ``job``.
    ``place`` is where it was read: the words (``FILE: jobs[3]``), or the line of the
    dump ``label`` (its words made when asked: :attr:`where`).
    ``printed_by_partition`` is squeue --json's ``priority_by_partition`` (since 24.11).
    ``json_form``: ``obj`` is the job's JSON form as the state writes it (``job_to_json``
    of ``job``, until a command replaces ``job``).
    """

    obj: dict[str, Any]
    place: str | int
    job: Job = UNREAD
    printed_priority: int | None = None
    printed_by_partition: Mapping[str, int] = ONE_PRIORITY
    billing: float = 0.0
    json_form: bool = False
    label: str = ""

    @property
    def where(self) -> str:
        """Where the job was read (``FILE:LINE``, ``FILE: jobs[3]``)."""
        place = self.place
        return place if isinstance(place, str) else f"{self.label}:{place}"


@dataclass(frozen=True)
class FinishedJob:
    """A job that ran and ended: what it was charged for, from its start to its end."""

    account: str
    user: str
    billing: float
    qos: str | None
    start: float
    end: float


@dataclass
class JobDump:
    """Jobs that stay in the queue, finished ones that ran, and the ids left out."""

    jobs: list[ImportedJob] = field(default_factory=list)
    finished: list[FinishedJob] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    #: ``scontrol show jobs`` of Slurm 22.05 or older: its records print ``TRES=``, where
    #: 23.02 on print ``ReqTRES=`` and ``AllocTRES=`` (``src/api/job_info.c``).
    before_23_02: bool = False


#: What squeue and scontrol print for a TRES text unset (a job not running has no
#: ``AllocTRES``: 23.02 on print ``(null)``, squeue --json ``""``).
UNSET = ("", "(null)")


@functools.lru_cache(maxsize=4096)
def tres_of(text: str) -> Mapping[str, float] | None:
    """The counts of a TRES text squeue or scontrol printed (:func:`alloc_tres_counts`, the
    one reader), memory in MB; None if it is not one (:func:`read_tres` words why). Shared
    between the jobs that print it alike: read only."""
    if text in UNSET:
        return MappingProxyType({})
    try:
        counts = alloc_tres_counts(text, "")
    except InputError:
        return None
    mem = counts.get("mem")
    return MappingProxyType(counts) if mem is None or mem.is_integer() else None


def read_tres(text: str, where: str, field: str, printer: str) -> Mapping[str, float]:
    """:func:`tres_of`, or the error that names ``where``, its ``field`` and the item (a
    text ``printer`` printed: squeue or scontrol).

    Raises:
        InputError: not ``name=count`` items as slurmctld prints them, or a memory that is
            not a whole number of MB (slurmctld counts a job's memory in MB, and prints
            ``1.50G`` for 1536 and ``1000M`` for 1000).
    """
    counts = tres_of(text)
    if counts is not None:
        return counts
    alloc_tres_counts(text, where, field, printer)  # raises, naming the item
    mem = [i.strip() for i in text.split(",") if i.strip().partition("=")[0].lower() == "mem"]
    raise InputError(
        f"{where}: {field} {shown(mem[-1])}: expected a whole number of MB "
        f"(as {printer} prints a job's memory: 1000M, 1.50G)"
    )


class Fields(Protocol):
    """A record's fields (``scontrol show jobs``' reader): a value (None: not in it), and
    where it is (``FILE:LINE``)."""

    def get(self, key: str, default: str | None = None) -> str | None: ...

    def where(self, key: str | None = None) -> str: ...


def refuse_tres(record: Fields) -> NoReturn:
    """Word the TRES text of an ``scontrol show jobs`` record that :func:`charged` could
    not read.

    Raises:
        InputError: always, naming the field's line and its item.
    """
    for key in ("AllocTRES", "ReqTRES", "TRES"):
        text = record.get(key)
        if text is not None and (key != "TRES" or record.get("ReqTRES") is None):
            read_tres(text, record.where(key), key, "scontrol")
    raise AssertionError(f"{record.where()}: a TRES text charged() refused, read_tres() read")


def gres_attributes(tres: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """A job's GRES counts as its ``attributes`` (``{"attributes": {"gres/gpu": 2}}``, or
    ``{}`` with none): the ``gres/`` items of its TRES text, the job's ``tres_req_cnt``
    (its allocation once it runs) that ``_get_tres_factors`` weighs. A GRES not in
    ``AccountingStorageTRES`` is in neither (``TresPerNode`` and squeue's ``%b`` name it,
    but no weight reads it)."""
    gres = {k: int(v) if float(v).is_integer() else v for k, v in tres.items() if k[:5] == "gres/"}
    return {"attributes": gres} if gres else {}


def memory_of(tres: Mapping[str, float]) -> int:
    """A job's memory in MB (a TRES's ``mem``: whole, :func:`tres_of`), 0 if none."""
    return int(tres.get("mem", 0))


def add_finished(
    out: JobDump,
    account: Any,
    user: str,
    tres: Mapping[str, float],
    qos: Any,
    start: float | None,
    end: float | None,
) -> None:
    """Keep a finished job that ran (its charges may explain imported usage)."""
    if not isinstance(account, str) or not account or start is None or end is None:
        return
    billing = tres.get("billing", tres.get("cpu", 0.0))
    if end > start and billing > 0:
        out.finished.append(
            FinishedJob(account, user, billing, qos if isinstance(qos, str) else None, start, end)
        )


def held(obj: dict[str, Any], printed: int | None) -> int | None:
    """A pending job printed with Priority 0 is held (``scontrol hold``, ``sbatch --hold``,
    ``scontrol update priority=0``: slurmctld's "0 means the job is held", which sprio
    leaves out and the scheduler never starts): ``obj`` is made ``"held"``, and the
    priority to compare with what the usage gives (None for a held job: none is)."""
    if printed == 0 and obj.get("status", "idle") == "idle":
        obj["status"] = "held"
        return None
    return printed


def add_job(
    out: JobDump, obj: dict[str, Any], where: str, printed: int | None, tres: Mapping[str, float]
) -> ImportedJob:
    clean = obj if None not in obj.values() else {k: v for k, v in obj.items() if v is not None}
    item = ImportedJob(clean, where, printed_priority=printed)
    item.billing = billing(tres, clean["request_cpus"])
    out.jobs.append(item)
    return item


@functools.lru_cache(maxsize=4096)
def charged(
    both: str | None, requested: str | None, alloc: str | None, cpus: str | None
) -> tuple[Mapping[str, float], int, int | None, float | None] | None:
    """The TRES a job is charged for, its memory in MB, from its TRES texts (None: not in
    the record): 22.05's ``TRES=`` (``both``) is requested and allocated; 23.02 on split it
    into ``ReqTRES=`` and ``AllocTRES=`` (``(null)`` until the job runs); and its
    ``NumCPUs=`` and what it is charged (:func:`billing`) when that is a plain number (else
    None: the job's reader words it). None if a TRES text is unreadable (:func:`refuse_tres`
    words it). A dump repeats a few of these (``scontrol show jobs``'s reader)."""
    alloc, requested = alloc or "", requested or both or ""
    req, tres = tres_of(requested), tres_of(alloc)
    if req is None or tres is None:
        return None
    tres = req if alloc in UNSET else tres
    count = int(cpus) if cpus and cpus.isdecimal() else None
    rate = None if count is None else billing(tres, count)
    return tres, memory_of(tres) or memory_of(req), count, rate


def billing(tres: Mapping[str, float], cpus: int) -> float:
    """What a job is charged for: its TRES's billing, else its CPUs."""
    return tres.get("billing", float(cpus))
