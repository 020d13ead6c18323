"""``fs sprio -j``'s list as sprio reads it: attached to the option, or the argument left
after the options; every list read in turn.

Before, ``fs sprio -j 5 6`` listed job 6 and ``fs sprio -j 5 -j 6`` job 6 too, where sprio
refuses both (``Unrecognized option: 6``); ``fs sprio -j -u alice 1`` said ``Got
unexpected extra argument (1)`` where sprio lists alice's job 1; and ``fs sprio -j x -j 1``
listed job 1, where sprio stops at ``Invalid job id: x``. The rules are
``src/sprio/opts.c``'s ``parse_command_line`` (22.05 and today alike): ``-j`` is getopt's
``j::``, whose list is only one attached to it (``-j5``, ``--jobs=5``: glibc's getopt
gives a value of an optional argument only in the same word); each list given is read at
once (``_build_job_list``, which exits at a bad id); after the options, when ``-j`` was
given, the first argument left replaces the list, and an argument left after it (or any,
without ``-j``) is ``Unrecognized option: x``, with the usage text on stdout (``_usage``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

HEADER = "JOBID USER\n"
USAGE = (
    "Usage: cli sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
    "   [--federation] [--local] [--sibling] [--usage] [-hlnvw] [--jobs-file FILE]\n"
)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["-j", "1"], id="j-then-list"),
        pytest.param(["-j1"], id="attached"),
        pytest.param(["--jobs=1"], id="long-attached"),
        pytest.param(["--jobs", "1"], id="long-then-list"),
        pytest.param(["-j", "-u", "alice", "1"], id="list-after-other-options"),
        pytest.param(["-j9", "1", "-j"], id="argument-replaces-attached"),
    ],
)
def test_the_list_after_a_bare_j_is_read(
    args: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run("sprio", "-o", "%i %u", *args, *common(env))
    assert (result.exit_code, result.stdout, result.stderr) == (0, HEADER + "1 alice\n", "")


@pytest.mark.parametrize(
    ("args", "stray"),
    [
        pytest.param(["-j", "1", "2"], "2", id="two-lists"),
        pytest.param(["-j", "1", "-j", "2"], "2", id="two-bare-j"),
        pytest.param(["1"], "1", id="no-j"),
    ],
)
def test_an_argument_sprio_takes_for_nothing_is_refused(
    args: list[str], stray: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    result = run("sprio", *args, *common(env))
    refused(result, f"Unrecognized option: {stray}")
    assert result.stdout == USAGE
    assert env["state"].read_bytes() == before


def test_every_j_list_is_read(env: dict[str, Path], run: Callable[..., Any]) -> None:
    result = run("sprio", "-jx", "-j1", *common(env))
    refused(result, "Invalid job id: x")
    assert result.stdout == ""


def test_every_u_list_names_its_unknown_users(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """opts.c's ``_build_user_list`` runs for each ``-u``: each list's unknown names are
    said, though the last list alone filters."""
    result = run("sprio", "-o", "%i %u", "-u", "nobody", "-u", "alice", *common(env))
    assert (result.exit_code, result.stdout) == (0, HEADER + "1 alice\n")
    assert result.stderr == "fs: warning: Invalid user: nobody\n"


def test_a_value_that_looks_like_j_is_a_value(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``-o -j``: ``-j`` is ``-o``'s value (a format of no field: its text alone)."""
    result = run("sprio", "-h", "-o", "-j", *common(env))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "-j\n", "")
