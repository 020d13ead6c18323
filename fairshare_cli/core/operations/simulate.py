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
kept as they change, the pool's slots are built once (a
:class:`~fairshare_cli.core.htcondor.negotiator.frozen_pool.FrozenPool`, its dynamic slots
too with partitionable slots), and
the Slurm series charges each cycle's work once
(:class:`~.slurm_series.SlurmSeries`). A cycle with no idle job, or with no free slot when
no claimed slot can be taken, matches nothing and is not negotiated (only without groups,
whose round-robin times a cycle moves). ``tests/core/operations/simulate_reference.py``
keeps the plain loop for tests.

:func:`simulate` returns every row; :class:`Simulation` hands them over a cycle at a time,
for callers that keep only part of them (``fs simulate``'s summary and its json writer).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.sim_queue import SimQueue
from fairshare_cli.core.operations.sim_row import JobStart, SimRow
from fairshare_cli.core.operations.sim_slurm import SlurmSim
from fairshare_cli.core.operations.slurm_series import SlurmSeries


@dataclass(frozen=True)
class SimResult:
    """All rows in time order (from :func:`simulate`; what the caller kept, from
    :class:`Simulation`), and the final queue, accountant and claims.

    ``jobs`` is the live queue at the end (idle batches, then running jobs): finished jobs
    have left it. ``starts`` lists the jobs that started during the run, in order, and
    ``finished`` counts the jobs that ended during it.
    """

    rows: tuple[SimRow, ...]
    jobs: tuple[Job, ...]
    accountant: acct.AccountantState
    negotiator: NegotiatorState
    cycles: int
    starts: tuple[JobStart, ...] = ()
    finished: int = 0


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
            rows); see :func:`~.slurm_series.slurm_series_of`.
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
    run = Simulation(
        config,
        (accountant, negotiator),
        (queue, workload),
        window,
        slurm=slurm,
        progress=progress,
        scheduler=scheduler,
        backfill=backfill,
    )
    return run.collect()


class Simulation:
    """:func:`simulate` a cycle at a time: iterating runs the cycles (once), each giving its
    rows; :meth:`result` is then the final state. A caller that needs only part of the
    rows (a summary line per entity, rows written as they come) keeps only that part: a
    month of one-minute cycles on a large pool is tens of millions of rows.

    The arguments are :func:`simulate`'s, the accountant with the negotiator's claims and
    the queue with the workload each given as a pair; ``starts=False`` forgets the jobs
    that started (a million in a month) once each cycle is over, and ``starts`` of the
    result is then empty.

    Raises:
        ValueError: ``"slurm"`` without a Slurm series.
    """

    def __init__(  # noqa: PLR0913  simulate's arguments, then keyword options
        self,
        config: Config,
        htcondor: tuple[acct.AccountantState, NegotiatorState],
        jobs: tuple[Sequence[Job | JobBatch], Sequence[Job | JobBatch]],
        window: SimWindow,
        *,
        slurm: SlurmSeries | None = None,
        progress: Callable[[float], None] | None = None,
        scheduler: str = "htcondor",
        backfill: bool = False,
        starts: bool = True,
    ) -> None:
        self._htcondor = htcondor
        self._starts = starts
        self._sim: SimQueue | SlurmSim
        if scheduler == "slurm":
            if slurm is None:
                raise ValueError("the slurm scheduler needs accounts (a Slurm series)")
            self._sim = SlurmSim(config, slurm, jobs[0], jobs[1], window.start, backfill)
        else:
            self._sim = SimQueue(config, *htcondor, jobs[0], jobs[1], window.start, slurm)
        self._times = cycle_times(window.start, window.until, window.cycle)
        self._progress = progress

    def __iter__(self) -> Iterator[list[SimRow]]:
        """Each cycle's rows, in time order, the cycle run as its rows are asked for."""
        sim, progress, times = self._sim, self._progress, self._times
        step = sim.schedule if isinstance(sim, SlurmSim) else sim.negotiate
        for k, t in enumerate(times):
            sim.finish_jobs(t)
            sim.submit_due(t)
            step(t)
            if not self._starts:
                sim.starts.clear()
            yield sim.rows(t)
            if progress is not None:
                progress((k + 1) / len(times))

    def collect(self) -> SimResult:
        """Run every cycle and keep every row (:func:`simulate`'s result)."""
        rows: list[SimRow] = []
        for cycle in self:
            rows.extend(cycle)
        return self.result(tuple(rows))

    def result(self, rows: tuple[SimRow, ...] = ()) -> SimResult:
        """The final state (after the last cycle) with ``rows``, what the caller kept."""
        sim, cycles = self._sim, len(self._times)
        if isinstance(sim, SlurmSim):
            accountant, negotiator = self._htcondor
            return SimResult(
                rows, (), accountant, negotiator, cycles, tuple(sim.starts), sim.finished
            )
        return SimResult(
            rows,
            sim.live_jobs(),
            sim.accountant,
            sim.negotiator(),
            cycles,
            tuple(sim.starts),
            sim.finished,
        )


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
