"""Global GROUP_ACCEPT_SURPLUS / GROUP_AUTOREGROUP (hgq_construct_tree) and the autoregroup
round of <none> without a group cap (matchmaker.cpp)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree

NOW = "2026-11-21T12:00:00Z"
POOL = """
[pool]
uid_domain = "d"
[negotiator]
autoregroup = {auto}
preemption_requirements = "false"
group_quota_max_allocation_rounds = 1
{extra}
[[machines]]
name = "m"
slots = 10
"""


@pytest.mark.parametrize(("accept", "auto"), [(True, False), (False, True), (True, True)])
def test_global_knobs_hold_when_every_group_overrides_them(accept: bool, auto: bool) -> None:
    """hgq_construct_tree starts global_accept_surplus / global_autoregroup from the global
    knobs and only ORs the groups' values in: a group set to false cannot turn them off."""
    group = GroupConfig(name="group_a", quota=8, accept_surplus=False, autoregroup=False)
    tree = build_group_tree([group], global_accept_surplus=accept, global_autoregroup=auto)
    assert (tree.accept_surplus, tree.autoregroup, tree.root.autoregroup) == (accept, auto, auto)
    assert not tree.groups[1].accept_surplus
    assert not tree.groups[1].autoregroup


def _matched(result: Any) -> dict[str, int]:
    assert result.exit_code == 0, result.stderr
    return {s["name"]: s["matched"] for s in json.loads(result.stdout)["submitters"]}


@pytest.mark.parametrize(("auto", "u_gets"), [("true", 10), ("false", 2)])
def test_global_autoregroup_lets_the_root_negotiate_for_the_whole_pool(
    auto: str,
    u_gets: int,
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
) -> None:
    """10 slots; group_a: static quota 8, accept_surplus and autoregroup false; its 8 jobs
    match nothing. <none>'s quota is 10 - 8 = 2 (one allocation round, no surplus: group_a
    asks for its whole quota). With the global GROUP_AUTOREGROUP = true the root still
    autoregroups: its quota and allocation are the whole pool (10) and it negotiates with
    no group name, so u's limit is share 1 x 10 - 0 = 10 and u takes all 10 free slots.
    With the global knob false, u is held to <none>'s 2."""
    config = write_config(
        POOL.format(auto=auto, extra="")
        + '[groups."group_a"]\nquota = 8\nautoregroup = false\naccept_surplus = false\n'
    )
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [
                {
                    "id": "1.0",
                    "count": 8,
                    "owner": "x",
                    "accounting_group": "group_a.x",
                    "requirements": "false",
                },
                {"id": "2.0", "count": 10, "owner": "u"},
            ]
        )
    )
    args = ["--config", str(config), "--jobs-file", str(jobs), "--now", NOW, "--json"]
    assert _matched(run("negotiate", "--dry-run", *args)) == {"group_a.x@d": 0, "u@d": u_gets}


def test_autoregroup_root_round_has_no_cap_on_unclaimed_slots(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """u1 (ungrouped) holds 5 of 10 slots, committed at NOW (EUP 0.5, <none> usage 5);
    s in group_b (quota 0, autoregroup) has 10 idle jobs, so it negotiates only in the root
    round. Round-robin rate 1: root target 10, usage 5, maxdelta 5, first slice
    5 + 5 x 1/5 = 6 slots. Both submitters at EUP 0.5: s's share 0.5, limit 0.5 x 6 = 3.
    HTCondor passes no group name for the root in autoregroup mode, so there is no
    cap 6 - 5 = 1 on unclaimed slots: s may take 3 of them in that spin."""
    config = write_config(POOL.format(auto="true", extra="group_quota_round_robin_rate = 1"))
    config.write_text(config.read_text() + '[groups."group_b"]\nquota = 0\n')
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("submit", "--owner", "u1", "--count", "5", *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    more = ["--owner", "s", "--set", "accounting_group=group_b.s", "--count", "10"]
    assert run("submit", *more, *args).exit_code == 0
    story = run("negotiate", "--dry-run", *args, "--explain", "2.0").stdout.splitlines()
    assert "  group <none> negotiates with a limit of 6 slot(s) (quota 10.00)" in story
    assert "  spin 1: share 0.5000, limit 3.00 (unclaimed 3.00), pie left 3.00" in story
