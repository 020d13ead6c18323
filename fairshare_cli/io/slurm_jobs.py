"""``fs sprio --jobs-file``: a queue of plain Slurm job objects decoded straight into records.

:func:`fairshare_cli.core.slurm.jobs.slurm_jobs` checks each job object of a decoded list in
Python (about 4 µs a job). Here msgspec decodes the file into :class:`SprioJob` records and
does the per-field checks of that reader's fast path as it goes: only the fields it takes,
each of the type it takes (no booleans for numbers, no floats for integers), integers within
64 bits and their floors, times within years 1 to 9999, a known status. What is left is
checked over whole columns at C speed: unique ids, and each distinct name (ids are checked
as one joined text) passing the one name rule.

Anything else (a missing file, stdin, a job with other fields, a null, a time as text, a bad
name, a duplicate id, invalid JSON) makes :func:`fast_sprio_jobs` return None, and the
caller reads the file the exact way, whose results and error messages are the users'.
"""

from __future__ import annotations

import mmap
from collections.abc import Collection
from typing import Annotated, Any, BinaryIO, Literal

import msgspec

from fairshare_cli.core.jobs import cluster_proc, split_partitions
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import MAX_NAME_LENGTH
from fairshare_cli.core.slurm.jobs import names_good

#: An id of the lengths a name may have, checked as it is decoded (there are as many ids as
#: jobs; other names are checked once each, after); a longer list of ids (``"1,2"``) steps
#: aside, as the exact reader checks each.
_Id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME_LENGTH)]
_Int = Annotated[int, msgspec.Meta(ge=INT64_MIN, le=INT64_MAX)]
_Count = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX)]
_Time = Annotated[float, msgspec.Meta(ge=TIME_MIN, le=TIME_MAX)]
_NO_ATTRIBUTES: dict[str, Any] = {}


class SprioJob(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The fields of a job that Slurm's priority reads (as :class:`SlurmJob` has them)."""

    id: _Id
    owner: str
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    status: Literal["idle", "running", "held", "completed", "removed"] = "idle"
    submit_time: _Time | None = None
    accrue_time: _Time | None = None
    #: Seconds, or a Slurm time string (``"INFINITE"``, ``"1-00:00:00"``) read after decoding.
    time_limit: Annotated[float, msgspec.Meta(ge=0.0)] | str | None = None
    num_nodes: Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)] = 1
    request_cpus: _Count = 1
    request_memory: _Count = 0
    site_factor: _Int = 0
    nice: _Int = 0
    admin_priority: _Int | None = None
    #: Read and checked as the exact reader does, though priority never uses them (``fs
    #: import squeue`` stores them).
    eligible_time: _Time | None = None
    start_time: _Time | None = None

    @property
    def attributes(self) -> dict[str, Any]:
        """No attributes: a job with some is read the exact way."""
        return _NO_ATTRIBUTES

    @property
    def partitions(self) -> tuple[str, ...]:
        """The partitions the job may run in (``"batch,express"`` lists two)."""
        return split_partitions(self.partition)

    @property
    def cluster_proc(self) -> tuple[int, int]:
        """(cluster, proc) from an id like ``12.3``; non-numeric ids sort last."""
        return cluster_proc(self.id)


_DECODER = msgspec.json.Decoder(list[SprioJob])


def fast_sprio_jobs(path: str) -> list[SprioJob] | None:
    """The jobs of a jobs file of plain Slurm job objects, or None (read it the exact way).

    A measured hot path (``benchmarks/run.py --rows sprio``).
    """
    if path == "-":
        return None
    try:
        with open(path, "rb") as fh:
            jobs = _decoded(fh)
    except (OSError, ValueError, RecursionError):  # msgspec's errors are ValueErrors
        return None
    return jobs if _columns_good(jobs) else None


def _decoded(fh: BinaryIO) -> list[SprioJob]:
    """The file's jobs, decoded from its pages as the system caches them (mapped, not
    copied: some 10 ms less for a 16 MB file); a file that cannot be mapped (empty, a
    pipe) is read."""
    try:
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return _DECODER.decode(fh.read())
    with data:
        return _DECODER.decode(data)


def fast_sprio_objects(objs: Any) -> list[SprioJob] | None:
    """The jobs of an already decoded list of plain Slurm job objects (the state's queue,
    as ``fs submit`` and ``fs import squeue`` store it), checked as :func:`fast_sprio_jobs`
    checks a file's, or None (read them the exact way)."""
    if type(objs) is not list:
        return None
    try:
        jobs = msgspec.convert(objs, list[SprioJob], strict=True)
    except (msgspec.ValidationError, RecursionError):
        return None
    return jobs if _columns_good(jobs) else None


def _columns_good(jobs: list[SprioJob]) -> bool:
    """The checks left after decoding, over whole columns: unique ids, every id and name
    passing the name rule, every time limit given as text a Slurm time string (each job's
    then set to its seconds).

    A measured hot loop (``benchmarks/run.py --rows sprio``): the columns are gathered in
    one pass (a field read in the loop costs less than a pass of ``attrgetter``).
    """
    ids: list[str] = []
    owners: set[str] = set()
    accounts: set[str | None] = set()
    partitions: set[str | None] = set()
    qoses: set[str | None] = set()
    limits: set[Any] = set()
    for job in jobs:
        ids.append(job.id)
        owners.add(job.owner)
        accounts.add(job.account)
        partitions.add(job.partition)
        qoses.add(job.qos)
        limits.add(job.time_limit)
    if not _time_limits_read(jobs, limits):
        return False
    if len(set(ids)) != len(ids) or not _all_good(ids, sized=True):
        return False
    for names in (owners, accounts, partitions, qoses):
        names.discard(None)
        if not _all_good(names):  # type: ignore[arg-type]
            return False
    return True


def _all_good(names: Collection[str], sized: bool = False) -> bool:
    """Whether every name passes the name rule, checked on the names' joined text (C
    speed): printable without spaces (so without blanks or control characters), no ``@``
    nor ``,``, none empty nor too long (``sized``: as the decoder checked them). Any other
    set is checked one by one."""
    if not names:
        return True
    joined = "".join(names)
    if (
        joined.isprintable()
        and " " not in joined
        and "@" not in joined
        and "," not in joined
        and (sized or (min(map(len, names)) > 0 and max(map(len, names)) <= MAX_NAME_LENGTH))
    ):
        return True
    return names_good(names)


def _time_limits_read(jobs: list[SprioJob], limits: set[Any]) -> bool:
    """Set each time limit given as text (``limits``: the distinct ones) to its seconds
    (each text read once, as the exact reader reads it); False when one is not a Slurm
    time string."""
    texts = [t for t in limits if type(t) is str]
    if not texts:
        return True
    from fairshare_cli.core.timestr import TimeStringError, time_str2secs

    try:
        seconds = {text: time_str2secs(text) for text in texts}
    except TimeStringError:
        return False
    for job in jobs:
        if type(job.time_limit) is str:
            job.time_limit = seconds[job.time_limit]
    return True
