"""``fs taskqueues`` in a DIRAC of several VOs: the shares, and the groups a generic pilot
gets (core/dirac/pilot_vo.py).

Checked against DIRAC 9.1.22's ``TaskQueueDB`` on MariaDB 10.11 and its matcher's
``_checkCredentials`` (``Registry.getGroupsForVO``), derived here by hand. Shares: DIRAC
gives each group its ``JobShare`` whatever its VO (no VO is normalised against another):
lhcb_user's 1000 splits over alice and bob, 500 each; lhcb_prod (JobSharing) keeps its 300;
biomed_user's 500 is carl's, over his queues averaging 1 and 5: 500 · 1/6 = 83.3333 and
500 · 5/6 = 416.6667 (read back as 416.667); Alpha's 200 is carl's one queue. Generic pilot:
without ``[dirac] vo`` (the services' ``/DIRAC/VirtualOrganization``) the matcher gives it
the groups whose ``VO`` names the pilot's, sorted by name (capitals first: ``Alpha`` before
``biomed_user``); with it, every group.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac.groups.lhcb_user]
job_share = 1000
vo = "lhcb"
[dirac.groups.lhcb_prod]
job_share = 300
job_sharing = true
vo = "lhcb"
[dirac.groups.biomed_user]
job_share = 500
vo = "biomed"
[dirac.groups.Alpha]
job_share = 200
vo = "lhcb, biomed"
"""


def job(n: int, owner: str, group: str, prio: int = 1, cpu: int = 86400) -> dict[str, Any]:
    return {
        "id": f"{n}.0",
        "owner": owner,
        "dirac_group": group,
        "user_priority": prio,
        "dirac_requirements": {"cpu_time": cpu},
    }


JOBS = [
    job(1, "alice", "lhcb_user"),  # TQ 1: 500
    job(2, "bob", "lhcb_user", prio=3),  # TQ 2: 500
    job(3, "ops", "lhcb_prod"),  # TQ 3: 300
    job(4, "carl", "biomed_user", cpu=3600),  # TQ 4: 83.3333
    job(5, "carl", "biomed_user", prio=5),  # TQ 5: 416.667
    job(6, "carl", "Alpha", cpu=172800),  # TQ 6: 200, a two-day queue
]
PILOT = ["--pilot", "CPUTime=86400", "--pilot", "Site=LCG.X.org", "--pilot", "DIRACVersion=v9"]


@pytest.fixture
def args(write_config: Callable[..., Path], tmp_path: Path) -> Callable[[str], list[str]]:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    state = str(tmp_path / "s.json")

    def made(extra: str = "") -> list[str]:
        cfg = str(write_config(extra + CONFIG))
        return ["--config", cfg, "--state", state, "--now", NOW, "--jobs-file", str(path)]

    return made


def rows(result: Any) -> list[tuple[int, float]]:
    assert result.exit_code == 0, result.stderr
    return [(row["tq_id"], row["priority"]) for row in json.loads(result.stdout)]


def test_each_vos_groups_keep_their_own_shares(
    run: Callable[..., Any], args: Callable[[str], list[str]]
) -> None:
    result = run("taskqueues", *args(""), "--json")
    assert rows(result) == [
        (1, 500.0), (2, 500.0), (3, 300.0), (4, 83.3333), (5, 416.667), (6, 200.0),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("pilot", "expected"),
    [
        pytest.param(["VirtualOrganization=biomed"], [(4, 83.3333), (5, 416.667)], id="biomed"),
        pytest.param(["VirtualOrganization=lhcb"], [(1, 500.0), (2, 500.0), (3, 300.0)], id="lhcb"),
        pytest.param(  # (the groups Alpha, biomed_user: the OR before the last one is not
            # bracketed, so carl's Alpha queue is taken whatever its two days of CPU time)
            ["VirtualOrganization=biomed", "Owner=carl"],
            [(4, 83.3333), (5, 416.667), (6, 200.0)],
            id="owner-groups-sorted",
        ),
    ],
)
def test_a_generic_pilot_gets_its_vos_groups(
    run: Callable[..., Any],
    args: Callable[[str], list[str]],
    pilot: list[str],
    expected: list[tuple[int, float]],
) -> None:
    """``fs`` gave a generic pilot every group, in [dirac.groups]' order: biomed's pilot
    took lhcb's queues too, and carl's pilot (groups ... biomed_user, Alpha) took TQ 4 and 5
    only, Alpha last and so held to the pilot's day."""
    options = [text for setting in pilot for text in ("--pilot", setting)]
    assert rows(run("taskqueues", *args(""), *PILOT, *options, "--json")) == expected


def test_with_the_services_vo_a_generic_pilot_gets_every_group(
    run: Callable[..., Any], args: Callable[[str], list[str]]
) -> None:
    """``[dirac] vo`` set: ``getGroupsForVO`` returns every group, the pilot's VO unread;
    TQ 6 wants two days, more than the pilot's one."""
    result = run("taskqueues", *args('[dirac]\nvo = "lhcb"\n'), *PILOT, "--json")
    assert rows(result) == [
        (1, 500.0), (2, 500.0), (3, 300.0), (4, 83.3333), (5, 416.667),
    ]  # fmt: skip


FAILS = "DIRAC's matcher fails and the pilot gets only 'Error requesting job'"


@pytest.mark.parametrize(
    ("pilot", "message"),
    [
        pytest.param(
            [],
            "gives no OwnerGroup and no VirtualOrganization: with [dirac] vo unset, DIRAC's "
            "matcher gives such a (generic) pilot the groups of its VO (its credential "
            "group's, or a host's VirtualOrganization), here none ('No VO requested'), so "
            f"{FAILS}; e.g. --pilot VirtualOrganization=biomed (the VOs of [dirac.groups]: "
            "biomed, lhcb)",
            id="no-vo",
        ),
        pytest.param(
            ["VirtualOrganization=atlas"],
            "VirtualOrganization=atlas: no group of [dirac.groups] has that vo, so "
            f"{FAILS} ('No groups found for VO=atlas')",
            id="no-group-of-the-vo",
        ),
    ],
)
def test_a_generic_pilot_without_groups_of_its_vo_is_refused(
    run: Callable[..., Any], args: Callable[[str], list[str]], pilot: list[str], message: str
) -> None:
    options = [text for setting in pilot for text in ("--pilot", setting)]
    result = run("taskqueues", *args(""), *PILOT, *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: --pilot {message}\n"


def test_a_pilot_naming_its_groups_needs_no_vo(
    run: Callable[..., Any], args: Callable[[str], list[str]]
) -> None:
    """With ``OwnerGroup`` the matcher reads no VO (a pilot with a group's own credentials)."""
    result = run("taskqueues", *args(""), *PILOT, "--pilot", "OwnerGroup=lhcb_prod", "--json")
    assert rows(result) == [(3, 300.0)]


NO_VO = """
[dirac.groups.lhcb_user]
job_share = 1000
[dirac.groups.lhcb_prod]
job_share = 300
job_sharing = true
"""
NO_VO_FIX = (
    "no group names a VO: set [dirac] vo (the services' VO) or the groups' vo, or name the "
    "pilot's groups with --pilot OwnerGroup=NAME,..."
)


@pytest.mark.parametrize(
    ("pilot", "message"),
    [
        pytest.param(
            [],
            "gives no OwnerGroup and no VirtualOrganization: with [dirac] vo unset, DIRAC's "
            "matcher gives such a (generic) pilot the groups of its VO (its credential "
            "group's, or a host's VirtualOrganization), here none ('No VO requested'), so "
            f"{FAILS}; {NO_VO_FIX}",
            id="no-vo",
        ),
        pytest.param(
            ["VirtualOrganization=lhcb"],
            "VirtualOrganization=lhcb: no group of [dirac.groups] has that vo, so "
            f"{FAILS} ('No groups found for VO=lhcb'); {NO_VO_FIX}",
            id="a-vo-no-group-has",
        ),
    ],
)
def test_a_generic_pilot_in_a_config_naming_no_vo_is_refused(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    pilot: list[str],
    message: str,
) -> None:
    """Neither ``[dirac] vo`` nor any group's ``vo``: ``getGroupsForVO`` has no services'
    VO, so it looks for the pilot's among the groups' ``VO`` options and finds none.
    DIRAC 9.1.22's ``Matcher._checkCredentials`` with such a registry (a host's pilot and a
    group's, with and without ``VirtualOrganization``) raised 'No VO requested' or 'No
    groups found for VO=lhcb' each time. ``fs`` read such a config as one VO and gave the
    pilot both groups (TQ 1 to 3)."""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS[:3]), encoding="utf-8")
    base = ["--config", str(write_config(NO_VO)), "--state", str(tmp_path / "s.json")]
    options = [text for setting in pilot for text in ("--pilot", setting)]
    result = run("taskqueues", *base, "--now", NOW, "--jobs-file", str(path), *PILOT, *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: --pilot {message}\n"
    named = run(
        "taskqueues", *base, "--now", NOW, "--jobs-file", str(path), *PILOT,
        "--pilot", "OwnerGroup=lhcb_prod", "--json",
    )  # fmt: skip
    assert rows(named) == [(3, 300.0)]
