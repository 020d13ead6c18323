"""Shell completion of record names and job ids from the state the command line names
(``eval "$(_FS_COMPLETE=bash_source fs)"``, then TAB)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


def complete(line: str, env: dict[str, str] | None = None) -> list[str]:
    """What bash completes for ``line`` (the cursor at its end), as its TAB would."""
    words = line.split(" ")
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="fs",
        env={
            "_FS_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - 1),
            **(env or {}),
        },
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return [item.partition(",")[2] for item in result.stdout.splitlines() if item]


@pytest.fixture
def pool(tmp_path: Path, run: Callable[..., Any]) -> dict[str, str]:
    """The sample pool (its config names its state) with two jobs queued."""
    folder = tmp_path / "pool"
    shutil.copytree(REPO / "sample_configs", folder)
    config = str(folder / "pool.toml")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"id": "7", "owner": "bob"}, {"id": "12.0", "owner": "ivan"}]))
    result = run("submit", "--file", str(jobs), "--config", config, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    return {"FAIRSHARE_CONFIG": config}


def test_an_edit_completes_the_record_names(pool: dict[str, str]) -> None:
    """fs setfactor group_physics.h<TAB>: it completed nothing (no NAME completer). Then it
    offered the group group_physics.hep too, which every edit of one record refuses
    ("cannot set the factor of group 'group_physics.hep' here"): submitters alone."""
    assert complete("fs setfactor group_physics.h", pool) == [
        "group_physics.hep.alice@example.org",
        "group_physics.hep.bob@example.org",
        "group_physics.hep.dave@example.org",
    ]
    assert complete("fs delete j", pool) == ["judy@example.org"]
    assert complete("fs setprio <n", pool) == []  # (the root group <none>)
    assert complete("fs resetusage group_chemistry.l", pool) == [
        "group_chemistry.lab.grace@example.org",
        "group_chemistry.lab.heidi@example.org",
    ]
    assert "group_physics.hep" in complete("fs userprio group_physics.h", pool)  # (a view)
    assert complete("fs userprio --allusers i", pool) == ["ivan@example.org"]
    config = pool["FAIRSHARE_CONFIG"]
    assert complete(f"fs resetusage --config {config} m") == ["mallory@guest.net"]


def test_rm_prio_and_explain_complete_the_queued_job_ids(pool: dict[str, str]) -> None:
    assert complete("fs rm ", pool) == ["12.0", "7"]
    assert complete("fs prio 1", pool) == ["12.0"]
    assert complete("fs negotiate --dry-run --explain ", pool) == ["12.0", "7"]


def test_an_unreadable_config_or_state_completes_nothing(
    pool: dict[str, str], tmp_path: Path
) -> None:
    """No error and no traceback goes into the shell: the completion is empty."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert complete("fs setfactor ", {**pool, "FAIRSHARE_STATE": str(bad)}) == []
    assert complete("fs rm ", {"FAIRSHARE_CONFIG": str(tmp_path / "none.toml")}) == []
    broken = tmp_path / "broken.toml"
    broken.write_text("[pool\n")
    assert complete(f"fs setfactor --config {broken} ") == []


def test_explain_completes_the_ids_of_the_jobs_file_the_line_names(
    pool: dict[str, str], tmp_path: Path
) -> None:
    """``fs negotiate --dry-run --jobs-file sample_configs/jobs.json --explain 106<TAB>``
    (the example of ``fs negotiate --help``) completed nothing: the ids came from the
    state, whose queue that cycle does not read. They come from the jobs file now, a
    ``count`` object's jobs each; stdin, a pipe or a file that is no jobs file complete
    nothing, without waiting or an error."""
    jobs = REPO / "sample_configs" / "jobs.json"
    line = f"fs negotiate --dry-run --jobs-file {jobs} --explain "
    assert complete(line + "106", pool) == ["106.0"]
    assert complete(line + "101.14", pool)[:3] == ["101.14", "101.140", "101.141"]
    assert len(complete(line, pool)) == 150 + 100 + 300 + 50 + 40 + 1  # the objects' counts
    fifo = tmp_path / "jobs.fifo"
    os.mkfifo(fifo)
    for source in ("-", str(fifo), pool["FAIRSHARE_CONFIG"]):
        assert complete(f"fs negotiate --dry-run --jobs-file {source} --explain 1", pool) == []
