"""Names as users type them: group records found for a bare user, new records announced."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from fairshare_cli.cli.names import group_records, unmatched_names

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture
def sample(tmp_path: Path) -> list[str]:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    return ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]


def test_group_records() -> None:
    records = ["g.alice@d.org", "g.h.alice@d.org", "g.malice@d.org", "alice@other.net", "g"]
    assert group_records("alice@d.org", records) == ["g.alice@d.org", "g.h.alice@d.org"]
    assert group_records("alice", records) == ["g.alice@d.org", "g.h.alice@d.org"]
    # A bare name matches the part before the "@" in any domain (alice@other.net here).
    assert unmatched_names(["alice", "g", "alice@other.net"], records, "d.org") == []
    records.remove("alice@other.net")
    assert unmatched_names(["alice", "g", "x"], records, "d.org") == [
        "no record alice@d.org; did you mean g.alice@d.org or g.h.alice@d.org",
        "no record x@d.org",
    ]


def test_userprio_names_the_group_record(sample: list[str], run: Callable[..., Any]) -> None:
    result = run("userprio", "alice", *sample, "--now", NOW)
    assert result.exit_code == 0
    assert result.stderr == ("fs: note: alice is shown as group_physics.hep.alice@example.org\n")
    assert "Number of users: 1 " in result.stdout and "alice@example.org" in result.stdout
    assert run("userprio", "judy", *sample, "--now", NOW).stderr == ""


def test_edit_of_an_unseen_name_needs_create(
    sample: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    state = tmp_path / "s.json"
    before = state.read_bytes()
    refused = run("setfactor", "alice", "3", *sample, "--now", NOW)
    assert refused.exit_code == 2
    assert refused.stderr == (
        "fs: error: no record alice@example.org; did you mean "
        "group_physics.hep.alice@example.org; pass --create to make a new record "
        "(condor_userprio would create it silently)\n"
    )
    assert state.read_bytes() == before
    assert run("userprio", "-setfactor", "alice", "3", *sample, "--now", NOW).exit_code == 2
    made = run("setfactor", "alice", "3", "--create", *sample, "--now", NOW)
    assert (
        made.stdout == "The priority factor of alice@example.org was set to 3.000000 (new record)\n"
    )
    # (never used: only the negotiator's ad, --allusers, lists the new record)
    rows = json.loads(run("userprio", "--allusers", *sample, "--now", NOW, "--json").stdout)
    made_rows = [r for r in rows if r["name"] == "alice@example.org"]
    assert [(r["name"], r["priority_factor"]) for r in made_rows] == [("alice@example.org", 3.0)]
    again = run("setfactor", "alice", "4", *sample, "--now", NOW)
    assert again.stdout == "The priority factor of alice@example.org was set to 4.000000\n"


def test_a_submitter_in_the_queue_is_seen(sample: list[str], run: Callable[..., Any]) -> None:
    """A record that does not exist yet for a queued submitter is made without --create."""
    assert run("submit", "--owner", "newbie", *sample, "--now", NOW).exit_code == 0
    made = run("setprio", "newbie", "7", *sample, "--now", NOW)
    assert made.exit_code == 0, made.stderr
    assert made.stdout == "The priority of newbie@example.org was set to 7.000000 (new record)\n"


def test_edit_help_says_condor_creates_silently(run: Callable[..., Any]) -> None:
    text = " ".join(run("setfactor", "--help").stdout.split())
    assert "condor_userprio creates one silently" in text


def test_a_name_with_a_control_character_is_noted_escaped(sample: list[str]) -> None:
    """``fs userprio $'a\\e[2J'`` wrote the escape as it came, on a terminal clearing the
    screen ('fs: note: no record a^[[2J@example.org'); ``$'a\\ab'`` rang the bell. The name
    is shown escaped, as fs shows a control character elsewhere; one that starts with the
    escape is refused (condor_userprio reads no such name), escaped. (``$'a\\nb'`` is two
    names, a and b: condor_userprio splits a name without @ at blanks and commas.)"""
    line = ["userprio", "a\x1b[2J", "a\x07b", *sample, "--now", NOW]
    result = CliRunner().invoke(cli, line, color=True)  # (as a terminal: no escape dropped)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        "fs: note: no record a\\x1b[2J@example.org\nfs: note: no record a\\x07b@example.org\n"
    )
    line = ["userprio", "\x1b[2J", *sample, "--now", NOW]
    result = CliRunner().invoke(cli, line, color=True)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: NAME '\\x1b[2J': condor_userprio reads a name")
    assert result.stderr.count("\n") == 1
