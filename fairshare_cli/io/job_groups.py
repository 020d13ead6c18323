"""A jobs file read as the negotiator groups it: jobs identical but for their ids, by cluster.

``fs negotiate`` and ``fs quota`` read a queue whose jobs HTCondor puts in autoclusters:
jobs of one submitter that agree on every attribute an expression reads. The reader
(:func:`~fairshare_cli.io.jobs.read_jobs`) decodes each piece of the file into records of
the fields such jobs usually write (:data:`USUAL`), and each piece's records are grouped
in C by their values but the id: jobs of one cluster with the same values are one
:class:`~fairshare_cli.core.batches.IdBatch` holding their ids in file order, so a million
separate job objects in a few autoclusters come out as a few batches per submitter. A
``count`` object stays one :class:`~fairshare_cli.core.batches.JobBatch` of its count.
Batches come in the order of their first job in the file.
"""

from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Mapping
from functools import cache
from itertools import islice
from operator import attrgetter, itemgetter
from typing import Any

from msgspec.structs import astuple, replace

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.job_fields import check_job_field
from fairshare_cli.core.jobs import Job
from fairshare_cli.io.job_records import raw_job_record
from fairshare_cli.io.jobs import read_jobs

#: The fields an HTCondor job usually writes, in the order the record looks for them (a
#: piece with any other field is read into a record of every field: slower, the same jobs).
USUAL = (
    "id",
    "owner",
    "request_memory",
    "requirements",
    "submit_time",
    "job_prio",
    "request_cpus",
    "status",
    "rank",
    "accounting_group",
    "nice_user",
    "concurrency_limits",
    "slot",
    "start_time",
    "count",
)
_ID, _COUNT = attrgetter("id"), attrgetter("count")
_BUT_ID = itemgetter(slice(1, None))
_TIMES = ("submit_time", "eligible_time", "accrue_time", "start_time")


class JobGroups:
    """A sink grouping each piece's records (see the module); :meth:`finish` gives the
    batches."""

    def __init__(self) -> None:
        #: the record's values but its id -> ids; a count object's key is (None, its id)
        self.groups: defaultdict[tuple[Any, ...], list[str]] = defaultdict(list)
        #: a record of each group read one at a time (the others' values are their key)
        self.records: dict[tuple[Any, ...], Any] = {}
        self.counts: dict[tuple[Any, ...], JobBatch] = {}
        self.fields: tuple[str, ...] = ()  # of the records grouped at once, but the id

    def add(self, records: list[Any]) -> None:
        """Group ``records``: :meth:`group`, else a record at a time (:meth:`_one_by_one`)."""
        if records and self.group(records) is None:
            self._one_by_one(records, list(map(_ID, records)))

    def group(self, records: list[Any]) -> list[Any] | None:
        """Group ``records`` of the usual fields, none a count object (hot:
        ``benchmarks/run.py`` row ``negotiate-separate``; each step a map in C): the values
        first seen here, as rows of the record's fields but the id (the reader checks
        those, not every record); None, grouping nothing, for other records."""
        if not records:
            return []
        fields = type(records[0]).__struct_fields__
        counts = list(map(_COUNT, records))
        if fields[0] != "id" or "attributes" in fields or counts.count(1) != len(counts):
            return None
        self.fields = fields[1:]
        groups = self.groups
        before = len(groups)
        # each id appended to its key's list, the loop in C (append gives None: any reads on)
        lists = map(groups.__getitem__, map(_BUT_ID, map(astuple, records)))
        any(map(list.append, lists, map(_ID, records)))
        new = list(islice(reversed(groups), len(groups) - before))  # keys come in order
        return list(map(_row_type(self.fields)._make, new))

    def _one_by_one(self, records: list[Any], ids: list[str]) -> None:
        """Records a record at a time: a count object on its own, the others grouped by
        their values (a record whose values have no hash is a group of its own). A record
        of the :data:`USUAL` fields holds one type a field, so its values are its key, as
        :meth:`group` keys them; another record's values are told apart as the exact
        parser keeps them (:func:`_apart`)."""
        groups = self.groups
        alike = not records or type(records[0]).__struct_fields__ == USUAL
        for record, job_id in zip(records, ids, strict=True):
            if record.count != 1:
                key: tuple[Any, ...] = (None, job_id)
                job = replace(_job(_values(record), job_id.partition(".")[0] + ".0"), count=1)
                self.counts[key] = JobBatch(job, record.count)
            else:
                values = _BUT_ID(astuple(record))
                key = values if alike else tuple(map(_apart, values))
                try:
                    self.records.setdefault(key, record)
                except TypeError:  # a list in a mapping: a group of its own
                    key = (None, job_id)
                    self.records[key] = record
            groups[key].append(job_id)

    def finish(self) -> list[JobBatch]:
        """The batches, groups in the order of their first job; a group whose jobs are of
        several clusters is a batch per cluster."""
        out: list[JobBatch] = []
        for key, ids in self.groups.items():
            batch = self.counts.get(key)
            if batch is not None:
                out.append(batch)
                continue
            record = self.records.get(key)
            values = dict(zip(self.fields, key, strict=True)) if record is None else _values(record)
            prefix = ids[0].partition(".")[0] + "."
            # the texts starting with prefix are a span in order of text: the least and the
            # greatest id start with it only if every id does
            if min(ids).startswith(prefix) and max(ids).startswith(prefix):
                out.append(IdBatch(_job(values, ids[0]), len(ids), ids))
                continue
            clusters: dict[str, list[str]] = {}
            for job_id in ids:
                clusters.setdefault(job_id.partition(".")[0], []).append(job_id)
            out += [IdBatch(_job(values, same[0]), len(same), same) for same in clusters.values()]
        return out


def _apart(value: Any) -> Any:
    """A value as part of a group's key, told apart from every value the exact parser
    keeps apart though they compare equal: ``1``, ``1.0`` and ``True``, ``0.0`` and
    ``-0.0`` (a number by its type and text), a mapping by its type and items alike."""
    if isinstance(value, Mapping):
        return (type(value), tuple((k, _apart(v)) for k, v in value.items()))
    if type(value) is float:
        return (float, repr(value))
    return (type(value), value)


@cache
def _row_type(fields: tuple[str, ...]) -> Any:
    """A row of these fields' values, read as a record's are (by attribute)."""
    return namedtuple("Values", fields)


def _values(record: Any) -> dict[str, Any]:
    """A record's fields and values."""
    return dict(zip(record.__struct_fields__, astuple(record), strict=True))


def _job(values: dict[str, Any], job_id: str) -> Job:
    """The job of these values, with id ``job_id`` (its times read to seconds)."""
    values = {**values, "id": job_id}
    for key in _TIMES:
        if type(values.get(key)) is str:
            values[key] = check_job_field(key, values[key], "job")
    return Job(**values)


def load_job_groups(path: str, label: str | None = None) -> list[JobBatch]:
    """The batches of the jobs file ``path`` (``-`` is stdin) as the module describes;
    ``label`` names the file in messages about a job (default: its path, as every reader
    of a jobs file names it).

    Raises:
        InputError: see :func:`~fairshare_cli.io.jobs.read_jobs`.
    """
    name = label or path
    record = raw_job_record((), USUAL)
    sink = read_jobs(path, JobGroups, label=name, source=name, record=record)
    return sink.finish()
