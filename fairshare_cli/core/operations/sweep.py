"""One point of ``fs sweep``: a simulation's result measured (the library API).

Which entities are measured follows the scheduler: HTCondor's accounting groups when the
config has groups (entitled by their quota), else its submitters (entitled by the inverse
of their priority factor, as the pie spin shares), and Slurm's users (entitled by their
associations' part of the cluster, :func:`slurm_user_shares`). Only entities that
wanted slots during the run (a job pending or running at some cycle) are measured; their
entitlements are rescaled to sum to 1. The formulas are :mod:`fairshare_cli.core.sweep.metrics`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.operations.sim_row import JobStart, SimRow
from fairshare_cli.core.operations.simulate import SimResult
from fairshare_cli.core.sweep import metrics

#: The point metrics (JSON keys), and whether a larger value is better.
METRICS = {
    "share_error": False,
    "jain": True,
    "wait_mean": False,
    "wait_p95": False,
    "utilization": True,
    "jobs_finished": True,
}


@dataclass(frozen=True)
class EntityMetrics:
    """One group, submitter or Slurm user of a point."""

    name: str
    share: float
    entitled: float
    wait_mean: float | None
    wait_p95: float | None
    jobs_started: int


@dataclass(frozen=True)
class PointMetrics:
    """What a point's run achieved (docs/sweep.md)."""

    share_error: float
    jain: float | None
    wait_mean: float | None
    wait_p95: float | None
    utilization: float | None
    jobs_finished: int
    groups: tuple[EntityMetrics, ...]

    def value(self, name: str) -> float | None:
        """The metric called ``name`` (one of :data:`METRICS`)."""
        found = getattr(self, name)
        return None if found is None else float(found)


@dataclass(frozen=True)
class Measured:
    """The entity rows a point is measured on: the row kind, how a row's name and a
    start's submitter map to an entity, and each entity's entitlement weight over the run."""

    kind: str
    entity_of_row: Callable[[str], str]
    entity_of_start: Callable[[str], str]
    weights: Callable[[Sequence[SimRow]], dict[str, float]]


def measured(config: Config, result: SimResult, scheduler: str, slurm_shares: Any) -> Measured:
    """What to measure for this scheduler and config (``slurm_shares``: each Slurm user's
    part of the cluster, :func:`slurm_user_shares`; unused for HTCondor)."""
    if scheduler == "slurm":
        return Measured(
            "slurm_user", _slurm_user, _slurm_user, lambda _rows: dict(slurm_shares or {})
        )
    from fairshare_cli.core.htcondor import accountant as acct

    if config.groups:
        tree = acct.GroupTree(config.groups)
        return Measured("group", _same, tree.group_of, _quota_weights)
    return Measured("submitter", _same, _same, lambda rows: _factor_weights(config, result, rows))


def _same(name: str) -> str:
    return name


def _slurm_user(name: str) -> str:
    return name.split(" (", 1)[0]


def _quota_weights(rows: Sequence[SimRow]) -> dict[str, float]:
    """A group's quota summed over the cycles."""
    out: dict[str, float] = {}
    for r in rows:
        out[r.name] = out.get(r.name, 0.0) + (r.quota or 0.0)
    return out


def _factor_weights(config: Config, result: SimResult, rows: Sequence[SimRow]) -> dict[str, float]:
    """1 / priority factor of each submitter at the end of the run (the default factor for
    one without a record)."""
    from fairshare_cli.core.htcondor import accountant as acct

    end = rows[-1].time if rows else 0.0
    records = acct.view(result.accountant, config, end)
    tree = acct.GroupTree(config.groups)
    out = {}
    for name in {r.name for r in rows}:
        rec = records.get(name)
        factor = (
            acct.priority_factor(rec, config, tree)
            if rec is not None
            else config.accountant.default_prio_factor
        )
        out[name] = 1.0 / factor if factor > 0 else 0.0
    return out


def point_metrics(
    config: Config, result: SimResult, scheduler: str, slurm_shares: Any = None
) -> PointMetrics:
    """The metrics of one simulated run (``result`` of
    :func:`~fairshare_cli.core.operations.simulate.simulate` under the point's config)."""
    how = measured(config, result, scheduler, slurm_shares)
    return measure(result.rows, result.starts, result.finished, how)


def measure(
    rows: Sequence[SimRow], starts: Sequence[JobStart], finished: int, how: Measured
) -> PointMetrics:
    """The metrics of rows and starts, measured as ``how`` says."""
    kind_rows = [r for r in rows if r.kind == how.kind]
    held: dict[str, float] = {}
    wanted: set[str] = set()
    for r in kind_rows:
        name = how.entity_of_row(r.name)
        held[name] = held.get(name, 0.0) + r.slots
        if r.slots > 0 or (r.pending or 0) > 0:
            wanted.add(name)
    for r in rows:  # groups: demand is seen on their submitters' rows
        if r.kind == "submitter" and (r.pending or 0) > 0:
            wanted.add(how.entity_of_start(r.name))
    waits = _first_waits(starts, how.entity_of_start)
    wanted |= set(waits)
    weights = {n: w for n, w in how.weights(kind_rows).items() if n in wanted}
    entitled = metrics.shares({n: weights.get(n, 0.0) for n in sorted(wanted)})
    achieved = metrics.shares({n: held.get(n, 0.0) for n in sorted(wanted)})
    every_wait = [w for ws in waits.values() for w in ws]
    pool = [r for r in rows if r.kind == "pool"]
    groups = tuple(
        EntityMetrics(
            n,
            achieved[n],
            entitled[n],
            metrics.mean(waits.get(n, [])),
            metrics.percentile(waits.get(n, []), 0.95),
            len(waits.get(n, [])),
        )
        for n in sorted(wanted)
    )
    return PointMetrics(
        share_error=metrics.share_error(achieved, entitled),
        jain=metrics.jain_index(achieved, entitled),
        wait_mean=metrics.mean(every_wait),
        wait_p95=metrics.percentile(every_wait, 0.95),
        utilization=metrics.utilization([r.slots for r in pool], [r.capacity or 0 for r in pool]),
        jobs_finished=finished,
        groups=groups,
    )


def _first_waits(
    starts: Sequence[JobStart], entity_of: Callable[[str], str]
) -> dict[str, list[float]]:
    """Submit-to-start waits by entity, each job counted at its first start."""
    seen: set[str] = set()
    out: dict[str, list[float]] = {}
    for s in starts:
        if s.job_id in seen:
            continue
        seen.add(s.job_id)
        out.setdefault(entity_of(s.submitter), []).append(s.start_time - s.submit_time)
    return out


def slurm_user_shares(config: Config, section: Any, now: float) -> dict[str, float]:
    """Each Slurm user's part of the cluster by the association tree at ``now``, summed
    over the user's associations: ``shares_norm`` as the classic algorithms keep it (the
    level ratio chained down from the root), or under Fair Tree, which keeps the level
    ratio alone (``_calc_assoc_fs`` in fair_tree.c), the product of the level ratios from
    the root down."""
    from fairshare_cli.core.operations.slurm_series import SlurmSeries

    series = SlurmSeries(config, section)
    _, tree = series.tree(now)
    chained = series.algo != "fair_tree"
    out: dict[str, float] = {}
    path: list[tuple[int, float]] = []  # (depth, part) of the ancestors
    for assoc in tree.in_lineage_order():
        while path and path[-1][0] >= assoc.depth:
            path.pop()
        if not path:
            part = 1.0  # the root holds the whole cluster
        elif chained:
            part = float(assoc.shares_norm)
        else:
            part = path[-1][1] * float(assoc.shares_norm)
        path.append((assoc.depth, part))
        if assoc.user is not None:
            out[str(assoc.user)] = out.get(str(assoc.user), 0.0) + part
    return out


def entity_series(rows: Sequence[SimRow], how: Measured) -> dict[str, Any]:
    """Per cycle: the times, each entity's slots and the pool's slots in use (the share
    over time plots)."""
    times: list[float] = []
    slots: dict[str, list[float]] = {}
    for r in rows:
        if not times or times[-1] != r.time:
            times.append(r.time)
            for values in slots.values():
                values.append(0.0)
        if r.kind == how.kind:
            name = how.entity_of_row(r.name)
            values = slots.setdefault(name, [0.0] * len(times))
            values[-1] += r.slots
    return {"time": times, "slots": slots}


def metrics_json(found: PointMetrics) -> dict[str, Any]:
    """A point's metrics as the JSON object of docs/sweep.md (without its index and keys)."""
    return {
        "share_error": found.share_error,
        "jain": found.jain,
        "wait_mean": found.wait_mean,
        "wait_p95": found.wait_p95,
        "utilization": found.utilization,
        "jobs_finished": found.jobs_finished,
        "groups": [
            {
                "name": g.name,
                "share": g.share,
                "entitled": g.entitled,
                "wait_mean": g.wait_mean,
                "wait_p95": g.wait_p95,
                "jobs_started": g.jobs_started,
            }
            for g in found.groups
        ],
    }


def rank_points(results: Sequence[Mapping[str, Any]], objective: str) -> list[Mapping[str, Any]]:
    """Point results best first by ``objective`` (a missing value last; ties by index)."""
    larger = METRICS[objective]

    def key(r: Mapping[str, Any]) -> tuple[bool, float, int]:
        value = r.get(objective)
        if value is None:
            return (True, 0.0, int(r["index"]))
        return (False, -float(value) if larger else float(value), int(r["index"]))

    return sorted(results, key=key)
