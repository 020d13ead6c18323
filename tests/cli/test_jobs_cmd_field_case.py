"""A job field spelt in other case than fs's (HTCondor's ``Owner``, an ``OWNER``) is
named as the unknown field it is, with the field to write."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-30T12:00:00Z"


def test_a_jobs_file_with_owner_in_other_case_names_the_field(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs sprio --jobs-file j.json of '[{"id": "5.0", "Owner": "x"}]' (condor_q's spelling)
    said "missing required field 'owner'", as if the object had none; every command
    reading the file now names 'Owner' as unknown and 'owner' as the field."""
    config = write_config('[pool]\ndefaults = "current"\n')
    jobs = tmp_path / "j.json"
    jobs.write_text(json.dumps([{"id": "5.0", "Owner": "x"}]), encoding="utf-8")
    line = f"{jobs}: job 5.0: unknown job field 'Owner' (did you mean 'owner'?)"
    for command in (["sprio"], ["taskqueues"], ["quota"], ["negotiate", "--dry-run"]):
        result = run(*command, "--jobs-file", str(jobs), "--config", str(config), "--now", NOW)
        assert result.exit_code == 2, command
        assert result.stdout == ""
        assert result.stderr == f"fs: error: {line}\n"
    jobs.write_text(json.dumps([{"id": "5.0"}]), encoding="utf-8")  # (none at all: as before)
    result = run("sprio", "--jobs-file", str(jobs), "--config", str(config), "--now", NOW)
    assert result.stderr == f"fs: error: {jobs}: job 5.0: missing required field 'owner'\n"


def test_submit_set_of_a_field_in_capitals_names_the_field(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs submit --set OWNER=bob said "unknown job field 'OWNER' (fields: docs/jobs.md)":
    difflib counts case against a match, so no field came close."""
    config = write_config('[pool]\ndefaults = "current"\n')
    state = tmp_path / "state.json"
    result = run(
        "submit", "--set", "OWNER=bob", "--config", str(config), "--state", str(state),
        "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        "fs: error: fs submit: job 1: unknown job field 'OWNER' (did you mean 'owner'?)\n"
    )
    assert not state.exists()
