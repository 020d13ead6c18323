"""What the pieces of a jobs file have taken so far: ids, the slots of running jobs and the
clusters of ``count`` objects (the reader's checks across pieces, ``io/jobs.py``).

A duplicate id, a slot running two jobs, or a job of a ``count`` object's cluster written
apart from it is not taken: the exact reader then reads the file and words the refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain, islice
from operator import attrgetter, le, lt, or_
from typing import Any

import msgspec

_COUNT, _SLOT = attrgetter("count"), attrgetter("slot")


def single_jobs(jobs: list[Any], one: Any = 1) -> bool:
    """Whether each record is one job: a ``count`` of ``one``, or none held (sprio's)."""
    held = bool(jobs) and "count" in type(jobs[0]).__struct_fields__
    return not held or list(map(_COUNT, jobs)).count(one) == len(jobs)


def ascending(ids: Sequence[str], after: str) -> bool:
    """Whether each id comes after the one before it, the first after ``after`` (``""``:
    none), as plain numbers do: by length, then by text. Then no two are equal; told in C."""
    if not ids:
        return True
    first = ids[0]
    if len(first) < len(after) or (len(first) == len(after) and first <= after):
        return False
    lengths = list(map(len, ids))
    if lengths.count(lengths[0]) == len(lengths):  # (one length: by text alone)
        return all(map(lt, ids, islice(ids, 1, None)))
    longer = map(lt, lengths, islice(lengths, 1, None))
    return all(map(le, lengths, islice(lengths, 1, None))) and all(
        map(or_, longer, map(lt, ids, islice(ids, 1, None)))
    )


def canonical_numbers(ids: list[str]) -> bool:
    """Whether every id is a number written plainly (ASCII digits, the first not 0; none
    empty): then ids each after the one before (as
    :meth:`~fairshare_cli.core.slurm.priority_table.TableBuilder.add` tells) are in
    the order of their numbers (a longer one is larger)."""
    text = "\n" + "\n".join(ids) + "\n"  # (one pass over the ids: they are many)
    if "\n0" in text or "\n\n" in text or text.count("\n") != len(ids) + 1:
        return not ids
    if not text.isascii():
        return False
    return text.encode().translate(None, b"\n").isdigit()


class TakenIds:
    """The ids, slots and ``count`` clusters of the pieces read so far.

    While the ids are :func:`ascending` (a queue listed by job id), none can be taken twice
    and no set of them is made: for 100,000 ids, a set costs ``fs sprio`` 4 % of its CPU
    (each id's hash, and a table out of the CPU's cache for the rest of the reading).
    """

    def __init__(self, record: type, status: Callable[[Any], Any] = attrgetter("status")) -> None:
        """For records of type ``record``; ``status`` reads a record's status (its raw text
        decoded, where the record holds it raw)."""
        raw: tuple[str, ...] = getattr(record, "raw_fields", ())
        self.one: Any = msgspec.Raw(b"1") if "count" in raw else 1  # a single job's count
        self.status = status
        self.ids: set[str] | None = None  # (None: ascending so far, each piece's in ``runs``)
        self.runs: list[list[str]] = []
        self.last = ""  # the last id, while ascending
        self.slots: set[str] = set()
        self.clusters: set[str] | None = None  # of every id, once a count object is read
        self.stanzas: set[str] = set()  # of the count objects

    def take(self, jobs: list[Any], ids: list[str], skip: frozenset[str] = frozenset()) -> bool:
        """Take the ids (``ids``) and slots of ``jobs`` (``skip``: their record holds no
        slot); False for a duplicate id or slot, or a ``count`` object sharing a cluster."""
        if self.ids is None and ascending(ids, self.last):
            self.runs.append(ids)
            self.last = ids[-1] if ids else self.last
        else:
            taken = self._every_id()
            before = len(taken)
            taken.update(ids)
            if len(taken) != before + len(jobs):
                return False
        if (self.clusters is not None or not single_jobs(jobs, self.one)) and not self._clusters(
            jobs
        ):
            return False
        return "slot" in skip or set(map(_SLOT, jobs)) == {None} or self._slots(jobs)

    def _every_id(self) -> set[str]:
        """Every id taken so far as a set (made once, from the ascending pieces' ids)."""
        if self.ids is None:
            self.ids = set(chain.from_iterable(self.runs))
            self.runs = []
        return self.ids

    def _slots(self, jobs: list[Any]) -> bool:
        status = self.status
        running = [job for job in jobs if job.slot is not None and status(job) == "running"]
        if not running:
            return True
        before = len(self.slots)  # (a count object's jobs on one slot: the exact reader's)
        self.slots.update(map(_SLOT, running))
        return len(self.slots) == before + len(running) and single_jobs(running, self.one)

    def _clusters(self, jobs: list[Any]) -> bool:
        if self.clusters is None:
            new = {job.id for job in jobs}
            self.clusters = {i.split(".", 1)[0] for i in self._every_id() - new}
        for job in jobs:
            cluster = job.id.split(".", 1)[0]
            if cluster in self.stanzas:  # a job after a count object of its cluster
                return False
            if job.count != self.one:
                if cluster in self.clusters:
                    return False
                self.stanzas.add(cluster)
            self.clusters.add(cluster)
        return True
