"""``fs taskqueues --pilot``: the queues a pilot matches and its chance of taking each.

The numbers are derived by hand from DIRAC 9.1.22's ``TaskQueueDB``. Priorities
(``recalculateTQSharesForEntity``, ``calculate_priority``): ``user`` (1000, no JobSharing)
splits over alice and bob, 500 each; alice's queues average 1 (TQ 1) and 3 (TQ 5), so
500/4 · 1 = 125 and 500/4 · 3 = 375; bob's one queue 500; ``prod`` (1000, JobSharing) has
two queues averaging 1, 500 each. Matching (``__generateTQMatchSQL``): the queue's CPU
segment at most the pilot's ``CPUTime``; a queue naming sites or platforms needs one of the
pilot's (a pilot naming none has no such condition); a pilot without tags matches only queues
without tags; with ``Owner`` and ``OwnerGroup``, the owner's queues in a group without
JobSharing and every queue of a JobSharing group. Chances (``ORDER BY RAND() / Priority``):
with r_j = P_j / max P, queue i comes first with ``r_i ∫_0^1 Π_{j≠i} (1 - r_j t) dt``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac]  # (the services' VO: a generic pilot gets every group)
vo = "lhcb"
[dirac.groups.user]
job_share = 1000
[dirac.groups.prod]
job_share = 1000
job_sharing = true
[dirac.pilot]  # (the pilots here give no DIRAC version: the matcher's check is off)
check_version = false
"""
CERN = "LCG.CERN.cern"


def job(n: int, owner: str, group: str, prio: int = 1, **req: Any) -> dict[str, Any]:
    return {
        "id": f"{n}.0",
        "owner": owner,
        "dirac_group": group,
        "user_priority": prio,
        "dirac_requirements": {"cpu_time": 3600, **req},
    }


JOBS = [
    job(1, "alice", "user", sites=[CERN]),  # TQ 1: 125
    job(2, "bob", "user", platform="el9"),  # TQ 2: 500
    job(3, "ops", "prod", tags=["GPU"]),  # TQ 3: 500
    job(4, "ops", "prod", cpu_time=86400),  # TQ 4: 500
    job(5, "alice", "user", prio=3, cpu_time=86400),  # TQ 5: 375
]


@pytest.fixture
def args(write_config: Callable[..., Path], tmp_path: Path) -> list[str]:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    cfg = str(write_config(CONFIG))
    state = str(tmp_path / "s.json")
    return ["--config", cfg, "--state", state, "--now", NOW, "--jobs-file", str(path)]


def test_a_cern_pilot_for_an_hour_takes_two_queues(
    run: Callable[..., Any], args: list[str]
) -> None:
    """TQ 1 (at CERN, 125) and TQ 2 (el9, 500) match; TQ 3 wants a tag, TQ 4 and 5 a day.
    TQ 2 comes first with 1 - 125 / (2 · 500) = 0.875."""
    result = run(
        "taskqueues", *args, "--pilot", "CPUTime=3600", "--pilot", f"Site={CERN}",
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "TQId  Owner  Group  CPUTime  Sites          BannedSites  Platforms  JobTypes  Tags"
        "  Jobs  Priority  Share%  Correction  First%",
        "   1  alice  user      3600  LCG.CERN.cern  -            -          -         -     "
        "   1  125.0000   6.250      1.0000  12.500",
        "   2  bob    user      3600  -              -            el9        -         -     "
        "   1  500.0000  25.000      1.0000  87.500",
    ]
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("pilot", "expected"),
    [
        pytest.param(
            ["CPUTime=86400", "Site=LCG.RAL.uk", "Tag=GPU"],
            # 500, 500, 500 and 375: 375's r = 0.75 gives 0.75 · ∫(1-t)^3 = 0.1875; each 500
            # ∫(1-t)^2 (1-0.75t) = 1/3 - 0.75/12 = 0.2708333...
            {2: 13 / 48, 3: 13 / 48, 4: 13 / 48, 5: 0.1875},
            id="a-day-at-ral-with-gpu",
        ),
        pytest.param(
            ["CPUTime=86400", f"Site={CERN}", "Owner=alice", "OwnerGroup=user,prod", "Tag=GPU"],
            # 125, 500, 500, 375 (r = 0.25, 1, 1, 0.75): TQ 1 0.25 (1/3 - 0.75/12), TQ 5
            # 0.75 (1/3 - 0.25/12), each 500 ∫(1-t)(1-0.25t)(1-0.75t) = 1/2 - ... = 67/192
            {1: 0.25 * 13 / 48, 3: 67 / 192, 4: 67 / 192, 5: 0.75 * 5 / 16},
            id="alice-and-the-job-sharing-group",
        ),
    ],
)
def test_chances_over_the_matching_queues(
    run: Callable[..., Any], args: list[str], pilot: list[str], expected: dict[int, float]
) -> None:
    options = [text for setting in pilot for text in ("--pilot", setting)]
    result = run("taskqueues", *args, *options, "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {r["tq_id"]: r["p_first"] for r in rows}.keys() == expected.keys()
    for r in rows:
        assert math.isclose(r["p_first"], expected[r["tq_id"]], rel_tol=1e-12), r


def test_a_pilot_without_owner_group_is_given_the_listed_groups(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """A generic pilot that names no OwnerGroup gets its VO's groups from DIRAC's matcher
    (``Matcher._checkCredentials``: with the services' VO set, every listed group,
    ``user`` and ``prod``), so with
    ``Owner=alice`` __generateTQMatchSQL takes alice's queue in ``user`` (TQ 1, 500: the
    1000 split over alice and bob) and every queue of the JobSharing ``prod`` (TQ 3, carol's,
    1000), not bob's, and not alice's queue of the unlisted ``misc`` (TQ 4). TQ 3 comes first
    with 1 - 500 / (2 · 1000) = 0.75."""
    jobs = [
        {"id": "1.0", "owner": "alice", "dirac_group": "user"},
        {"id": "2.0", "owner": "bob", "dirac_group": "user"},
        {"id": "3.0", "owner": "carol", "dirac_group": "prod"},
        {"id": "4.0", "owner": "alice", "dirac_group": "misc"},
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    cfg = str(write_config(CONFIG))
    result = run(
        "taskqueues", "--config", cfg, "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), "--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}",
        "--pilot", "Owner=alice", env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "TQId  Owner  Group  CPUTime  Sites  BannedSites  Platforms  JobTypes  Tags  Jobs"
        "   Priority  Share%  Correction  First%",
        "   1  alice  user     86400  -      -            -          -         -        1"
        "   500.0000  16.667      1.0000  25.000",
        "   3  carol  prod     86400  -      -            -          -         -        1"
        "  1000.0000  33.333      1.0000  75.000",
    ]
    assert result.stderr.splitlines()[1] == (
        "fs: warning: --pilot gives no OwnerGroup: DIRAC's matcher gives such a (generic) "
        "pilot its VO's groups, those [dirac.groups] lists, so it takes no job of 'misc' "
        "(--pilot OwnerGroup=NAME,... names the groups of a pilot that does)"
    )


def test_no_queue_matches(run: Callable[..., Any], args: list[str]) -> None:
    result = run("taskqueues", *args, "--pilot", "CPUTime=360", "--pilot", f"Site={CERN}")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1] == "(no task queue matches the pilot)"


@pytest.mark.parametrize(
    ("pilot", "message"),
    [
        pytest.param(
            ["Site=LCG.CERN.cern"],
            "fs: error: --pilot CPUTime is missing: DIRAC's matcher requires the pilot's CPU "
            "time (seconds), e.g. --pilot CPUTime=86400",
            id="no-cpu-time",
        ),
        pytest.param(  # (Matcher._checkMask, before TaskQueueDB requires a CPU time)
            ["CPUTime=3600"],
            "fs: error: --pilot Site is missing: DIRAC's matcher refuses a pilot that names no "
            "site ('Missing Site Name in Resource JDL'), e.g. --pilot Site=LCG.CERN.cern",
            id="no-site",
        ),
        pytest.param(
            ["Site=LCG.CERN.cern", "CPUTime=1:00:00"],
            "fs: error: --pilot CPUTime=1:00:00: expected a whole number",
            id="cpu-time-text",
        ),
        pytest.param(
            ["CPUTime=3600", f"Site={CERN}", "Tag=GPU", "RequiredTag=MultiProcessor"],
            "fs: error: --pilot RequiredTag=MultiProcessor: a required tag that is not among "
            "the pilot's Tag; DIRAC's matcher refuses such a pilot ('Wrong conditions')",
            id="required-tag-not-held",
        ),
        pytest.param(  # (the matcher takes its keys as written: Matcher.py, `name in ...`)
            ["cputime=3600"],
            "fs: error: --pilot cputime=3600: expected KEY=VALUE with KEY one of CPUTime, Site, "
            "GridCE, Platform, JobType, Tag, RequiredTag, NumberOfProcessors, WholeNode, "
            "MaxRAM, Owner, OwnerGroup, ReleaseVersion, DIRACVersion, ReleaseProject, "
            "VirtualOrganization (did you mean 'CPUTime'?)",
            id="key-case",
        ),
        pytest.param(  # (quoted as every other "did you mean"; a misspelling is named too)
            ["CPUTme=3600"],
            "fs: error: --pilot CPUTme=3600: expected KEY=VALUE with KEY one of CPUTime, Site, "
            "GridCE, Platform, JobType, Tag, RequiredTag, NumberOfProcessors, WholeNode, "
            "MaxRAM, Owner, OwnerGroup, ReleaseVersion, DIRACVersion, ReleaseProject, "
            "VirtualOrganization (did you mean 'CPUTime'?)",
            id="key-misspelt",
        ),
    ],
)
def test_a_description_the_matcher_refuses(
    run: Callable[..., Any], args: list[str], pilot: list[str], message: str
) -> None:
    options = [text for setting in pilot for text in ("--pilot", setting)]
    result = run("taskqueues", *args, *options)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message + "\n"


def test_a_number_of_processors_int_cannot_read_gives_no_processor_tag(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """DIRAC 9.1.22's ``Matcher._processResourceDescription`` reads ``NumberOfProcessors``
    with ``int()`` and, on ValueError, gives the pilot no processor tag: ``4.0`` adds neither
    ``1Processors`` ... ``4Processors`` nor ``MultiProcessor``, so carol's queue (TQ 1, tags
    4Processors and MultiProcessor) is not matched, only ops' untagged one (TQ 2). ``4`` gives
    all five tags and both queues match: ``prod`` (1000, JobSharing) gives each of its two
    queues, averaging 1, 1000/2 = 500, and each comes first with 1 - 500 / (2 · 500) = 0.5."""
    jobs = [
        job(1, "carol", "prod", tags=["4Processors", "MultiProcessor"]),
        job(2, "ops", "prod"),
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    common = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    common += ["--now", NOW, "--jobs-file", str(path), "--pilot", "CPUTime=86400"]
    common += ["--pilot", f"Site={CERN}", "--json"]

    result = run("taskqueues", *common, "--pilot", "NumberOfProcessors=4.0")
    assert result.exit_code == 0, result.stderr
    assert [(r["tq_id"], r["priority"], r["p_first"]) for r in json.loads(result.stdout)] == [
        (2, 500.0, 1.0)
    ]
    assert result.stderr == (
        "fs: note: --pilot NumberOfProcessors=4.0 is not a whole number as DIRAC's matcher "
        "reads it (Python's int()), so it gives the pilot no processor tags (no "
        "<N>Processors, no MultiProcessor)\n"
    )

    result = run("taskqueues", *common, "--pilot", "NumberOfProcessors=4")
    assert result.exit_code == 0, result.stderr
    assert [(r["tq_id"], r["priority"], r["p_first"]) for r in json.loads(result.stdout)] == [
        (1, 500.0, 0.5),
        (2, 500.0, 0.5),
    ]
    assert result.stderr == ""


def test_an_owner_group_naming_no_group_matches_nothing(
    run: Callable[..., Any], args: list[str]
) -> None:
    """An empty ``OwnerGroup`` reaches ``__generateTQMatchSQL`` as the text '': the query asks
    for ``tq.OwnerGroup = ''`` and no task queue has an empty group, so DIRAC's pilot gets no
    job; ``fs`` shows no queue and says why on stderr."""
    result = run(
        "taskqueues", *args, "--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}",
        "--pilot", "OwnerGroup=", env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == ["(no task queue matches the pilot)"]
    assert result.stderr == (
        "fs: note: --pilot OwnerGroup= names no group: DIRAC's matcher then selects the task "
        "queues whose group is that empty name (tq.OwnerGroup = ''), and no task queue has "
        "one, so the pilot matches none\n"
    )
    result = run(
        "taskqueues", *args, "--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}",
        "--pilot", "OwnerGroup=", "--pilot", "Owner=alice", "--json",
    )  # fmt: skip
    assert (result.exit_code, json.loads(result.stdout)) == (0, [])
    assert "names no group" in result.stderr


@pytest.mark.parametrize("owner", [[], ["--pilot", "Owner=alice"]], ids=["alone", "with-owner"])
def test_a_generic_pilot_without_listed_groups_is_refused(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path, owner: list[str]
) -> None:
    """With ``[dirac.groups]`` empty, DIRAC 9.1.22's ``Matcher._checkCredentials`` gives a
    pilot without ``OwnerGroup`` an empty list of groups; ``__generateTQMatchSQL`` then writes
    ``(())`` (alone) or an empty owner condition (with ``Owner``), MariaDB refuses the query,
    and ``MatcherHandler.export_requestJob`` answers the pilot 'Error requesting job'. ``fs``
    showed "(no task queue matches the pilot)" with exit 0; it now refuses, saying so."""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    cfg = str(write_config("[dirac]\n"))
    result = run(
        "taskqueues", "--config", cfg, "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), "--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}", *owner,
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --pilot gives no OwnerGroup and [dirac.groups] lists no group: DIRAC's "
        "matcher gives such a (generic) pilot its VO's groups, here none, the task queue query "
        "it then builds fails, and the pilot gets only 'Error requesting job' (DIRAC's "
        "MatcherHandler); list the groups in [dirac.groups] or name the pilot's with --pilot "
        "OwnerGroup=NAME,...\n"
    )
    result = run(
        "taskqueues", "--config", cfg, "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), "--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}",
        "--pilot", "OwnerGroup=user", *owner, "--pilot", "ReleaseVersion=v9.1.22", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr  # (the pilot names its group: no list needed)
    expected = {1, 5} if owner else {1, 2, 5}  # (bob's TQ 2 goes with Owner=alice)
    assert {row["tq_id"] for row in json.loads(result.stdout)} == expected


OWNER_NOTE = (
    "fs: note: --pilot Owner= names no owner: DIRAC's matcher then selects the task queues "
    "whose owner is that empty name (tq.Owner = ''), and no task queue has one, so the pilot "
    "matches none but those of a JobSharing group among its groups (whose queues match "
    "whatever their owner)\n"
)


def test_an_owner_naming_no_one_matches_only_job_sharing_queues(
    run: Callable[..., Any], args: list[str]
) -> None:
    """An empty ``Owner`` reaches ``__generateTQMatchSQL`` as the text '': with ``OwnerGroup``
    (given, or the generic pilot's listed groups) it asks ``(tq.Owner = '' AND tq.OwnerGroup
    = 'user')`` and no queue has an empty owner; a JobSharing group's condition is
    ``tq.OwnerGroup = 'prod'`` alone. So OwnerGroup=user matches nothing, and the generic
    pilot only prod's untagged day queue, TQ 4 (TQ 3 wants GPU), first every time. ``fs``
    showed the same rows but said nothing; it now says why, as for an empty OwnerGroup."""
    pilot = ["--pilot", "CPUTime=86400", "--pilot", f"Site={CERN}", "--pilot", "Owner="]
    result = run("taskqueues", *args, *pilot, "--pilot", "OwnerGroup=user", "--json")
    assert (result.exit_code, json.loads(result.stdout)) == (0, [])
    assert result.stderr == OWNER_NOTE
    result = run("taskqueues", *args, *pilot, "--json")
    assert result.exit_code == 0, result.stderr
    assert [(row["tq_id"], row["p_first"]) for row in json.loads(result.stdout)] == [(4, 1.0)]
    assert result.stderr == OWNER_NOTE


def test_an_owner_with_several_groups_takes_the_first_groups_whatever_else(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """DIRAC 9.1.22's ``__generateTQMatchSQL``, given ``Owner`` and several ``OwnerGroup``,
    adds ``(tq.Owner = 'alice' AND tq.OwnerGroup = 'user') OR tq.OwnerGroup = 'prod'`` (prod
    has JobSharing) unbracketed among the conditions it joins with ``AND``, and SQL's AND
    binds first: alice's one-day ``user`` queue (TQ 1) is selected although the pilot has
    only 3600 s, while prod's one-day queue (TQ 2) must meet ``tq.CPUTime <= 3600`` and does
    not; bob's hour-long ``user`` queue (TQ 3) is neither alice's nor prod's. fs showed no
    queue. ``user`` (1000) is split over alice and bob: TQ 1 has 500, taken with chance 1.
    With the groups the other way round, prod's queue (1000, JobSharing) escapes instead."""
    jobs = [
        job(1, "alice", "user", cpu_time=86400),
        job(2, "carol", "prod", cpu_time=86400),
        job(3, "bob", "user"),
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    common = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    common += ["--now", NOW, "--jobs-file", str(path), "--pilot", "CPUTime=3600"]
    common += ["--pilot", f"Site={CERN}", "--pilot", "Owner=alice", "--json"]
    result = run("taskqueues", *common, "--pilot", "OwnerGroup=user,prod")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["tq_id"], r["priority"], r["p_first"]) for r in rows] == [(1, 500.0, 1.0)]
    result = run("taskqueues", *common, "--pilot", "OwnerGroup=prod,user")
    rows = json.loads(result.stdout)
    assert [(r["tq_id"], r["priority"], r["p_first"]) for r in rows] == [(2, 1000.0, 1.0)]


#: ``CONFIG`` with the matcher's version check as DIRAC has it by default (or as ``extra`` sets).
def _checked_config(extra: str = "") -> str:
    return CONFIG.split("[dirac.pilot]")[0] + extra


REFUSED = "DIRAC's matcher refuses it ('Pilot version does not match')"


@pytest.mark.parametrize(
    ("extra", "pilot", "message"),
    [
        pytest.param(  # (convertToPy3VersionNumber: v9r1p22 is 9.1.22, v9.1.21 is 9.1.21)
            '[dirac.pilot]\nversions = ["v9r1p22"]\n',
            ["CPUTime=3600", f"Site={CERN}", "DIRACVersion=v9.1.21"],
            f"version v9.1.21 is not among [dirac.pilot] versions (9.1.22): {REFUSED}",
            id="version-not-listed",
        ),
        pytest.param(  # (ReleaseVersion is read first; DIRACVersion only without it)
            '[dirac.pilot]\nversions = ["v9r1p22"]\n',
            ["CPUTime=3600", f"Site={CERN}", "ReleaseVersion=v9r1", "DIRACVersion=v9.1.22"],
            f"version v9r1 is not among [dirac.pilot] versions (9.1.22): {REFUSED}",
            id="release-version-first",
        ),
        pytest.param(  # (Pilot/Project compared as Python compares texts)
            '[dirac.pilot]\nproject = "LHCb"\n',
            ["CPUTime=3600", f"Site={CERN}", "ReleaseVersion=v9.1.22", "ReleaseProject=lhcb"],
            f"ReleaseProject=lhcb, and [dirac.pilot] project is LHCb: {REFUSED}",
            id="other-project",
        ),
        pytest.param(
            '[dirac.pilot]\nproject = "LHCb"\n',
            ["CPUTime=3600", f"Site={CERN}", "DIRACVersion=v9.1.22"],
            f"gives no ReleaseProject, and [dirac.pilot] project is LHCb: {REFUSED}",
            id="no-project",
        ),
    ],
)
def test_a_pilot_whose_version_the_matcher_refuses(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    extra: str,
    pilot: list[str],
    message: str,
) -> None:
    """DIRAC 9.1.22's matcher checks a pilot's version before it matches it
    (``Matcher._checkPilotVersion``, ``/Operations/Pilot``): with ``CheckVersion`` on (its
    default) a pilot must give ``ReleaseVersion`` or ``DIRACVersion``, one of ``Version``
    when that lists any, and the ``Project`` when one is set; else it gets no job, only
    'Pilot version does not match'. ``fs`` showed such a pilot's draw; now one line, exit 2.
    (A description with no version at all is shown, with a note: the next test.)"""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    cfg = str(write_config(_checked_config(extra)))
    options = [text for setting in pilot for text in ("--pilot", setting)]
    result = run(
        "taskqueues", "--config", cfg, "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), *options,
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: --pilot {message}\n"


@pytest.mark.parametrize(
    ("extra", "version"),
    [
        pytest.param("", "DIRACVersion=anything", id="any-version"),
        pytest.param(
            '[dirac.pilot]\nversions = ["v9r1p22", "v9.2.0"]\n',
            "ReleaseVersion=v9.1.22",
            id="listed-as-another-spelling",
        ),
        pytest.param("[dirac.pilot]\ncheck_version = false\n", None, id="check-off"),
        pytest.param("", None, id="none-given-noted"),
    ],
)
def test_a_pilot_whose_version_the_matcher_takes(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    extra: str,
    version: str | None,
) -> None:
    """A version DIRAC's matcher takes changes no match: as in the first test, a CERN
    pilot for an hour takes TQ 1 (125) and TQ 2 (500), TQ 2 first with 1 - 125/(2·500).
    A description that gives no version, which no real pilot sends and which the matcher
    refuses with the check on, is shown as a pilot of an accepted release, with a note
    (TaskQueueDB's match takes no version: an admin's preview need not name one)."""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(JOBS), encoding="utf-8")
    cfg = str(write_config(_checked_config(extra)))
    given = ["--pilot", version] if version is not None else []
    result = run(
        "taskqueues", "--config", cfg, "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), "--pilot", "CPUTime=3600", "--pilot", f"Site={CERN}",
        *given, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["tq_id"], r["priority"], round(r["p_first"], 6)) for r in rows] == [
        (1, 125.0, 0.125),
        (2, 500.0, 0.875),
    ]
    noted = "fs: note: --pilot gives no ReleaseVersion or DIRACVersion, for which DIRAC's"
    assert (noted in result.stderr) == (version is None and "check_version" not in extra)
