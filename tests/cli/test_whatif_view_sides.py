"""``fs whatif`` runs its view twice, once a side (cli/whatif_simulate.py ``view_usage``):
a note or warning both sides print, about the command line or the input, was printed
twice; it is now printed once. What a view refuses there is said in whatif's terms
(cli/userprio.py, cli/userprio_options.py): no --json the admin never gave, and no edit
that would write the state."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


@pytest.mark.parametrize(
    ("view", "note"),
    [
        pytest.param(
            ["sshare", "-u", "alice", "bob"],
            "fs: note: ignored 'bob', as sshare ignores an argument not an option's\n",
            id="sshare-argument",
        ),
        pytest.param(
            ["userprio", "-debug"],
            "fs: note: -debug: fs talks to no daemon, so it has no debug log to print; the"
            " output is as without it\n",
            id="userprio-debug",
        ),
    ],
)
def test_a_note_both_sides_print_is_printed_once(
    tmp_path: Path, run: Callable[..., Any], view: list[str], note: str
) -> None:
    """``fs whatif --set accountant.priority_halflife=600 sshare -u alice bob``: sshare's
    note on the ignored 'bob' came twice; now once. The files are unchanged."""
    pool = write_pool(tmp_path)
    before = [pool["config"].read_bytes(), pool["state"].read_bytes()]
    line = ["whatif", "--set", "accountant.priority_halflife=600", *view]
    result = run(*line, *common(pool))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == note
    assert [pool["config"].read_bytes(), pool["state"].read_bytes()] == before


@pytest.mark.parametrize(
    ("option", "words"),
    [
        pytest.param(["-af", "Name"], "--af (-af) prints its own lines; ", id="af"),
        pytest.param(
            ["-constraint", "true"],
            "--constraint (-constraint) filters only --long --modular and --af output, as"
            " condor_userprio 25.0 applies it; ",
            id="constraint",
        ),
        pytest.param(
            ["-getreslist", "alice"],
            "--getreslist prints condor_userprio's table only; ",
            id="getreslist",
        ),
    ],
)
def test_userprio_af_and_constraint_under_whatif_do_not_ask_to_leave_out_json(
    tmp_path: Path, run: Callable[..., Any], option: list[str], words: str
) -> None:
    """``fs whatif --set ... userprio -af Name`` said "leave out --json/--output", which the
    admin never gave (fs whatif runs the view with --json); now it names the option to
    leave out. Exit 2."""
    pool = write_pool(tmp_path)
    line = ["whatif", "--set", "accountant.priority_halflife=600", "userprio", *option]
    result = run(*line, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {words}fs whatif compares fs userprio's rows: leave {option[0]} out (see"
        " 'cli whatif --help'; the view's options: 'cli userprio --help')\n"
    )


@pytest.mark.parametrize(
    ("edit", "name"),
    [
        pytest.param(["-setfactor", "alice@example.org", "3"], "setfactor", id="setfactor"),
        pytest.param(["-resetall"], "resetusage", id="resetall"),
    ],
)
def test_a_userprio_edit_under_whatif_is_refused_and_writes_nothing(
    tmp_path: Path, run: Callable[..., Any], edit: list[str], name: str
) -> None:
    """``fs whatif --set accountant.priority_halflife=600 userprio -setfactor alice@... 3``
    ran the edit for real (the state written, the factor set) and then ended in a
    JSONDecodeError traceback; now refused before anything runs, exit 2, the state
    unchanged."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    line = ["whatif", "--set", "accountant.priority_halflife=600", "userprio", *edit]
    result = run(*line, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: condor_userprio's edits (here fs {name}) write the state, and fs whatif"
        f" writes nothing: compare the views without the edit, or preview it with fs {name}"
        " ... --dry-run (see 'cli whatif --help'; the view's options: 'cli userprio --help')\n"
    )
    assert pool["state"].read_bytes() == before


def test_negotiate_explain_under_whatif_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set ... negotiate --jobs-file j.json --explain 1.0`` said "fs negotiate
    shows no rows under either config ...; its jobs come from the state's queue or
    --jobs-file FILE" (the story is no rows), though the jobs file held the job; now
    refused, naming --explain. Exit 2."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "j.json"
    jobs.write_text('[{"id": "1.0", "owner": "alice"}]', encoding="utf-8")
    line = ["whatif", "--set", "accountant.priority_halflife=600", "negotiate"]
    result = run(*line, "--jobs-file", str(jobs), "--explain", "1.0", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: fs whatif compares the cycle's submitters and matches; --explain tells one"
        " job's story, which it does not compare: leave --explain out (see 'cli whatif"
        " --help'; the view's options: 'cli negotiate --help')\n"
    )


@pytest.mark.parametrize(
    ("line", "error"),
    [
        pytest.param(
            ["--set", "a..=0b11", "userprio", "csv"],
            "--set: unknown key 'a'; known keys: pool, accountant, negotiator, machines, "
            "groups, priority, partitions, qos, accounts, dirac",
            id="userprio-name-note",
        ),
        pytest.param(
            ["--set", "machines.0.count=x", "sshare", "csv"],
            '--set: machines[0].count: expected a whole number, got string "x"',
            id="sshare-argument-note",
        ),
    ],
)
def test_the_before_sides_notes_do_not_precede_the_after_sides_refusal(
    tmp_path: Path, run: Callable[..., Any], line: list[str], error: str
) -> None:
    """``fs whatif --set a..=0b11 userprio csv``: the before side's ``fs: note: no record
    csv@example.org`` was printed, then the after side's refusal of the --set: two lines.
    The before side's notes wait for the after side; a refusal is its one line."""
    pool = write_pool(tmp_path)
    before = [pool["config"].read_bytes(), pool["state"].read_bytes()]
    result = run("whatif", *line, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error}\n"
    assert [pool["config"].read_bytes(), pool["state"].read_bytes()] == before
    done = run("whatif", "--set", "machines.0.count=1", *line[2:], *common(pool))
    assert done.exit_code == 0, done.stderr
    assert done.stderr.startswith("fs: note: ")
