"""``fs userprio -getreslist NAME`` refuses a NAME that names no submitter: condor_userprio
stops on a NAME without ``@`` ("You must specify the full name of the submittor"); fs
gives a bare user the pool's uid_domain, but listed an empty table for ``''``, a control
character, ``<none>`` or a group (their ``@example.org``), exit 0."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SUBMITTER = (
    "expected a submitter, user@domain (or a user, given the pool's uid_domain), as "
    "condor_userprio wants its full name"
)


@pytest.mark.parametrize(
    ("name", "error"),
    [
        pytest.param("", "-getreslist NAME: expected a name, got an empty one", id="empty"),
        pytest.param(
            "a\x01",
            "-getreslist NAME: expected a name without blanks or control characters, got 'a\\x01'",
            id="control",
        ),
        pytest.param("<none>", f"-getreslist '<none>': {SUBMITTER}", id="none-group"),
        pytest.param("group_physics", f"-getreslist 'group_physics': {SUBMITTER}", id="group"),
        pytest.param("@x", f"-getreslist '@x': {SUBMITTER}", id="no-user"),
    ],
)
def test_a_name_of_no_submitter_is_refused(
    run: Callable[..., Any], tmp_path: Path, name: str, error: str
) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "-getreslist", name, "--config",
                 str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error}\n"
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        pytest.param(
            ["--json"],
            "--getreslist prints condor_userprio's table only; leave out --json/--output",
            id="json",
        ),
        pytest.param(
            ["-long"],
            "--getreslist prints condor_userprio's table only (with -long condor_userprio "
            "prints the negotiator's ad, naming each slot with its startd's address, which "
            "fs does not hold)",
            id="long",
        ),
    ],
)
def test_another_output_is_refused_naming_what_was_given(
    run: Callable[..., Any], tmp_path: Path, extra: list[str], error: str
) -> None:
    """``fs userprio -getreslist alice --json`` was refused naming ``-long``, which was not
    given; it names ``--json`` now, and ``-long`` only where it is given."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "-getreslist", "alice", *extra, "--config",
                 str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error} (see 'cli userprio --help')\n"
    assert state.read_bytes() == before
