"""``fs userprio`` and the group numbers of HTCondor 25.0's ``user_prio.cpp``.

``CollectInfo`` numbers the group ads it read (``GroupId`` 1, 2, ... by name,
``std::string`` order: case counts; ``<none>`` keeps 0) only when it also read the ad of a
user inside a group (``fNeedGroupIdFixup``); a user gets its group's number when that
group's ad was read too. ``ProcessInfo`` prints the table flat when no shown row has a
number above 0, with ``-hier`` or without it; in the flat table ``PrintInfo`` prints every
group row but a leading ``<none>`` (``HideNoneGroupIfPossible``). Group rows are hidden
only under ``-priority`` without ``-hier`` (``HideGroups``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = REPO / "sample_configs" / "pool.toml"
ARGS = ["--config", str(SAMPLE), "--now", NOW]
# The sample state's submitters inside a group.
IN_GROUPS = [
    "group_chemistry.carol@example.org",
    "group_chemistry.lab.grace@example.org",
    "group_chemistry.lab.heidi@example.org",
    "group_physics.astro.erin@example.org",
    "group_physics.frank@example.org",
    "group_physics.hep.alice@example.org",
    "group_physics.hep.bob@example.org",
    "group_physics.hep.dave@example.org",
]
# Mixed-case group names: ``group_B`` sorts before ``group_a`` ("B" is 0x42, "a" 0x61).
MIXED = """
[pool]
uid_domain = "example.org"
[groups."group_a"]
quota = 5
[groups."group_B"]
quota = 5
"""
# u1 in group_a and u2 in group_B: one slot each for the last hour.
MIXED_HISTORY = (
    '{"owner": "u1", "accounting_group": "group_a.u1", "start": "2026-11-21T11:00:00Z", '
    '"end": null, "slots": 1}\n'
    '{"owner": "u2", "accounting_group": "group_B.u2", "start": "2026-11-21T11:00:00Z", '
    '"end": null, "slots": 1}\n'
)


def _names(stdout: str) -> list[str]:
    lines = [line.rstrip() for line in stdout.splitlines()]
    return [line.split()[0] for line in lines[4:-2]]


def _no_group_users(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The sample state with every submitter inside a group deleted (``-delete``): the
    groups' records stay, every submitter left is in ``<none>``."""
    state = tmp_path / "s.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    args = ["--config", str(SAMPLE), "--state", str(state), "--now", NOW]
    for name in IN_GROUPS:
        assert run("userprio", "-delete", name, *args).exit_code == 0
    return args


def test_allusers_prints_the_groups_in_a_flat_table_when_no_user_is_in_one(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio --allusers`` with groups but no submitter inside one: the negotiator's
    ad holds no user of a group, so no group is numbered and the table is flat; every group
    row prints, ``<none>`` after ``group_chemistry`` (not leading), no quota columns. Rows
    by effective priority: users 0.61, 0.63, 1.59, 25771.28, 34901091.57 (the table's own);
    groups 16.93, 23668.4, 60746.3, 84039.5, 95413.6, 148511 (the sample groups' priorities
    the fs whatif session of docs/whatif-and-simulate.md prints). fs printed the users
    alone."""
    args = _no_group_users(tmp_path, run)
    result = run("userprio", "--allusers", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[2].startswith("User Name ")
    assert "Quota" not in result.stdout and result.stderr == ""
    assert _names(result.stdout) == [
        "judy@example.org",
        "ops@example.org",
        "ivan@example.org",
        "group_chemistry",
        "group_physics.astro",
        "mallory@guest.net",
        "group_chemistry.lab",
        "<none>",
        "group_physics.hep",
        "group_physics",
        "nice-user.nobody@example.org",
    ]
    assert result.stdout.splitlines()[-1].startswith("Number of users: 5 ")


def test_a_user_named_without_its_group_prints_flat(run: Callable[..., Any]) -> None:
    """``fs userprio group_physics.hep.alice@example.org``: the one ad read is alice's;
    the numbering runs but finds no group ad, so alice keeps no number, the table is flat
    and her row carries her whole name (35 characters: the name column). fs printed a
    hierarchical table with ``  alice@example.org``. Naming her group too makes it
    hierarchical. (With ``--allusers`` condor_userprio 25.0 reads the negotiator's whole
    ad and ignores the names: every record prints, hierarchical.)"""
    args = ["--config", str(SAMPLE), "--now", NOW]
    alice = "group_physics.hep.alice@example.org"
    result = run("userprio", alice, *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2].startswith("User Name ") and lines[3].startswith("-" * 35 + " ")
    assert lines[4].startswith(alice + "         2.00      1.00")
    every = run("userprio", alice, "--allusers", *args)
    assert every.stdout == run("userprio", "--allusers", *args).stdout
    both = run("userprio", alice, "group_physics.hep", *args)
    assert both.stdout.splitlines()[1].startswith("Group ")
    assert _names(both.stdout) == ["group_physics.hep", "alice@example.org"]


def test_hierarchical_falls_back_to_flat_when_no_group_is_numbered(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio --hierarchical`` with no submitter inside a group: ``ProcessInfo``
    clears ``HierFlag`` whatever ``-hier`` asked, so the table is the flat one plain
    ``fs userprio`` prints, byte for byte. With ``--priority`` too, the group rows show in
    that flat table (``-hier`` keeps ``HideGroups`` off); plain ``--priority`` hides them.
    fs printed a hierarchical table, every submitter under ``<none>``."""
    args = _no_group_users(tmp_path, run)
    plain = run("userprio", *args)
    hier = run("userprio", "--hierarchical", *args)
    assert hier.exit_code == 0, hier.stderr
    assert hier.stdout == plain.stdout and "Group " not in hier.stdout
    prio = run("userprio", "-hier", "-priority", *args)
    assert prio.stdout.splitlines()[2].startswith("User Name ")
    assert "group_physics " in prio.stdout and "<none> " in prio.stdout
    hidden = run("userprio", "-priority", *args)
    assert "group_physics " not in hidden.stdout


def test_a_group_named_under_priority_shows_with_hierarchical(run: Callable[..., Any]) -> None:
    """``fs userprio group_physics --priority`` hides the group row (``HideGroups``) and
    says where it shows; with ``-hier`` the one ad read is the group's, nothing is
    numbered, and the row shows in a flat table (fs printed it under a "Group" header)."""
    args = ["group_physics", "--priority", "--config", str(SAMPLE), "--now", NOW]
    hidden = run("userprio", *args)
    assert "group_physics " not in hidden.stdout
    assert hidden.stderr == (
        "fs: note: group_physics: a group's row shows with --hierarchical (with its users "
        "when one of them is read too), and in --long and --json\n"
    )
    shown = run("userprio", *args, "-hier")
    lines = shown.stdout.splitlines()
    assert lines[2].startswith("User Name ") and lines[4].startswith("group_physics ")
    assert shown.stderr == ""


def test_hierarchical_stays_hierarchical_when_a_group_is_numbered(
    run: Callable[..., Any],
) -> None:
    """On the sample state (submitters in groups) ``-hier -priority`` is hierarchical."""
    result = run("userprio", "-hier", "-priority", "--config", str(SAMPLE), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith("Group ")


def test_groups_are_numbered_with_case_counting(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Groups ``group_a`` and ``group_B``, u1 and u2 one slot each for the last hour: with
    the legacy half-life of a day both priorities are 0.5·0.5^(1/24) + 1·(1 − 0.5^(1/24))
    = 0.5142 and both usages 1.00 h, so the groups tie and go by group id: ``group_B`` is 1
    and ``group_a`` 2 (``std::string``'s ``<``, case counting), in the default table, in
    ``--usage`` and in ``--quotas`` (by group id alone). fs put group_a first."""
    (tmp_path / "pool.toml").write_text(MIXED, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(MIXED_HISTORY, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", NOW]  # fmt: skip
    assert run("import", "history", str(tmp_path / "h.jsonl"), *args).exit_code == 0
    for extra in ([], ["--usage"]):
        result = run("userprio", *extra, *args)
        assert result.exit_code == 0, result.stderr
        assert _names(result.stdout) == [
            "group_B",
            "u2@example.org",
            "group_a",
            "u1@example.org",
        ]
    default = run("userprio", *args).stdout.splitlines()
    assert default[5].split()[1] == "0.51" and default[7].split()[1] == "0.51"
    assert _names(run("userprio", "--quotas", *args).stdout) == ["group_B", "group_a"]
    # -grouporder keeps the negotiator's ad order: its group tree sorts without regard
    # to case (GroupEntry.cpp, ci_less), so group_a comes first there.
    assert _names(run("userprio", "--grouporder", *args).stdout)[:2] == ["group_a", "group_B"]


def test_a_user_whose_group_is_not_read_leads_the_hierarchical_table(
    run: Callable[..., Any],
) -> None:
    """``fs userprio group_physics ALICE FRANK``: three ads; frank's group's ad is read,
    so the groups are renumbered (group_physics 1) and the table is hierarchical; alice's
    group (group_physics.hep) is not read: she keeps the placeholder -2 x 3 = -6 and
    display order 0, below group_physics's 0.10 (its sort key), so she comes first, not
    under a group, and her whole name prints, cut to the 20 characters after the indent
    (name column: frank 31 + 2 - 13 = 20, alice 35 + 2 - 17 = 20; + 2 = 22). fs put her
    last as ``  alice@example.org``. Naming judy (in <none>, whose ad is not read) instead,
    she takes group_physics's display order (the first group's) with number 0, below its
    1: just before it."""
    alice, frank = "group_physics.hep.alice@example.org", "group_physics.frank@example.org"
    result = run("userprio", "group_physics", alice, frank, *ARGS)
    assert result.exit_code == 0, result.stderr
    assert [line[:23] for line in result.stdout.splitlines()[4:7]] == [
        "  group_physics.hep.al ",
        "group_physics          ",
        "  frank@example.org    ",
    ]
    judy = run("userprio", "group_physics", "judy@example.org", frank, *ARGS)
    assert [line[:23] for line in judy.stdout.splitlines()[4:7]] == [
        "  judy@example.org     ",
        "group_physics          ",
        "  frank@example.org    ",
    ]
