"""Draw a simulation to a PNG with matplotlib (an optional dependency: the ``plot`` extra)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from fairshare_cli.core.operations.simulate import SimRow
from fairshare_cli.errors import InputError

#: Markers cycled with the colours, so two series that coincide both stay visible.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")


def series_of(rows: Sequence[SimRow]) -> tuple[str, dict[str, list[tuple[float, float, float]]]]:
    """The entities drawn, by name: ``(time, slots, priority or factor)`` per cycle.

    HTCondor runs draw submitters (effective priority); Slurm runs, which have no
    submitter rows, draw user associations (fair-share factor).

    Returns:
        ``"submitter"`` or ``"slurm_user"``, and the series.
    """
    kind = "submitter" if any(r.kind == "submitter" for r in rows) else "slurm_user"
    out: dict[str, list[tuple[float, float, float]]] = {}
    for r in rows:
        if r.kind == kind:
            value = r.effective_priority if kind == "submitter" else r.fairshare
            out.setdefault(r.name, []).append(
                (r.time, r.slots, math.nan if value is None else value)
            )
    return kind, out


def wants_log(values: Sequence[float]) -> bool:
    """A log scale only when the positive values span more than two decades."""
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    return bool(positive) and max(positive) / min(positive) > 100


def plot_simulation(rows: Sequence[SimRow], path: str) -> None:
    """Slots held per submitter (or CPUs per Slurm user) with the pool's capacity (top), and
    effective priority (or fair-share factor) below; distinct colours and markers, the
    legend outside the axes.

    Raises:
        InputError: matplotlib is not installed, or the file cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "--plot needs matplotlib: pip install 'fairshare-cli[plot]' (or matplotlib)"
        ) from None
    kind, series = series_of(rows)
    t0 = min((r.time for r in rows), default=0.0)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    cmap = plt.get_cmap("tab10" if len(series) <= 10 else "tab20")
    colours = [cmap(i) for i in range(cmap.N)]
    values: list[float] = []
    for k, (name, points) in enumerate(sorted(series.items())):
        xs = [(t - t0) / 3600.0 for t, _, _ in points]
        style: dict[str, Any] = {
            "color": colours[k % len(colours)],
            "marker": MARKERS[k % len(MARKERS)],
            "markevery": (k % 5, max(len(xs) // 12, 1)),  # staggered: coinciding lines show
            "markersize": 5,
            "label": name,
        }
        top.step(xs, [s for _, s, _ in points], where="post", **style)
        bottom.plot(xs, [v for _, _, v in points], **style)
        values += [v for _, _, v in points]
    pool = [r for r in rows if r.kind == "pool"]
    if pool:
        top.step(
            [(r.time - t0) / 3600.0 for r in pool],
            [r.capacity or 0.0 for r in pool],
            where="post",
            color="black",
            linestyle="--",
            label="pool capacity",
        )
    top.set_ylabel("slots held" if kind == "submitter" else "CPUs in use")
    bottom.set_ylabel("effective priority" if kind == "submitter" else "fair-share factor")
    if wants_log(values):
        bottom.set_yscale("log")
    bottom.set_xlabel("hours since start")
    top.set_title("fs simulate")
    top.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", bbox_inches="tight")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
