"""Every --output value means what it says on every command, or is refused."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
NOW = "2026-11-21T12:00:00Z"

VIEWS = {
    "userprio": ["userprio"],
    "quota": ["quota", "--jobs-file", str(SAMPLE / "jobs.json")],
    "negotiate": ["negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json")],
    "sprio": ["sprio", "--jobs-file", str(SAMPLE / "jobs.json")],
    "sshare": ["sshare", "-a"],
    "taskqueues": ["taskqueues", "--jobs-file", str(SAMPLE / "dirac-jobs.json")],
    "simulate": [
        "simulate",
        "--workload",
        str(SAMPLE / "workload.json"),
        "--until",
        "1:00:00",
        "--cycle",
        "1800",
    ],
    "config": ["config", "check"],
}


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    state = tmp_path / "s.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    return ["--config", str(SAMPLE / "pool.toml"), "--state", str(state), "--now", NOW]


def _args(view: str, files: list[str]) -> list[str]:
    if view == "config":  # config check takes no state or time
        return [*VIEWS[view], *files[:2]]
    return [*VIEWS[view], *files]


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_each_format_is_what_it_says(view: str, files: list[str], run: Callable[..., Any]) -> None:
    """json parses as one JSON document; ndjson as one JSON value per line; csv is a header
    and rows of the same width, and is not JSON."""
    out = {}
    for fmt in ("json", "ndjson", "csv"):
        result = run(*_args(view, files), "--output", fmt)
        assert result.exit_code == 0, (fmt, result.stderr)
        out[fmt] = result.stdout
    json.loads(out["json"])
    for line in out["ndjson"].splitlines():
        json.loads(line)
    assert not out["csv"].lstrip().startswith(("{", "["))
    rows = list(csv.reader(io.StringIO(out["csv"])))
    assert len(rows) >= 2
    assert {len(r) for r in rows} == {len(rows[0])}
    assert run(*_args(view, files), "--json").stdout == out["json"]


@pytest.mark.parametrize("view", ["userprio", "config"])
def test_json_and_another_output_disagree(
    view: str, files: list[str], run: Callable[..., Any]
) -> None:
    result = run(*_args(view, files), "--json", "--output", "csv")
    assert result.exit_code == 2
    assert "--json and --output csv disagree" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_explain_ndjson_and_csv(files: list[str], run: Callable[..., Any]) -> None:
    """--explain: ndjson is one event object per line; csv has no fixed columns: refused."""
    args = [*VIEWS["negotiate"], *files, "--explain", "105.30"]
    lines = run(*args, "--output", "ndjson").stdout.splitlines()
    events = [json.loads(line) for line in lines]
    assert events and all(e["job_id"] == "105.30" and "event" in e for e in events)
    refused = run(*args, "--output", "csv")
    assert refused.exit_code == 2
    assert "--explain" in refused.stderr
