"""A sweep axis on ``pool.state`` or ``pool.name`` (cli/sweep_engines.py): every point
starts from the manifest's one state, and no number reads the name, so the axis changed
nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import SPEC, spec  # noqa: F401  (the fixture)


@pytest.mark.parametrize("key", ["pool.state", 'pool."state"'])
def test_an_axis_on_the_state_is_refused(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
    key: str,
) -> None:
    """``fs sweep run SPEC`` with an axis ``key = "pool.state"``, ``values = ["a.json",
    "/etc/passwd"]``: each point ran from the spec's one state and printed the base's
    figures, ranked as if two states had been tried. Now one line naming the axis and
    the spec's ``state``, exit 2, before a folder is made."""
    axis = f'[[axis]]\nkey = \'{key}\'\nvalues = ["a.json", "/etc/passwd"]\n'
    spec.write_text(SPEC + "\n" + axis, encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: axis 3 ({key}): every point starts from the sweep's one state"
        " (the spec's state, else the config's [pool] state); give the spec's state = FILE,"
        " a sweep for each state\n"
    )
    assert not (tmp_path / "runs").exists()


def test_an_axis_on_the_pool_name_is_refused(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    """``fs sweep run SPEC`` with an axis ``key = "pool.name"``, ``values = ["a", "b"]``:
    each point ran the same and the table ranked two names as if they were two policies.
    Now one line naming the axis, exit 2, before a folder is made."""
    axis = '[[axis]]\nkey = "pool.name"\nvalues = ["a", "b"]\n'
    spec.write_text(SPEC + "\n" + axis, encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: axis 3 (pool.name): the pool's name labels its state and"
        " changes no number, so every point would run the same; give an axis on a knob\n"
    )
    assert not (tmp_path / "runs").exists()
