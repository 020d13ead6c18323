"""sprio's rows as columns: the factors of every listed job in every partition it may run
in, the one computation behind ``fs sprio``'s listings and :func:`compute_rows`.

A row of ``sprio -l`` is a job in one partition. Almost all of it is shared: by the jobs of
one owner and account (an :class:`AssocShare`), of one partition list, QOS and size (a
:class:`PartShare` a partition). Only the job id, the age factor, site, nice and the
priority differ from job to job. A :class:`TableBuilder` makes the shares once each and the
rest in one pass over the jobs, as they come (``fs sprio`` hands it a jobs file's jobs a
piece at a time, as the jobs reader reads them), then puts the rows in sprio's default
order (by job id, ``-S i``) where they are not in it already; :func:`compute_table` does
both for a list of jobs. A job with an admin-set priority has shares of its own whose
factors are all zero (sprio shows none for it).

A measured hot path (``benchmarks/run.py --rows sprio,sprio-json``).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable
from typing import Any

import msgspec

from fairshare_cli.core.job_ids import canonical_numbers
from fairshare_cli.core.names import job_sort_key
from fairshare_cli.core.slurm.factors import job_user
from fairshare_cli.core.slurm.partition import NoDefaultPartition, submitted_since
from fairshare_cli.core.slurm.priority import FactorMaker, PriorityContext, PriorityRow
from fairshare_cli.core.slurm.sizer import SizedShares, Sizes

#: The job fields :func:`compute_table` reads, in the order jobs files usually write them:
#: ``io/jobs.py``'s ``load_jobs`` may hand it records of only these, for a file with no
#: other field (so another field holds its default either way: only speed rests on this).
JOB_FIELDS = ("id", "owner", "account", "partition", "qos", "request_cpus", "submit_time",
              "nice", "status", "accrue_time", "request_memory", "num_nodes", "time_limit",
              "site_factor", "admin_priority", "attributes", "eligible_time", "sluid")  # fmt: skip
#: The divisor of sprio's ``%y`` (the priority as a fraction of the largest, 2^32 - 1).
PRIORITY_MAX = 4294967295.0
#: What slurmctld adds to a job's nice and site factor as it stores them (``NICE_OFFSET``).
_NICE_OFFSET = 2**31


class AssocShare:
    """What the rows of the jobs of one owner and account share: the user and account
    shown, the ASSOC and fair-share factors and their weighted values."""

    __slots__ = ("account", "assoc_factor", "fairshare_factor", "user", "weighted_assoc",
                 "weighted_fairshare")  # fmt: skip
    #: Whether the rows are of an admin-set priority (sprio gets no factors for them).
    admin = False

    def __init__(self, user: str, values: tuple[str, float, float, float, float]) -> None:
        """From the user and ``FactorMaker.assoc_values``' tuple."""
        self.user = user
        (self.account, self.assoc_factor, self.fairshare_factor, self.weighted_assoc,
         self.weighted_fairshare) = values  # fmt: skip


class PartShare:
    """What the rows of the jobs of one partition list, QOS and size share in one of those
    partitions: its name, the QOS shown, the job-size, partition and QOS factors and their
    weighted values, the TRES factors and weighted TRES factors by name, the non-zero
    weighted TRES terms and their sum (``weighted_tres_sum``: the only term, or 0.0)."""

    __slots__ = ("jobsize_factor", "partition", "partition_factor", "qos", "qos_factor",
                 "tres_factors", "tres_terms", "weighted_jobsize", "weighted_partition",
                 "weighted_qos", "weighted_tres", "weighted_tres_sum")  # fmt: skip
    #: Whether the rows are of an admin-set priority (sprio gets no factors for them).
    admin = False

    def __init__(self, size: Any, part: Any, qos: tuple[str, float, float]) -> None:
        """From ``FactorMaker.size_values``' tuple, one of its partitions and
        ``FactorMaker.qos_values``' tuple."""
        self.jobsize_factor, self.weighted_jobsize, _parts = size
        (self.partition, self.partition_factor, self.weighted_partition, tres_f, tres_w,
         terms) = part  # fmt: skip
        self.qos, self.qos_factor, self.weighted_qos = qos
        self.tres_factors: dict[str, float] = tres_f
        self.weighted_tres: dict[str, float] = tres_w
        self.tres_terms: tuple[float, ...] = terms
        # With at most one term, the sum adds it (0.0 for none): x + 0.0 is x for every
        # x but -0.0, and a sum of -0.0 is below 1, so it prints as 1 either way.
        self.weighted_tres_sum = terms[0] if terms else 0.0


class _NotSlurm:
    """The first share of an owner whose first job is not a Slurm job: of no account
    (its jobs are looked up in the owner's dict)."""

    __slots__ = ()
    account = object()


_NOT_SLURM = _NotSlurm()
_NO_FACTORS = ("", 0.0, 0.0, 0.0, 0.0)


class _AdminAssocShare(AssocShare):
    """An :class:`AssocShare` of an admin-set priority's rows."""

    __slots__ = ()
    admin = True


class _AdminPartShare(PartShare):
    """A :class:`PartShare` of an admin-set priority's rows."""

    __slots__ = ()
    admin = True


def _admin_assoc(share: AssocShare) -> AssocShare:
    """The share of an admin-set priority's row: the user and account, no factors."""
    return _AdminAssocShare(share.user, (share.account, *_NO_FACTORS[1:]))


def _admin_part(share: PartShare) -> PartShare:
    """The share of an admin-set priority's row: the partition and QOS, no factors."""
    return _AdminPartShare((0.0, 0.0, ()), (share.partition, 0.0, 0.0, {}, {}, ()),
                           (share.qos, 0.0, 0.0))  # fmt: skip


class PriorityTable(msgspec.Struct, frozen=True):
    """sprio's rows as columns, one entry a row.

    Row ``i`` is job ``job_ids[i]`` in partition ``parts[i].partition``; ``assocs[i]`` and
    ``parts[i]`` hold what it shares with other rows, ``age_factors``/``weighted_ages``
    its age factor and weighted age factor, ``priorities`` sprio's PRIORITY before
    truncation (at least 1; :meth:`priority_ints` after it). ``admin_rows``: the rows of
    jobs with an admin-set priority, each to that number (their PRIORITY, no factors);
    ``sluids``: the SLUID of each job id that has one (sprio's ``%s``).
    """

    job_ids: list[str]
    assocs: list[AssocShare]
    parts: list[PartShare]
    age_factors: list[float]
    weighted_ages: list[float]
    sites: list[int]
    nices: list[int]
    priorities: list[float]
    admin_rows: dict[int, int] = msgspec.field(default_factory=dict)
    sluids: dict[str, str] = msgspec.field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.job_ids)

    def taken(self, rows: list[int]) -> PriorityTable:
        """The table of these rows, in this order."""
        admin = self.admin_rows
        return _table(
            [[column[i] for i in rows] for column in self._columns()],
            {k: admin[i] for k, i in enumerate(rows) if i in admin} if admin else {},
            self.sluids,
        )

    def _columns(self) -> tuple[list[Any], ...]:
        return (self.job_ids, self.assocs, self.parts, self.age_factors, self.weighted_ages,
                self.sites, self.nices, self.priorities)  # fmt: skip

    def priority_ints(self) -> array[int] | list[int]:
        """sprio's PRIORITY: each truncated (an admin-set one as it is), made when asked
        (the listing prints the floats as whole numbers): machine ints, no object a row
        (the JSON writer makes them a chunk at a time: ``fs sprio --json``'s 120,000), or
        a list where one is beyond 64 bits."""
        truncated = map(float.__trunc__, self.priorities)  # (floats all: the method in C)
        try:
            ints: array[int] | list[int] = array("q", truncated)
        except OverflowError:
            ints = list(map(float.__trunc__, self.priorities))
        for i, admin in self.admin_rows.items():
            ints[i] = admin
        return ints

    def priority_fractions(self) -> list[float]:
        """sprio's ``%y``: each PRIORITY over 2^32 - 1 (an admin-set one as it is)."""
        fractions = [p / PRIORITY_MAX for p in self.priorities]
        for i in self.admin_rows:
            fractions[i] = self.priorities[i]
        return fractions

    def rows(self) -> list[PriorityRow]:
        """The rows as :class:`PriorityRow` objects."""
        admin = self.admin_rows
        return [
            PriorityRow(
                jid, s.partition, a.user, a.account, s.qos, pi, site, nice,
                (age, a.assoc_factor, a.fairshare_factor, s.jobsize_factor,
                 s.partition_factor, s.qos_factor),
                (age_w, a.weighted_assoc, a.weighted_fairshare, s.weighted_jobsize,
                 s.weighted_partition, s.weighted_qos),
                s.tres_factors, s.weighted_tres, i in admin, p, job_sort_key(jid),
            )
            for i, (jid, a, s, age, age_w, site, nice, p, pi) in enumerate(zip(
                *self._columns(), self.priority_ints(), strict=True,
            ))
        ]  # fmt: skip


def _table(columns: list[list[Any]], admin: dict[int, int], sluids: Any) -> PriorityTable:
    """The table of these columns (in :meth:`PriorityTable._columns`' order)."""
    ids, assocs, parts, ages, ages_w, sites, nices, prios = columns
    return PriorityTable(ids, assocs, parts, ages, ages_w, sites, nices, prios, admin, sluids)


def compute_rows(
    jobs: Iterable[Any], ctx: PriorityContext, now: float, listed_at: float | None = None
) -> list[PriorityRow]:
    """The rows slurmctld orders jobs by (sprio's but what sprio alone shows: see
    :meth:`TableBuilder.add_admin_rows`, ``FactorMaker._kept_tres``) in the jobs' order, as
    of ``now`` (the decay pass). Pending jobs are listed (running ones too with
    ``CALCULATE_RUNNING``); held (an admin priority of 0 holds a job) and finished jobs are
    not, nor jobs submitted after ``listed_at`` (the moment sprio asks; default ``now``); a
    job with no Slurm association and no account is not a Slurm job and is skipped. A job
    gets a row per partition and QOS (partition, TRES and QOS factors per row).

    Raises:
        InputError: a job names an unknown partition, QOS, account or association.
    """
    return compute_table(jobs, ctx, now, listed_at, in_id_order=False, listing=False).rows()


def compute_table(
    jobs: Iterable[Any],
    ctx: PriorityContext,
    now: float,
    listed_at: float | None = None,
    in_id_order: bool = True,
    listing: bool = True,
) -> PriorityTable:
    """sprio's rows as columns (``listing``; else the controller's, as :func:`compute_rows`
    gives them), sorted by job id (``-S i``) unless not ``in_id_order``.

    Raises:
        InputError: a job names an unknown partition, QOS, account or association.
    """
    jobs = list(jobs)
    builder = TableBuilder(ctx, now, listed_at, queue_size=len(jobs), listing=listing)
    builder.add(jobs)
    return builder.table(in_id_order)


class TableBuilder:
    """sprio's rows, made column by column from the jobs as they come (:meth:`add`, one
    pass over each list), with what jobs of one owner and account (an
    :class:`AssocShare`) and of one partition list, QOS and size (its :class:`PartShare`
    s) share made once each; :meth:`table` gives them as :func:`compute_table` does.
    ``now`` and ``listed_at`` as :func:`compute_rows` takes them; ``queue_size``: the jobs
    to come (about), when known (see :meth:`_make_every_share`); ``listing``: sprio's rows
    (else the controller's: :func:`compute_rows`)."""

    def __init__(
        self,
        ctx: PriorityContext,
        now: float,
        listed_at: float | None = None,
        queue_size: int = 0,
        listing: bool = True,
    ) -> None:
        self.maker = FactorMaker(ctx, now)
        self.maker.kept_tres = listing
        self.horizon = now if listed_at is None else listed_at
        flags = ctx.flags
        self.allowed = {"idle", "running"} if "CALCULATE_RUNNING" in flags else {"idle"}
        #: owner -> account -> its share, or None for jobs that are not Slurm jobs (two
        #: lookups of a text cost less than one of a pair; an owner's dict is made with
        #: its first account's share); owner -> the first share made of an association
        #: (most owners have one: one lookup a job, and a check of its account).
        self.assocs: dict[str, dict[str | None, AssocShare | None]] = {}
        self.first: dict[str, Any] = {}
        #: The ids of the listed jobs that are not Slurm jobs (no row), in queue order.
        self.not_slurm: list[str] = []
        #: The job fields its :class:`PartShare` s depend on (partition, QOS, nodes, CPUs,
        #: memory, time limit) -> the job's shares, one a partition.
        self.classes: dict[tuple[Any, ...], tuple[PartShare, ...]] = {}
        #: An admin-set priority's shares, by the shares of the job's factors.
        self.admin_shares: dict[int, Any] = {}
        #: The rows so far, a list a column (:meth:`add`'s), and the admin-set priority
        #: of the rows that have one.
        self.columns: list[list[Any]] = [[] for _ in range(8)]
        self.admins: dict[int, int] = {}
        self.admin_parts_zeroed = ctx.admin_parts_zeroed and listing
        self.sluids: dict[str, str] = {}  # (the listed jobs' that have one, by id)
        #: Whether the ids were in order so far (plain numbers, each after the one before),
        #: and the last one and its length.
        self.order: tuple[bool, tuple[str, int]] = (True, ("", 0))
        #: None: a job naming no partition where none is the default is refused; a list
        #: (``fs whatif``, whose other side may give one): it is left out, and why noted.
        self.left_out: list[str] | None = None
        if queue_size >= len(ctx.tree.users):
            self._make_every_share()

    def _make_every_share(self) -> None:
        """Make the share of each user association (named by its user and account) at once,
        for a queue of at least as many jobs: next to one another in memory, they are
        looked up in the CPU's cache (made as the jobs come, among the jobs' objects, a
        lookup a job costs a miss: a tenth of the pass over 100,000 jobs)."""
        maker, assocs = self.maker, self.assocs
        for assoc in maker.ctx.tree.users:
            if (user := assoc.user) is not None:
                share = AssocShare(user, maker.assoc_values(assoc, user))
                assocs.setdefault(user, {})[assoc.account] = share
                self.first.setdefault(user, share)

    def share(self, job: Any) -> AssocShare | None:
        """The share of the job's owner and account (:meth:`assoc`), made once.

        Raises:
            InputError: an unknown account, or a user with no association in it.
        """
        owner, account = job.owner, job.account
        made = self.assocs.setdefault(owner, {})
        share = made[account] if account in made else made.setdefault(account, self.assoc(job))
        self.first.setdefault(owner, _NOT_SLURM if share is None else share)
        return share

    def assoc(self, job: Any) -> AssocShare | None:
        """The share of the job's owner and account; None for a job that is not a Slurm
        job (no association, no account, partition nor QOS).

        Raises:
            InputError: an unknown account, or a user with no association in it.
        """
        maker = self.maker
        user = job_user(job.owner)
        assoc = maker.association(job, user)
        return None if assoc is None else AssocShare(user, maker.assoc_values(assoc, user))

    def part_shares(self, job: Any) -> tuple[PartShare, ...]:
        """The job's shares, one a partition and QOS.

        Raises:
            InputError: an unknown partition or QOS.
        """
        maker = self.maker
        pinfos = maker.partitions(job)  # first: compute_rows' order of errors
        qos_list = maker.qos_values(job)
        size = maker.size_values(job, pinfos)
        if type(size) is Sizes:  # (picked job by job: SizedShares.pick)
            return size.shares(qos_list, PartShare)  # type: ignore[no-any-return]
        # sprio's rows: each partition (in tier order), each QOS in it (_create_prio_list_part)
        return tuple(PartShare(size, part, qos) for part in size[2] for qos in qos_list)

    def kept_shares(self, job: Any) -> tuple[PartShare, ...]:
        """:meth:`part_shares`; with :attr:`left_out`, none for a job naming no partition
        where none is the default (noted there, and not to be kept for its kind).

        Raises:
            InputError: an unknown partition or QOS (or that job, without ``left_out``).
        """
        if self.left_out is None:
            return self.part_shares(job)
        try:
            return self.part_shares(job)
        except NoDefaultPartition as exc:
            self.left_out.append(str(exc))
            return ()

    def admin(self, share: Any) -> Any:
        """The admin-set priority's share for a job whose factors' share is ``share``."""
        made = self.admin_shares.get(id(share))
        if made is None:
            made = _admin_assoc(share) if type(share) is AssocShare else _admin_part(share)
            self.admin_shares[id(share)] = (share, made)  # (kept: its id is not reused)
            return made
        return made[1]

    def add_admin_rows(
        self, job: Any, assoc: AssocShare, own: Any, columns: list[list[Any]], admins: Any
    ) -> None:
        """Append the rows of a job with an admin-set priority (one a partition, no
        factors) to :meth:`add`'s columns, each row's priority in ``admins``. Slurm 22.05's
        sprio (``admin_parts_zeroed``; not the controller's order: :func:`compute_table`)
        shows one of several partitions by the factors slurmctld zeroed at the pass
        (``_get_priority_internal``): ``_filter_job`` sets it no ``direct_prio`` but each
        partition's weighted factor (PRIORITY, at least 1); site and nice 0 less NICE_OFFSET."""
        zeroed = self.admin_parts_zeroed and len(own) > 1
        shown = AssocShare(assoc.user, (assoc.account, *_NO_FACTORS[1:]))
        for part in own:
            if zeroed:
                w = part.weighted_partition
                share = PartShare((0.0, 0.0, ()), (part.partition, part.partition_factor, w,
                                  {}, {}, ()), (part.qos, 0.0, 0.0))  # fmt: skip
                row = (job.id, shown, share, 0.0, 0.0, -_NICE_OFFSET, -_NICE_OFFSET, max(1.0, w))
            else:
                admins[len(columns[0])] = job.admin_priority
                row = (job.id, self.admin(assoc), self.admin(part), 0.0, 0.0, 0, 0,
                       float(job.admin_priority))  # fmt: skip
            for column, value in zip(columns, row, strict=True):
                column.append(value)

    def add(self, jobs: Iterable[Any]) -> None:  # noqa: C901 - a hot path, one pass a job
        """A measured hot path (``benchmarks/run.py --rows sprio``): add the rows of the
        jobs sprio lists (as ``compute_rows``) in their order, ages as ``age_factor``,
        PRIORITY summed in sprio's order (at least 1); :attr:`order` not ordered where an id
        is not after the one before (as a number). Raises InputError for an unknown
        partition, QOS, account or association. Each job's steps inline."""
        maker = self.maker  # (benchmarks/run.py --rows sprio)
        allowed, horizon, assocs, classes = self.allowed, self.horizon, self.assocs, self.classes
        first, sluids = self.first, self.sluids
        attributes_matter, float_w_age = not maker.tres_by_size, float(w_age := maker.weights[0])
        max_age, now, one_term = maker.max_age, maker.now, len(maker.tres_weights) <= 1
        w_assoc = maker.weights[1]
        accrue_always = "ACCRUE_ALWAYS" in maker.ctx.flags
        whole_max_age = math.ceil(max_age)  # (a span this long holds max_age whole seconds)
        columns, admins, ordered, (last, last_len) = self.columns, self.admins, *self.order
        ids, shares, parts, ages, ages_w, sites, nices, prios = columns
        for job in jobs:
            if job.status not in allowed:
                continue
            # Listed once its "use time" has passed (_foreach_priority_factor_job), its age
            # from it without an accrue time: the submit time with ACCRUE_ALWAYS, else the
            # begin (eligible) time (acct_policy.c).
            submit = job.submit_time
            if job.eligible_time is not None and not accrue_always:
                submit = job.eligible_time
            if submit is not None and submit > horizon:
                continue
            account = job.account
            try:  # (subscripts, not calls to get: among the loop's costliest steps)
                assoc: Any = first[job.owner]  # the owner's first share: a lookup a job
                if assoc.account != account:  # (None: the owner's default account)
                    assoc = assocs[job.owner][account]
            except KeyError:
                assoc = self.share(job)
            if assoc is None:  # not a Slurm job: no row (unless it names these: an error)
                if job.partition is not None or job.qos is not None:
                    self.assoc(job)
                self.not_slurm.append(job.id)
                continue
            jid = job.id
            if job.sluid is not None:
                sluids[jid] = job.sluid
            length = len(jid)
            if length < last_len or (length == last_len and jid <= last):
                ordered = False
            last, last_len = jid, length
            qos = job.qos
            if qos is not None and "," in qos and submitted_since(job.submit_time, now):
                qos += "\0new"  # (several QOS, submitted since the pass: FactorMaker.qos_values)
            part = job.partition
            if part is not None and "," in part and submitted_since(job.submit_time, now):
                part += "\0new"  # (sized by its first named: FactorMaker.size_values)
            key = (part, qos, job.num_nodes, job.request_cpus, job.request_memory,
                   job.time_limit)  # fmt: skip
            if attributes_matter and job.attributes:  # its TRES may differ by attributes
                own: Any = self.kept_shares(job)
            else:  # (the key made here: no attrgetter's lookups)
                try:
                    own = classes[key]
                except KeyError:
                    own = self.kept_shares(job)
                    if own:  # (none: left out, each job of its kind noted)
                        classes[key] = own
            if job.admin_priority is not None:  # 0 holds it: sprio lists no held job
                if job.admin_priority:
                    self.add_admin_rows(job, assoc, own, columns, admins)
                continue
            age = age_w = 0.0  # (whole seconds since the job accrued over max_age, at most 1)
            accrued = submit if job.accrue_time is None else job.accrue_time
            if w_age and accrued is not None:
                if max_age <= 0 or (span := now - accrued) >= whole_max_age:  # 1 (no fmod)
                    age, age_w = 1.0, float_w_age
                elif span > 0:  # int(now - accrued), exact: under ceil(max_age), so max_age
                    age = (span - span % 1.0) / max_age
                    age_w = age * float_w_age
            site, nice = job.site_factor, job.nice
            if own.__class__ is SizedShares:  # (rows as slurmctld left the job: core/slurm/sizer)
                own = own.pick(age_w, assoc, site, nice)
            for part in own:  # age, ASSOC (0.0 if unweighted: age + 0.0 is age), fair share, ...
                p = (age_w + assoc.weighted_assoc if w_assoc else age_w) + assoc.weighted_fairshare
                p = p + part.weighted_jobsize + part.weighted_partition + part.weighted_qos
                if site or nice:  # ... site, -nice (p + 0 - 0 is p but for -0.0: below 1)
                    p = p + site - nice
                if one_term:  # ... then each non-zero TRES term
                    p += part.weighted_tres_sum
                else:
                    for value in part.tres_terms:
                        p += value
                ids.append(jid)
                shares.append(assoc)
                parts.append(part)
                ages.append(age)
                ages_w.append(age_w)
                sites.append(site)
                nices.append(nice)
                prios.append(1.0 if p < 1.0 else p)  # (a float: no int to compare)
        self.order = (ordered, (last, last_len))

    def table(self, in_id_order: bool = True) -> PriorityTable:
        """The rows added, sorted by job id (``-S i``) unless not ``in_id_order``."""
        table = _table(self.columns, dict(self.admins), dict(self.sluids))
        ids = table.job_ids
        if not in_id_order or (self.order[0] and canonical_numbers(ids)):
            return table
        keys = list(map(job_sort_key, ids))
        order = sorted(range(len(keys)), key=keys.__getitem__)
        return table if order == list(range(len(order))) else table.taken(order)
