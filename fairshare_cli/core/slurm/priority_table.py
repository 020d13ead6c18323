"""sprio's rows as columns: :func:`~fairshare_cli.core.slurm.priority.compute_rows` for a
plain queue, without a :class:`PriorityRow` object a row.

A row of ``sprio -l`` is a job in one partition. Almost all of it is shared: by the jobs of
one owner and account (an :class:`AssocShare`), of one partition list, QOS and size (a
:class:`PartShare` a partition). Only the job id, the age factor, site, nice and the
priority differ from job to job. :func:`compute_table` makes the shares once each and the
rest in one pass over the jobs, in sprio's default order (by job id, ``-S i``), and gives
up (None) on anything else: a job with an admin-set priority or attributes that change its
TRES, a job without a submit or accrue time, an id that is not a plain number, a job the
association tree cannot place. The caller then uses
:func:`~fairshare_cli.core.slurm.priority.compute_rows`, whose rows and error messages are
the users'. :meth:`PriorityTable.rows` gives the same rows as that function.

A measured hot path (``benchmarks/run.py --rows sprio,sprio-json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Any

import msgspec

from fairshare_cli.core.slurm.factors import job_user
from fairshare_cli.core.slurm.priority import PriorityContext, PriorityRow, _RowMaker
from fairshare_cli.errors import InputError


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


class PriorityTable(msgspec.Struct, frozen=True):
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
    jobs: Iterable[Any],
    ctx: PriorityContext,
    now: float,
    listed_at: float | None = None,
    in_order_only: bool = False,
) -> PriorityTable | None:
    """The rows :func:`~fairshare_cli.core.slurm.priority.compute_rows` gives, sorted by
    job id, as columns; None for a queue it must handle (see the module docstring).

    The jobs are read in one pass (:meth:`_Columns.fill`) in their own order; ids that are
    not in order (by number) are sorted and the pass made again, or, ``in_order_only``,
    give None at the first one out of order or not a number (``jobs`` is then read once,
    at most: it may be an iterator).
    """
    horizon = now if listed_at is None else listed_at
    columns = _Columns(_RowMaker(ctx, now), horizon)
    if in_order_only:
        table = columns.fill(jobs, check_order=True, give_up=True)
        return None if table is _UNORDERED else table  # type: ignore[return-value]
    listed = jobs if isinstance(jobs, Sequence) else list(jobs)  # (read again if unordered)
    table = columns.fill(listed, check_order=True)
    if table is not _UNORDERED:
        return table  # type: ignore[return-value]
    ordered = columns.by_number(listed)
    return None if ordered is None else columns.fill(ordered, check_order=False)  # type: ignore[return-value]


#: What :meth:`_Columns.fill` returns for jobs whose ids are not in order by number (or
#: may not be: an id with a leading zero).
_UNORDERED = object()
_UNSEEN = object()


class _Columns:
    """The listing's rows, made column by column from one pass over the jobs, with what
    jobs of one owner and account (an :class:`AssocShare`) and of one partition list,
    QOS and size (its :class:`PartShare` s) share made once each."""

    def __init__(self, maker: _RowMaker, horizon: float) -> None:
        self.maker = maker
        self.horizon = horizon
        flags = maker.ctx.flags
        self.allowed = {"idle", "running"} if "CALCULATE_RUNNING" in flags else {"idle"}
        #: owner -> account -> its share, or None for jobs that are not Slurm jobs (two
        #: lookups of a text cost less than one of a pair; an owner's dict is empty only
        #: until :meth:`fill` puts its first account in, right after making it).
        self.assocs: dict[str, dict[str | None, AssocShare | None]] = {}
        #: The job fields its :class:`PartShare` s depend on (partition, QOS, nodes, CPUs,
        #: memory, time limit) -> the job's shares, one a partition.
        self.classes: dict[tuple[Any, ...], tuple[PartShare, ...]] = {}

    def assoc(self, job: Any) -> AssocShare | None:
        """The share of the job's owner and account; None when the tree has no such
        association (the job is not a Slurm job, unless it names an account, a
        partition or a QOS: then the row path names the error)."""
        maker = self.maker
        user = job_user(job.owner)
        assoc = maker.ctx.tree.user_assoc(user, job.account)
        return None if assoc is None else AssocShare(user, maker.assoc_values(assoc, user))

    def part_shares(self, job: Any) -> tuple[PartShare, ...] | None:
        """The job's shares, one a partition; None for an unknown partition or QOS (the
        row path names it)."""
        maker = self.maker
        try:
            pinfos = maker.partitions(job)  # first: the row path's order of errors
            qos = maker.qos_values(job)
            size = maker._size(job, pinfos)
        except InputError:
            return None
        return tuple(PartShare(size, part, qos) for part in size[2])

    def by_number(self, jobs: Sequence[Any]) -> list[Any] | None:
        """The jobs sprio lists, sorted by id as a number; None unless every id is a plain
        number and no two name one number (``7`` and ``007`` sort by text)."""
        horizon = self.horizon
        listed = [
            j
            for j in jobs
            if j.status in self.allowed and (j.submit_time is None or j.submit_time <= horizon)
        ]
        ids = list(map(attrgetter("id"), listed))
        if not _plain_numbers(ids):
            return None
        numbers = list(map(int, ids))
        if len(set(numbers)) != len(numbers):
            return None
        return [listed[i] for i in sorted(range(len(listed)), key=numbers.__getitem__)]

    def fill(  # noqa: C901 - one pass a job (its steps inline)
        self, jobs: Iterable[Any], check_order: bool, give_up: bool = False
    ) -> PriorityTable | object | None:  # a hot loop: benchmarks/run.py --rows sprio
        """The table of the jobs sprio lists (as ``compute_rows``) in their order, ages as
        ``age_factor``, PRIORITY summed in ``add_rows``' order (at least 1); :data:`_UNORDERED`
        for ids out of order by number (with ``give_up``: at the first, or one not a number);
        None for a queue the row path must handle (:func:`compute_table`)."""
        maker = self.maker
        allowed, horizon, assocs, classes = self.allowed, self.horizon, self.assocs, self.classes
        attributes_matter = not maker.tres_by_size
        w_age = maker.weights[0]
        float_w_age = float(w_age)  # age * w_age, exactly: w_age is a uint32
        max_age, now = maker.max_age, maker.now
        one_term = len(maker.tres_weights) <= 1
        columns: list[list[Any]] = [[] for _ in range(8)]
        ids, shares, parts, ages, ages_w, sites, nices, prios = columns
        last, last_len, ordered = "", 0, True
        for job in jobs:
            if job.status not in allowed:
                continue
            submit = job.submit_time
            if submit is not None and submit > horizon:
                continue
            if job.admin_priority is not None or (attributes_matter and job.attributes):
                return None
            owner, account = job.owner, job.account
            of_owner = assocs.get(owner) or assocs.setdefault(owner, {})  # (see self.assocs)
            assoc: Any = of_owner.get(account, _UNSEEN)
            if assoc is _UNSEEN:
                assoc = of_owner[account] = self.assoc(job)
            if assoc is None:  # not a Slurm job: no row (unless it names any of these)
                if account is not None or job.partition is not None or job.qos is not None:
                    return None
                continue
            jid = job.id
            if check_order:
                length = len(jid)
                out = length < last_len or (length == last_len and jid <= last)
                if out or (give_up and not jid.isdigit()):  # (not a number: no table)
                    if give_up:  # (the caller wants them in order or not at all)
                        return _UNORDERED
                    ordered = False
                last, last_len = jid, length
            key = (job.partition, job.qos, job.num_nodes, job.request_cpus, job.request_memory,
                   job.time_limit)  # fmt: skip
            own = classes.get(key)  # (the key made here: no attrgetter's lookups)
            if own is None:
                own = classes[key] = self.part_shares(job)  # type: ignore[assignment]
                if own is None:
                    return None
            age = 0.0  # (the whole seconds since the job accrued over max_age, at most 1)
            if w_age:
                accrued = job.accrue_time
                if accrued is None and (accrued := submit) is None:
                    return None
                if max_age <= 0:
                    age = 1.0
                elif accrued < now:  # diff: int(now - accrued), as a float (exact)
                    diff = (span := now - accrued) - span % 1.0
                    age = diff / max_age if diff < max_age else 1.0
            age_w = age * float_w_age
            site, nice = job.site_factor, job.nice
            for part in own:  # add_rows: age, ASSOC, fair share, size, partition, QOS, ...
                p = age_w + assoc.b + assoc.c + part.d + part.e + part.g
                if site or nice:  # ... site, -nice (p + 0 - 0 is p but for -0.0: below 1)
                    p = p + site - nice
                if one_term:  # ... then each non-zero TRES term
                    p += part.t
                else:
                    for value in part.terms:
                        p += value
                ids.append(jid)
                shares.append(assoc)
                parts.append(part)
                ages.append(age)
                ages_w.append(age_w)
                sites.append(site)
                nices.append(nice)
                prios.append(1.0 if p < 1.0 else p)  # (a float: no int to compare)
        return _finished(columns, check_order, ordered)


def _finished(
    columns: list[list[Any]], check_order: bool, ordered: bool
) -> PriorityTable | object | None:
    """The table of :meth:`_Columns.fill`'s columns; None unless every id is a plain
    number; :data:`_UNORDERED` when ``check_order`` and the ids were not ``ordered`` (each
    longer than the one before, or as long and after it as text) or one starts with 0."""
    ids, shares, parts, ages, ages_w, sites, nices, prios = columns
    if not _plain_numbers(ids):
        return None
    if check_order and not (ordered and _no_leading_zero(ids)):
        return _UNORDERED
    ints = list(map(int, prios))
    return PriorityTable(ids, shares, parts, ages, ages_w, sites, nices, prios, ints)


def _plain_numbers(ids: list[str]) -> bool:
    """Whether every id is a plain number (ASCII digits; none empty)."""
    joined = "".join(ids)  # (its bytes' isdigit: a table lookup a byte, str's a call)
    return not ids or (joined.isascii() and joined.encode().isdigit() and all(ids))


def _no_leading_zero(ids: list[str]) -> bool:
    """Whether no id starts with 0 (then longer ids are larger numbers)."""
    return not ("\n" + "\n".join(ids)).count("\n0")
