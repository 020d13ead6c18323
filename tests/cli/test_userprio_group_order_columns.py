"""``fs userprio -sortkey``, ``-groupid`` and ``-order``: the group-order columns of
HTCondor 25.0's ``user_prio.cpp`` (``DetailSortKey``, ``DetailGroup``, ``DetailOrder``).

Each is a column of its own, ahead of the others: ``Group``/``Id`` (5 wide, ``%5.0f``),
``Group``/``Order`` and ``Group``/``Sort Key`` (9 wide, ``%9.2f``, ``%.3g`` when wider).
Asked for alone they replace the default set (``DetailFlag`` is not 0), and with neither
the priority nor the usage columns the rows sort by name (``LineRecLT``), hierarchical
ones by group number. ``CollectInfo`` numbers the groups it read 1, 2, ... by name once it
has read a user inside one, else each group keeps its place among the ads, negated.

The sample pool's group sort keys are the default ``GROUP_SORT_EXPR``'s: slots in use over
the group's effective quota, <none> 3.4e38: group_chemistry 0/70 = 0.00,
group_chemistry.lab 6/50 = 0.12, group_physics 2/20 = 0.10, group_physics.astro
2/60 = 0.0333, group_physics.hep 8/120 = 0.0667; 3.4e38 is too wide for ``%9.2f`` and
prints as ``%.3g``, ``3.4e+38``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_userprio_group_numbers import _no_group_users
from tests.conftest import REPO

ARGS = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def test_sortkey_alone_prints_the_groups_keys_by_group_number(run: Callable[..., Any]) -> None:
    """``fs userprio -sortkey``: one column; hierarchical (users inside groups are read),
    groups by number (by name: chemistry 1, chemistry.lab 2, physics 3, physics.astro 4,
    physics.hep 5), <none> (number 0) first as no group regroups (``SortHierByGroupId``),
    users under each by name. Users' cells are blank. The name column: 28 + 2 for
    ``  nice-user.nobody@example.org``, + 2 (hierarchical) = 32. fs refused -sortkey."""
    result = run("userprio", "-sortkey", *ARGS)
    assert result.exit_code == 0, result.stderr
    blank = " " * 9
    assert result.stdout.splitlines() == [
        "Last Priority Update: 11/21 12:00",
        "Group" + " " * 27 + "   Group  ",
        "  User Name" + " " * 21 + " Sort Key ",
        "-" * 32 + " " + "-" * 9,
        "<none>" + " " * 26 + "   3.4e+38",
        "  ivan@example.org              " + " " + blank,
        "  judy@example.org              " + " " + blank,
        "  mallory@guest.net             " + " " + blank,
        "  nice-user.nobody@example.org  " + " " + blank,
        "  ops@example.org               " + " " + blank,
        "group_chemistry                 " + "      0.00",
        "  carol@example.org             " + " " + blank,
        "group_chemistry.lab             " + "      0.12",
        "  grace@example.org             " + " " + blank,
        "  heidi@example.org             " + " " + blank,
        "group_physics                   " + "      0.10",
        "  frank@example.org             " + " " + blank,
        "group_physics.astro             " + "      0.03",
        "  erin@example.org              " + " " + blank,
        "group_physics.hep               " + "      0.07",
        "  alice@example.org             " + " " + blank,
        "  bob@example.org               " + " " + blank,
        "  dave@example.org              " + " " + blank,
        "-" * 32 + " " + "-" * 9,
        "Number of users: 13" + " " * 13 + " " + blank,
    ]


def test_groupid_and_order_with_the_priority_columns(run: Callable[..., Any]) -> None:
    """``-allusers -order -groupid -sortkey -priority``: with the priority columns the
    display order is the group's sort key, and groups go by it (``SortHierByDisplayOrder``):
    chemistry 0.00, astro 0.03, hep 0.07, physics 0.10, lab 0.12, <none> 3.4e+38; each
    user carries its group's number and order, <none>'s users no number (0)."""
    result = run("userprio", "-allusers", "-order", "-groupid", "-sortkey", "-priority", *ARGS)
    assert result.exit_code == 0, result.stderr
    cells = [line[32:58] for line in result.stdout.splitlines()[4:-2]]
    assert cells == [
        "     1      0.00      0.00",  # group_chemistry
        "     1      0.00          ",  # carol
        "     4      0.03      0.03",  # group_physics.astro
        "     4      0.03          ",  # erin
        "     5      0.07      0.07",  # group_physics.hep
        "     5      0.07          ",
        "     5      0.07          ",
        "     5      0.07          ",
        "     3      0.10      0.10",  # group_physics
        "     3      0.10          ",  # frank
        "     2      0.12      0.12",  # group_chemistry.lab
        "     2      0.12          ",
        "     2      0.12          ",
        "         3.4e+38   3.4e+38",  # <none>
        *["         3.4e+38          "] * 5,  # its five users
    ]


def test_order_without_priority_or_usage_is_the_group_number(run: Callable[..., Any]) -> None:
    """``-allusers -order -flat``: neither priority nor usage shows, so a group's display
    order is its number (1.00 ... 5.00) and <none>'s ``FLT_MAX`` (3.40282347e38: ``%.3g``
    3.4e+38); the flat rows sort by name, ``<none>`` (0x3C) first and shown, as a group is
    numbered. The name column: ``group_chemistry.lab.grace@example.org``, 37."""
    result = run("userprio", "-allusers", "-order", "-flat", *ARGS)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4] == "<none>" + " " * 31 + "   3.4e+38"
    assert lines[5] == "group_chemistry" + " " * 22 + "      1.00"
    assert lines[10] == "group_physics" + " " * 24 + "      3.00"
    assert lines[18] == "ivan@example.org" + " " * 21 + "   3.4e+38"


def test_usage_makes_the_order_each_groups_usage(run: Callable[..., Any]) -> None:
    """``-allusers -usage -order``: a group's display order is its weighted accumulated
    usage in hours (the Total Usage its row prints), and groups go by it: chemistry
    206.67, astro 208.49, ... its users carry it too."""
    result = run("userprio", "-allusers", "-usage", "-order", *ARGS)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4].startswith("group_chemistry" + " " * 17 + "    206.67      0       206.67")
    assert lines[5].startswith("  carol@example.org" + " " * 13 + "    206.67      0       206.67")
    assert lines[6].startswith("group_physics.astro" + " " * 13 + "    208.49      2       208.49")


def test_groupid_without_a_user_inside_a_group(tmp_path: Path, run: Callable[..., Any]) -> None:
    """With no submitter inside a group, no group is renumbered: in the negotiator's ad
    (``-allusers``) each group keeps its place, negated, breadth-first from <none> (1):
    group_chemistry 2, group_physics 3, group_chemistry.lab 4, group_physics.astro 5,
    group_physics.hep 6; no row has a display order. Flat, by name, the leading <none>
    hidden. Plain ``-groupid`` reads the collector's ads, whose order fs cannot know:
    refused, exit 2, nothing on stdout."""
    args = _no_group_users(tmp_path, run)
    result = run("userprio", "-allusers", "-groupid", "-order", *args)
    assert result.exit_code == 0, result.stderr
    cells = [(line.split()[0], line[28:44]) for line in result.stdout.splitlines()[4:-2]]
    assert cells == [
        ("group_chemistry", "    -2          "),
        ("group_chemistry.lab", "    -4          "),
        ("group_physics", "    -3          "),
        ("group_physics.astro", "    -5          "),
        ("group_physics.hep", "    -6          "),
        *[(name, " " * 16) for name in ("ivan@example.org", "judy@example.org")],
        *[(name, " " * 16) for name in ("mallory@guest.net", "nice-user.nobody@example.org")],
        ("ops@example.org", " " * 16),
    ]
    refused = run("userprio", "-groupid", *args)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "order the collector sent their ads in" in refused.stderr


def test_a_user_read_without_its_group_keeps_the_placeholder(run: Callable[..., Any]) -> None:
    """``fs userprio DAVE judy -groupi -or``: two ads read, dave inside group_physics.hep
    whose ad is not read: he keeps -2 x 2 = -4; judy (in <none>) 0, blank. No group ad was
    read, so no row has a display order. Flat, by name (``-groupi``/``-or`` are the
    unique prefixes of -groupid and -order)."""
    dave = "group_physics.hep.dave@example.org"
    result = run("userprio", dave, "judy@example.org", "-groupi", "-or", *ARGS)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[4:6] == [
        dave + "    -4          ",
        "judy@example.org" + " " * 18 + "                ",
    ]
