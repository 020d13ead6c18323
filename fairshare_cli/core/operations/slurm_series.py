"""The Slurm usage of ``fs simulate``'s work (shared by :mod:`.sim_queue` and
:mod:`.sim_slurm`; :mod:`.simulate` makes it)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import msgspec

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.sim_row import SimRow
from fairshare_cli.core.usage import UsageRecord


class SlurmSeries:
    """The Slurm usage of the simulated work, charged once as it happens.

    Starts from the state's ``slurm`` section. A job that starts adds a running charge
    (its CPUs × QOS usage factor, as ``fs import history`` rates it); one that ends gets
    its end; each cycle the usage is advanced to the last decay pass (``_apply_new_usage``
    and ``_apply_decay`` as the decay thread runs them every ``PriorityCalcPeriod``), which
    folds ended charges in. The cost of a cycle is that of the running charges and the
    associations, not of the work done so far.
    """

    def __init__(self, config: Config, section: Any) -> None:
        from fairshare_cli.core.slurm import model as slurm
        from fairshare_cli.core.slurm import tree_usage
        from fairshare_cli.core.slurm.fairshare import STALE_ACCOUNT_USAGE
        from fairshare_cli.core.slurm.usage import usage_from_json

        self.config = config
        self.params = tree_usage.decay_params(config)
        self.state = usage_from_json(section)
        self.algo = tree_usage.algorithm(config)
        #: whether a pass's tree holds until the next pass (see :meth:`_same_pass`)
        self.lasts = not self.params.charge_job_end and not (
            self.algo in STALE_ACCOUNT_USAGE and config.priority.usage_normalization == "total"
        )
        #: rates records exactly as an import would (association, QOS usage factor)
        self.sink = slurm.SlurmHistorySink(config, section, 0.0, False)
        self.open: dict[str, str] = {}  # job id -> the tag of its running charge
        #: jobs of the state's queue whose charges the state holds (``fs negotiate``, a
        #: running ``fs submit``): tagged by their own ids, ended as the ones begun here
        self.held = {r.job for r in self.state.running if r.job is not None and r.end is None}
        self.ended: dict[str, float] = {}  # tag -> end, applied at the next advance
        self.started = 0
        self.new: list[Any] = []  # running charges started since the last advance
        self._tree: tuple[float, float, Any] | None = None
        #: classic fair share: the simulation's pending jobs (its scheduler sets this) and
        #: the jobs started here, with when, for each user's usage at its first job in
        #: slurmctld's job list (:func:`~fairshare_cli.core.slurm.tree_usage.users_mid_pass`);
        #: their charges then carry their job ids, for that list's order
        self.pending: Callable[[], Iterable[Job]] | None = None
        self.began: dict[str, tuple[Job, float]] = {}
        self.tags = {r.job for r in self.state.running if r.job is not None}
        #: ``priority/basic``: no decay pass ever runs; the tree is the state's, throughout
        self.basic = config.priority.type == "basic"

    def start(self, job_id: str, job: Job, t: float) -> None:
        """A job starts at ``t``: a running charge from ``t`` on (none under
        ``priority/basic``).

        Raises:
            InputError: the job names an unknown QOS.
        """
        from fairshare_cli.core.slurm.usage import RunningCharge

        if self.basic:  # (no charge: priority/basic keeps no usage)
            return
        record = UsageRecord(
            owner=job.owner,
            start=t,
            end=None,
            account=job.account,
            partition=job.partition.split(",")[0] if job.partition else None,
            qos=job.qos,
            cpus=job.request_cpus,
        )
        billing = (
            self.sink.billing.of_job(job, record.partition) if self.sink.billing.active else None
        )
        charge = self.sink.key_and_rate(record, f"job {job_id}", billing)
        if charge is None:
            return
        (account, user), rate = charge
        self.started += 1
        tag = f"simulate:{self.started}"
        if self.algo == "classic" and job_id not in self.tags:  # (an id no charge has)
            tag = job_id
            self.tags.add(tag)
            self.began[job_id] = (job, t)
        self.open[job_id] = tag
        self.new.append(RunningCharge(account, user, rate, t, None, tag))

    def end(self, job_id: str, t: float) -> None:
        """A job that started here, or whose charge the state holds, ended at ``t`` (it is
        charged up to ``t``)."""
        tag = self.open.pop(job_id, None)
        self.began.pop(job_id, None)
        if tag is None and job_id in self.held:
            self.held.discard(job_id)
            tag = job_id
        if tag is not None:
            self.ended[tag] = t

    def tree(self, t: float) -> tuple[float, Any]:
        """The association tree with usage and fair share as the last decay pass before
        ``t`` left them, and that pass's time (once per ``t``)."""
        from fairshare_cli.core.slurm import usage as su
        from fairshare_cli.core.slurm.tree_usage import evaluate

        cached = self._tree
        if cached is not None and (
            (cached[0] == t and not self.ended) or self._same_pass(cached[1], t) or self.basic
        ):
            return cached[1], cached[2]
        if self.new:  # (kept aside: a tuple made again at each start costs the running jobs)
            self.state = replace(self.state, running=(*self.state.running, *self.new))
            self.new = []
        if self.ended:
            ended = self.ended
            running = tuple(
                r if r.job not in ended else replace(r, end=ended[r.job])
                for r in self.state.running
            )
            self.state = replace(self.state, running=running)
            self.ended = {}
        if not self.basic:
            self.state = su.advance(self.state, t, self.params)
        # The state is at its last pass: its running jobs add nothing to the usage there
        # (charged from the next pass on), so the tree need not charge them again.
        state = replace(self.state, running=()) if self.lasts else self.state
        when, tree = evaluate(self.config, state, t, self._listed())
        self._tree = (t, when, tree)
        return when, tree

    def _listed(self) -> Iterable[Job] | None:
        """Classic: slurmctld's job list at the last decay pass (any order): the pending
        jobs, and those started here since the pass (pending then) or, as the pass weighs
        running jobs too (``CALCULATE_RUNNING``), before it. None: no list (another
        algorithm, or no scheduler's jobs)."""
        if self.pending is None or self.algo != "classic":
            return None
        return itertools.chain(self.pending(), self._started_listed())

    def _started_listed(self) -> Iterator[Job]:
        from fairshare_cli.core.slurm.factors import parse_flags

        when = self.state.last_decay_ran
        weigh_running = "CALCULATE_RUNNING" in parse_flags(self.config.priority.flags)
        for job, began in self.began.values():
            status = "running" if when is not None and began < when else "idle"
            if status == "idle" or weigh_running:
                yield job if job.status == status else msgspec.structs.replace(job, status=status)

    def passes_between(self, first: float, t: float) -> list[float]:
        """The decay passes from ``first`` (a pass :meth:`tree` gave; included) up to the
        last at or before ``t`` (left out): those a cycle of ``t`` runs past."""
        from fairshare_cli.core.slurm.usage import last_pass

        period = self.params.calc_period
        upto = last_pass(self.state.last_decay_ran, t, period)
        return [first + k * period for k in range(max(0, round((upto - first) / period)))]

    def pass_tree(self, p: float) -> Any:
        """The association tree as the decay pass at ``p`` (one of :meth:`passes_between`)
        left it, with the jobs started and ended so far; the series stays as it is."""
        from fairshare_cli.core.slurm import usage as su
        from fairshare_cli.core.slurm.tree_usage import evaluate

        ended = self.ended
        running = tuple(
            r if r.job not in ended else replace(r, end=ended[r.job])
            for r in (*self.state.running, *self.new)
        )
        state = su.advance(replace(self.state, running=running), p, self.params)
        return evaluate(self.config, replace(state, running=()) if self.lasts else state, p)[1]

    def _same_pass(self, when: float, t: float) -> bool:
        """Whether the tree of the pass at ``when`` is also ``t``'s: no pass ran since, and
        what a pass does not see does not change it (the jobs that started or ended since
        are charged from the next pass on). Not so when a pass charges a job's end
        (``charge_job_end``, seen at ``t``), nor for the accounts' usage of classic and
        depth-oblivious fair share over root usage (taken from the running charges as
        they stand)."""
        from fairshare_cli.core.slurm.usage import last_pass

        if not self.lasts:
            return False
        return last_pass(self.state.last_decay_ran, t, self.params.calc_period) == when

    def factors(self, t: float) -> dict[str, float]:
        """The fair-share factor of each user association at ``t`` (``user`` or, for a user
        in several accounts, ``user (account)``)."""
        from fairshare_cli.core.slurm.fairshare import user_fairshare_factors

        _, tree = self.tree(t)
        compat = self.config.priority.output_compat if self.basic else None
        return user_fairshare_factors(tree, self.algo, compat)


def slurm_series_of(config: Config, section: Any) -> SlurmSeries | None:
    """The Slurm series of a simulation on top of the state's ``slurm`` section, or None
    when the config has no accounts."""
    return SlurmSeries(config, section) if config.accounts else None


def of_association(counts: dict[tuple[str, str | None], int], name: str, tree: Any) -> int:
    """What ``counts`` (by user and job account) holds for one user association's row:
    ``user`` (the user's only association) or ``user (account)``, whose count takes the
    jobs naming that account and, for the user's first association, those naming none
    (slurmctld gives such a job the user's default account)."""
    user, _, account = name.partition(" (")
    if not account:
        return sum(n for (u, _), n in counts.items() if u == user)
    account = account[:-1]
    first = tree.user_assoc(user, None)
    default = first is not None and first.account == account
    return sum(
        n for (u, a), n in counts.items() if u == user and (a == account or (a is None and default))
    )


def user_rows(
    series: SlurmSeries,
    t: float,
    cpus: dict[tuple[str, str | None], int],
    waiting: dict[tuple[str, str | None], int],
) -> list[SimRow]:
    """``fs simulate``'s rows at ``t`` per user association: its fair-share factor, CPUs
    in use and pending jobs (``cpus`` and ``waiting``: by user and job account)."""
    factors = series.factors(t)
    _, tree = series.tree(t)
    return [
        SimRow(
            t, "slurm_user", name, float(of_association(cpus, name, tree)),
            fairshare=factor, pending=of_association(waiting, name, tree),
        )
        for name, factor in sorted(factors.items())
    ]  # fmt: skip
