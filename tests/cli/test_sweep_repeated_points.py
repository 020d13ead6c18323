"""A sweep spec that gives a point twice: a value twice on one axis (``values = [600,
3600, 600.0]``), or, with ``mode = "zip"``, two columns alike. Each copy ran, and both
were ranked, as if two settings had been tried. Now one line naming the axis and the
value (or the two points), exit 2, before a folder is made."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import SPEC, spec  # noqa: F401  (the fixture)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param(
            ("values = [600, 3600]", "values = [600, 3600, 600.0]"),
            "axis 1 (accountant.priority_halflife): 600.0 is given twice",
            id="product",
        ),
        pytest.param(
            ("values = [600, 3600]", 'values = [600, 3600, 600]\nmode = "zip"'),
            "points 0 and 2 are the same point",
            id="zip",
        ),
    ],
)
def test_a_point_given_twice_is_refused(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
    change: tuple[str, str],
    says: str,
) -> None:
    """``fs sweep run SPEC --out DIR`` with the spec's ``CHANGE``."""
    text = SPEC.replace(*change)
    if "zip" in change[1]:  # (mode is a top-level key; group_b's axis gets a third value)
        text = text.replace('\nmode = "zip"', "").replace(
            'cycle = "600"', 'cycle = "600"\nmode = "zip"'
        )
        text = text.replace("values = [1, 3]", "values = [1, 3, 1]")
    spec.write_text(text, encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {spec}: {says}\n"
    assert not (tmp_path / "runs").exists()


def test_zip_points_that_differ_in_one_axis_still_run(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    """``mode = "zip"`` with a half-life repeated beside two quotas: two points."""
    text = SPEC.replace('cycle = "600"', 'cycle = "600"\nmode = "zip"')
    spec.write_text(text.replace("values = [600, 3600]", "values = [600, 600]"), encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert len(list((tmp_path / "runs" / "points").iterdir())) == 3  # (and the base)


@pytest.mark.parametrize(
    ("key", "says"),
    [
        pytest.param(
            "accountant.PRIORITY_HALFLIFE",
            "axes 1 (accountant.priority_halflife) and 3 (accountant.PRIORITY_HALFLIFE) both "
            "set accountant.priority_halflife: give one axis",
            id="knob-name",
        ),
        pytest.param(
            "groups.group_b.quota",
            'axes 2 (groups."group_b".quota) and 3 (groups.group_b.quota) both set '
            'groups."group_b".quota: give one axis',
            id="unquoted",
        ),
    ],
)
def test_two_axes_on_one_key_spelt_apart_are_refused(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
    key: str,
    says: str,
) -> None:
    """``fs sweep run SPEC --out DIR`` with a third axis whose key is another spelling of
    one already swept (a knob name for its config key; a name unquoted). Each point ran
    the third axis's value and showed the first's beside it, though it changed nothing."""
    spec.write_text(SPEC + f"\n[[axis]]\nkey = '{key}'\nvalues = [7200]\n", encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {spec}: {says}\n"
    assert not (tmp_path / "runs").exists()
