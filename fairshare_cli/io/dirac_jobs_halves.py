"""``fs taskqueues --jobs-file``: a large file's keys read in two halves, the second by a
forked child (:mod:`fairshare_cli.io.forked_half`) while the process reads the first.

The file is cut between two job objects (:mod:`fairshare_cli.io.json_halves`); each
process passes over its half as :func:`~fairshare_cli.io.dirac_jobs.scan_job_keys` passes
over a whole file (each job checked, its key counted), and the child sends what it
gathered: its keys' counts in order of first sight, its ids, its ``count`` stanzas, the
slots its running jobs hold. Merged after the first half's, they are what one pass over
the whole file gathers (keys first seen in the second half come after the first half's),
and the file's keys follow from them as from that pass (:func:`job_keys`: ids checked
across the halves). Anything a half refuses, or two running jobs on one slot across the
halves, and the caller reads the file the usual way, whose results and messages are the
users'.

A measured hot path (``benchmarks/run.py --rows taskqueues``).
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from typing import Any

from fairshare_cli.io import forked_half
from fairshare_cli.io.dirac_jobs import DiracJobKeys, KeyScan, job_keys, scan_job_keys
from fairshare_cli.io.dirac_jobs_window import FastPathRefused
from fairshare_cli.io.json_halves import HalfReader, comma_in_file

#: Files below this size (some 30,000 jobs) are read by one process.
MIN_BYTES = 8 << 20

#: The share of the file the process reads itself: a little more than half, as the child
#: also packs what it gathered and sends it.
FIRST_SHARE = 0.55


def keys_in_halves(path: str, min_bytes: int | None = None) -> DiracJobKeys | None:
    """The keys of the jobs file ``path`` read in two halves, or None: not a regular file
    of ``min_bytes`` (:data:`MIN_BYTES`) or more, no second CPU, no cut found, or either
    half refused (then the caller reads the file the usual way)."""
    least = MIN_BYTES if min_bytes is None else min_bytes
    with open(path, "rb") as fh:
        fd = fh.fileno()
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size < least or not forked_half.can_fork():
            return None
        comma = comma_in_file(fd, info.st_size, FIRST_SHARE)
        if comma is None:
            return None
        size = info.st_size
        half = forked_half.fork_half(lambda: _second_half(fd, size, comma), None)
        if half is None:
            return None
        with half:
            try:
                first = scan_job_keys(HalfReader(fd, size, comma, first=True))  # type: ignore[arg-type]
            except (FastPathRefused, OSError, ValueError, TypeError):
                return None
            second = half.report()
    if second is None:
        return None
    try:
        merged, ids_checked = _merged(first, second)
        return job_keys(merged, ids_checked)
    except FastPathRefused:
        return None


def _second_half(fd: int, size: int, comma: int) -> forked_half.Made:
    """The child's work: its half's scan, packed; nothing to write."""
    try:
        scan = scan_job_keys(HalfReader(fd, size, comma, first=False))  # type: ignore[arg-type]
    except (FastPathRefused, OSError, ValueError, TypeError):
        return None
    if len(scan.ids) != scan.jobs:  # (a duplicate id: the usual way names it)
        return None
    packed = (dict(scan.counts), "\n".join(scan.ids), scan.jobs, scan.stanzas, scan.taken)
    return packed, (), _nothing


def _nothing(text: Any) -> None:
    """What the child writes: nothing (its scan went in its report)."""


def _merged(first: KeyScan, packed: Any) -> tuple[KeyScan, bool]:
    """The first half's scan with the second's (as :func:`_second_half` packs it, its ids
    unique) after it, and whether its ids are checked already: without ``count`` stanzas,
    the halves' ids are checked here (each half's unique, none in both) and not gathered
    into one set.

    Raises:
        FastPathRefused: a slot held by running jobs of both halves, an id in both.
    """
    counts, ids_text, jobs, stanzas, taken = packed
    if not first.taken.isdisjoint(taken):
        raise FastPathRefused("slot")
    merged: Counter[bytes] = first.counts
    merged.update(counts)  # (keys new to the first half after its own, in their order)
    ids = ids_text.split("\n")
    checked = not (first.stanzas or stanzas)
    if checked:
        if len(first.ids) != first.jobs or not first.ids.isdisjoint(ids):
            raise FastPathRefused("duplicate job ids")
    else:  # (stanzas' ids are checked against every id: one set)
        first.ids.update(ids)
    return KeyScan(
        merged,
        first.ids,
        first.jobs + jobs,
        [*first.stanzas, *stanzas],
        first.taken | taken,
        {},
        None,
    ), checked
