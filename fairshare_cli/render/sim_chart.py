"""A small chart of a simulation for the terminal: one sparkline of slots held per entity."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from fairshare_cli.core.operations.sim_row import SimRow

BARS = " ▁▂▃▄▅▆▇█"


class ChartSeries:
    """What the chart needs of a run, kept as its rows arrive: the cycle times, each
    submitter's and Slurm user's slots at every cycle (8 bytes a cycle; 0 at the cycles
    before its first row, as it held nothing then), and the pool's largest capacity."""

    def __init__(self, rows: Iterable[SimRow] = ()) -> None:
        #: the time of each cycle
        self.times: array[float] = array("d")
        #: (kind, name) -> slots held, a value a cycle
        self.series: dict[tuple[str, str], array[float]] = {}
        self.capacity: float | None = None  # None: no pool rows
        self.add(rows)

    def add(self, rows: Iterable[SimRow]) -> None:
        """Keep what the chart needs of ``rows`` (in time order)."""
        series, times = self.series, self.times
        for r in rows:
            if not times or r.time != times[-1]:
                times.append(r.time)
            if r.kind == "submitter" or r.kind == "slurm_user":
                values = series.get((r.kind, r.name))
                if values is None:
                    values = series[(r.kind, r.name)] = array("d")
                if len(values) < len(times) - 1:  # (no row at the cycles before)
                    values.extend([0.0] * (len(times) - 1 - len(values)))
                values.append(r.slots)
            elif r.kind == "pool":
                capacity = r.capacity or 0.0
                if self.capacity is None or capacity > self.capacity:
                    self.capacity = capacity

    def at(self, key: tuple[str, str], grid: Sequence[float]) -> array[float]:
        """The slots of ``key`` at each time of ``grid`` (which holds this run's cycle
        times): what its last cycle at or before that time left it holding."""
        values = self.series.get(key, array("d"))
        if len(values) == len(grid) and list(self.times) == list(grid):
            return values
        out: array[float] = array("d")
        for t in grid:
            k = bisect_right(self.times, t) - 1
            out.append(values[k] if 0 <= k < len(values) else 0.0)
        return out

    def kind(self) -> str:
        """Submitters when the run has any, else Slurm users."""
        return "submitter" if any(k == "submitter" for k, _ in self.series) else "slurm_user"


def spark_chart(
    rows: Sequence[SimRow], width: int = 60, after: Sequence[SimRow] | None = None
) -> str:
    """Slots held per submitter (CPUs per Slurm user) over time, one line each.

    Each line has ``width`` columns at most, each the mean over its share of the cycles
    (an entity's first row at a later cycle: it held nothing before; runs that cycled
    apart are drawn over all their cycle times, each holding what its last cycle left),
    scaled so that a full bar is the pool's capacity (or the largest value when there are
    no pool rows); the last figure is what the entity holds at the end. With ``after``
    (``fs whatif ... simulate``) each entity has two lines, ``before`` and ``after``.
    """
    if after is None:
        return chart_text([("", ChartSeries(rows))], width)
    return chart_text([(" before", ChartSeries(rows)), (" after", ChartSeries(after))], width)


def chart_text(runs: Sequence[tuple[str, ChartSeries]], width: int = 60) -> str:
    """:func:`spark_chart` of runs kept as they came (each labelled; the first run picks
    the kind of entity and the capacity)."""
    kind = runs[0][1].kind()
    names = sorted({name for _, run in runs for k, name in run.series if k == kind})
    grid = sorted(set().union(*(run.times for _, run in runs)))  # (runs that cycled apart)
    series = {name + tag: run.at((kind, name), grid) for name in names for tag, run in runs}
    if not series:
        return ""
    capacity = runs[0][1].capacity or 0.0
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
