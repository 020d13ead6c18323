"""A sweep spec checked whole, and the points its axes make."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fairshare_cli.core.sweep.spec import point_count, points, spec_from_toml
from fairshare_cli.errors import InputError

BASE: dict[str, Any] = {"config": "pool.toml", "workload": "w.json", "until": "6:00:00"}
HALF = {"key": "accountant.priority_halflife", "values": [3600, 86400, 604800]}
QUOTA = {"key": 'groups."g".quota', "values": [10, 20]}


def test_product_varies_the_first_axis_slowest() -> None:
    spec = spec_from_toml({**BASE, "axis": [HALF, QUOTA]}, "s.toml")
    assert point_count(spec) == 6
    assert points(spec) == [
        {"accountant.priority_halflife": h, 'groups."g".quota': q}
        for h in (3600, 86400, 604800)
        for q in (10, 20)
    ]
    assert (spec.until, spec.cycle, spec.scheduler, spec.mode) == (
        "6:00:00",
        None,
        "htcondor",
        "product",
    )  # fmt: skip  (no cycle: each point's pool's, as fs simulate without --cycle)


def test_zip_puts_the_values_side_by_side() -> None:
    other = {"key": "accountant.default_prio_factor", "values": [1, 2, 3]}
    spec = spec_from_toml({**BASE, "mode": "zip", "axis": [HALF, other]}, "s.toml")
    assert points(spec) == [
        {"accountant.priority_halflife": 3600, "accountant.default_prio_factor": 1},
        {"accountant.priority_halflife": 86400, "accountant.default_prio_factor": 2},
        {"accountant.priority_halflife": 604800, "accountant.default_prio_factor": 3},
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {**BASE, "axes": [HALF]}, "unknown key 'axes' (did you mean 'axis'?)", id="key"
        ),
        pytest.param({"workload": "w", "axis": [HALF]}, "'config' is missing", id="missing"),
        pytest.param(
            {**BASE, "until": True, "axis": [HALF]}, "'until' has the wrong type", id="type"
        ),
        pytest.param(
            {**BASE, "until": dt.date(1979, 5, 27), "axis": [HALF]},
            "'until' has the wrong type (a date)",
            id="date",
        ),
        pytest.param({**BASE, "axis": []}, "no [[axis]]", id="no axis"),
        pytest.param(
            {**BASE, "axis": [{"key": "a.b", "values": []}]}, "'values' is empty", id="empty"
        ),
        pytest.param(
            {**BASE, "axis": [{"key": "a.b", "value": [1]}]}, "unknown key 'value'", id="axis key"
        ),
        pytest.param({**BASE, "axis": [HALF, HALF]}, "given twice", id="twice"),
        pytest.param(
            {**BASE, "scheduler": "pbs", "axis": [HALF]}, "scheduler 'pbs'", id="scheduler"
        ),
        pytest.param(
            {**BASE, "mode": "zip", "axis": [HALF, QUOTA]}, "axes of one length", id="zip"
        ),
    ],
)
def test_a_bad_spec_is_refused_naming_what(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as err:
        spec_from_toml(data, "s.toml")
    assert str(err.value).startswith("s.toml: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("key", ["config", "state", "workload", "history"])
def test_a_path_with_a_nul_is_refused(key: str) -> None:
    """``config = "p\\u0000.toml"`` in a spec crashed ``fs sweep`` with 'ValueError:
    embedded null byte' (a traceback) when the path reached the operating system."""
    with pytest.raises(InputError, match=f"s.toml: '{key}' holds a NUL character"):
        spec_from_toml({**BASE, key: "p\0.toml", "axis": [HALF]}, "s.toml")


@pytest.mark.parametrize("key", ["config", "state", "workload", "history"])
def test_an_empty_path_is_refused(key: str) -> None:
    """``state = ""`` in a spec was read as the spec's folder ('is a directory', once the
    manifest was written); it is refused with the spec."""
    with pytest.raises(InputError, match=f"s.toml: '{key}' is an empty path"):
        spec_from_toml({**BASE, key: " ", "axis": [HALF]}, "s.toml")
