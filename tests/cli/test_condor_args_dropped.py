"""``fs userprio -setfactor NAME F ...`` refuses what condor_userprio refuses while it reads
its arguments, before any edit: ``main`` of ``user_prio.cpp`` prints its usage for an
argument that is no option and starts with no letter (nor is ``<none>``), and
``parse_autoformat_args`` stops at an ``-af`` expression that does not parse; the edit
runs only once every argument is read. fs dropped the display arguments beside an edit
unread and wrote the edit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ALICE = "group_physics.hep.alice@example.org"
NAME_RULE = (
    "condor_userprio reads a name that starts with a letter (a user, user@domain or an "
    "accounting group), or <none>"
)


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        pytest.param(["1abc"], f"NAME '1abc': {NAME_RULE}", id="name-of-no-letter"),
        pytest.param([""], f"NAME '': {NAME_RULE}", id="empty-name"),
        pytest.param(["--", "1abc"], f"NAME '1abc': {NAME_RULE}", id="after-double-dash"),
        pytest.param(
            ["-af", "Priority +"],
            "Priority +: cannot parse ClassAd expression 'Priority +'",
            id="af-expression",
        ),
    ],
)
def test_an_edit_beside_what_condor_refuses_writes_nothing(
    run: Callable[..., Any], tmp_path: Path, extra: list[str], error: str
) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z",
                 "-setfactor", ALICE, "2", *extra)  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error}\n"
    assert state.read_bytes() == before


def test_an_edit_beside_a_name_and_display_options_runs(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """A name that starts with a letter, ``-af Name`` and ``-activefrom a b c`` (``atoi``
    reads 0) are read without a word: the edit runs."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    result = run("userprio", "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z", "-setfactor", ALICE,
                 "2", "judy", "-af", "Name", "-activefrom", "a", "b", "c")  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"The priority factor of {ALICE} was set to 2.000000\n"


@pytest.mark.parametrize(
    ("edit", "extra", "command"),
    [
        pytest.param(["-setfactor", ALICE, "2"], ["--json"], "setfactor", id="json"),
        pytest.param(["-setfactor", ALICE, "2"], ["--output", "csv"], "setfactor", id="output"),
        pytest.param(["-setprio", ALICE, "5"], ["--output=json"], "setprio", id="output-eq"),
        pytest.param(["-resetall"], ["--json"], "resetusage", id="resetall"),
    ],
)
def test_an_edit_with_json_is_refused(
    run: Callable[..., Any], tmp_path: Path, edit: list[str], extra: list[str], command: str
) -> None:
    """``fs userprio -setfactor U 2 --json`` wrote the edit and printed its one line,
    dropping ``--json`` without a word; fs's own output options are refused beside an edit,
    as beside ``-getreslist`` (condor_userprio has no such option: its edits print a line)."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", *edit, *extra, "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: condor_userprio's edits (here fs {command}) print one line, not rows; "
        "leave out --json/--output\n"
    )
    assert state.read_bytes() == before


def test_an_edit_with_the_table_output_runs(run: Callable[..., Any], tmp_path: Path) -> None:
    """``--output table`` is what the edit prints: it runs."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    result = run("userprio", "-setfactor", ALICE, "2", "--output", "table",
                 "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"The priority factor of {ALICE} was set to 2.000000\n"
