"""Long options abbreviated as sprio and sshare take them: getopt_long reads a long option
that is not written in full as the one it starts, and refuses one that starts several it
tells apart.

Before, ``fs sprio --form %i`` said ``No such option '--form'`` (exit 2) where sprio
prints its jobs, and so did every abbreviation (``--nohead``, ``--weight``, sshare's
``--Use``, ...). The rules are glibc's ``getopt_long`` (``_getopt_internal_r``: an exact
name first; else the first name the word starts, an error when a later one differs from
it in ``has_arg``, ``flag`` or ``val``, listing that first one and each differing one)
over the clients' tables: ``src/sprio/opts.c`` and ``src/sshare/sshare.c``'s
``long_options`` (``user`` and ``users`` are one option to getopt, both ``'u'``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused


@pytest.mark.parametrize(
    ("short", "long"),
    [
        pytest.param(["-o", "%i %u", "-h"], ["--form", "%i %u", "--nohead"], id="sprio-form"),
        pytest.param(["-o", "%i"], ["--for=%i"], id="sprio-for-equals"),
        pytest.param(["-u", "alice"], ["--use", "alice"], id="sprio-use-is-user"),
        pytest.param(["-w"], ["--weight"], id="sprio-weight"),
        pytest.param(["-j", "1"], ["--jo=1"], id="sprio-jo"),
        pytest.param(["-l", "-S", "-Y"], ["--lon", "--so=-Y"], id="sprio-lon-so"),
    ],
)
def test_sprio_takes_long_options_abbreviated(
    short: list[str], long: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    want = run("sprio", *short, *common(env))
    result = run("sprio", *long, *common(env))
    assert want.exit_code == 0, want.stderr
    assert (result.exit_code, result.stdout, result.stderr) == (0, want.stdout, "")


@pytest.mark.parametrize(
    ("short", "long"),
    [
        pytest.param(["-U", "-a", "-n"], ["--Use", "--al", "--noh"], id="sshare-Use"),
        pytest.param(["-u", "alice", "-P"], ["--use", "alice", "--parsable2"], id="sshare-use"),
        pytest.param(["-a", "-o", "Acc,Fair"], ["-a", "--form=Acc,Fair"], id="sshare-form"),
        pytest.param(["-a", "-A", "hep", "-l"], ["-a", "--acc", "hep", "--lo"], id="sshare-acc"),
    ],
)
def test_sshare_takes_long_options_abbreviated(
    short: list[str], long: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    want = run("sshare", *short, *common(env))
    result = run("sshare", *long, *common(env))
    assert want.exit_code == 0, want.stderr
    assert (result.exit_code, result.stdout, result.stderr) == (0, want.stdout, "")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fs sprio --us alice", "option '--us' is ambiguous; possibilities: '--user' '--usage'"),
        (
            "fs sprio --s -Y",
            "option '--s' is ambiguous; possibilities: '--sort' '--sib' '--sibling'",
        ),
        ("fs sprio --no", "option '--no' is ambiguous; possibilities: '--noheader' '--norm'"),
        (
            "fs sshare --pars",
            "option '--pars' is ambiguous; possibilities: '--parsable' '--parsable2'",
        ),
        ("fs sshare --h", "option '--h' is ambiguous; possibilities: '--helpformat' '--help'"),
    ],
)
def test_an_abbreviation_of_several_options_is_refused(
    line: str, message: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    result = run(*line.split()[1:], *common(env))
    refused(result, message)
    assert result.stdout == ""
    assert env["state"].read_bytes() == before


def test_an_option_value_is_not_read_as_an_option(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``-o --form``: ``--form`` is ``-o``'s value (sprio's format, printed as a prefix),
    not an option."""
    result = run("sprio", "-o", "--form", "-h", *common(env))
    assert (result.exit_code, result.stdout) == (0, "--form\n"), result.stderr
