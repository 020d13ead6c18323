"""``fs userprio``'s column options combined, as HTCondor 25.0's ``user_prio.cpp`` reads them.

Each option ORs bits into ``DetailFlag``: ``-usage`` the usage ones, ``-priority``
``DetailPrios``, ``-most`` ``DetailMost`` and ``-all`` ``DetailAll``, and both of the last
two hold ``DetailPriority`` and ``DetailUsage``. The rows sort by priority whenever
``DetailFlag & DetailPriority`` (``LineRecLT``; hierarchical: groups by sort key), and the
groups are hidden only when nothing but ``DetailPrios`` is set. So ``-usage -all`` is
``-all`` bit for bit, ``-usage -most`` sorts as ``-most`` does, and ``-priority -most``
shows the groups. fs sorted the first two by usage and printed the last flat, without
its group rows and their quota columns.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def _names(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines()[4:-2]]


def test_usage_with_all_is_all(run: Callable[..., Any]) -> None:
    plain = run("userprio", "-all", *SAMPLE)
    result = run("userprio", "-usage", "-all", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == plain.stdout


def test_usage_with_most_sorts_by_priority(run: Callable[..., Any]) -> None:
    """The groups in -most's order (by their sort keys: group_physics.hep before
    group_physics), not by usage (which puts group_physics.hep, 971.18 h, last)."""
    most = _names(run("userprio", "-most", *SAMPLE).stdout)
    result = run("userprio", "-usage", "-most", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert _names(result.stdout) == most
    assert "Usage" in result.stdout.splitlines()[1]  # -usage adds the start and last times
    by_usage = _names(run("userprio", "-usage", *SAMPLE).stdout)
    assert by_usage != most


def test_priority_with_most_shows_the_groups(run: Callable[..., Any]) -> None:
    result = run("userprio", "-priority", "-most", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].startswith("Group ") and "Config" in lines[1] and "Real" in lines[1]
    assert _names(result.stdout)[:2] == ["group_chemistry", "carol@example.org"]
    only = run("userprio", "-priority", *SAMPLE).stdout.splitlines()
    assert only[2].startswith("User Name") and "Config" not in only[1]
