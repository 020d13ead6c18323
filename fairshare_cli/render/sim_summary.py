"""``fs simulate``'s default table: one line per submitter, group, Slurm user and the pool.

A run of a day at one-minute cycles is tens of thousands of rows; what a reader wants
from it first is who held how much. So the table sums each entity's series up: its mean
and largest holding, and at the last cycle its holding, effective priority (submitters),
quota (groups), fair-share factor (Slurm users) and idle jobs. ``--series`` (or any
``--output`` other than table) prints every row of every cycle instead. The sums are kept
as the rows arrive (:class:`Summary`), so a month of cycles is never held to be summed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fairshare_cli.core.jsontext import iso
from fairshare_cli.core.operations.sim_row import SimRow

#: Entities in this order: submitters, groups, Slurm users, then the pool.
KIND_ORDER = ("submitter", "group", "slurm_user", "pool")


@dataclass(frozen=True)
class EntitySummary:
    """One entity's series summed up (``last`` is its row at the last cycle)."""

    kind: str
    name: str
    cycles: int
    mean_slots: float
    max_slots: float
    last: SimRow


class _Series:
    """One entity's rows so far: how many, the sum and the largest of their slots, the last."""

    __slots__ = ("count", "last", "top", "total")

    def __init__(self, row: SimRow) -> None:
        self.count = 1
        self.total = 0 + row.slots  # as sum() starts: 0 + -0.0 is 0.0
        self.top = row.slots
        self.last = row


class Summary:
    """Each entity's series summed up as its rows arrive, in any number of pieces: one
    entry per entity and the cycle times seen, never the rows.

    The sum adds the slots one after another from 0, as :func:`sum` did over the whole
    series (Python 3.11), and the largest is the first of the largest, as :func:`max`.
    """

    def __init__(self, rows: Iterable[SimRow] = ()) -> None:
        self._series: dict[tuple[str, str], _Series] = {}
        self.times: set[float] = set()
        self.add(rows)

    def add(self, rows: Iterable[SimRow]) -> None:
        """Count ``rows`` in (a cycle's, or any run of rows in time order)."""
        series, times = self._series, self.times
        for r in rows:
            times.add(r.time)
            e = series.get((r.kind, r.name))
            if e is None:
                series[(r.kind, r.name)] = _Series(r)
                continue
            e.count += 1
            e.total += r.slots
            if r.slots > e.top:
                e.top = r.slots
            e.last = r

    def entities(self) -> list[EntitySummary]:
        """Every entity (in :data:`KIND_ORDER`, then by name), summed up. The mean is over
        every cycle of the run: an entity first seen at a later cycle (a submitter whose
        first job came then) held nothing before, as the pool's row counts it."""
        order = {k: i for i, k in enumerate(KIND_ORDER)}
        cycles = len(self.times)
        return [
            EntitySummary(kind, name, e.count, e.total / cycles, e.top, e.last)
            for (kind, name), e in sorted(
                self._series.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0])
            )
        ]


def summarize(rows: Iterable[SimRow]) -> list[EntitySummary]:
    """Every entity of ``rows`` (in :data:`KIND_ORDER`, then by name), summed up."""
    return Summary(rows).entities()


def _num(value: float | int | None, spec: str) -> str:
    return "" if value is None else format(value, spec)


def summary_table(rows: Sequence[SimRow], policy: Sequence[str] | None = None) -> str:
    """The summary as fixed-width text: a line saying what was run, then one line per
    entity. ``policy`` (one label per row, ``fs whatif``) sums each policy up apart."""
    if policy is None:
        return summary_text([("", Summary(rows))])
    runs = [
        (p, Summary(r for r, q in zip(rows, policy, strict=True) if q == p))
        for p in dict.fromkeys(policy)
    ]
    return summary_text(runs, tagged=True)


def _what_ran(runs: Sequence[tuple[str, Summary]], times: Sequence[float]) -> str:
    """The line over the table: the cycles run; each run's, when the runs cycled apart (a
    changed ``negotiator.interval``), as each run's means are over its own cycles."""
    spans = [(tag, sorted(s.times)) for tag, s in runs if s.times]
    if len({tuple(t) for _, t in spans}) < 2:
        return f"{_cycles(times)}; means are over the cycles (--series prints every cycle)"
    ran = "; ".join(f"{tag}: {_cycles(t)}" for tag, t in spans)
    return f"{ran}; means are over each run's cycles (--series prints every cycle)"


def _cycles(times: Sequence[float]) -> str:
    """``3 cycles from A to B``; ``1 cycle at A`` (it was ``1 cycles from A to A``)."""
    if len(times) == 1:
        return f"1 cycle at {iso(times[0])}"
    return f"{len(times)} cycles from {iso(times[0])} to {iso(times[-1])}"


def summary_text(runs: Sequence[tuple[str, Summary]], tagged: bool = False) -> str:
    """:func:`summary_table`'s text of summaries, each under its label (``tagged``: a first
    column ``Policy``)."""
    times = sorted(set().union(*(s.times for _, s in runs)))
    if not times:
        return "(nothing simulated)\n"
    head = f"{'Policy':<7}" if tagged else ""
    lines = [
        _what_ran(runs, times),
        f"{head}{'Kind':<10} {'Name':<36} {'MeanSlots':>10} {'MaxSlots':>9} {'EndSlots':>9} "
        f"{'EffPrio':>12} {'Quota':>9} {'FairShare':>9} {'Pending':>8}",
    ]
    for tag, summary in runs:
        for s in summary.entities():
            r = s.last
            label = f"{tag:<7}" if tagged else ""
            lines.append(
                f"{label}{s.kind:<10} {s.name:<36} {s.mean_slots:>10.2f} {s.max_slots:>9.0f} "
                f"{r.slots:>9.0f} {_num(r.effective_priority, '12.2f'):>12} "
                f"{_num(r.quota, '9.2f'):>9} {_num(r.fairshare, '9.6f'):>9} "
                f"{_num(r.pending, '8d'):>8}".rstrip()
            )
    return "\n".join(lines) + "\n"
