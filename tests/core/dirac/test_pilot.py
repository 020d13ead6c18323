"""Which task queues a pilot matches, and its chance of taking its job from each.

Each expected value is derived by hand from DIRAC 9.1.22: ``Matcher._processResourceDescription``
(``Tag`` split at commas and stripped of blanks and quotes; ``NumberOfProcessors`` read with
``int()``, N giving ``1Processors`` ... ``NProcessors`` and, above 1, ``MultiProcessor``, a
text ``int()`` refuses no tag; ``WholeNode`` given
adds ``WholeNode``; ``RequiredTag`` kept only with a ``Tag``) and
``TaskQueueDB.__generateTQMatchSQL`` (``tq.CPUTime <= CPUTime``; per list key, a queue with
no row or with a row equal to one of the pilot's values, no condition for an empty value or
``ANY``; the pilot's site not among the queue's banned sites, ORed over its sites; no pilot
tag: queues without tags; else every queue tag among the pilot's; every required tag among
the queue's; ``MaxRAM >= MinRAM`` where the queue has a RAM row; with Owner and OwnerGroup, a
JobSharing group's queues whatever their owner), values compared under utf8mb4_general_ci.
``Matcher._checkMask`` refuses a pilot without a ``Site`` before any of this.
The chances are those of ``ORDER BY RAND() / Priority``: for two queues P1 >= P2, the first
comes first with ``1 - P2 / (2 P1)``.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from fairshare_cli.core.dirac.pilot import (
    Pilot,
    generic_pilot,
    matches,
    outside_generic_pilot,
    pilot_from_settings,
    pilot_rows,
)
from fairshare_cli.core.dirac.taskqueues import TaskQueue, TaskQueueDefinition, TaskQueueRow

CERN, RAL = "LCG.CERN.cern", "LCG.RAL.uk"


def described(*settings: str) -> Pilot:
    """The pilot of ``settings``, at CERN unless they name its ``Site`` (the matcher refuses
    a pilot without one)."""
    sited = any(text.startswith("Site=") for text in settings)
    return pilot_from_settings([*settings] if sited else [f"Site={CERN}", *settings])


def queue(**fields: Any) -> TaskQueueDefinition:
    base: dict[str, Any] = {"owner": "bob", "group": "user", "cpu_time": 86400}
    return TaskQueueDefinition(**{**base, **fields})


def sharing(group: str) -> bool:
    return group == "prod"


@pytest.mark.parametrize(
    ("definition", "settings", "expected"),
    [
        pytest.param(queue(), [], True, id="no-requirements"),
        pytest.param(queue(cpu_time=86401), [], False, id="segment-above-cputime"),
        pytest.param(queue(sites=(CERN,)), [f"Site={RAL}"], False, id="other-site"),
        pytest.param(queue(sites=(CERN,)), ["Site=lcg.cern.CERN"], True, id="site-collation"),
        pytest.param(queue(sites=(CERN,)), ["Site=Any"], True, id="site-any"),
        pytest.param(queue(banned_sites=(RAL,)), [f"Site={RAL}"], False, id="banned"),
        pytest.param(queue(banned_sites=(RAL,)), [f"Site={RAL},{CERN}"], True, id="one-unbanned"),
        pytest.param(queue(banned_sites=(RAL,)), ["Site=ANY"], True, id="any-skips-banned"),
        pytest.param(queue(platforms=("el9",)), [], True, id="no-platform-given"),
        pytest.param(queue(platforms=("el9",)), ["Platform=el8"], False, id="other-platform"),
        pytest.param(queue(platforms=("el9",)), ["Platform=el8,el9"], True, id="one-platform"),
        pytest.param(queue(job_types=("User",)), ["JobType=Test"], False, id="other-job-type"),
        pytest.param(queue(), ["JobType=Test"], True, id="queue-without-job-type"),
        pytest.param(queue(grid_ces=("ce1",)), ["GridCE=CE1"], True, id="grid-ce-collation"),
        pytest.param(queue(tags=("GPU",)), [], False, id="pilot-without-tags"),
        pytest.param(queue(tags=("GPU",)), ["Tag='gpu', MultiProcessor"], True, id="tag-quoted"),
        pytest.param(queue(tags=("GPU",)), ["Tag=any"], True, id="tag-any"),
        pytest.param(queue(), ["Tag=GPU"], True, id="queue-without-tags"),
        pytest.param(queue(tags=("GPU", "MultiProcessor")), ["Tag=GPU"], False, id="tag-missing"),
        pytest.param(
            queue(tags=("4Processors", "MultiProcessor")),
            ["NumberOfProcessors=4"],
            True,
            id="processors-4",
        ),
        pytest.param(
            queue(tags=("4Processors", "MultiProcessor")),
            ["NumberOfProcessors=3"],
            False,
            id="processors-3",
        ),
        pytest.param(queue(tags=("WholeNode",)), ["WholeNode=no"], True, id="whole-node-any"),
        pytest.param(queue(), ["Tag=GPU", "RequiredTag=GPU"], False, id="required-absent"),
        pytest.param(
            queue(tags=("gpu",)), ["Tag=GPU", "RequiredTag=GPU"], True, id="required-held"
        ),
        pytest.param(queue(), ["RequiredTag=GPU"], True, id="required-dropped-without-tag"),
        pytest.param(queue(min_ram=4000), ["MaxRAM=3999"], False, id="ram-below-min"),
        pytest.param(queue(min_ram=4000), ["MaxRAM=4000"], True, id="ram-at-min"),
        pytest.param(queue(max_ram=2000), ["MaxRAM=1"], True, id="ram-row-min-zero"),
        pytest.param(queue(min_ram=4000), [], True, id="ram-not-given"),
        pytest.param(queue(), ["Owner=alice"], False, id="other-owner"),
        pytest.param(queue(), ["OwnerGroup=prod,admin"], False, id="other-group"),
        pytest.param(queue(), ["Owner=BOB", "OwnerGroup=User"], True, id="owner-collation"),
        pytest.param(queue(), ["Owner=alice", "OwnerGroup=user"], False, id="owner-in-group"),
        pytest.param(
            queue(group="prod"), ["Owner=alice", "OwnerGroup=prod"], True, id="job-sharing"
        ),
    ],
)
def test_matches(definition: TaskQueueDefinition, settings: list[str], expected: bool) -> None:
    pilot = described("CPUTime=86400", *settings)
    assert matches(definition, pilot, sharing) is expected


@pytest.mark.parametrize(
    ("definition", "settings", "expected"),
    [
        pytest.param(queue(owner="alice"), ["Owner=alice"], True, id="owner-in-listed-group"),
        pytest.param(queue(group="prod"), ["Owner=alice"], True, id="job-sharing-any-owner"),
        pytest.param(queue(group="misc", owner="alice"), ["Owner=alice"], False, id="unlisted"),
        pytest.param(queue(group="misc"), [], False, id="unlisted-no-owner"),
        pytest.param(queue(group="USER"), [], True, id="listed-under-collation"),
        pytest.param(queue(group="misc"), ["OwnerGroup=misc"], True, id="group-given"),
    ],
)
def test_a_pilot_without_owner_group_gets_the_listed_groups(
    definition: TaskQueueDefinition, settings: list[str], expected: bool
) -> None:
    """Matcher._checkCredentials gives a generic pilot without OwnerGroup its VO's groups
    (every group of /Registry/Groups with the services' VO set): ``user`` and ``prod``; with
    an Owner, __generateTQMatchSQL then takes a JobSharing group's queues whatever their
    owner, and no queue of an unlisted group."""
    pilot = generic_pilot(described("CPUTime=86400", *settings), ["user", "prod"])
    assert matches(definition, pilot, sharing) is expected


@pytest.mark.parametrize(
    ("definition", "groups", "expected"),
    [
        pytest.param(queue(owner="alice"), "user,prod", True, id="first-group-whatever-else"),
        pytest.param(queue(group="prod"), "user,prod", False, id="last-group-anded"),
        pytest.param(queue(group="prod"), "prod,user", True, id="job-sharing-first"),
        pytest.param(queue(owner="alice"), "prod,user", False, id="owner-group-last"),
        pytest.param(queue(owner="bob"), "user,prod", False, id="other-owner"),
        pytest.param(queue(owner="alice"), "user", False, id="one-group-anded"),
    ],
)
def test_owner_with_several_groups_ors_them_unbracketed(
    definition: TaskQueueDefinition, groups: str, expected: bool
) -> None:
    """``__generateTQMatchSQL`` appends ``" OR ".join(ownerConds)`` to conditions it joins
    with ``AND``, so ``(Owner AND user) OR prod AND CPUTime <= 3600 AND ...`` takes
    alice's ``user`` queues whatever their CPU time: SQL's AND binds first. Each queue here
    has a one-day segment, above the pilot's 3600 s, so only that escape matches."""
    pilot = described("CPUTime=3600", "Owner=alice", f"OwnerGroup={groups}")
    assert matches(definition, pilot, sharing) is expected


def test_a_generic_pilot_with_an_owner_ors_the_listed_groups_in_their_order() -> None:
    """``_checkCredentials`` gives the Registry's groups in its order (``user``, ``prod``):
    alice's ``user`` queue is taken whatever its CPU time, prod's is held to it."""
    pilot = generic_pilot(described("CPUTime=3600", "Owner=alice"), ["user", "prod"])
    assert matches(queue(owner="alice"), pilot, sharing)
    assert not matches(queue(group="prod"), pilot, sharing)
    assert matches(queue(group="prod", cpu_time=3600), pilot, sharing)


def test_groups_outside_a_generic_pilot() -> None:
    assert outside_generic_pilot(["misc", "USER", "Prod"], ["user", "prod"]) == ["misc"]


@pytest.mark.parametrize(
    ("processors", "tags"),
    [
        pytest.param("1", ("1Processors",), id="one"),
        pytest.param("3", ("1Processors", "2Processors", "3Processors", "MultiProcessor"), id="3"),
        pytest.param("1025", ("MultiProcessor",), id="above-1024"),
        pytest.param("0", (), id="zero"),
        # _processResourceDescription reads the text with int(): int(" +2 ") is 2, int("-3")
        # gives range(1, -2), no tag, and is not above 1; int("4.0") and int("") raise
        # ValueError, which the matcher catches: no processor tag at all.
        pytest.param(" +2 ", ("1Processors", "2Processors", "MultiProcessor"), id="signed"),
        pytest.param("-3", (), id="negative"),
        pytest.param("4.0", (), id="float-text"),
        pytest.param("", (), id="empty"),
    ],
)
def test_number_of_processors_tags(processors: str, tags: tuple[str, ...]) -> None:
    pilot = described("CPUTime=100", f"NumberOfProcessors={processors}")
    assert pilot.tags == tags


@pytest.mark.parametrize(
    ("settings", "tags", "note"),
    [
        pytest.param(["NumberOfProcessors=4"], 5, None, id="whole"),
        pytest.param(["NumberOfProcessors=4.0"], 0, "NumberOfProcessors=4.0 is not", id="4.0"),
        pytest.param(["NumberOfProcessors=4.0", "Tag=GPU"], 1, "Python's int()", id="tag-kept"),
    ],
)
def test_a_number_of_processors_the_matcher_cannot_read_gives_no_tag(
    settings: list[str], tags: int, note: str | None
) -> None:
    pilot = described("CPUTime=100", *settings)
    assert len(pilot.tags) == tags
    assert [note is not None and note in n for n in pilot.notes] == [True] * (note is not None)


@pytest.mark.parametrize("owner", [[], ["Owner=bob"]])
@pytest.mark.parametrize("group", ["OwnerGroup=", "OwnerGroup= ,"])
def test_an_owner_group_naming_no_group_matches_nothing(group: str, owner: list[str]) -> None:
    """``__generateTQMatchSQL`` gets ``tq.OwnerGroup = ''`` (with an Owner, ``(tq.Owner = %s
    AND tq.OwnerGroup = '')``), which no task queue holds: the pilot matches nothing."""
    pilot = described("CPUTime=86400", group, *owner)
    assert pilot.owner_groups == ()
    assert not matches(queue(), pilot, sharing)
    assert not matches(queue(group="prod"), pilot, sharing)
    assert generic_pilot(pilot, ["user", "prod"]).owner_groups == ()
    assert len(pilot.notes) == 1
    assert "names no group" in pilot.notes[0]


@pytest.mark.parametrize("owner", ["Owner=", "Owner= "])
def test_an_owner_naming_no_one_matches_only_job_sharing_groups(owner: str) -> None:
    """``__generateTQMatchSQL`` gets ``(tq.Owner = '' AND tq.OwnerGroup = 'user')``, which no
    queue holds (MariaDB pads ' ' to ''), and ``tq.OwnerGroup = 'prod'`` for the JobSharing
    group: only prod's queues match; the note says so, once."""
    pilot = generic_pilot(described("CPUTime=86400", owner), ["user", "prod"])
    assert not matches(queue(), pilot, sharing)
    assert matches(queue(group="prod"), pilot, sharing)
    assert [note.split(":")[0] for note in pilot.notes] == [f"{owner} names no owner"]
    assert described("CPUTime=86400", "Owner=bob").notes == ()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        pytest.param(["CPUTime=1"], "Missing Site Name in Resource JDL", id="no-site"),
        pytest.param([], "Site is missing", id="nothing"),  # (the matcher checks the site first)
        pytest.param(["Site=X"], "CPUTime is missing", id="no-cputime"),
        pytest.param(["Site=X", "CPUTime=1", "CPUTime=2"], "CPUTime is given twice", id="twice"),
        pytest.param(["Site=X", "CPUTime=1e5"], "expected a whole number", id="not-whole"),
        pytest.param(["CPUTime=1", "Sites=X"], "expected KEY=VALUE", id="unknown-key"),
        pytest.param(["CPUTime=1", "Site=a\ud800"], "lone surrogate", id="lone-surrogate"),
        pytest.param(
            ["Site=X", "CPUTime=1", "Tag=A", "RequiredTag=B"],
            "Wrong conditions",
            id="required-not-held",
        ),
    ],
)
def test_refused_descriptions(settings: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pilot_from_settings(settings)


def row(tq_id: int, prio: float, **fields: Any) -> TaskQueueRow:
    tq = TaskQueue(tq_id, queue(**fields), ((1, 1),))
    return TaskQueueRow(tq, prio, prio, 0.0, 1.0, 0.0)


def test_chances_are_over_the_matching_queues_alone() -> None:
    """A pilot at CERN matches queue 1 (750, at CERN) and 2 (250, anywhere), not 3 (RAL):
    queue 1 comes first with 1 - 250 / (2 · 750) = 5/6, queue 2 with 1/6."""
    rows = [row(1, 750.0, sites=(CERN,)), row(2, 250.0), row(3, 1000.0, sites=(RAL,))]
    kept = pilot_rows(rows, pilot_from_settings(["CPUTime=86400", f"Site={CERN}"]), sharing)
    assert [r.queue.tq_id for r in kept] == [1, 2]
    assert math.isclose(kept[0].p_first, 5 / 6, rel_tol=1e-12)
    assert math.isclose(kept[1].p_first, 1 / 6, rel_tol=1e-12)
    assert [r.priority for r in kept] == [750.0, 250.0]  # (the rest of each row kept)
