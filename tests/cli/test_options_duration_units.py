"""A length written with a unit (``--until 6h``, ``priority_halflife = "1d"``): refused, as
neither a number of seconds nor a Slurm time string, with no word of what to write. The
refusal now gives the length as a Slurm time string and in seconds."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, common, write_pool

TIME_STRING = (
    'has characters other than digits, "-" and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M'
    " or D-H:M:S, or INFINITE);"
)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        pytest.param(
            ["simulate", "--until", "6h"],
            f'--until: "6h" {TIME_STRING} here a plain number is seconds (for 6h give'
            " 06:00:00, or 21600)",
            id="simulate-until",
        ),
        pytest.param(
            ["simulate", "--cycle", "5m"],
            f'--cycle: "5m" {TIME_STRING} here a plain number is seconds (for 5m give'
            " 00:05:00, or 300)",
            id="simulate-cycle",
        ),
        pytest.param(
            ["whatif", "--set", "accountant.priority_halflife=1d", "userprio"],
            f'--set: accountant.priority_halflife: "1d" {TIME_STRING} a plain number is'
            " seconds (for 1d give 1-00:00:00, or the number 86400)",
            id="whatif-set",
        ),
    ],
)
def test_a_length_with_a_unit_names_what_to_write(
    tmp_path: Path, run: Callable[..., Any], line: list[str], says: str
) -> None:
    pool = write_pool(tmp_path)
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "alice", "submit_time": NOW}]))
    before = [pool["config"].read_bytes(), pool["state"].read_bytes()]
    extra = ["--workload", str(work)] if line[0] == "simulate" else []
    result = run(*line, *common(pool), *extra)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {says}\n"
    assert [pool["config"].read_bytes(), pool["state"].read_bytes()] == before


def test_config_check_names_what_to_write(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs config check`` of ``priority_halflife = "6h"``."""
    config = tmp_path / "pool.toml"
    config.write_text('[accountant]\npriority_halflife = "6h"\n', encoding="utf-8")
    result = run("config", "check", "--config", str(config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {config}: accountant.priority_halflife: "6h" {TIME_STRING} a plain number'
        " is seconds (for 6h give 06:00:00, or the number 21600)\n"
    )


def test_a_workload_run_time_names_what_to_write(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs simulate --workload w.json`` of a job whose ``run_time`` is ``"1h"``."""
    pool = write_pool(tmp_path)
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "alice", "run_time": "1h"}]))
    result = run("simulate", "--workload", str(work), *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {work}: job 1.0: run_time: "1h" {TIME_STRING[:-1]} (for 1h give 01:00:00,'
        " or the number 3600)\n"
    )
