"""``fs sshare`` with an argument no option takes: ignored, as sshare ignores it.

Before, ``fs sshare -u alice bob`` said ``Got unexpected extra argument (bob)``, exit 2,
where sshare prints alice's rows. ``src/sshare/sshare.c``'s ``main`` (22.05 and today
alike) reads its options with getopt_long and never looks at ``optind``: an argument left
over (``bob``, which was meant for ``-u``'s list) changes nothing. fs prints the same rows,
exit 0, and says on stderr what it ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common


def test_an_argument_is_ignored_as_sshare_ignores_it(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    result = run("sshare", "-u", "alice", "bob", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run("sshare", "-u", "alice", *common(env)).stdout
    assert "alice" in result.stdout and "bob" not in result.stdout
    assert result.stderr == (
        "fs: note: ignored 'bob', as sshare ignores an argument not an option's\n"
    )
    assert env["state"].read_bytes() == before


def test_a_refused_line_with_an_ignored_argument_prints_the_error_alone(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs sshare -o Foo bob``: sshare refuses the field; fs printed the note on ``bob``
    first, then the error (two lines)."""
    before = env["state"].read_bytes()
    result = run("sshare", "-o", "Foo", "bob", *common(env))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == 'fs: error: Invalid field requested: "foo"\n'
    assert env["state"].read_bytes() == before
