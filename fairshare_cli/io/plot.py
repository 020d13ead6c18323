"""Draw a simulation to a PNG with matplotlib (an optional dependency: the ``plot`` extra)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from fairshare_cli.core.operations.sim_row import SimRow
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


def plot_simulation(
    rows: Sequence[SimRow], path: str, after: Sequence[SimRow] | None = None
) -> None:
    """Slots held per submitter (or CPUs per Slurm user) with the pool's capacity (top), and
    effective priority (or fair-share factor) below; distinct colours and markers, the
    legend outside the axes.

    With ``after`` (``fs whatif ... simulate``) both runs are drawn over each other: one
    colour and marker per entity, ``rows`` solid (before) and ``after`` dashed.

    Raises:
        InputError: matplotlib is not installed, or the path is a device, a pipe or a folder.
        RuntimeFailure: the file cannot be written (a full disk; the old file is kept).
    """
    plt = _pyplot()
    kind, series = series_of(rows)
    later = series_of(after)[1] if after is not None else {}
    t0 = min((r.time for r in rows), default=0.0)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    names = sorted(set(series) | set(later))
    cmap = plt.get_cmap("tab10" if len(names) <= 10 else "tab20")
    colours = [cmap(i) for i in range(cmap.N)]
    values: list[float] = []
    for k, name in enumerate(names):
        style: dict[str, Any] = {
            "color": colours[k % len(colours)],
            "marker": MARKERS[k % len(MARKERS)],
            "markersize": 5,
        }
        runs = ((series.get(name), "-"), (later.get(name), "--"))
        for n, (points, line) in enumerate(p for p in runs if p[0]):
            assert points is not None
            xs = [(t - t0) / 3600.0 for t, _, _ in points]
            # staggered markers: coinciding lines (and the two runs) both show
            style["markevery"] = ((k + 2 * n) % 5, max(len(xs) // 12, 1))
            label = name if n == 0 else None
            top.step(xs, [s for _, s, _ in points], where="post", linestyle=line, label=label,
                     **style)  # fmt: skip
            bottom.plot(xs, [v for _, _, v in points], linestyle=line, **style)
            values += [v for _, _, v in points]
    _decorate(fig, top, bottom, rows, kind, values, compared=after is not None)
    import io
    from pathlib import Path

    from fairshare_cli.io.atomic import atomic_write_text, through_link

    png = io.BytesIO()  # (drawn whole first: a full disk leaves the old plot, not half one)
    try:
        fig.savefig(png, format="png", bbox_inches="tight")
    finally:
        plt.close(fig)
    atomic_write_text(through_link(Path(path)), [png.getvalue()], "plot", mode=0o644)


def check_plot_path(path: str) -> None:
    """Refuse a ``--plot`` file that cannot be written, and a missing matplotlib, before a
    simulation runs (not after it).

    Raises:
        InputError: naming the folder or matplotlib.
        RuntimeFailure: the folder cannot be written (read-only).
    """
    import importlib.util

    from fairshare_cli.io.paths import check_output_file

    check_output_file(path, "--plot", "plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise InputError(
            "--plot needs matplotlib: pip install 'fairshare-cli[plot]' (or matplotlib)"
        )


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend.

    Raises:
        InputError: matplotlib is not installed.
    """
    try:
        import logging

        # (its font-cache notes, on a full disk or an unwritable HOME: fs's error is one line)
        logging.getLogger("matplotlib").setLevel(logging.ERROR)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "--plot needs matplotlib: pip install 'fairshare-cli[plot]' (or matplotlib)"
        ) from None
    return plt


def _decorate(
    fig: Any,
    top: Any,
    bottom: Any,
    rows: Sequence[SimRow],
    kind: str,
    values: list[float],
    compared: bool,
) -> None:
    """The pool's capacity, axis labels and scales, and the legend (outside the axes)."""
    t0 = min((r.time for r in rows), default=0.0)
    pool = [r for r in rows if r.kind == "pool"]
    if pool:
        top.step(
            [(r.time - t0) / 3600.0 for r in pool],
            [r.capacity or 0.0 for r in pool],
            where="post",
            color="black",
            linestyle=":" if compared else "--",
            label="pool capacity",
        )
    if compared:  # which line style is which run
        top.plot([], [], color="grey", linestyle="-", label="before (current config)")
        top.plot([], [], color="grey", linestyle="--", label="after (--set)")
    top.set_ylabel("slots held" if kind == "submitter" else "CPUs in use")
    bottom.set_ylabel("effective priority" if kind == "submitter" else "fair-share factor")
    if wants_log(values):
        bottom.set_yscale("log")
    bottom.set_xlabel("hours since start")
    top.set_title("fs whatif ... simulate" if compared else "fs simulate")
    top.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
