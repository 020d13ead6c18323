"""``fs whatif`` refuses a view it does not have in one line that helps: a mistyped view
is named with the views it is close to (the list when none is), and a view's option given
before the view is told to follow it.

Before, each said ``Invalid value for '{userprio|sprio|sshare|quota|negotiate|taskqueues|
simulate}': ...``: ``fs whatif sshar`` listed the seven views with no hint, and ``fs whatif
--config pool.toml sshare`` said ``'--config' is not one of 'userprio', ...``, as if the
view were missing, while the command wanted ``--config`` after it. Its example then named
``sshare`` whatever the view (``fs whatif --now=... sprio``: 'fs whatif --set KEY=VALUE
sshare --now=...'); it names VIEW.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.cli.conftest import refused

VIEWS = "userprio, sprio, sshare, quota, negotiate, taskqueues, simulate"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(["whatif", "sshar"], "No such view 'sshar'. Did you mean 'sshare'?",
                     id="mistyped"),
        pytest.param(["whatif", "--set", "priority.weights.age=5", "spiro"],
                     "No such view 'spiro'. Did you mean 'sprio'?", id="mistyped-after-set"),
        pytest.param(["whatif", "xyz"], f"No such view 'xyz'. Choose from: {VIEWS}",
                     id="none-close"),
        pytest.param(["whatif", "--config", "pool.toml", "--set", "priority.weights.age=5",
                      "sshare"],
                     "--config is not an option of fs whatif: give it after the view, as the "
                     "view's ('fs whatif --set KEY=VALUE VIEW --config ...')",
                     id="view-option-first"),
        pytest.param(["whatif", "--now=2026-11-21T12:00:00Z", "sprio"],
                     "--now=2026-11-21T12:00:00Z is not an option of fs whatif: give it after "
                     "the view, as the view's ('fs whatif --set KEY=VALUE VIEW "
                     "--now=2026-11-21T12:00:00Z ...')", id="view-option-with-equals"),
        # an option of fs whatif's own, mistyped: not told to follow the view, which has
        # no --sett either; before, "--sett is not an option of fs whatif: give it after
        # the view, as the view's ('fs whatif --set KEY=VALUE sshare --sett ...')"
        pytest.param(["whatif", "--sett", "accountant.priority_halflife=3600", "userprio"],
                     "No such option '--sett'. Did you mean '--set'?", id="own-option-typo"),
        pytest.param(["whatif", "--histroy=h.csv", "userprio"],
                     "No such option '--histroy'. Did you mean '--history'?",
                     id="own-option-typo-with-equals"),
        # close to fs whatif's --set, yet a view's own option: told to follow the view
        pytest.param(["whatif", "--state", "s.json", "userprio"],
                     "--state is not an option of fs whatif: give it after the view, as the "
                     "view's ('fs whatif --set KEY=VALUE VIEW --state ...')",
                     id="view-option-close-to-set"),
    ],
)  # fmt: skip
def test_a_view_fs_whatif_has_not_is_refused_helpfully(
    run: Callable[..., Any], line: list[str], said: str
) -> None:
    """The exact lines an admin types: exit 2, one line, nothing on stdout (CliRunner
    names the program cli)."""
    res = run(*line)
    refused(res)
    assert res.stdout == ""
    assert res.stderr == f"fs: error: {said} (see 'cli whatif --help')\n"
