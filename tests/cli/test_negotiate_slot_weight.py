"""``fs rm`` gives back the slot weight ``fs negotiate`` charged, end to end, and ``fs config
check`` saying what weighs 1.0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T12:10:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "legacy"

[negotiator]
use_slot_weights = true
slot_weight = "Memory / 1024"

[[machines]]
name = "exec"
count = 1
attributes = { Cpus = 1, Memory = 4096 }
"""


def in_use(run: Any, args: list[str], when: str) -> dict[str, float]:
    result = run("userprio", *args, "--allusers", "--json", "--now", when)
    assert result.exit_code == 0, result.stderr
    return {r["name"]: r["weighted_resources_in_use"] for r in json.loads(result.stdout)}


def test_negotiate_charges_4_and_rm_gives_4_back(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """4096 MB / 1024: a weight of 4 charged, 4 released (before the fix: 2, leaving 2.0)."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    assert run("submit", *args, "--owner", "alice", "--now", NOW).exit_code == 0
    result = run("negotiate", *args, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert in_use(run, args, NOW) == {"<none>": 4.0, "alice@example.org": 4.0}
    claims = json.loads((tmp_path / "state.json").read_text())["negotiator"]["claims"]
    assert claims["slot1@exec001"]["weight"] == 4.0
    result = run("rm", "1", *args, "--now", LATER)
    assert result.stdout == "Removed 1 job: 1\n"
    assert in_use(run, args, LATER) == {"<none>": 0.0, "alice@example.org": 0.0}


def test_config_check_names_machines_that_weigh_one(run: Any, write_config: Any) -> None:
    cfg = write_config(POOL + '\n[[machines]]\nname = "bare"\nattributes = { Cpus = 4 }\n')
    result = run("config", "check", "--config", str(cfg))
    assert result.exit_code == 0
    assert result.stderr == (
        'fs: warning: [negotiator] slot_weight "Memory / 1024" is undefined on the slots of '
        'machine "bare", not a number of 0 or more; each of them weighs 1.0\n'
    )
    assert result.stdout.splitlines()[1].startswith(f"# {cfg}: valid")  # after the profile


def test_config_check_is_quiet_when_every_slot_weighs(run: Any, write_config: Any) -> None:
    result = run("config", "check", "--config", str(write_config(POOL)), "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert json.loads(result.stdout)["negotiator"]["slot_weight"] == "Memory / 1024"
