"""``fs simulate --until`` / ``--cycle`` (and ``fs whatif ... simulate``, a sweep spec's
``until`` and ``cycle``): a duration that is not finite, ``INFINITE`` or ``1e400``, was
refused as "expected a positive duration", which it is; the message now asks for what it
lacks, a finite duration above 0 seconds. Nothing is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool

WORK = [{"id": "1.0", "owner": "alice", "submit_time": NOW, "run_time": 120}]


def _files(tmp_path: Path) -> tuple[list[str], list[Path]]:
    pool = write_pool(tmp_path)
    work = tmp_path / "w.json"
    work.write_text(json.dumps(WORK), encoding="utf-8")
    options = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    return [*options, "--workload", str(work)], [pool["config"], pool["state"], work]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        pytest.param(["simulate", "--until", "INFINITE"], "--until: ", id="until-infinite"),
        pytest.param(["simulate", "--until", "1e400"], "--until: ", id="until-1e400"),
        pytest.param(["simulate", "--until", "inf"], "--until: ", id="until-inf"),
        pytest.param(["simulate", "--cycle", "1e400"], "--cycle: ", id="cycle-1e400"),
        pytest.param(["simulate", "--until", "-1"], "--until: ", id="until-negative"),
        pytest.param(
            [
                "whatif",
                "--set",
                "accountant.priority_halflife=0",
                "simulate",
                "--until",
                "INFINITE",
            ],
            "--until: ",
            id="whatif-until-infinite",
        ),
    ],
)
def test_a_duration_that_is_not_finite_and_above_0_is_refused_so(
    tmp_path: Path, run: Callable[..., Any], line: list[str], says: str
) -> None:
    """``fs simulate --until INFINITE --workload w.json ...``: exit 2, one line asking for
    a finite duration above 0 seconds; the config, state and workload are unchanged."""
    options, files = _files(tmp_path)
    before = [f.read_bytes() for f in files]
    result = run(*line, *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {says}expected a finite duration above 0 seconds, got '{line[-1]}'\n"
    )
    assert [f.read_bytes() for f in files] == before


def test_a_sweep_spec_until_of_infinite_is_refused_so(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep SPEC --out runs`` with ``until = "INFINITE"`` in SPEC: refused naming the
    spec and the key, nothing written (no result folder either)."""
    _, files = _files(tmp_path)
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f'config = "pool.toml"\nstate = "state.json"\nworkload = "w.json"\nnow = "{NOW}"\n'
        'until = "INFINITE"\n[[axis]]\nkey = "accountant.priority_halflife"\n'
        "values = [3600, 86400]\n",
        encoding="utf-8",
    )
    before = [f.read_bytes() for f in [*files, spec]]
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--jobs", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: point 0 (accountant.priority_halflife=3600): until: expected a "
        "finite duration above 0 seconds, got 'INFINITE'\n"
    )
    assert [f.read_bytes() for f in [*files, spec]] == before
    assert not out.exists()


LENGTH = "; give a length of time: seconds or a Slurm time string (6:00:00 is six hours)"


@pytest.mark.parametrize(
    ("option", "value", "told"),
    [
        pytest.param(
            "--until",
            "2026-11-21T18:00:00Z",
            "; it is 06:00:00 after --now 2026-11-21T12:00:00Z: give --until 06:00:00",
            id="until-iso",
        ),
        pytest.param(
            "--until",
            "2026-11-21",
            ", and not after --now 2026-11-21T12:00:00Z, where the run starts" + LENGTH,
            id="until-date",
        ),
        pytest.param("--cycle", "2026-11-21T12:10:00Z", LENGTH, id="cycle-iso"),
    ],
)
def test_a_point_in_time_for_a_duration_is_refused_as_a_time(
    tmp_path: Path, run: Callable[..., Any], option: str, value: str, told: str
) -> None:
    """``fs simulate --until 2026-11-21T18:00:00Z --workload w.json ...`` said the text
    'has characters other than digits, "-" and ":"'; a new admin who gave the time to run
    until is now told it is a time, not a duration, and the --until that runs until then
    (or, for a time not after --now, that the run starts there). Exit 2; nothing changed."""
    options, files = _files(tmp_path)
    before = [f.read_bytes() for f in files]
    result = run("simulate", option, value, *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {option}: "{value}" is a point in time, not a duration{told}\n'
    )
    assert [f.read_bytes() for f in files] == before
