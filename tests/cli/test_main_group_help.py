"""A command group named without its command shows its help, as bare ``fs`` does, and a
missing choice lists the choices on the one line.

``fs import``, ``fs config`` and ``fs sweep`` printed ``fs: error: Usage: fs import
[OPTIONS] COMMAND [ARGS]...\\n\\n  Import usage history...``: the whole help on one line,
its line breaks escaped. ``fs whatif`` without a view said ``Choose from:\\n\\tuserprio,\\n\\t
sprio, ...`` the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.cli.conftest import refused


@pytest.mark.parametrize(
    ("group", "first"),
    [
        pytest.param("import", "Import usage history and real tools' dumps", id="import"),
        pytest.param("config", "Check a pool config and print its effective values.", id="config"),
        pytest.param("sweep", "Run a grid of policies through fs simulate", id="sweep"),
    ],
)
def test_a_group_alone_shows_its_help(run: Callable[..., Any], group: str, first: str) -> None:
    """``fs import``: the help, as ``fs`` alone shows it (click 8.2 on: on stderr, exit 2;
    before: on stdout, exit 0); CliRunner names the program cli."""
    res = run(group)
    assert (res.exit_code, res.stdout == "") in ((2, True), (0, False))
    shown = res.stderr if res.exit_code else res.stdout
    lines = shown.splitlines()
    assert lines[0] == f"Usage: cli {group} [OPTIONS] COMMAND [ARGS]..."
    assert lines[2].strip().startswith(first)
    assert "\\n" not in shown and "fs: error" not in shown
    assert "Commands:" in lines


def test_a_missing_view_lists_the_views_on_one_line(run: Callable[..., Any]) -> None:
    """``fs whatif --set accountant.priority_halflife=60``: no view named."""
    res = run("whatif", "--set", "accountant.priority_halflife=60")
    refused(res)
    assert res.stderr == (
        "fs: error: Missing argument '{userprio|sprio|sshare|quota|negotiate|taskqueues|"
        "simulate}'. Choose from: userprio, sprio, sshare, quota, negotiate, taskqueues, "
        "simulate (see 'cli whatif --help')\n"
    )
