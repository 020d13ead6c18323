"""A simulated run as ``fs sweep``'s result object, and the ``--html`` page of
``fs simulate`` and ``fs whatif ... simulate`` (the sweep's kind of page)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.operations.simulate import SimResult


def point_result(
    env: Env, result: SimResult, scheduler: str, index: int, overrides: dict[str, Any]
) -> dict[str, Any]:
    """A run's result object: its index and keys, its metrics, its entities' series."""
    from fairshare_cli.core.operations.sweep import (
        entity_series,
        measure,
        measured,
        metrics_json,
        slurm_user_shares,
    )

    shares = None
    if scheduler == "slurm":
        shares = slurm_user_shares(env.config, env.state.section("slurm"), env.now)
    how = measured(env.config, result, scheduler, shares)
    found = measure(result.rows, result.starts, result.finished, how)
    return {
        "index": index,
        "point": overrides,
        **metrics_json(found),
        "series": entity_series(result.rows, how),
    }


def simulate_page(html: str, runs: Sequence[tuple[str, Env, SimResult]], scheduler: str) -> None:
    """``fs simulate --html`` (one run) and ``fs whatif ... simulate --html`` (before and
    after): the sweep's page for these runs, each a point labelled by its policy."""
    results = []
    for index, (label, env, result) in enumerate(runs):
        found = point_result(env, result, scheduler, index, {"policy": label})
        results.append(found)
    write_page(Path(html), results, axes=[], objective="share_error", title=f"fs {runs[0][0]}")


def write_page(
    path: Path,
    results: Sequence[Mapping[str, Any]],
    axes: Sequence[Mapping[str, Any]],
    objective: str,
    title: str,
    base_index: int | None = None,
) -> None:
    """Write the ``--html`` page for ``results`` (point result objects, docs/sweep.md).

    Raises:
        RuntimeFailure: the file cannot be written.
    """
    from fairshare_cli.io.atomic import atomic_write_text, through_link
    from fairshare_cli.render.sweep_html import page

    text = page(results, axes, objective, title, base_index)
    atomic_write_text(through_link(path), text, "HTML page", 0o644)  # (a link stays a link)
