"""``fs whatif --set K=V VIEW --help`` (or another option of the view that prints and ends
the command: sprio's ``--helpformat``, ``--usage``) printed nothing, exit 0: the view's
output went into the comparison's buffer, and the command ended before any comparison.
It now prints what the view printed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common

SET = ["whatif", "--set", "priority.weights.age=5"]


@pytest.mark.parametrize(
    ("view", "first"),
    [
        (["sprio", "--help"], "Show the factors of pending jobs' priorities"),
        (["sshare", "--help"], "Show association shares, usage and fair share"),
        (["taskqueues", "--help"], "Show DIRAC task queues"),
        (["sshare", "--usage"], "Show association shares, usage and fair share"),
    ],
)
def test_whatif_view_help_prints_the_views_help(
    view: list[str], first: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run(*SET, *view, *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Usage: ")
    assert first in result.stdout
    assert result.stderr == ""


def test_whatif_sprio_helpformat_prints_the_letters(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run(*SET, "sprio", "--helpformat", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run("sprio", "--helpformat").stdout
    assert result.stdout.startswith("%a    %A    ")


@pytest.mark.parametrize(
    ("view", "usage"),
    [
        ("userprio", "Usage: cli whatif userprio [OPTIONS] [NAME]..."),
        ("sprio", "Usage: cli whatif sprio [OPTIONS] [JOBS]"),
        ("simulate", "Usage: cli whatif simulate [OPTIONS]"),
    ],
)
def test_whatif_view_help_names_the_view_once(
    view: str, usage: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """The view's usage line read ``Usage: fs whatif {userprio|sprio|sshare|quota|negotiate|
    taskqueues|simulate} [ARGS]... userprio [OPTIONS] [NAME]...`` (whatif's arguments, then
    the view again); it is now the line to type, ``fs whatif userprio [OPTIONS] [NAME]...``."""
    result = run(*SET, view, "--help", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == usage
    assert result.stderr == ""
