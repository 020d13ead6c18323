"""A path option or argument given empty (``"$UNSET"`` in a script) is refused in one line,
exit 2, nothing written (cli/options.no_empty_path): it stood for no path, or for the
current folder, in silence."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
ON_SAMPLE = ["--config", "pool.toml", "--now", "2026-11-21T12:00:00Z", "--state", "s.json"]

#: Each line, and what the empty path did.
LINES = {
    # ran the state's queue (or said "no --workload")
    "simulate-workload": (["simulate", "--workload", "", *ON_SAMPLE], "--workload", True),
    # the same, under both policies
    "whatif-simulate-workload": (
        [
            "whatif",
            "--set",
            "accountant.priority_halflife=3600",
            "simulate",
            "--workload",
            "",
            *ON_SAMPLE,
        ],
        "--workload",
        True,
    ),
    # wrote the default folder, sweep.sweep
    "sweep-run-out": (["sweep", "run", "sweep.toml", "--out", ""], "--out", True),
    # wrote the sample pool into the current folder
    "init-example": (["init", "--example", ""], "--example", True),
    # read the current folder's sweep.json
    "sweep-collect": (["sweep", "collect", ""], "DIR", False),
    "sweep-run-point": (["sweep", "run-point", "", "0"], "DIR", False),
    # "File '.' is a directory."
    "submit-file": (["submit", "--file", "", *ON_SAMPLE], "--file", True),
}


@pytest.mark.parametrize("line", sorted(LINES))
def test_an_empty_path_is_refused_and_nothing_written(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    words, name, option = LINES[line]
    for sample in ("sweep.toml", "pool.toml", "workload.json", "history.csv"):
        shutil.copy(SAMPLE / sample, tmp_path / sample)
    shutil.copy(SAMPLE / "sample-state.json", tmp_path / "s.json")
    monkeypatch.chdir(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = run(*words)
    more = ", or leave it out" if option else ""
    assert (result.exit_code, result.stdout) == (2, "")
    said = f"fs: error: Invalid value for '{name}': an empty path; give a path{more} (see '"
    assert result.stderr.startswith(said) and result.stderr.count("\n") == 1
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    "words", [["simulate"], ["whatif", "--set", "accountant.priority_halflife=3600", "simulate"]]
)
def test_an_empty_plot_path_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, words: list[str]
) -> None:
    """``fs simulate --workload W --plot ""`` ran and drew nothing, in silence (``--html ""``
    was refused): now refused as ``--html ""`` is."""
    shutil.copy(SAMPLE / "pool.toml", tmp_path / "pool.toml")
    monkeypatch.chdir(tmp_path)
    workload = ["--workload", str(SAMPLE / "workload.json"), "--until", "3600"]
    result = run(*words, *workload, "--plot", "", *ON_SAMPLE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "fs: error: --plot: an empty path; give the path of the plot to write\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]


#: Lines whose path of blanks alone wrote a file or folder named so, exit 0.
BLANK_LINES = {
    # wrote the sample pool into a folder named " "
    "init-example": (["init", "--example", " "], "--example", True),
    # ran the sweep into a folder named " "
    "sweep-run-out": (["sweep", "run", "sweep.toml", "--out", " "], "--out", True),
    # read a folder named "  " (none: "File '  ' does not exist.")
    "sweep-collect": (["sweep", "collect", "  "], "DIR", False),
}


@pytest.mark.parametrize("line", sorted(BLANK_LINES))
def test_a_path_of_blanks_is_refused_and_nothing_written(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """``fs init --example ' '`` (``"$DIR "`` with the variable unset) wrote the sample
    pool into a folder named ' ', exit 0, as ``--state ' '`` once made a state so."""
    words, name, option = BLANK_LINES[line]
    for sample in ("sweep.toml", "pool.toml", "workload.json", "history.csv"):
        shutil.copy(SAMPLE / sample, tmp_path / sample)
    monkeypatch.chdir(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = run(*words)
    blanks = words[-1]
    more = ", or leave it out" if option else ""
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: Invalid value for '{name}': {blanks!r} is only blanks; give a path{more} "
        f"(see 'cli {' '.join(words[:2] if words[0] == 'sweep' else words[:1])} --help')\n"
    )
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
