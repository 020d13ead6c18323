"""A jobs file that is another file (``fs submit --file``, ``--jobs-file``, ``--workload``)
is refused saying where that file goes (io/importers/sniff.py: jobs_file_refusals).

Before, ``fs submit --file sample_configs/history.csv`` said only ``jobs file
sample_configs/history.csv is not valid JSON (line 1)``, and ``fs taskqueues --jobs-file
sample-state.json`` ``expected a JSON list of job objects, got dict``; ``fs submit --file``
of the state file said ``job 0: unknown job field 'accountant' (did you mean 'account'?)``,
which pointed at a job field. The imports already named the file's own import; these
three options now do the same, with the same words.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.importers import sniff
from fairshare_cli.io.importers.sniff import guess_text
from tests.cli.conftest import refused
from tests.conftest import REPO

SAMPLE = REPO / "sample_configs"
NOW = "2026-11-21T12:00:00Z"
HISTORY = "it looks like a usage history: fs import history reads it"
STATE = "it looks like fs's own state file: give it as --state"
CONFIG = "it looks like fs's own pool config: give it as --config"
SPEC = "it looks like a sweep spec: give it to fs sweep"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["submit", "--file", "history.csv"],
                     "history.csv: not valid JSON (line 1, column 1: Expecting value); expected "
                     f"a list of job objects; {HISTORY}", id="submit-history"),
        pytest.param(["submit", "--file", "sample-state.json"],
                     "sample-state.json: expected a JSON list of job objects, got an object; "
                     f"{STATE}", id="submit-state"),
        pytest.param(["submit", "--file", "pool.toml"],
                     "pool.toml: not valid JSON (line 1, column 1: Expecting value); expected a "
                     f"list of job objects; {CONFIG}", id="submit-config"),
        pytest.param(["simulate", "--workload", "sweep.toml", "--until", "1:00:00"],
                     "sweep.toml: not valid JSON (line 1, column 1: Expecting value); expected a "
                     f"list of job objects; {SPEC}", id="simulate-spec"),
        pytest.param(["negotiate", "--dry-run", "--jobs-file", "history.csv"],
                     "history.csv: not valid JSON (line 1, column 1: Expecting value); expected "
                     f"a list of job objects; {HISTORY}", id="negotiate-history"),
        pytest.param(["taskqueues", "--jobs-file", "sample-state.json"],
                     f"sample-state.json: expected a JSON list of job objects, got an object; {STATE}",
                     id="taskqueues-state"),
        pytest.param(["sprio", "--jobs-file", "sample-state.json"],
                     f"sample-state.json: expected a JSON list of job objects, got an object; {STATE}",
                     id="sprio-state"),
    ],
)  # fmt: skip
def test_a_jobs_file_that_is_another_file_says_where_it_goes(
    line: list[str], said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """The exact lines, in a folder holding the sample pool's files (the state a copy)."""
    for name in ("pool.toml", "history.csv", "sample-state.json", "sweep.toml"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    state = tmp_path / "state.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    before = state.read_bytes()
    monkeypatch.chdir(tmp_path)
    res = run(*line, "--config", "pool.toml", "--state", str(state), "--now", NOW)
    refused(res)
    assert res.stderr == f"fs: error: {said}\n"
    assert state.read_bytes() == before


def test_a_jobs_file_whose_job_is_bad_gets_no_guess(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A jobs file with a bad job is a jobs file: the refusal names the job alone."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[{"id": "1", "owner": "alice", "acount": "hep"}]', encoding="utf-8")
    common = ["--config", str(SAMPLE / "pool.toml"), "--state", str(tmp_path / "s.json")]
    res = run("submit", "--file", str(jobs), *common, "--now", NOW)
    refused(res)
    assert res.stderr == (
        f"fs: error: {jobs}: job 1: unknown job field 'acount' (did you mean 'account'?)\n"
    )


@pytest.mark.parametrize(
    ("options", "said"),
    [
        # before: "...; fix it or move it aside to start afresh", which moved the config away
        pytest.param(["--config", "pool.toml", "--state", "pool.toml"],
                     f"state file pool.toml is not valid JSON (line 1); {CONFIG}", id="config-as-state"),
        pytest.param(["--config", "pool.toml", "--state", "history.csv"],
                     f"state file history.csv is not valid JSON (line 1); {HISTORY}", id="history-as-state"),
        pytest.param(["--config", "sample-state.json"], "config file sample-state.json is not valid "
                     f"TOML: Invalid statement (at line 1, column 1); {STATE}", id="state-as-config"),
        pytest.param(["--config", "sweep.toml"], "sweep.toml: unknown key 'config'; known keys: pool, "
                     "accountant, negotiator, machines, groups, priority, partitions, qos, accounts, "
                     f"dirac; {SPEC}", id="spec-as-config"),
    ],
)  # fmt: skip
def test_a_config_or_state_that_is_another_file_says_where_it_goes(
    options: list[str], said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``fs userprio --config pool.toml --state pool.toml`` (and the others swapped): the
    file is named for what it is, and left as it was."""
    for name in ("pool.toml", "history.csv", "sample-state.json", "sweep.toml"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    res = run("userprio", *options, "--now", NOW)
    refused(res)
    assert res.stderr == f"fs: error: {said}\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in before} == before


def test_a_broken_state_is_still_told_to_be_mended(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A state cut short is a state: the advice to mend it or move it aside stays."""
    state = tmp_path / "state.json"
    state.write_text('{"format": "fairshare-cli state", "x": ', encoding="utf-8")
    res = run(
        "userprio", "--config", str(SAMPLE / "pool.toml"), "--state", str(state), "--now", NOW
    )
    refused(res)
    assert res.stderr == (
        f"fs: error: state file {state} is not valid JSON (line 1); fix it or move it aside to "
        "start afresh\n"
    )


def test_a_one_line_jobs_file_with_a_bad_job_is_refused_at_once(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit --file jobs.json`` of 3,000 jobs on one line (``json.dumps``' way), each
    with an owner, the last one bad: the guess at what the file is read its 64 KB head with
    a pattern of three ``[^\\n]*`` (owner, a comma, start), minutes of backtracking on that
    line (``fs sprio --jobs-file`` of such a file hung as long). Now it is a jobs file, told
    at once: the refusal names the job alone."""
    # (ids from 1, as a scheduler hands them out: fs submit --file refuses a job 0)
    jobs = [{"id": str(i), "owner": "alice", "status": "idle"} for i in range(1, 3001)]
    jobs[-1]["nice"] = "x"
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    common = ["--config", str(SAMPLE / "pool.toml"), "--state", str(tmp_path / "s.json")]
    res = run("submit", "--file", str(path), *common, "--now", NOW)
    refused(res)
    assert res.stderr.startswith(f"fs: error: {path}: job 3000")
    assert "it looks like" not in res.stderr


@pytest.mark.parametrize(
    ("head", "history"),
    [
        pytest.param("Owner,Group,Start,End,Cpus", True, id="csv-header"),
        pytest.param("x owner y, z START", True, id="words-in-any-case"),
        pytest.param("start,owner", False, id="no-start-after-the-comma"),
        pytest.param("owners,start", False, id="owner-not-a-word"),
        pytest.param('{"owner": "a", "start": 1}', True, id="json-line"),
        pytest.param('{"start": 1, "owner": "a"}', False, id="json-start-first"),
        pytest.param('[{"owner": "a", "start": 1}]', False, id="json-list-is-jobs"),
    ],
)
def test_a_usage_history_head(head: str, history: bool) -> None:
    """The first line a usage history starts with: a CSV header with the words owner and,
    after a comma, start, or a JSON line with "owner" then "start" (not a JSON list)."""
    assert (guess_text(head + "\nrest") == sniff.Guess("a usage history", ("history",))) == history


@pytest.mark.parametrize("text", ["\n " * 32768, "\t\n" * 32768, "DIRAC\n   \n" * 6000])
def test_blank_lines_make_no_guess(text: str) -> None:
    """64 KB of blank lines (or of a DIRAC word without its brace) is nothing: the marks
    that read a line from its start took a second each there (``^\\s*`` tried every blank
    line again)."""
    assert guess_text(text) is None


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["whatif", "--set", "accountant.priority_halflife=3600", "--history",
                      "pool.toml", "userprio", "--config", "pool.toml", "--now", NOW],
                     "pool.toml:1: unknown usage history field '# A realistic sample pool: "
                     f"50 eight-slot machines and 5 four-slot big-memory ones (420'; {CONFIG}",
                     id="whatif-history-config"),
        pytest.param(["whatif", "--set", "accountant.priority_halflife=3600", "--history",
                      "jobs.json", "userprio", "--config", "pool.toml", "--now", NOW],
                     "jobs.json: expected a usage history in JSON lines (one record per line), "
                     "not a JSON array; it looks like a jobs file: give it to fs submit --file, or "
                     "as --jobs-file or --workload", id="whatif-history-jobs"),
        pytest.param(["sweep", "spec.toml", "--out", "runs"],
                     "{tmp}/pool.toml:1: unknown usage history field '# A realistic sample "
                     f"pool: 50 eight-slot machines and 5 four-slot big-memory ones (420'; {CONFIG}",
                     id="sweep-spec-history-config"),
    ],
)  # fmt: skip
def test_a_usage_history_that_is_another_file_says_where_it_goes(
    line: list[str], said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``fs whatif ... --history pool.toml`` and a sweep spec's ``history = "pool.toml"``
    said only ``unknown usage history field '# A realistic ...'``, where ``fs import history
    pool.toml`` said where the config goes: the history those two replay is refused in the
    same words as the import's, nothing written."""
    for name in ("pool.toml", "jobs.json", "workload.json", "sample-state.json"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    spec = (SAMPLE / "sweep.toml").read_text(encoding="utf-8")
    spec = spec.replace('history = "history.csv"', 'history = "pool.toml"')
    (tmp_path / "spec.toml").write_text(spec, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    res = run(*line, "--state", "sample-state.json") if line[0] == "whatif" else run(*line)
    refused(res)
    assert res.stderr == f"fs: error: {said.format(tmp=tmp_path)}\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


STORE = (
    "it looks like an SQLite database, such as the usage history fs keeps beside a state "
    "(STATE.history.sqlite): fs reads that one itself, beside the state given as --state "
    "(fs whatif replays it without --history)"
)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["userprio", "--state", "sample-state.history.sqlite"],
                     "state file sample-state.history.sqlite is not UTF-8 text (byte 102); "
                     f"{STORE}", id="store-as-state"),
        pytest.param(["whatif", "--history", "sample-state.history.sqlite", "--set",
                      "accountant.priority_halflife=3600", "userprio"],
                     "sample-state.history.sqlite: not UTF-8 text (byte 102 of a read); expected "
                     f"a text file; {STORE}", id="store-as-history"),
        pytest.param(["import", "history", "sample-state.history.sqlite"],
                     "sample-state.history.sqlite: not UTF-8 text (byte 102 of a read); expected "
                     "a text file (fs import history reads a usage history: CSV with a header "
                     f"line, or JSON lines); {STORE}", id="store-imported"),
    ],
)  # fmt: skip
def test_the_usage_history_store_given_as_a_file_says_fs_reads_it_itself(
    line: list[str], said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``fs userprio --state sample-state.history.sqlite`` (the store beside the state, not
    the state) was told ``fix it or move it aside to start afresh``, and the history options
    only ``expected a text file``: the store is named for what it is, nothing written."""
    for name in ("pool.toml", "sample-state.json", "sample-state.history.sqlite"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    res = run(*line, "--config", "pool.toml", "--now", NOW)
    refused(res)
    assert res.stderr == f"fs: error: {said}\n"
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.suffix != ".lock"}
    assert after == before
