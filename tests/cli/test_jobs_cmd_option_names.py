"""A job object that names a field as ``fs submit``'s option does (``--cpus``,
``--memory``, ``--nodes``) or as a usage history record does (``cpus``) is told the field
to write: ``request_cpus``, ``request_memory``, ``num_nodes``.

difflib's cut-off (0.6) finds none of them (``cpus`` and ``request_cpus`` score 0.5), so
fs said "unknown job field 'cpus' (fields: docs/jobs.md)", though docs/jobs.md promises a
did-you-mean hint for an unknown field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-30T12:00:00Z"


def test_a_jobs_file_with_cpus_names_request_cpus(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs submit --file j.json of '[{"id": "7", "owner": "alice", "cpus": 2}]'."""
    config = write_config('[pool]\ndefaults = "current"\n')
    state = tmp_path / "state.json"
    jobs = tmp_path / "j.json"
    jobs.write_text(json.dumps([{"id": "7", "owner": "alice", "cpus": 2}]), encoding="utf-8")
    args = ["--config", str(config), "--now", NOW]
    result = run("submit", "--file", str(jobs), "--state", str(state), *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {jobs}: job 7: unknown job field 'cpus' (did you mean 'request_cpus'?)\n"
    )
    assert not state.exists()
    result = run("sprio", "--jobs-file", str(jobs), *args)
    assert result.exit_code == 2
    assert "(did you mean 'request_cpus'?)" in result.stderr


def test_submit_set_of_an_option_name_names_the_field(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs submit --set nodes=2 (and memory=, Cpus=): each names its field."""
    config = write_config('[pool]\ndefaults = "current"\n')
    state = tmp_path / "state.json"
    for name, field in (("nodes", "num_nodes"), ("memory", "request_memory"),
                        ("Cpus", "request_cpus")):  # fmt: skip
        result = run(
            "submit", "--owner", "alice", "--set", f"{name}=2", "--config", str(config),
            "--state", str(state), "--now", NOW,
        )  # fmt: skip
        assert result.exit_code == 2
        assert result.stderr == (
            f"fs: error: fs submit: job 1: unknown job field '{name}' (did you mean '{field}'?)\n"
        )
    assert not state.exists()
    result = run(
        "submit", "--owner", "alice", "--set", "bogus=2", "--config", str(config),
        "--state", str(state), "--now", NOW,
    )  # fmt: skip
    assert result.stderr == (
        "fs: error: fs submit: job 1: unknown job field 'bogus' (fields: docs/jobs.md)\n"
    )


def test_a_user_field_names_owner(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs submit --set user=ann --dry-run (and a jobs file's "user"): the real tools' name
    for the owner offered 'nice_user' (difflib's closest); it names 'owner'."""
    config = write_config('[pool]\ndefaults = "current"\n')
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", NOW]
    result = run("submit", "--set", "user=ann", "--dry-run", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        "fs: error: fs submit: job 1: unknown job field 'user' (did you mean 'owner'?)\n"
    )
    jobs = tmp_path / "j.json"
    jobs.write_text(json.dumps([{"id": "5", "user": "ann"}]), encoding="utf-8")
    result = run("submit", "--file", str(jobs), *args)
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {jobs}: job 5: unknown job field 'user' (did you mean 'owner'?)\n"
    )
    assert not state.exists()
