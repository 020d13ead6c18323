"""Draw a simulation to a PNG with matplotlib (an optional dependency: the ``plot`` extra)."""

from __future__ import annotations

from collections.abc import Sequence

from fairshare_cli.core.operations.simulate import SimRow
from fairshare_cli.errors import InputError


def plot_simulation(rows: Sequence[SimRow], path: str) -> None:
    """Slots held (top) and effective priorities (bottom, log scale) per submitter.

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
    series: dict[str, tuple[list[float], list[float], list[float]]] = {}
    t0 = min((r.time for r in rows), default=0.0)
    for r in rows:
        if r.kind != "submitter":
            continue
        xs, slots, eups = series.setdefault(r.name, ([], [], []))
        xs.append((r.time - t0) / 3600.0)
        slots.append(r.slots)
        eups.append(r.effective_priority or float("nan"))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    for name, (xs, slots, eups) in sorted(series.items()):
        top.step(xs, slots, where="post", label=name)
        bottom.plot(xs, eups, label=name)
    top.set_ylabel("slots held")
    bottom.set_ylabel("effective priority")
    bottom.set_yscale("log")
    bottom.set_xlabel("hours since start")
    top.legend(fontsize="small", ncol=2)
    top.set_title("fs simulate")
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
