"""Run negotiation cycles forward in time over a workload (``fs simulate``).

Each cycle at time ``t``: the accountant is updated (``UpdatePriorities``), jobs whose
``run_time`` is up are seen to have finished (``CheckMatches``: their slots were charged up
to ``t``, as HTCondor sees an end at the next cycle), workload jobs whose ``submit_time``
has come join the queue, one negotiation cycle runs and its matches are committed
(``AddMatch``), and a row per submitter, group and Slurm user records what each holds
afterwards. Everything is a function of the inputs; nothing reads a clock or a file.

Cost grows with what changes, not with the queue (the queue and its bookkeeping are in
:mod:`.sim_queue`): idle jobs stay batches (a count, not N objects) until they start,
finished jobs leave, the jobs that end are popped from a heap, the counts each row needs are
kept as they change, and the Slurm series charges each cycle's work once
(:class:`SlurmSeries`). A cycle with no idle job, or with no free slot when no claimed slot
can be taken, matches nothing and is not negotiated (only without groups, whose round-robin
times a cycle moves). :mod:`.simulate_reference` keeps the plain loop for tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.usage import UsageRecord


@dataclass(frozen=True)
class SimRow:
    """One entity after one cycle (docs/json.md ``simulate`` fields)."""

    time: float
    kind: str  # "submitter" | "group" | "slurm_user" | "pool"
    name: str
    slots: float
    effective_priority: float | None = None
    quota: float | None = None
    fairshare: float | None = None
    #: idle jobs (submitters and the pool; pending jobs for Slurm users)
    pending: int | None = None
    #: the pool's slots (pool rows)
    capacity: float | None = None


@dataclass(frozen=True)
class SimResult:
    """All rows in time order, and the final queue, accountant and claims.

    ``jobs`` is the live queue at the end (idle batches, then running jobs): finished jobs
    have left it.
    """

    rows: tuple[SimRow, ...]
    jobs: tuple[Job, ...]
    accountant: acct.AccountantState
    negotiator: NegotiatorState
    cycles: int


def cycle_times(start: float, until: float, cycle: float) -> list[float]:
    """``start, start + cycle, …`` up to and including ``start + until``."""
    if cycle <= 0:
        raise ValueError("cycle must be positive")
    n = math.floor(until / cycle + 1e-9)
    return [start + k * cycle for k in range(n + 1)]


@dataclass(frozen=True)
class SimWindow:
    """When the simulation runs: from ``start``, a cycle every ``cycle`` seconds, until
    ``start + until``."""

    start: float
    until: float
    cycle: float


def simulate(  # noqa: PLR0913  the library API: six inputs, then keyword options
    config: Config,
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    queue: Sequence[Job | JobBatch],
    workload: Sequence[Job | JobBatch],
    window: SimWindow,
    *,
    slurm: SlurmSeries | None = None,
    progress: Callable[[float], None] | None = None,
    scheduler: str = "htcondor",
    backfill: bool = False,
) -> SimResult:
    """Run cycles from ``window.start`` every ``window.cycle`` seconds until the end.

    Args:
        config: the pool config.
        accountant: the accountant at the start.
        negotiator: claims and round-robin times at the start.
        queue: the jobs already in the queue (running ones keep their slots).
        workload: jobs (or batches of identical jobs) to submit at their ``submit_time``
            (none: at the start); a job with ``run_time`` finishes that long after it starts.
        window: start, length and cycle interval.
        slurm: the Slurm usage the simulated work is charged to (None: no ``slurm_user``
            rows); see :func:`slurm_series_of`.
        progress: called with the fraction done after each cycle.
        scheduler: ``"htcondor"`` (negotiation cycles) or ``"slurm"`` (multifactor
            priority order on the partitions' nodes, :mod:`.sim_slurm`; needs ``slurm``).
        backfill: with ``"slurm"``, Slurm's backfill for jobs with time limits.

    Returns:
        The rows of every cycle and the final state (with ``"slurm"``, the accountant and
        negotiator as they came in, and no jobs).

    Raises:
        ValueError: ``"slurm"`` without a Slurm series.
    """
    from fairshare_cli.core.operations.sim_queue import SimQueue

    if scheduler == "slurm":
        if slurm is None:
            raise ValueError("the slurm scheduler needs accounts (a Slurm series)")
        return _simulate_slurm(
            config, slurm, queue, workload, window, progress, backfill, (accountant, negotiator)
        )

    sim = SimQueue(config, accountant, negotiator, queue, workload, window.start, slurm)
    rows: list[SimRow] = []
    times = cycle_times(window.start, window.until, window.cycle)
    for k, t in enumerate(times):
        sim.finish_jobs(t)
        sim.submit_due(t)
        sim.negotiate(t)
        rows.extend(sim.rows(t))
        if progress is not None:
            progress((k + 1) / len(times))
    return SimResult(tuple(rows), sim.live_jobs(), sim.accountant, sim.negotiator(), len(times))


def _simulate_slurm(
    config: Config,
    slurm: SlurmSeries,
    queue: Sequence[Job | JobBatch],
    workload: Sequence[Job | JobBatch],
    window: SimWindow,
    progress: Callable[[float], None] | None,
    backfill: bool,
    htcondor: tuple[acct.AccountantState, NegotiatorState],
) -> SimResult:
    from fairshare_cli.core.operations.sim_slurm import SlurmSim

    sim = SlurmSim(config, slurm, queue, workload, window.start, backfill)
    rows: list[SimRow] = []
    times = cycle_times(window.start, window.until, window.cycle)
    for k, t in enumerate(times):
        sim.finish_jobs(t)
        sim.submit_due(t)
        sim.schedule(t)
        rows.extend(sim.rows(t))
        if progress is not None:
            progress((k + 1) / len(times))
    return SimResult(tuple(rows), (), htcondor[0], htcondor[1], len(times))


def simulate_rows_json(rows: Sequence[SimRow]) -> list[dict[str, Any]]:
    """Rows as the ``simulate`` JSON objects of docs/json.md (times still epoch seconds)."""
    return [
        {
            "time": r.time,
            "kind": r.kind,
            "name": r.name,
            "slots": r.slots,
            "effective_priority": r.effective_priority,
            "quota": r.quota,
            "fairshare": r.fairshare,
            "pending": r.pending,
            "capacity": r.capacity,
        }
        for r in rows
    ]


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
        from fairshare_cli.core.slurm.usage import usage_from_json

        self.config = config
        self.params = tree_usage.decay_params(config)
        self.state = usage_from_json(section)
        self.algo = tree_usage.algorithm(config)
        #: rates records exactly as an import would (association, QOS usage factor)
        self.sink = slurm.SlurmHistorySink(config, section, 0.0, False)
        self.open: dict[str, str] = {}  # job id -> the tag of its running charge
        self.ended: dict[str, float] = {}  # tag -> end, applied at the next advance
        self.started = 0
        self._tree: tuple[float, float, Any] | None = None

    def start(self, job_id: str, job: Job, t: float) -> None:
        """A job starts at ``t``: a running charge from ``t`` on.

        Raises:
            InputError: the job names an unknown QOS.
        """
        from fairshare_cli.core.slurm.usage import RunningCharge

        record = UsageRecord(
            owner=job.owner,
            start=t,
            end=None,
            account=job.account,
            partition=job.partition.split(",")[0] if job.partition else None,
            qos=job.qos,
            cpus=job.request_cpus,
        )
        charge = self.sink.key_and_rate(record, f"job {job_id}")
        if charge is None:
            return
        (account, user), rate = charge
        self.started += 1
        tag = f"simulate:{self.started}"
        self.open[job_id] = tag
        running = (*self.state.running, RunningCharge(account, user, rate, t, None, tag))
        self.state = replace(self.state, running=running)

    def end(self, job_id: str, t: float) -> None:
        """A job that started here ended at ``t`` (it is charged up to ``t``)."""
        tag = self.open.pop(job_id, None)
        if tag is not None:
            self.ended[tag] = t
            self._tree = None

    def tree(self, t: float) -> tuple[float, Any]:
        """The association tree with usage and fair share as the last decay pass before
        ``t`` left them, and that pass's time (once per ``t``)."""
        from fairshare_cli.core.slurm import usage as su
        from fairshare_cli.core.slurm.tree_usage import evaluate

        if self._tree is not None and self._tree[0] == t:
            return self._tree[1], self._tree[2]
        if self.ended:
            ended = self.ended
            running = tuple(
                r if r.job not in ended else replace(r, end=ended[r.job])
                for r in self.state.running
            )
            self.state = replace(self.state, running=running)
            self.ended = {}
        self.state = su.advance(self.state, t, self.params)
        when, tree = evaluate(self.config, self.state, t)
        self._tree = (t, when, tree)
        return when, tree

    def factors(self, t: float) -> dict[str, float]:
        """The fair-share factor of each user association at ``t`` (``user`` or, for a user
        in several accounts, ``user (account)``)."""
        from fairshare_cli.core.slurm.fairshare import user_fairshare_factors

        _, tree = self.tree(t)
        return user_fairshare_factors(tree, self.algo)


def slurm_series_of(config: Config, section: Any) -> SlurmSeries | None:
    """The Slurm series of a simulation on top of the state's ``slurm`` section, or None
    when the config has no accounts."""
    return SlurmSeries(config, section) if config.accounts else None
