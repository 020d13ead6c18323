"""sprio's rows as columns: :func:`~fairshare_cli.core.slurm.priority.compute_rows` for a
plain queue, without a :class:`PriorityRow` object a row.

A row of ``sprio -l`` is a job in one partition. Almost all of it is shared: by the jobs of
one owner and account (an :class:`AssocShare`), of one partition list, QOS and size (a
:class:`PartShare` a partition). Only the job id, the age factor,
site, nice and the priority differ from job to job. :func:`compute_table`
computes the shares once each and the rest column by column, in sprio's default order (by
job id, ``-S i``), and gives up (None) on anything else: a job with an admin-set priority
or attributes that change its TRES, a job without a submit or accrue time, an id that is not
a plain number, a job the association tree cannot place. The caller then uses
:func:`~fairshare_cli.core.slurm.priority.compute_rows`, whose rows and error messages are
the users'. :meth:`PriorityTable.rows` gives the same rows as that function.

A measured hot path (``benchmarks/run.py --rows sprio,sprio-json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress, count, islice
from operator import attrgetter, itemgetter, lt, not_
from typing import Any

from fairshare_cli.core.slurm.factors import job_user
from fairshare_cli.core.slurm.priority import PriorityContext, PriorityRow, _RowMaker
from fairshare_cli.errors import InputError

#: The job fields its :class:`PartShare` s depend on.
_CLASS_KEY = attrgetter(
    "partition", "qos", "num_nodes", "request_cpus", "request_memory", "time_limit"
)


class AssocShare:
    """What the rows of the jobs of one owner and account share: the user and account
    shown, the ASSOC and fair-share factors and weighted factors."""

    __slots__ = ("account", "b", "c", "f_assoc", "f_fs", "user")

    def __init__(self, user: str, values: tuple[str, float, float, float, float]) -> None:
        """From the user and ``_RowMaker.assoc_values``' tuple."""
        self.user = user
        self.account, self.f_assoc, self.f_fs, self.b, self.c = values


class PartShare:
    """What the rows of the jobs of one partition list, QOS and size share in one of those
    partitions: its name, the QOS shown, the job-size, partition and QOS factors and
    weighted factors, the TRES factors and weighted factors and the non-zero weighted TRES
    terms."""

    __slots__ = ("d", "e", "f_js", "f_part", "f_qos", "g", "part", "partition", "qos", "t",
                 "terms", "tres_f", "tres_w")  # fmt: skip

    def __init__(self, size: Any, part: Any, qos: tuple[str, float, float]) -> None:
        """From ``_RowMaker._size``'s tuple, one of its partitions (kept as ``part``) and
        ``_RowMaker.qos_values``' tuple."""
        self.f_js, self.d, _parts = size
        self.partition, self.f_part, self.e, tres_f, tres_w, terms = part
        self.qos, self.f_qos, self.g = qos
        self.tres_f: dict[str, float] = tres_f
        self.tres_w: dict[str, float] = tres_w
        self.terms: tuple[float, ...] = terms
        # With at most one term, the sum adds ``t`` (0.0 for none): x + 0.0 is x for every
        # x but -0.0, and a sum of -0.0 is below 1, so it prints as 1 either way.
        self.t = terms[0] if terms else 0.0
        self.part = part


@dataclass(frozen=True)
class PriorityTable:
    """sprio's rows as columns, one entry a row, in sprio's default order (``-S i``).

    Row ``i`` is job ``ids[i]`` in partition ``parts[i]``; ``assocs[i]`` and ``parts[i]``
    hold what it shares with other rows, ``ages``/``ages_w`` its age factor
    and weighted age factor, ``priorities`` sprio's PRIORITY before truncation (at least 1)
    and ``priority_ints`` after it.
    """

    ids: list[str]
    assocs: list[AssocShare]
    parts: list[PartShare]
    ages: list[float]
    ages_w: list[float]
    sites: list[int]
    nices: list[int]
    priorities: list[float]
    priority_ints: list[int]

    def rows(self) -> list[PriorityRow]:
        """The rows as :func:`~fairshare_cli.core.slurm.priority.compute_rows` makes them
        (a row's ``group`` is a pair like theirs: its ``(assoc, part)`` shares and the
        part's partition)."""
        groups: dict[tuple[int, int], tuple[Any, Any]] = {}
        return [
            PriorityRow(
                jid, s.partition, a.user, a.account, s.qos, pi, site, nice,
                (age, a.f_assoc, a.f_fs, s.f_js, s.f_part, s.f_qos),
                (age_w, a.b, a.c, s.d, s.e, s.g), s.tres_f, s.tres_w, False, p,
                (int(jid), 0, jid), groups.setdefault((id(a), id(s)), ((a, s), s.part)),
            )
            for jid, a, s, age, age_w, site, nice, p, pi in zip(
                self.ids, self.assocs, self.parts, self.ages, self.ages_w, self.sites,
                self.nices, self.priorities, self.priority_ints, strict=True,
            )
        ]  # fmt: skip


def compute_table(
    jobs: Sequence[Any], ctx: PriorityContext, now: float, listed_at: float | None = None
) -> PriorityTable | None:
    """The rows :func:`~fairshare_cli.core.slurm.priority.compute_rows` gives, sorted by
    job id, as columns; None for a queue it must handle (see the module docstring)."""
    maker = _RowMaker(ctx, now)
    listed = _listed(jobs, ctx, now if listed_at is None else listed_at)
    if listed is None:
        return None
    shares = _shares(maker, *listed)
    if shares is None:
        return None
    kept, ids, assocs, classes = shares
    ages = _ages(maker, kept)
    if ages is None:
        return None
    sites = list(map(attrgetter("site_factor"), kept))
    nices = list(map(attrgetter("nice"), kept))
    if max(map(len, classes), default=1) == 1:
        parts = list(map(itemgetter(0), classes))
    else:  # a job in several partitions has a row in each: repeat its columns
        index = [i for i, c in enumerate(classes) for _ in c]
        ids, assocs, ages, sites, nices = (
            list(map(column.__getitem__, index)) for column in (ids, assocs, ages, sites, nices)
        )
        parts = list(chain.from_iterable(classes))
    w_age = maker.weights[0]
    ages_w = [a * w_age for a in ages]
    prios = _priorities(ages_w, assocs, parts, sites, nices, len(maker.tres_weights))
    return PriorityTable(
        ids, assocs, parts, ages, ages_w, sites, nices, prios, list(map(int, prios))
    )


def _listed(
    jobs: Sequence[Any], ctx: PriorityContext, horizon: float
) -> tuple[list[Any], list[str]] | None:
    """The jobs sprio lists (as ``compute_rows`` chooses them) sorted by id, and their ids;
    None unless every id is a plain number (its own integer), no admin priority is set,
    and attributes cannot change a job's TRES."""
    allowed = {"idle", "running"} if "CALCULATE_RUNNING" in ctx.flags else {"idle"}
    submits = list(map(attrgetter("submit_time"), jobs))
    if not set(map(attrgetter("status"), jobs)) <= allowed or (
        None in submits or max(submits, default=horizon) > horizon
    ):
        jobs = [
            j
            for j in jobs
            if j.status in allowed and (j.submit_time is None or j.submit_time <= horizon)
        ]
    else:
        jobs = list(jobs)
    admins = set(map(attrgetter("admin_priority"), jobs))
    admins.discard(None)
    if admins:
        return None
    ids = list(map(attrgetter("id"), jobs))
    joined = "".join(ids)
    if ids and not (joined.isascii() and joined.isdigit() and all(ids)):
        return None
    numbers = list(map(int, ids))
    if not all(map(lt, numbers, islice(numbers, 1, None))):  # not in order already
        if len(set(numbers)) != len(numbers):  # "7" and "007": sorted by text, not here
            return None
        order = sorted(range(len(jobs)), key=numbers.__getitem__)
        jobs = list(map(jobs.__getitem__, order))
        ids = list(map(ids.__getitem__, order))
    return jobs, ids


def _shares(maker: _RowMaker, jobs: list[Any], ids: list[str]) -> Any:
    """The jobs that are Slurm jobs, their ids, each one's :class:`AssocShare` and its
    :class:`PartShare` s (one a partition); None when a job's TRES depend on its attributes
    or a job cannot be placed."""
    if not maker.tres_by_size and any(map(attrgetter("attributes"), jobs)):
        return None
    kept = _assoc_shares(maker, jobs, ids)
    if kept is None:
        return None
    jobs, ids, assocs = kept
    spos = _first_positions(map(_CLASS_KEY, jobs))
    classes: dict[int, tuple[PartShare, ...]] = {}
    try:
        for pos in set(spos):
            job = jobs[pos]
            pinfos = maker.partitions(job)  # first: the row path's order of errors
            qos = maker.qos_values(job)
            size = maker._size(job, pinfos)
            classes[pos] = tuple(PartShare(size, part, qos) for part in size[2])
    except InputError:
        return None
    return jobs, ids, assocs, list(map(classes.__getitem__, spos))


def _assoc_shares(
    maker: _RowMaker, jobs: list[Any], ids: list[str]
) -> tuple[list[Any], list[str], list[AssocShare]] | None:
    """The jobs that are Slurm jobs, their ids and each one's :class:`AssocShare`; None
    when a job names an account or a user the tree does not have (the row path says
    which). A job without an association that names no account, partition nor QOS is not
    a Slurm job: it has no row."""
    apos = _assoc_positions(jobs)
    tree = maker.ctx.tree
    shares: dict[int, AssocShare | None] = {}
    for pos in set(apos):
        job = jobs[pos]
        user = job_user(job.owner)
        assoc = tree.user_assoc(user, job.account)
        shares[pos] = None if assoc is None else AssocShare(user, maker.assoc_values(assoc, user))
    assocs = list(map(shares.__getitem__, apos))
    if None in shares.values():
        keep = [a is not None for a in assocs]
        dropped = compress(jobs, map(not_, keep))
        if any(j.account is not None or j.partition is not None or j.qos is not None
               for j in dropped):  # fmt: skip
            return None
        jobs, ids, assocs = (list(compress(column, keep)) for column in (jobs, ids, assocs))
    return jobs, ids, assocs  # type: ignore[return-value]


def _assoc_positions(jobs: list[Any]) -> list[int]:
    """For each job, the position of the first job of its owner and account. Each owner
    mostly names one account: the owners' first positions then do (one hash a text, not a
    pair), if each job names the account of its owner's first job."""
    owners = list(map(attrgetter("owner"), jobs))
    positions = _first_positions(owners)
    accounts = list(map(attrgetter("account"), jobs))
    if list(map(accounts.__getitem__, positions)) == accounts:
        return positions
    return _first_positions(zip(owners, accounts, strict=True))


def _first_positions(keys: Iterable[Any]) -> list[int]:
    """For each key, the position of its first occurrence (one hash a key, at C speed;
    keys made on the way are freed, or their memory reused, as soon as they are seen)."""
    first: dict[Any, int] = {}
    return list(map(first.setdefault, keys, count()))


def _ages(maker: _RowMaker, jobs: list[Any]) -> list[float] | None:
    """Each job's age factor (``age_factor``: the seconds since it accrued, whole, over
    ``PriorityMaxAge``, at most 1); None when a job has neither accrue nor submit time."""
    if not maker.weights[0]:
        return [0.0] * len(jobs)
    accrued = list(map(attrgetter("accrue_time"), jobs))
    if accrued.count(None) == len(accrued):  # no accrue time given: the submit times
        accrued = list(map(attrgetter("submit_time"), jobs))
    elif None in accrued:
        submits = map(attrgetter("submit_time"), jobs)
        accrued = [s if a is None else a for a, s in zip(accrued, submits, strict=True)]
    if None in accrued:
        return None
    max_age = maker.max_age
    now = maker.now
    if max_age <= 0:
        return [1.0] * len(jobs)
    # age_factor(): diff = int(now - accrued) (0 unless accrued before now), then
    # diff / max_age below max_age, else 1; one pass (0 / max_age is 0.0).
    return [
        (d / max_age if (d := int(now - a)) < max_age else 1.0) if a < now else 0.0 for a in accrued
    ]


def _priorities(
    ages_w: list[float],
    assocs: list[AssocShare],
    parts: list[PartShare],
    sites: list[int],
    nices: list[int],
    terms: int,
) -> list[float]:
    """sprio's PRIORITY of each row before truncation, summed in ``add_rows``' order (age,
    ASSOC, fair share, job size, partition, QOS, site, −nice, then each non-zero TRES term),
    at least 1."""
    columns = (ages_w, assocs, parts, sites, nices)
    if terms <= 1:
        return [
            1.0 if (p := a + u.b + u.c + s.d + s.e + s.g + site - nice + s.t) < 1 else p
            for a, u, s, site, nice in zip(*columns, strict=True)
        ]
    out = []
    for a, u, s, site, nice in zip(*columns, strict=True):
        p = a + u.b + u.c + s.d + s.e + s.g + site - nice
        for value in s.terms:
            p += value
        out.append(1.0 if p < 1 else p)
    return out
