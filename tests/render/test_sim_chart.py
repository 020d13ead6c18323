"""The terminal chart and the plot's choices (log scale, which series) on hand-made rows."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations.sim_row import SimRow
from fairshare_cli.io.plot import series_of, wants_log
from fairshare_cli.render.sim_chart import spark_chart

ROWS = [
    SimRow(0.0, "submitter", "a@d", 4.0, 0.5),
    SimRow(0.0, "submitter", "b@d", 0.0, 0.5),
    SimRow(0.0, "pool", "pool", 4.0, pending=3, capacity=8.0),
    SimRow(60.0, "submitter", "a@d", 8.0, 1.0),
    SimRow(60.0, "submitter", "b@d", 2.0, 0.75),
    SimRow(60.0, "pool", "pool", 10.0, pending=0, capacity=8.0),
]


def test_spark_chart_scales_to_the_pool() -> None:
    """Bars have 8 steps; a full bar is the capacity 8: 4 -> step 4 (▄), 8 -> █, 0 -> blank,
    2 -> step 2 (▂)."""
    assert spark_chart(ROWS) == (
        "slots held over time (a full bar is 8):\na@d |▄█| 8\nb@d | ▂| 2\n"
    )


def test_spark_chart_averages_cycles_into_columns() -> None:
    """Four cycles into two columns: means 2 and 6 of a largest value 8 (no pool rows):
    steps 2 (▂) and 6 (▆)."""
    rows = [SimRow(float(t), "slurm_user", "u", s) for t, s in enumerate([0.0, 4.0, 4.0, 8.0])]
    assert spark_chart(rows, width=2) == "CPUs in use over time (a full bar is 8):\nu |▂▆| 8\n"
    assert spark_chart([]) == ""


@pytest.mark.parametrize(
    ("values", "log"),
    [
        pytest.param([0.5, 1.0, 50.0], False, id="under-two-decades"),
        pytest.param([0.5, 5e6], True, id="nice-user"),
        pytest.param([0.0, float("nan"), 3.0], False, id="one-positive"),
        pytest.param([], False, id="empty"),
    ],
)
def test_log_scale_only_over_two_decades(values: list[float], log: bool) -> None:
    assert wants_log(values) is log


def test_series_are_submitters_or_else_slurm_users() -> None:
    kind, series = series_of(ROWS)
    assert kind == "submitter"
    assert series["b@d"] == [(0.0, 0.0, 0.5), (60.0, 2.0, 0.75)]
    slurm = [SimRow(0.0, "slurm_user", "u", 16.0, fairshare=0.25)]
    assert series_of(slurm) == ("slurm_user", {"u": [(0.0, 16.0, 0.25)]})
