"""A sweep point whose config is refused is named with its axis values as the spec writes
them, in TOML (``true``, ``"soon"``, ``{a = 1}``), where Python's ``repr`` showed
``True``, ``'soon'`` and ``{'a': 1}``. Nothing is written: exit 2, no result folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool


@pytest.mark.parametrize(
    ("values", "shown", "says"),
    [
        pytest.param("[true]", "true", "expected a number, got boolean true", id="boolean"),
        pytest.param(
            '["soon"]',
            '"soon"',
            '"soon" has characters other than digits',
            id="string",
        ),
        pytest.param("[{a = 1}]", "{a = 1}", "expected a number, got a table", id="table"),
        # (a TOML date was said in Python's word, 'got date')
        pytest.param(
            "[1979-05-27]", "1979-05-27", "expected a number, got a date 1979-05-27", id="date"
        ),
        pytest.param("[07:32:00]", "07:32:00", "expected a number, got a time 07:32:00", id="time"),
    ],
)
def test_a_refused_point_shows_its_value_as_toml(
    tmp_path: Path, run: Callable[..., Any], values: str, shown: str, says: str
) -> None:
    """``fs sweep run SPEC --out runs --jobs 1`` with ``values = [true]`` on the axis
    ``accountant.priority_halflife``."""
    pool = write_pool(tmp_path)
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "alice", "run_time": 60}]), "utf-8")
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f'config = "pool.toml"\nstate = "state.json"\nworkload = "w.json"\nnow = "{NOW}"\n'
        f'until = "600"\n[[axis]]\nkey = "accountant.priority_halflife"\nvalues = {values}\n',
        encoding="utf-8",
    )
    files = [pool["config"], pool["state"], work, spec]
    before = [f.read_bytes() for f in files]
    out = tmp_path / "runs"
    result = run("sweep", "run", str(spec), "--out", str(out), "--jobs", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    prefix = (
        f"fs: error: {spec}: point 0 (accountant.priority_halflife={shown}): "
        "[[axis]]: accountant.priority_halflife: "  # (the axis's value: not the file's)
    )
    assert result.stderr.startswith(prefix), result.stderr
    assert says in result.stderr and result.stderr.count("\n") == 1
    assert [f.read_bytes() for f in files] == before
    assert not out.exists()
