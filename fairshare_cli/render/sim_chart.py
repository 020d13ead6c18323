"""A small chart of a simulation for the terminal: one sparkline of slots held per entity."""

from __future__ import annotations

from collections.abc import Sequence

from fairshare_cli.core.operations.sim_row import SimRow

BARS = " ▁▂▃▄▅▆▇█"


def spark_chart(
    rows: Sequence[SimRow], width: int = 60, after: Sequence[SimRow] | None = None
) -> str:
    """Slots held per submitter (CPUs per Slurm user) over time, one line each.

    Each line has ``width`` columns at most, each the mean over its share of the cycles,
    scaled so that a full bar is the pool's capacity (or the largest value when there are
    no pool rows); the last figure is what the entity holds at the end. With ``after``
    (``fs whatif ... simulate``) each entity has two lines, ``before`` and ``after``.
    """
    kind = "submitter" if any(r.kind == "submitter" for r in rows) else "slurm_user"
    runs = [("", rows)] if after is None else [(" before", rows), (" after", after)]
    series: dict[str, list[float]] = {}
    for name in sorted({r.name for _, run in runs for r in run if r.kind == kind}):
        for tag, run in runs:
            series[name + tag] = [r.slots for r in run if r.kind == kind and r.name == name]
    if not series:
        return ""
    capacity = max((r.capacity or 0.0 for r in rows if r.kind == "pool"), default=0.0)
    top = capacity or max((max(v) for v in series.values() if v), default=0.0) or 1.0
    label = max(len(name) for name in series)
    what = "slots held" if kind == "submitter" else "CPUs in use"
    lines = [f"{what} over time (a full bar is {top:g}):"]
    for name, values in series.items():
        cells = min(width, len(values))
        line = ""
        for c in range(cells):
            part = values[c * len(values) // cells : (c + 1) * len(values) // cells]
            mean = sum(part) / len(part)
            line += BARS[min(round(mean / top * (len(BARS) - 1)), len(BARS) - 1)]
        end = f"{values[-1]:g}" if values else "-"
        lines.append(f"{name:<{label}} |{line}| {end}")
    return "\n".join(lines) + "\n"
