"""``fs userprio -grouporder``, as HTCondor 25.0's ``user_prio.cpp`` orders it.

``-grouporder`` sets ``GroupOrder`` and the flat mode (``HierFlag = false``, so a later
``-hier`` wins); ``ProcessInfo`` then sorts with ``SortGroupsFirstByIndex``: a group comes
before anything of a higher index, and in the negotiator's numbered ad the groups hold the
first numbers, breadth-first from ``<none>`` (``ReportState``, children sorted without
regard to case); submitters keep the flat order (effective priority). The sample pool's
tree: <none>; group_chemistry, group_physics; group_chemistry.lab; group_physics.astro,
group_physics.hep.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]
GROUPS = [
    "<none>",
    "group_chemistry",
    "group_physics",
    "group_chemistry.lab",
    "group_physics.astro",
    "group_physics.hep",
]


def _names(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines()[4:-2]]


def test_groups_first_breadth_first_then_the_flat_users(run: Callable[..., Any]) -> None:
    result = run("userprio", "-grouporder", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    flat = run("userprio", "-flat", *SAMPLE)
    names = _names(result.stdout)
    assert names[:6] == GROUPS
    assert names[6:] == [n for n in _names(flat.stdout) if n not in GROUPS]
    # the cells of each row, the header and the footer are the flat table's
    assert sorted(result.stdout.splitlines()) == sorted(flat.stdout.splitlines())


def test_a_later_hier_wins_an_earlier_one_does_not(run: Callable[..., Any]) -> None:
    hier = run("userprio", *SAMPLE).stdout
    assert run("userprio", "-grouporder", "-hier", *SAMPLE).stdout == hier
    assert _names(run("userprio", "-hier", "-grouporder", *SAMPLE).stdout)[:6] == GROUPS
    assert _names(run("userprio", "--grouporder", *SAMPLE).stdout)[:6] == GROUPS
