"""A mistyped command is refused in one line (exit 2) naming the commands it is close to,
among every command of its group: ``fs`` and ``fs import`` import their commands on first
use, so click, which suggests among the commands registered on a group, had none to offer
for ``fs userpri`` and offered ``condor-history`` alone for ``fs import condor-stat``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.cli.conftest import refused


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["userpri"], "No such command 'userpri'. (Did you mean one of: "
                     "'userprio', 'setprio', 'sprio'?) (see 'cli --help')", id="userpri"),
        pytest.param(["taskqueue"], "No such command 'taskqueue'. Did you mean 'taskqueues'? "
                     "(see 'cli --help')", id="taskqueue"),
        pytest.param(["import", "condor-stat", "x.json"],
                     "No such command 'condor-stat'. (Did you mean one of: 'condor-status', "
                     "'condor-q', 'condor-history'?) (see 'cli import --help')", id="condor-stat"),
        pytest.param(["import", "slurmconf", "slurm.conf"], "No such command 'slurmconf'. "
                     "Did you mean 'slurm-conf'? (see 'cli import --help')", id="slurmconf"),
        pytest.param(["xyz"], "No such command 'xyz'. (see 'cli --help')", id="no-close-one"),
        # fs sweep SPEC runs a spec: "Got unexpected extra argument (runs/) (see 'fs sweep
        # run --help')", as if colect were a spec file; a word close to a subcommand that
        # names no file is that subcommand mistyped
        pytest.param(["sweep", "colect", "runs/"], "No such command 'colect'. Did you mean "
                     "'collect'? (see 'cli sweep --help')", id="sweep-colect"),
        pytest.param(["sweep", "run-pont", "runs/", "3"], "No such command 'run-pont'. Did "
                     "you mean 'run-point'? (see 'cli sweep --help')", id="sweep-run-pont"),
    ],
)  # fmt: skip
def test_a_mistyped_command_names_the_close_ones(
    run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs userpri``, ``fs taskqueue``, ``fs import condor-stat x.json``, ``fs import
    slurmconf slurm.conf``: the closest first; ``fs xyz``: none is close (CliRunner names
    the program cli)."""
    res = run(*line)
    refused(res)
    assert res.stderr == f"fs: error: {said}\n"


def test_an_unknown_option_before_the_command_is_still_the_option_refused(
    run: Callable[..., Any],
) -> None:
    """``fs import --bogus``: the option is what is wrong, not a command."""
    res = run("import", "--bogus")
    refused(res)
    assert res.stderr == "fs: error: No such option '--bogus'. (see 'cli import --help')\n"


@pytest.mark.parametrize(
    ("option", "said"),
    [
        pytest.param("--negotiatr", "No such option '--negotiatr'. Did you mean '--negotiator'?",
                     id="one-close"),
        pytest.param("--usag", "No such option '--usag'. (Did you mean one of: '--af', "
                     "'--state', '--usage'?)", id="two-close"),
        pytest.param("--zzzzzz", "No such option '--zzzzzz'.", id="none-close"),
    ],
)  # fmt: skip
def test_a_mistyped_option_is_worded_alike_under_every_click(
    run: Callable[..., Any], option: str, said: str
) -> None:
    """``fs userprio --negotiatr`` (``--usag``, ``--zzzzzz``): click 8.1, Debian 12's, worded
    it "No such option: --negotiatr Did you mean --negotiator?" and "No such option: --usag
    (Possible options: --state, --usage)", click 8.4 on as below; fs says it one way under
    both (the close options are difflib's, as both clicks pick them)."""
    res = run("userprio", option)
    refused(res)
    assert res.stderr == f"fs: error: {said} (see 'cli userprio --help')\n"


def test_a_spec_named_like_a_sweep_command_is_still_a_spec(
    run: Callable[..., Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs sweep colect, where a file colect exists: the spec is that file (empty here)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "colect").write_text("", encoding="utf-8")
    res = run("sweep", "colect")
    refused(res)
    assert res.stderr.startswith("fs: error: sweep spec colect is empty")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["--config", "pool.toml", "userprio"],
                     "--config is an option of cli userprio, not of cli: give it after the "
                     "command name ('cli userprio --config ...')", id="config-first"),
        pytest.param(["--now=2026-11-21T12:00:00Z", "sshare", "-a"],
                     "--now is an option of cli sshare, not of cli: give it after the command "
                     "name ('cli sshare --now ...')", id="now-with-equals"),
        pytest.param(["--json", "quota"],
                     "--json is an option of cli quota, not of cli: give it after the command "
                     "name ('cli quota --json ...')", id="flag-first"),
        pytest.param(["--config", "pool.toml", "import", "sacct", "jobs.txt"],
                     "--config is an option of cli import sacct, not of cli: give it after "
                     "the command name ('cli import sacct --config ...')", id="subcommand"),
        # no command on the line, or one that has no such option: click's own refusal
        pytest.param(["--config", "pool.toml"], "No such option '--config'.", id="no-command"),
        pytest.param(["--bogus", "userprio"], "No such option '--bogus'.", id="not-the-commands"),
    ],
)  # fmt: skip
def test_a_commands_option_before_the_command_is_told_to_follow_it(
    run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs --config pool.toml userprio``, as ``git -C DIR log`` puts a path first: the
    option is the command's, so the refusal says where it goes. Before, it said only
    "No such option '--config'." (CliRunner names the program cli)."""
    res = run(*line)
    refused(res)
    assert res.stdout == ""
    assert res.stderr == f"fs: error: {said} (see 'cli --help')\n"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["submit", "--owner", "bob", "--count", "abc"],
                     "Invalid value for '--count': 'abc' is not a valid integer. (see 'cli "
                     "submit --help')", id="word"),
        pytest.param(["submit", "--owner", "bob", "--cpus", "1.5", "--dry-run"],
                     "Invalid value for '--cpus': '1.5' is not a valid integer. (see 'cli "
                     "submit --help')", id="fraction"),
        # the range itself is still named where the number is outside it
        pytest.param(["submit", "--owner", "bob", "--count", "0"],
                     "Invalid value for '--count': 0 is not in the range x>=1. (see 'cli "
                     "submit --help')", id="outside"),
    ],
)  # fmt: skip
def test_a_word_for_a_bounded_number_is_not_an_integer(
    run: Callable[..., Any], line: list[str], said: str
) -> None:
    """``fs submit --count abc``: click names a bounded option's type "integer range", and
    said "'abc' is not a valid integer range.", as if a range (``1-5``) were asked for;
    --count takes one whole number, as --nice does ("'x' is not a valid integer.")."""
    res = run(*line)
    refused(res)
    assert res.stderr == f"fs: error: {said}\n"
