"""``fs userprio -quotas`` and ``-surplus``, as HTCondor 25.0's ``user_prio.cpp`` prints them.

``-quotas`` sets ``DetailQuotas`` (Effective, Config and Subtree Quota, Use Surplus,
Weighted Requested) and ``DashQuota``; with no other column asked for, ``ProcessInfo``
hides the submitters (``HideUsers``: the header says ``Name``, or ``Group Name`` flat) but
counts them in the footer, and sorts the groups by group id (``SortHierByGroupId``: names
in order, ``<none>`` first unless a group regroups). ``-surplus`` is the Use Surplus
column alone. The real pool's capture (tests/fixtures/htcondor-25.0) checks it line for
line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_condor_fixtures import CAPTURE, POOL, import_pool

REPO = Path(__file__).resolve().parents[2]
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def test_quotas_is_the_capture_line_for_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    args = import_pool(tmp_path, run)
    result = run("userprio", "-quotas", *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    expected = (POOL / "condor_userprio.quotas.txt").read_text().splitlines()
    assert result.stdout.splitlines() == expected


def test_quotas_alone_lists_the_groups_by_id_none_first(run: Callable[..., Any]) -> None:
    """The sample pool: group ids by name (group_chemistry, group_chemistry.lab,
    group_physics, ...), <none> (id 0) first, as no group autoregroups; 13 users counted.
    <none>'s Weighted Requested is fs quota's demand: the sample state's claims of
    ivan@example.org (slot4@exec003) and mallory@guest.net (slot6@exec001), running
    imported history the queue does not hold, each on a 1-CPU slot: 1 + 1 = 2."""
    result = run("userprio", "--quotas", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[1:3] == [
        "Group                            Effective  Config     Use    Subtree   Weighted",
        "Name                               Quota     Quota   Surplus   Quota   Requested",
    ]
    assert [line.split()[0] for line in lines[4:-2]] == [
        "<none>",
        "group_chemistry",
        "group_chemistry.lab",
        "group_physics",
        "group_physics.astro",
        "group_physics.hep",
    ]
    assert (
        lines[4]
        == "<none>                              100.00      0.00 yes        420.00          2"
    )
    assert lines[-1] == "Number of users: 13                                  ByQuota"


def test_surplus_alone_flat(run: Callable[..., Any]) -> None:
    result = run("userprio", "-surplus", "-flat", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[1:4] == [
        "                                        Use",
        "Group Name                            Surplus",
        "------------------------------------- -------",
    ]
    assert lines[7] == "group_physics                         ByQuota"


def test_quotas_with_usage_keeps_the_submitters(run: Callable[..., Any]) -> None:
    """-quotas -usage: DetailFlag has usage columns too, so no HideUsers; the quota
    cells of a submitter are blank."""
    result = run("userprio", "-quotas", "-usage", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert "  carol@example.org  " in result.stdout
    assert "  User Name" in result.stdout.splitlines()[2]
