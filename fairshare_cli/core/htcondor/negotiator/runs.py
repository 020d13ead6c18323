"""A submitter's idle jobs in job order, as runs: consecutive jobs of one autocluster (and
one cluster, in the 7.x ``legacy`` profile), which a turn matches or skips as one.

A queue read as :class:`~fairshare_cli.core.batches.IdBatch` groups (``io/job_groups.py``)
is put in job order in C (:func:`ordered_runs`): each group's procs read to numbers at
once and the groups of one job-order prefix merged by proc. Its runs are then made as the
pie reaches them (:class:`RunList`): a million-job queue whose submitters stop at their
limits after a few runs never makes the others, which the cycle reports unmatched as they
stand, in one piece per submitter (:meth:`RunList.rest`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, compress, islice, repeat
from operator import ne
from typing import Any

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.jobs import Job


class Run:
    """Consecutive jobs of one submitter with the same autocluster (and cluster in legacy);
    ``ac`` is their :class:`~fairshare_cli.core.htcondor.negotiator.queue.AutoCluster`."""

    __slots__ = (
        "ac",
        "batches",
        "bi",
        "first",
        "handed",
        "left",
        "off",
        "reason",
        "reoffers",
        "skip_key",
    )

    def __init__(self, ac: Any, skip_key: object, batch: JobBatch) -> None:
        self.ac = ac
        self.skip_key = skip_key
        self.batches = [batch]
        self.bi = 0
        self.off = 0
        self.left = batch.count
        self.reason: str | None = None
        #: (batch index, cluster, first proc) of the batch ``head_id`` last named
        self.first: tuple[int, str, int] | None = None
        #: ``NEGOTIATOR_DEPTH_FIRST``: offers of the request beyond its jobs left (a match
        #: that counted none), and the ids its matches left to the schedd, in order
        self.reoffers = 0
        self.handed: list[str] | None = None

    def add(self, batch: JobBatch) -> None:
        """Append a batch of the same autocluster."""
        self.batches.append(batch)
        self.left += batch.count

    def head_id(self) -> str:
        """The id of the next job to negotiate (:meth:`JobBatch.job_id`)."""
        batch = self.batches[self.bi]
        if type(batch) is IdBatch:
            return batch.ids[self.off]
        if batch.count == 1:
            return batch.job.id
        if self.first is None or self.first[0] != self.bi:  # the batch's cluster, once
            cluster, _, proc = batch.job.id.partition(".")
            self.first = (self.bi, cluster, int(proc) if proc.isdigit() else 0)
        return f"{self.first[1]}.{self.first[2] + self.off}"

    def advance(self) -> None:
        """The head job matched: move to the next one."""
        self.off += 1
        self.left -= 1
        if self.off >= self.batches[self.bi].count:
            self.bi += 1
            self.off = 0

    def take(self, n: int) -> list[str]:
        """The ids of the next ``n`` jobs (at most :attr:`left`), which matched: the run
        moves past them (as ``n`` times :meth:`head_id` then :meth:`advance`)."""
        ids: list[str] = []
        while n > 0:
            batch = self.batches[self.bi]
            k = min(n, batch.count - self.off)
            if type(batch) is IdBatch:
                ids += batch.ids[self.off : self.off + k]
            elif batch.count == 1:
                ids.append(batch.job.id)
            else:
                self.head_id()  # the batch's cluster and first proc, in self.first
                assert self.first is not None
                cluster, start = self.first[1], self.first[2] + self.off
                ids.extend([f"{cluster}.{p}" for p in range(start, start + k)])
            n -= k
            self.left -= k
            self.off += k
            if self.off >= batch.count:
                self.bi += 1
                self.off = 0
        return ids

    def segments(self) -> list[tuple[JobBatch, int]]:
        """The jobs not yet matched, as (batch, first index) segments."""
        out = [(self.batches[self.bi], self.off)] if self.left else []
        out.extend((b, 0) for b in self.batches[self.bi + 1 :])
        return out

    def holds(self, job_id: str) -> bool:
        """Whether ``job_id`` is among the jobs not yet matched."""
        return any(b.holds(job_id, start) for b, start in self.segments())


class RunList(list[Run]):
    """A submitter's runs, made as they are reached: iterating goes on past the runs made
    so far, making the next (the list grows as it is read).

    The queue is ``ids`` in job order, run ``k`` of it ``ids[bounds[k]:bounds[k + 1]]``;
    ``tags[i]`` names the entry (autocluster, skip key, a job of the run) of ``ids[i]``.
    ``skip_key`` is the one skip key of every run (None: they have several); ``reason``
    is the reason of the runs not made (a turn passed them over, see :func:`turn_runs`).
    """

    __slots__ = ("bounds", "entries", "ids", "reason", "skip_key", "tags")

    def __init__(
        self,
        ids: list[str],
        tags: list[int],
        bounds: list[int],
        entries: Sequence[tuple[Any, object, JobBatch]],
    ) -> None:
        super().__init__()
        self.ids = ids
        self.tags = tags
        self.bounds = bounds
        self.entries = entries
        skip_keys = {skip for _, skip, _ in entries}
        self.skip_key = skip_keys.pop() if len(skip_keys) == 1 else None
        self.reason: str | None = None

    def __iter__(self) -> Iterator[Run]:
        i = 0
        while i < len(self) or self._make():
            yield self[i]
            i += 1

    def _make(self) -> bool:
        """Make the next run (False: every run is made)."""
        k = len(self)
        if k + 1 >= len(self.bounds):
            return False
        self.append(self._run(self.bounds[k], self.bounds[k + 1]))
        return True

    def _run(self, start: int, end: int) -> Run:
        ac, skip_key, batch = self.entries[self.tags[start]]
        run = Run(ac, skip_key, IdBatch(batch.job, end - start, self.ids[start:end]))
        run.reason = self.reason
        return run

    def rest(self) -> Run | None:
        """The jobs of the runs not made, as one run (None: every run is made); their
        order and ids are the runs', their reason :attr:`reason`."""
        start = self.bounds[len(self)] if len(self) + 1 < len(self.bounds) else None
        return None if start is None else self._run(start, len(self.ids))

    def turn(self, rejected: Mapping[object, str]) -> Iterator[Run]:
        """:func:`turn_runs` of these runs: once the one skip key is rejected, the runs
        not made are passed over at once."""
        i = 0
        while i < len(self) or (self.skip_key not in rejected and self._make()):
            run = self[i]
            i += 1
            if _negotiated(run, rejected):
                yield run
        if i + 1 < len(self.bounds):  # (a skip key None is never rejected)
            self.reason = rejected[self.skip_key]


def turn_runs(runs: Iterable[Run], rejected: Mapping[object, str]) -> Iterator[Run]:
    """The runs a turn negotiates, in order (``Matchmaker::negotiate``'s job loop): those
    with jobs left, but for those whose skip key (their cluster in legacy, else their
    autocluster) ``rejected`` holds, which take its reason and are passed over (as the
    negotiator rejects the rest of a rejected cluster or autocluster without a search)."""
    if isinstance(runs, RunList):
        yield from runs.turn(rejected)
        return
    for run in runs:
        if _negotiated(run, rejected):
            yield run


def _negotiated(run: Run, rejected: Mapping[object, str]) -> bool:
    """Whether a turn negotiates ``run``: it has jobs left and its skip key is not
    rejected (then it takes the rejection's reason)."""
    if not run.left:
        return False
    if run.skip_key in rejected:
        run.reason = rejected[run.skip_key]
        return False
    return True


def ordered_runs(
    queued: Sequence[tuple[Any, JobBatch]],
    legacy: bool,
    order_key: Callable[[Job, bool], tuple[object, ...]],
) -> RunList | None:
    """A submitter's idle batches (with their autoclusters) in job order, as runs made on
    demand; None unless every batch is an :class:`IdBatch` of whole-number ids ``C.P``
    (the caller orders the others job by job).

    The job order is ``order_key``'s (``queue.order_key``):
    a batch's jobs share every part of the key but the proc (its ``prefix``), so batches
    are put in the order of their prefixes and the procs of one prefix merged. A run
    breaks where the autocluster (and in legacy the cluster, the skip key) changes.
    """
    blocks: dict[tuple[object, ...], list[int]] = {}
    for tag, (_, batch) in enumerate(queued):
        if type(batch) is not IdBatch:
            return None
        blocks.setdefault(order_key(batch.job, legacy)[:-2], []).append(tag)
    ids: list[str] = []
    tags: list[int] = []
    for prefix in sorted(blocks):
        block = blocks[prefix]
        ordered = _in_proc_order([queued[t][1] for t in block], block)  # type: ignore[misc]
        if ordered is None:
            return None
        ids += ordered[0]
        tags += ordered[1]
    # one number per (autocluster, skip key): a run breaks where it changes
    keys: dict[tuple[object, object], int] = {}
    entries = []
    for ac, batch in queued:
        skip_key = int(batch.job.id.partition(".")[0]) if legacy else ac.index
        entries.append((ac, skip_key, batch))
        keys.setdefault((ac, skip_key), len(keys))
    run_of = [keys[ac, skip] for ac, skip, _ in entries]
    marks = list(map(run_of.__getitem__, tags))
    bounds = [0, *compress(range(1, len(marks)), map(ne, islice(marks, 1, None), marks))]
    bounds.append(len(ids))
    return RunList(ids, tags, bounds, entries)


def _in_proc_order(batches: list[IdBatch], tags: list[int]) -> tuple[list[str], list[int]] | None:
    """The ids of batches of one cluster ``C`` in proc order, with the tag of each id's
    batch; None unless every id is ``C.P``, ``C`` and ``P`` ASCII digits, ``P`` without a
    leading zero (``0`` itself but ``00`` or ``07`` not).

    In C: ids of one cluster whose procs have no leading zero are in proc order when in
    order of length, then of text (a sort by text, then a stable sort by length). The
    checks read the sorted ids: the ids starting with a text are a span of them in order
    of text (the first and last start with ``C.`` only if every one does; those starting
    with ``C.0`` lie between ``C.0`` and ``C.1``), and the shortest comes first by length.
    """
    prefix = batches[0].job.id.partition(".")[0] + "."
    every = list(chain.from_iterable(b.ids for b in batches))
    joined = "".join(every)
    digits = joined.replace(".", "")
    ordered = sorted(every)
    zero = prefix + "0"
    first_zero = bisect_left(ordered, zero)
    zeros = bisect_left(ordered, prefix + "1", first_zero) - first_zero
    if not (
        len(prefix) > 1
        and ordered[0].startswith(prefix)
        and ordered[-1].startswith(prefix)
        and len(joined) - len(digits) == len(every)
        and digits.isdigit()
        and digits.isascii()
        and (zeros == 0 or (zeros == 1 and ordered[first_zero] == zero))
    ):
        return None
    ordered.sort(key=len)
    if len(ordered[0]) <= len(prefix):
        return None
    if len(batches) == 1:
        return ordered, [tags[0]] * len(ordered)
    each = chain.from_iterable(repeat(t, len(b.ids)) for b, t in zip(batches, tags, strict=True))
    tag_of = dict(zip(every, each, strict=True))
    return ordered, list(map(tag_of.__getitem__, ordered))
