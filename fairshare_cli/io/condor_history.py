"""The reader of ``condor_history -json`` or ``-long`` output (``fs import condor-history``):
job ads streamed into :class:`~fairshare_cli.core.usage.UsageRecord`, one ad at a time."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import IO, Any

from fairshare_cli.core.limits import TIME_MAX
from fairshare_cli.core.names import json_shown
from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import EmptyInput, InputError
from fairshare_cli.io.importers.classad_dumps import (
    Expr,
    iter_ads,
    open_dump,
    other_dump,
    refuse_nonfinite,
)

#: The job attributes a usage record is made of (``record_from_condor_ad``).
HISTORY_ATTRS = (
    "JobCurrentStartDate",
    "JobStartDate",
    "CompletionDate",
    "EnteredCurrentStatus",
    "User",
    "Owner",
    "AccountingGroup",
    "NiceUser",
    "JobStatus",
    "RequestCpus",
)


#: The time attributes of :data:`HISTORY_ATTRS`: epoch seconds (``time_t``), 0 when unset.
_TIMES = ("JobCurrentStartDate", "JobStartDate", "CompletionDate", "EnteredCurrentStatus")
_TIMES_SET = frozenset(_TIMES)
#: The ``JobStatus`` values of a job still in the queue, which a history never holds.
_QUEUED_NAMES = {1: "idle", 2: "running", 5: "held", 6: "transferring output", 7: "suspended"}
_QUEUED = frozenset(_QUEUED_NAMES)
_NUMBERS = (int, float)


class _Counted:
    """A text stream that reports the fraction of ``size`` read so far."""

    def __init__(self, fh: IO[str], size: int, report: Callable[[float], None]) -> None:
        self.fh, self.size, self.report, self.done = fh, max(size, 1), report, 0

    def read(self, n: int = -1) -> str:
        data = self.fh.read(n)
        self.done += len(data)
        self.report(self.done / self.size)
        return data

    def readline(self) -> str:
        line = self.fh.readline()
        self.done += len(line)
        return line

    def __iter__(self) -> Iterator[str]:
        for line in self.fh:
            self.done += len(line)
            yield line


def read_condor_history(
    path: str,
    label: str | None = None,
    progress: Callable[[float], None] | None = None,
    lines: list[int] | None = None,
) -> Iterator[UsageRecord]:
    """Records from ``condor_history -json`` or ``-long`` output, streamed ad by ad (the
    line each record's ad starts on appended to ``lines``, when given).

    Memory stays flat however long the file: ads are read one at a time (JSON in chunks).
    An attribute that is an expression rather than a value counts as absent, except a real
    that is not finite (``real("INF")``): refused.

    Raises:
        InputError: ``FILE:LINE`` of the first malformed line or ad, or no ad at all.
    """
    from fairshare_cli.core.htcondor.replay import record_from_condor_ad

    name = label or path
    line = 0
    note: Callable[[int], object] = _unnoted if lines is None else lines.append
    with open_dump(path) as fh:
        stream: Any = fh if progress is None else _Counted(fh, _size(path), progress)
        for line, ad in iter_ads(stream, name, False, "condor_history -json or -long output"):
            # (the hot loop of benchmarks/make_condor_history.py's 1 GB file: no calls)
            get = ad.get
            if "Owner" not in ad and "User" not in ad:  # (a slot ad, a jobs file)
                raise InputError(
                    f"{name}:{line}: expected a job ad (with Owner or User)"
                    + (other_dump(ad, "job") or "; is this condor_history -json or -long output?")
                )
            picked = {}
            for key in HISTORY_ATTRS:
                v = get(key)
                if v is None:
                    continue
                if v.__class__ is Expr or (v.__class__ is str and v.startswith("/Expr(")):
                    _refuse_nonfinite(ad, key, v, f"{name}:{line}")
                    continue
                picked[key] = v
            for key in _TIMES:  # epoch seconds of a real date, or 0 (not yet)
                v = picked.get(key)
                if v is not None and v.__class__ in _NUMBERS and not 0 <= v <= TIME_MAX:
                    raise InputError(
                        f"{name}:{line}: {key}: expected epoch seconds between 0 and "
                        f"{TIME_MAX:.0f} (the year 9999), got {json_shown(v)}"
                    )
            if "JobStatus" not in picked and not picked.keys() & _TIMES_SET:
                raise InputError(  # (an ad of another kind that names an Owner)
                    f"{name}:{line}: expected a job ad (with JobStatus, JobCurrentStartDate, "
                    "CompletionDate or EnteredCurrentStatus); is this condor_history -json "
                    "or -long output?"
                )
            status = picked.get("JobStatus")
            if status.__class__ is int and status in _QUEUED:  # (a list: no status, unhashed)
                _refuse_a_queued_ad(ad, name, line)
            rec = record_from_condor_ad(picked, f"{name}:{line}")
            if rec is not None:
                note(line)
                yield rec
    if not line and not _json_list(path):  # (no ad: a capture that failed)
        raise EmptyInput(f"{name}: no job ads; expected condor_history -json or -long output")


def _unnoted(line: int) -> None:
    """A record's line where no one asked for it."""


def _refuse_nonfinite(ad: Any, key: str, value: Any, where: str) -> None:
    """Refuse ``real("NaN")``, ``real("INF")`` or ``real("-INF")`` as ``key``: a number
    HTCondor holds but no usage can be counted from; any other expression counts as absent.

    Raises:
        InputError: naming ``where``, the job and ``key``.
    """
    job = f"job {ad.get('ClusterId')}.{ad.get('ProcId')}" if "ClusterId" in ad else "the job"
    refuse_nonfinite(where, job, key, value)


def _json_list(path: str) -> bool:
    """Whether ``path``, read whole and holding no ad, is a JSON list: ``condor_history
    -json`` prints ``[`` and ``]`` round its ads even when no job matched (``printHeader``,
    ``printFooter``), a history of no work; an empty file is a capture that failed."""
    if path == "-":  # (read once; fs import condor-history spools stdin to a file first)
        return False
    with open_dump(path) as fh:
        return fh.read(4096).lstrip()[:1] == "["


def _refuse_a_queued_ad(ad: Any, name: str, line: int) -> None:
    """Refuse a job ad still in the queue: a history holds none.

    A job leaves the schedd's queue for its history only as completed (4) or removed (3)
    (``DestroyProc`` refuses any other ``JobStatus``), and the startd's history records the
    same two; ``condor_q`` lists idle, running, held, ... jobs (and, with ``leave_in_queue``,
    completed ones that have not left yet), whose running ones ``fs import condor-q`` brings
    in as claims. Charged here as open usage as well, they would count twice; and a
    completed job still in the queue would count again when it reaches the history.
    """
    status = ad.get("JobStatus")
    job = f"job {ad.get('ClusterId')}.{ad.get('ProcId')}" if "ClusterId" in ad else "the job"
    raise InputError(
        f"{name}:{line}: {job} is still in the queue (JobStatus {status}, "
        f"{_QUEUED_NAMES[status]}); a history holds only jobs that left it, completed (4) or "
        "removed (3); is this condor_q output? use fs import condor-q for the queue"
    )


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
