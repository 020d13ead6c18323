"""A sweep spec without a workload runs the state's queue, as ``fs simulate`` without
``--workload`` does: every spec had to name a workload ("'workload' is missing"), so an
admin who imported a real pool (its queue from ``condor_q``) could simulate it but not
sweep it. An empty queue is refused before the sweep's folder is made."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_condor_fixtures import import_pool

SPEC = """\
config = "pool.toml"
state = "state.json"
now = "2026-11-23T18:25:33Z"
until = "3:00:00"
cycle = "300"

[[axis]]
key = "groups.group_ops.quota"
values = [4, 8]
"""


def test_a_spec_without_a_workload_runs_the_queue(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs sweep SPEC --out DIR`` on the imported pool: two points and the base. Point 0
    is the config's own quota (4), so its figures are the base's; the queue's jobs carry
    no run_time (condor_q does not say when a job ends), so none finishes."""
    import_pool(tmp_path, run)  # (pool.toml and state.json, as docs/htcondor.md)
    spec = tmp_path / "sweep.toml"
    spec.write_text(SPEC, encoding="utf-8")
    result = run(*shlex.split(f"sweep {spec} --out {tmp_path / 'runs'}"))
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()]
    assert [r[0] for r in rows] == ["Index", "0", "1", "base"]
    assert rows[1][2:] == rows[3][1:]
    assert rows[1][1] == "4" and rows[2][1] == "8"
    assert rows[1][-1] == rows[2][-1] == "0"


def test_a_spec_without_a_workload_and_an_empty_queue_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep SPEC --out DIR`` with a state that holds no job: one line, exit 2, no
    folder."""
    import_pool(tmp_path, run)  # (pool.toml and state.json, as docs/htcondor.md)
    spec = tmp_path / "sweep.toml"
    spec.write_text(SPEC.replace('"state.json"', '"none.json"'), encoding="utf-8")
    result = run(*shlex.split(f"sweep {spec} --out {tmp_path / 'runs'}"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: no workload, and the queue of state file {tmp_path / 'none.json'}"
        " is empty: nothing to simulate; name a workload (docs/sweep.md)\n"
    )
    assert not (tmp_path / "runs").exists()
