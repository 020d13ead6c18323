"""``fs userprio``'s notes on condor_userprio's options (``-debug``, several edits) are
printed once the command has run: a refused line prints its one error line alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
DAVE = "group_physics.hep.dave@example.org"


def _args(tmp_path: Path) -> list[str]:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    return ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
            "--now", NOW]  # fmt: skip


def test_a_refused_name_after_debug_prints_the_error_alone(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs userprio -d ''`` printed the -debug note, then the error (two lines)."""
    args = _args(tmp_path)
    before = (tmp_path / "s.json").read_bytes()
    result = run("userprio", "-d", "", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: NAME '': condor_userprio reads a name that starts with a letter (a user, "
        "user@domain or an accounting group), or <none>\n"
    )
    assert (tmp_path / "s.json").read_bytes() == before


def test_a_refused_edit_of_a_chain_prints_the_error_alone(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``-setfactor D 2 -setfactor D x``: the last -setfactor runs and is refused; fs
    printed the note naming the ignored one before the error."""
    args = _args(tmp_path)
    before = (tmp_path / "s.json").read_bytes()
    result = run("userprio", "-setfactor", DAVE, "2", "-setfactor", DAVE, "x", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "fs: error: priority factor: expected a number, got 'x'\n"
    assert (tmp_path / "s.json").read_bytes() == before


def test_the_note_follows_an_edit_that_ran(run: Callable[..., Any], tmp_path: Path) -> None:
    args = _args(tmp_path)
    result = run("userprio", "-setfactor", DAVE, "x", "-setfactor", DAVE, "2", "--dry-run", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        f"(dry run, nothing written) The priority factor of {DAVE} was set to 2.000000\n"
    )
    assert result.stderr == (
        "fs: note: condor_userprio runs one edit, the last -setfactor given (-setfactor comes "
        f"first in its order); ignored: -setfactor {DAVE} x\n"
    )


def test_a_refused_group_number_after_an_unknown_name_prints_the_error_alone(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs userprio x@y group_physics -groupid -quotas`` printed 'fs: note: no record
    x@y' before the -groupid refusal."""
    args = _args(tmp_path)
    before = (tmp_path / "s.json").read_bytes()
    result = run("userprio", "x@y", "group_physics", "-groupid", "-quotas", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --groupid (-groupid): condor_userprio would number group_physics by the "
        "order the collector sent their ads in, which fs cannot know (no user inside a group "
        "is listed); --allusers reads the negotiator's ad, whose order is known\n"
    )
    assert (tmp_path / "s.json").read_bytes() == before


def test_notes_follow_in_the_order_they_arose(run: Callable[..., Any], tmp_path: Path) -> None:
    """The options' notes first (-debug), then the names' (no record), once printed."""
    result = run("userprio", "x@y", "judy", "-d", "-prio", *_args(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "fs: note: -debug: fs talks to no daemon, so it has no debug log to print; the output "
        "is as without it\nfs: note: no record x@y\n"
    )
