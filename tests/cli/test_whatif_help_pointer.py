"""Every refusal of ``fs whatif ... VIEW ...`` points at the command the admin typed,
``fs whatif --help``; one of the view's own options adds where the view's options are.

Before, a refusal raised while the view's options were read ended "(see 'fs sprio
--help')", whatif's own refusal of ``sprio -w`` too, although ``fs sprio -w`` runs and
``fs sprio --help`` says nothing of whatif. (CliRunner names the program ``cli``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]
JOBS = ["--jobs-file", str(REPO / "sample_configs" / "jobs.json")]


def test_sprio_weights_under_whatif_point_at_whatifs_help(run: Callable[..., Any]) -> None:
    """``fs whatif --set priority.weights.age=5 sprio -w``: whatif refuses what sprio takes,
    so the pointer is whatif's help alone."""
    result = run("whatif", "--set", "priority.weights.age=5", "sprio", "-w", *JOBS, *SAMPLE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith("drop -w (see 'cli whatif --help')\n")
    assert "sprio --help" not in result.stderr


@pytest.mark.parametrize(
    ("view", "bad", "said"),
    [
        pytest.param("sprio", ["--bogus"], "No such option '--bogus'.", id="sprio-unknown"),
        pytest.param("userprio", ["--sort", "bogus"], "Invalid value for '--sort'",
                     id="userprio-bad-choice"),
        pytest.param("simulate", ["--bogus"], "No such option '--bogus'.", id="simulate"),
    ],
)  # fmt: skip
def test_a_views_option_points_at_whatif_and_the_views_options(
    run: Callable[..., Any], view: str, bad: list[str], said: str
) -> None:
    """``fs whatif --set ... VIEW --bogus``: the command typed first, then the view's help."""
    result = run("whatif", "--set", "accountant.default_prio_factor=3", view, *SAMPLE, *bad)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {said}")
    tail = f"(see 'cli whatif --help'; the view's options: 'cli {view} --help')\n"
    assert result.stderr.endswith(tail)
    assert result.stderr.count("\n") == 1


def test_whatifs_help_says_the_view_takes_its_own_options(run: Callable[..., Any]) -> None:
    """The help the pointer names says where a view's options are and that -w is refused."""
    result = run("whatif", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "The view takes its own options after its name (fs VIEW --help lists them)" in text
    assert "-w, which prints the weights and no job, has nothing to compare and is refused" in text


def test_a_views_option_missing_its_value_says_so(run: Callable[..., Any]) -> None:
    """``fs whatif --set priority.weights.fairshare=5000 sshare --format``: the view's
    ``--format`` at the end took the ``--json`` whatif adds as its value ('Invalid field
    requested: "--json"'); whatif's ``--json`` now goes first, so the option has none, as
    ``fs sshare --format`` says."""
    result = run("whatif", "--set", "priority.weights.fairshare=5000", "sshare", *SAMPLE,
                 "--format")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: Option '--format' requires an argument.")
    assert "--json" not in result.stderr
