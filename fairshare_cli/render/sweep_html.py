"""The ``--html`` page of ``fs sweep``, ``fs simulate`` and ``fs whatif ... simulate``.

One self-contained file (no network): matplotlib draws each plot as SVG, put inline; the
page is the Jinja template ``fairshare_cli/templates/sweep.html.j2``. It shows a heatmap
of the objective over the first two axes (the best point over any other axes; one axis:
one row), the share of the slots in use over time of each group for the best, the worst
and the base point (dashed: its entitled share; without axes, every run's), and the point
table. Both libraries are imported here only: commands without ``--html`` never load them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from fairshare_cli.core.jsontext import iso
from fairshare_cli.core.operations.sweep import METRICS, rank_points

#: Panels per row of the small multiples.
COLUMNS = 4


def page(
    results: Sequence[Mapping[str, Any]],
    axes: Sequence[Mapping[str, Any]],
    objective: str,
    title: str,
    base_index: int | None = None,
) -> str:
    """The page's text."""
    import jinja2

    ranked = rank_points([r for r in results if r.get("index") != base_index], objective)
    picks: list[tuple[str, Mapping[str, Any]]] = []
    if not axes:  # fs simulate / fs whatif: each run, by its policy
        picks = [(str(r["point"].get("policy", r["index"])), r) for r in results]
    elif ranked:
        picks.append(("best", ranked[0]))
        if len(ranked) > 1:
            picks.append(("worst", ranked[-1]))
    base = [r for r in results if base_index is not None and r.get("index") == base_index]
    picks += [("base (config as it is)", r) for r in base]
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("fairshare_cli", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    template = env.get_template("sweep.html.j2")
    keys = [str(a["key"]) for a in axes] or sorted({k for r in results for k in r["point"]})
    return template.render(
        title=title,
        objective=objective,
        heatmap=heatmap_svg(results, axes, objective, base_index) if axes else None,
        multiples=[(label, _label(r, keys), shares_svg(r)) for label, r in picks],
        keys=keys,
        metrics=list(METRICS),
        rows=[_row(r, keys, base_index) for r in [*ranked, *base]],
    )


def _label(result: Mapping[str, Any], keys: Sequence[str]) -> str:
    point = result["point"]
    return ", ".join(f"{k} = {point[k]}" for k in keys if k in point) or "base config"


def _row(result: Mapping[str, Any], keys: Sequence[str], base_index: int | None) -> list[str]:
    point = result["point"]
    head = ["base" if result["index"] == base_index else str(result["index"])]
    head += [str(point.get(k, "")) for k in keys]
    return head + [_number(result.get(m)) for m in METRICS]


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def _figure(width: float, height: float) -> Any:
    import logging

    # (its font-cache notes, on a full disk or an unwritable HOME: fs's error is one line)
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig: Any) -> str:
    """The figure as inline SVG (its XML prologue and DOCTYPE dropped)."""
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]


def heatmap_svg(
    results: Sequence[Mapping[str, Any]],
    axes: Sequence[Mapping[str, Any]],
    objective: str,
    base_index: int | None,
) -> str:
    """The objective over the first two axes (one axis: a single row); where more axes
    vary, each cell shows the best point's value."""
    first = [str(v) for v in axes[0]["values"]]
    second = [str(v) for v in axes[1]["values"]] if len(axes) > 1 else [""]
    larger = METRICS[objective]
    grid = [[math.nan] * len(first) for _ in second]
    for r in results:
        value = r.get(objective)
        if r["index"] == base_index or value is None:
            continue
        col = first.index(str(r["point"][axes[0]["key"]]))
        row = second.index(str(r["point"][axes[1]["key"]])) if len(axes) > 1 else 0
        old = grid[row][col]
        if math.isnan(old) or (value > old if larger else value < old):
            grid[row][col] = float(value)
    fig = _figure(max(4.0, 1.1 * len(first) + 2), max(2.0, 0.6 * len(second) + 1.5))
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="viridis_r" if not larger else "viridis", aspect="auto")
    ax.set_xticks(range(len(first)), first)
    ax.set_yticks(range(len(second)), second)
    ax.set_xlabel(str(axes[0]["key"]))
    if len(axes) > 1:
        ax.set_ylabel(str(axes[1]["key"]))
    for row, values in enumerate(grid):
        for col, value in enumerate(values):
            if not math.isnan(value):
                ax.text(col, row, f"{value:.3g}", ha="center", va="center", color="white")
    fig.colorbar(image, ax=ax, label=objective)
    return _svg(fig)


def shares_svg(result: Mapping[str, Any]) -> str:
    """One panel per group: its share of the slots in use at each cycle, and its entitled
    share (dashed)."""
    series = result["series"]
    times = [float(t) for t in series["time"]]
    slots: Mapping[str, Sequence[float]] = series["slots"]
    entitled = {g["name"]: g["entitled"] for g in result["groups"]}
    names = [n for n in sorted(slots) if n in entitled] or sorted(slots)
    totals = [math.fsum(slots[n][k] for n in slots) for k in range(len(times))]
    hours = [(t - times[0]) / 3600 for t in times] if times else []
    ncols = min(COLUMNS, max(len(names), 1))
    nrows = max(math.ceil(len(names) / ncols), 1)
    fig = _figure(2.6 * ncols, 1.9 * nrows)
    for k, name in enumerate(names):
        ax = fig.add_subplot(nrows, ncols, k + 1)
        share = [s / w if w > 0 else 0.0 for s, w in zip(slots[name], totals, strict=True)]
        ax.plot(hours, share, color="tab:blue", linewidth=1.2)
        if name in entitled:
            ax.axhline(entitled[name], color="tab:red", linestyle="--", linewidth=1)
        ax.set_ylim(0, 1)
        ax.set_title(name, fontsize=8)
        ax.tick_params(labelsize=7)
        if k % ncols == 0:
            ax.set_ylabel("share", fontsize=7)
        if k >= len(names) - ncols:
            ax.set_xlabel(f"hours from {iso(times[0]) if times else ''}", fontsize=7)
    if not names:
        fig.add_subplot().text(0.5, 0.5, "nothing ran", ha="center")
    return _svg(fig)
