"""``fs sshare -v``, as sshare's ``-v``: the same rows on stdout, and first, on stderr, the
users and accounts asked for.

Before, ``fs sshare -v`` was refused (``fs: error: -v/--verbose: sshare's log levels are
not modelled; leave -v out``, exit 2), where sshare prints its listing. The lines are
derived from ``src/sshare/sshare.c``'s ``main`` (22.05 and today alike): after reading the
options, with ``verbosity`` set, ``Users requested:`` and ``\\t: all`` when ``all_users``
(``-a``, ``-u -1``), else one ``\\t: NAME`` line per name of ``-u``'s list
(``_addto_name_char_list``: a name equal to one before it in any case, ``xstrcasecmp``
through ``slurm_find_char_in_list``, is dropped), then ``Accounts requested:`` and one
line per account of ``-A``'s list (``slurm_addto_char_list``: lower case, trimmed, of equal
ones the last kept) or ``\\t: all``. All on stderr (``fprintf(stderr, ...)``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["-a"], "Users requested:\n\t: all\nAccounts requested:\n\t: all\n", id="all"),
        pytest.param(
            ["-u", "-1", "-A", "HEP"],
            "Users requested:\n\t: all\nAccounts requested:\n\t: hep\n",
            id="u-minus-one-and-A",
        ),
        pytest.param(
            ["-u", "Alice,bob", "-u", "alice", "-A", "x, hep,X"],
            "Users requested:\n\t: Alice\n\t: bob\nAccounts requested:\n\t: hep\n\t: x\n",
            id="lists",
        ),
    ],
)
def test_sshare_v_names_what_is_asked_on_stderr(
    args: list[str], said: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    plain = run("sshare", *args, *common(env))
    result = run("sshare", "-v", *args, *common(env))
    assert (result.exit_code, result.stderr) == (0, said)
    assert result.stdout == plain.stdout


def test_sshare_vv_counts_and_leaves_the_state_alone(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    result = run("sshare", "-vv", "-a", *common(env))
    assert (result.exit_code, result.stderr) == (
        0,
        "Users requested:\n\t: all\nAccounts requested:\n\t: all\n",
    )
    assert env["state"].read_bytes() == before


def test_sshare_v_speaks_before_a_bad_field_is_refused(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """sshare reads ``-o``'s fields in ``process``, after the lines: both come."""
    result = run("sshare", "-v", "-a", "-o", "Nope", *common(env))
    assert result.exit_code == 2
    assert result.stderr.startswith("Users requested:\n\t: all\nAccounts requested:\n\t: all\n")
    assert result.stderr.splitlines()[-1] == 'fs: error: Invalid field requested: "nope"'


def test_sshare_v_with_a_cluster_fs_does_not_model_is_refused_alone(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """sshare reads ``-M`` in its option loop (``fatal``, ``Could not get cluster
    information``), before the lines: fs printed them first, then the error."""
    before = env["state"].read_bytes()
    result = run("sshare", "-v", "-M", "x", *common(env))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: -M 'x': fs models one cluster, 'pool' (the pool config's [pool] name); "
        "give that name or 'all', or leave -M out\n"
    )
    assert env["state"].read_bytes() == before
