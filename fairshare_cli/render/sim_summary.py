"""``fs simulate``'s default table: one line per submitter, group, Slurm user and the pool.

A run of a day at one-minute cycles is tens of thousands of rows; what a reader wants
from it first is who held how much. So the table sums each entity's series up: its mean
and largest holding, and at the last cycle its holding, effective priority (submitters),
quota (groups), fair-share factor (Slurm users) and idle jobs. ``--series`` (or any
``--output`` other than table) prints every row of every cycle instead.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def summarize(rows: Sequence[SimRow]) -> list[EntitySummary]:
    """Every entity of ``rows`` (in :data:`KIND_ORDER`, then by name), summed up."""
    series: dict[tuple[str, str], list[SimRow]] = {}
    for r in rows:
        series.setdefault((r.kind, r.name), []).append(r)
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    out = []
    for (kind, name), run in sorted(
        series.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0])
    ):
        slots = [r.slots for r in run]
        out.append(
            EntitySummary(kind, name, len(run), sum(slots) / len(slots), max(slots), run[-1])
        )
    return out


def _num(value: float | int | None, spec: str) -> str:
    return "" if value is None else format(value, spec)


def summary_table(rows: Sequence[SimRow], policy: Sequence[str] | None = None) -> str:
    """The summary as fixed-width text: a line saying what was run, then one line per
    entity. ``policy`` (one label per row, ``fs whatif``) sums each policy up apart."""
    if not rows:
        return "(nothing simulated)\n"
    runs: list[tuple[str, list[SimRow]]] = [("", list(rows))]
    if policy is not None:
        runs = [
            (p, [r for r, q in zip(rows, policy, strict=True) if q == p])
            for p in dict.fromkeys(policy)
        ]
    times = sorted({r.time for r in rows})
    head = "" if policy is None else f"{'Policy':<7}"
    lines = [
        f"{len(times)} cycles from {iso(times[0])} to {iso(times[-1])}; means are over the "
        "cycles (--series prints every cycle)",
        f"{head}{'Kind':<10} {'Name':<36} {'MeanSlots':>10} {'MaxSlots':>9} {'EndSlots':>9} "
        f"{'EffPrio':>12} {'Quota':>9} {'FairShare':>9} {'Pending':>8}",
    ]
    for tag, run in runs:
        for s in summarize(run):
            r = s.last
            label = "" if policy is None else f"{tag:<7}"
            lines.append(
                f"{label}{s.kind:<10} {s.name:<36} {s.mean_slots:>10.2f} {s.max_slots:>9.0f} "
                f"{r.slots:>9.0f} {_num(r.effective_priority, '12.2f'):>12} "
                f"{_num(r.quota, '9.2f'):>9} {_num(r.fairshare, '9.6f'):>9} "
                f"{_num(r.pending, '8d'):>8}".rstrip()
            )
    return "\n".join(lines) + "\n"
