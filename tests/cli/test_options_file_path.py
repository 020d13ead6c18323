"""A file option's path that ends in ``/`` is refused (cli/options.FilePath), one line,
exit 2, the files untouched: ``--state sample-state.json/`` was read and written as
``sample-state.json`` (the path normalised), where ``cat sample-state.json/`` says it is
no folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"


@pytest.fixture
def sample(run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample pool (fs init --example p), with the current folder in it."""
    assert run("init", "--example", str(tmp_path / "p")).exit_code == 0
    monkeypatch.chdir(tmp_path / "p")
    return tmp_path / "p"


@pytest.mark.parametrize(
    ("line", "option", "value"),
    [
        ("userprio --config pool.toml --state sample-state.json/", "--state", "sample-state.json/"),
        ("setfactor --config pool.toml --state sample-state.json/ alice@example.org 2",
         "--state", "sample-state.json/"),
        ("userprio --config pool.toml/ --state sample-state.json", "--config", "pool.toml/"),
        ("whatif --history history.csv/ --set accountant.priority_halflife=3600 userprio --config "
         "pool.toml --state sample-state.json", "--history", "history.csv/"),
        ("simulate --config pool.toml --state sample-state.json --workload workload.json/",
         "--workload", "workload.json/"),
        ("quota --config pool.toml --state sample-state.json --jobs-file jobs.json/",
         "--jobs-file", "jobs.json/"),
    ],
)  # fmt: skip
def test_a_path_ending_in_a_slash_is_refused(
    line: str, option: str, value: str, sample: Path, run: Callable[..., Any]
) -> None:
    """fs userprio --config pool.toml --state sample-state.json/ (exit 0 before, reading
    sample-state.json), and the other file options alike."""
    before = {p.name: p.read_bytes() for p in sample.iterdir() if p.is_file()}
    result = run(*line.split(), "--now", NOW)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"fs: error: Invalid value for '{option}': '{value}' ends in '/', so it names a "
        f"folder; give the file's path (see 'cli {line.split()[0]} --help')"
    ]
    assert {p.name: p.read_bytes() for p in sample.iterdir() if p.is_file()} == before


def test_a_state_variable_ending_in_a_slash_is_refused(
    sample: Path, run: Callable[..., Any]
) -> None:
    """FAIRSHARE_STATE=sample-state.json/ fs userprio --config pool.toml."""
    result = run("userprio", "--config", "pool.toml", env={"FAIRSHARE_STATE": "sample-state.json/"})
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        "fs: error: Invalid value for FAIRSHARE_STATE: 'sample-state.json/' ends in '/'"
    )


def test_the_same_paths_without_the_slash_are_read(sample: Path, run: Callable[..., Any]) -> None:
    """fs userprio --config pool.toml --state sample-state.json (the check takes only the
    slash)."""
    result = run("userprio", "--config", "pool.toml", "--state", "sample-state.json", "--now", NOW)
    assert result.exit_code == 0, result.output
    assert "carol@example.org" in result.stdout
