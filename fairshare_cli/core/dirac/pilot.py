"""Which task queues a pilot matches, and the chance that it takes its job from each.

Mirrors DIRAC 9.1's ``Matcher._processResourceDescription`` (the pilot's description as the
matcher reads it: ``Tag`` split at commas, ``NumberOfProcessors`` and ``WholeNode`` as tags)
and ``TaskQueueDB.__generateTQMatchSQL`` (the queues it matches), then ``matchAndGetJob``'s
``ORDER BY RAND() / Priority`` over those queues alone: the pilot takes its job from the
first of them that holds one, and every queue ``fs`` shows holds a job. Pure: no I/O.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from fairshare_cli.core.config import DiracPilotCheck
from fairshare_cli.core.dirac.collation import folded, unstorable
from fairshare_cli.core.dirac.first_try import first_try_probabilities
from fairshare_cli.core.dirac.pilot_vo import generic_groups
from fairshare_cli.core.dirac.stored import stored_float32
from fairshare_cli.core.dirac.taskqueues import TaskQueueDefinition, TaskQueueRow
from fairshare_cli.core.names import shown
from fairshare_cli.errors import did_you_mean

#: The pilot description's keys ``fs`` reads, as DIRAC's resource description names them.
PILOT_KEYS = (
    "CPUTime", "Site", "GridCE", "Platform", "JobType", "Tag", "RequiredTag",
    "NumberOfProcessors", "WholeNode", "MaxRAM", "Owner", "OwnerGroup",
    "ReleaseVersion", "DIRACVersion", "ReleaseProject", "VirtualOrganization",
)  # fmt: skip

#: The keys the matcher reads before it asks MariaDB (never compared there).
UNCOMPARED_KEYS = ("ReleaseVersion", "DIRACVersion", "ReleaseProject", "VirtualOrganization")

#: What DIRAC's matcher answers a pilot whose version check fails (``DErrno.EWMSPLTVER``).
VERSION_REFUSAL = "Pilot version does not match"

#: ``NumberOfProcessors`` up to this gives the tags ``1Processors`` ... ``NProcessors``.
MAX_PROCESSOR_TAGS = 1024

_WHOLE = re.compile(r"-?[0-9]+")
_RELEASE = re.compile(r"^v?(\d+)[r.](\d+)(?:[p.](\d+))?(?:(?:-pre|a)?(\d+))?$")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


@dataclass(frozen=True, slots=True)
class Pilot:
    """A pilot's description as the matcher reads it (``None``: the key was not given)."""

    cpu_time: int
    sites: tuple[str, ...] | None = None
    grid_ces: tuple[str, ...] | None = None
    platforms: tuple[str, ...] | None = None
    job_types: tuple[str, ...] | None = None
    tags: tuple[str, ...] = ()
    """``Tag``, with ``NumberOfProcessors``' and ``WholeNode``'s; none is ``[]`` in DIRAC."""
    required_tags: tuple[str, ...] = ()
    max_ram: int | None = None
    owner: str | None = None
    owner_groups: tuple[str, ...] | None = None
    """``()``: an ``OwnerGroup`` that names no group, which matches no queue."""
    vo_groups: tuple[str, ...] | None = None
    """Without ``OwnerGroup``, the groups the matcher gives the pilot (None: not known)."""
    notes: tuple[str, ...] = ()
    """Why the matcher reads a setting as it does, where that takes queues away."""


def is_any(value: str) -> bool:
    """``_lowerAndRemovePunctuation(value) == "any"``: the value stands for no condition."""
    return value.lower().translate(_PUNCTUATION) == "any"


def pilot_from_settings(
    settings: Sequence[str],
    check: DiracPilotCheck | None = None,
    groups: Sequence[tuple[str, str]] | None = None,
    services_vo: str = "",
) -> Pilot:
    """A :class:`Pilot` from ``KEY=VALUE`` texts (lists comma-separated).

    ``Site`` and ``CPUTime`` are required: the matcher refuses a pilot without a site
    (``Matcher._checkMask``) before TaskQueueDB requires its CPU time
    (``_checkMatchDefinition``). ``Tag`` and ``RequiredTag`` are split as
    ``_processResourceDescription`` splits a text (at commas, each piece stripped of blanks
    and quotes); ``RequiredTag`` counts only with a ``Tag``, as there. What the matcher
    reads otherwise than a reader might expect is said in :attr:`Pilot.notes`. Before all
    that, in the matcher's order: with ``groups`` (``(name, vo)`` of each group
    ``[dirac.groups]`` lists) and ``services_vo`` (``[dirac] vo``), the groups of a pilot
    without ``OwnerGroup`` (``_checkCredentials``:
    :func:`~fairshare_cli.core.dirac.pilot_vo.generic_groups`, which may refuse it); with
    ``check`` (``[dirac.pilot]``), its version (:func:`check_pilot_version`; none given:
    a note).

    Raises:
        ValueError: naming the setting and what was expected.
    """
    given = _given(settings)
    vo_groups = None
    if groups is not None and "OwnerGroup" not in given:
        vo_groups = generic_groups(groups, services_vo, given.get("VirtualOrganization"))
    version_note = None if check is None else check_pilot_version(given, check)
    if "Site" not in given:
        raise ValueError(
            "Site is missing: DIRAC's matcher refuses a pilot that names no site ('Missing "
            "Site Name in Resource JDL'), e.g. --pilot Site=LCG.CERN.cern"
        )
    if "CPUTime" not in given:
        raise ValueError(
            "CPUTime is missing: DIRAC's matcher requires the pilot's CPU time (seconds), "
            "e.g. --pilot CPUTime=86400"
        )
    tags = _pilot_tags(given)
    required: tuple[str, ...] = ()
    if "Tag" in given and "RequiredTag" in given:  # (the matcher drops it without a Tag)
        required = _split_tags(given["RequiredTag"])
    if required and not any(map(is_any, required)) and not set(required) <= set(tags):
        raise ValueError(
            f"RequiredTag={shown(given['RequiredTag'])}: a required tag that is not among the "
            "pilot's Tag; DIRAC's matcher refuses such a pilot ('Wrong conditions')"
        )
    return Pilot(
        cpu_time=_whole(given, "CPUTime"),
        sites=_listed(given.get("Site")),
        grid_ces=_listed(given.get("GridCE")),
        platforms=_listed(given.get("Platform")),
        job_types=_listed(given.get("JobType")),
        tags=tags,
        required_tags=required,
        max_ram=_whole(given, "MaxRAM") if "MaxRAM" in given else None,
        owner=given.get("Owner"),
        owner_groups=_listed(given.get("OwnerGroup")),
        vo_groups=vo_groups,
        notes=_notes(given) + ((version_note,) if version_note else ()),
    )


def _given(settings: Sequence[str]) -> dict[str, str]:
    """Each ``KEY=VALUE`` setting by its key, checked for its syntax and its names."""
    given: dict[str, str] = {}
    for text in settings:
        key, eq, value = text.partition("=")
        key = key.strip()
        if not eq or key not in PILOT_KEYS:
            known = ", ".join(PILOT_KEYS)
            hint = "" if key in PILOT_KEYS else did_you_mean(key, PILOT_KEYS)  # (exact in DIRAC)
            raise ValueError(f"{shown(text)}: expected KEY=VALUE with KEY one of {known}{hint}")
        if key in given:
            raise ValueError(f"{shown(text)}: {key} is given twice")
        for name in value.split(",") if key not in UNCOMPARED_KEYS else ():
            if unstorable(name) is not None:
                raise ValueError(
                    f"{shown(text)}: {name!r} holds a lone surrogate, which UTF-8 cannot "
                    "carry to MariaDB, so DIRAC's matcher fails"
                )
        given[key] = value
    return given


def release_number(version: str) -> str:
    """A DIRAC release name as the matcher compares it (``convertToPy3VersionNumber``):
    ``v9r1p22`` and ``v9.1.22`` are ``9.1.22``, ``v9r1`` is ``9.1.0``, ``v9.1.0a3`` and
    ``v9r1-pre3`` are ``9.1.0a3``; any other text is itself."""
    m = _RELEASE.match(version)
    if m is None:
        return version
    major, minor, patch, pre = m.groups()
    return f"{major}.{minor}.{patch or '0'}" + (f"a{pre}" if pre else "")


def check_pilot_version(given: dict[str, str], check: DiracPilotCheck) -> str | None:
    """Refuse a pilot DIRAC's matcher refuses for its version (``_checkPilotVersion``,
    with ``/Operations/Pilot``'s ``CheckVersion``, ``Version`` and ``Project``), with the
    check on: one whose version (``ReleaseVersion``, else ``DIRACVersion``) is not among
    ``versions`` (when some are listed; both sides as :func:`release_number`), and, with a
    ``project``, one that gives no ``ReleaseProject`` or another. The pilot gets no job,
    only :data:`VERSION_REFUSAL`. A description that gives no version at all, which no
    real pilot sends, is taken as a pilot of an accepted release (the queues it matches,
    as TaskQueueDB matches them), with the note returned.

    Raises:
        ValueError: saying which and what to give.
    """
    if not check.check_version:
        return None
    refused = f"DIRAC's matcher refuses it ('{VERSION_REFUSAL}')"
    version = given.get("ReleaseVersion", given.get("DIRACVersion"))
    if version is None:
        return (
            "gives no ReleaseVersion or DIRACVersion, for which DIRAC's matcher refuses a pilot "
            f"('{VERSION_REFUSAL}') while [dirac.pilot] check_version is on (Operations/Pilot/"
            "CheckVersion, on by default): shown as a pilot of an accepted release would match "
            "(e.g. --pilot ReleaseVersion=v9.1.22)"
        )
    valid = [release_number(v) for v in check.versions]
    if valid and release_number(version) not in valid:
        raise ValueError(
            f"version {shown(version)} is not among [dirac.pilot] versions "
            f"({', '.join(valid)}): {refused}"
        )
    project = given.get("ReleaseProject")
    if check.project and project != check.project:
        what = "gives no ReleaseProject" if project is None else f"ReleaseProject={shown(project)}"
        raise ValueError(f"{what}, and [dirac.pilot] project is {shown(check.project)}: {refused}")
    return None


def _notes(given: dict[str, str]) -> tuple[str, ...]:
    """Why the matcher reads a setting as it does, where that takes queues away."""
    notes = []
    if "NumberOfProcessors" in given and _processor_count(given["NumberOfProcessors"]) is None:
        notes.append(
            f"NumberOfProcessors={shown(given['NumberOfProcessors'])} is not a whole number as "
            "DIRAC's matcher reads it (Python's int()), so it gives the pilot no processor "
            "tags (no <N>Processors, no MultiProcessor)"
        )
    if "OwnerGroup" in given and not _listed(given["OwnerGroup"]):
        notes.append(
            f"OwnerGroup={shown(given['OwnerGroup'])} names no group: DIRAC's matcher then "
            "selects the task queues whose group is that empty name (tq.OwnerGroup = ''), "
            "and no task queue has one, so the pilot matches none"
        )
    if "Owner" in given and not given["Owner"].strip():
        notes.append(
            f"Owner={shown(given['Owner'])} names no owner: DIRAC's matcher then selects the "
            "task queues whose owner is that empty name (tq.Owner = ''), and no task queue has "
            "one, so the pilot matches none but those of a JobSharing group among its groups "
            "(whose queues match whatever their owner)"
        )
    return tuple(notes)


def _whole(given: dict[str, str], key: str) -> int:
    value = given[key].strip()
    if not _WHOLE.fullmatch(value):
        raise ValueError(f"{key}={shown(given[key])}: expected a whole number")
    return int(value)


def _listed(value: str | None) -> tuple[str, ...] | None:
    """A comma-separated list, blanks around each name dropped (None stays None)."""
    if value is None:
        return None
    return tuple(name.strip() for name in value.split(",") if name.strip())


def _split_tags(text: str) -> tuple[str, ...]:
    """``list({tag.strip("\\"' ") for tag in tags.strip("[]").split(",")})``, sorted."""
    return tuple(sorted({tag.strip("\"' ") for tag in text.strip("[]").split(",")}))


def _processor_count(text: str) -> int | None:
    """``NumberOfProcessors`` as ``_processResourceDescription`` reads a text: Python's
    ``int()`` (``" 4"``, ``"+4"`` and ``"4_0"`` are 4, 4 and 40), None where ``int()``
    refuses it (``"4.0"``, ``"four"``, ``""``): then the pilot gets no processor tag."""
    try:
        return int(text)
    except ValueError:
        return None


def _pilot_tags(given: dict[str, str]) -> tuple[str, ...]:
    """The pilot's tags: ``Tag``, then ``<n>Processors`` and ``MultiProcessor`` from
    ``NumberOfProcessors``, then ``WholeNode`` when that key is given (whatever its value)."""
    tags = list(_split_tags(given["Tag"])) if "Tag" in given else []
    processors = _processor_count(given.get("NumberOfProcessors", ""))
    if processors is not None and 0 < processors <= MAX_PROCESSOR_TAGS:
        tags.extend(f"{n}Processors" for n in range(1, processors + 1))
    if processors is not None and processors > 1:
        tags.append("MultiProcessor")
    if "WholeNode" in given:
        tags.append("WholeNode")
    return tuple(sorted(set(tags)))


def generic_pilot(pilot: Pilot, groups: Sequence[str]) -> Pilot:
    """The pilot as DIRAC's matcher hands it to ``__generateTQMatchSQL``: one without an
    ``OwnerGroup`` is given its VO's groups (``Matcher._checkCredentials`` for a generic
    pilot: ``Registry.getGroupsForVO``, :attr:`Pilot.vo_groups` when known, else every
    group of ``/Registry/Groups``, as with the services' VO set), so it matches no queue of a
    group the Registry does not list (or of another VO), and with an ``Owner`` every queue of
    a JobSharing group.

    Args:
        pilot: the pilot as described.
        groups: the groups the Registry lists (``[dirac.groups]``), by their exact names.
    """
    if pilot.owner_groups is not None:
        return pilot
    given = pilot.vo_groups if pilot.vo_groups is not None else tuple(groups)
    return replace(pilot, owner_groups=given)


def outside_generic_pilot(groups: Sequence[str], listed: Sequence[str]) -> list[str]:
    """The ``groups`` no :func:`generic_pilot` reaches: not one of the ``listed`` groups
    under the collation (``tq.OwnerGroup = %s`` takes ``LHCb_User`` for ``lhcb_user``)."""
    reached = {folded(g) for g in listed}
    return [g for g in groups if folded(g) not in reached]


def matches(
    definition: TaskQueueDefinition, pilot: Pilot, job_sharing: Callable[[str], bool]
) -> bool:
    """Whether ``__generateTQMatchSQL`` selects the queue for the pilot.

    Names compare as MariaDB's ``utf8mb4_general_ci`` compares them (``folded``). A list
    condition (``Site``, ``GridCE``, ``Platform``, ``JobType``) holds for a queue naming
    none or one of the pilot's, and is no condition when empty or one of it is ``ANY``;
    the pilot's site must not be among the queue's banned sites (with several, one not
    banned is enough: the SQL ORs them). Every tag of the queue must be among the pilot's
    (a pilot without tags matches queues without tags), and each ``RequiredTag`` among the
    queue's. ``CPUTime``: the queue's segment is at most the pilot's. ``MaxRAM``: a queue
    with a RAM row needs ``MinRAM`` at most that. With both ``Owner`` and several
    groups in ``OwnerGroup``, the SQL joins the groups' conditions with ``OR`` unbracketed among
    the others' ``AND``: a queue meeting the condition of any group but the last is
    selected whatever the rest of the description.

    Args:
        definition: the queue.
        pilot: the pilot.
        job_sharing: whether a group (by its exact name, as the Registry reads it) has the
            JobSharing property; with both ``Owner`` and ``OwnerGroup`` such a group's
            queues match whatever their owner.
    """
    d = definition
    if pilot.owner is not None and pilot.owner_groups is not None:
        *ored, anded = _owner_conditions(d, pilot.owner, pilot.owner_groups, job_sharing)
        if any(ored):  # ("c1 OR c2 AND rest" is "c1 OR (c2 AND rest)")
            return True
        owner_matches = anded
    else:
        owner_matches = _owner_matches(d, pilot)
    return (
        owner_matches
        and d.cpu_time <= pilot.cpu_time
        and _ram_matches(d, pilot.max_ram)
        and _one_of(d.grid_ces, pilot.grid_ces)
        and _site_matches(d, pilot.sites)
        and _one_of(d.platforms, pilot.platforms)
        and _one_of(d.job_types, pilot.job_types)
        and _tags_match(d.tags, pilot.tags)
        and _required_tags_match(d.tags, pilot.required_tags)
    )


def _owner_conditions(
    d: TaskQueueDefinition,
    owner: str,
    groups: tuple[str, ...],
    job_sharing: Callable[[str], bool],
) -> list[bool]:
    """With both ``Owner`` and ``OwnerGroup``, each group's condition on the queue:
    ``tq.OwnerGroup = g`` for a JobSharing group, else ``(tq.Owner = o AND tq.OwnerGroup =
    g)``. ``()`` (an ``OwnerGroup`` naming no group) is the text '', one condition no queue
    meets."""
    group, owner = folded(d.group), folded(owner)
    return [
        folded(g) == group and (job_sharing(g.replace('"', "")) or folded(d.owner) == owner)
        for g in groups
    ] or [False]


def _owner_matches(d: TaskQueueDefinition, pilot: Pilot) -> bool:
    """``Owner`` or ``OwnerGroup`` alone (a list of groups is ORed in brackets)."""
    group = folded(d.group)
    if pilot.owner_groups is not None and group not in {folded(g) for g in pilot.owner_groups}:
        return False
    return pilot.owner is None or folded(d.owner) == folded(pilot.owner)


def _ram_matches(d: TaskQueueDefinition, max_ram: int | None) -> bool:
    no_row = not d.min_ram and not d.max_ram
    return max_ram is None or no_row or max_ram >= d.min_ram


def _no_condition(values: tuple[str, ...] | None) -> bool:
    """Not given, empty, or naming ``ANY``: the SQL gets no condition for the key."""
    return not values or any(map(is_any, values))


def _one_of(queue_values: tuple[str, ...], pilot_values: tuple[str, ...] | None) -> bool:
    if _no_condition(pilot_values) or not queue_values:
        return True
    wanted = {folded(v) for v in pilot_values or ()}
    return any(folded(v) in wanted for v in queue_values)


def _site_matches(d: TaskQueueDefinition, sites: tuple[str, ...] | None) -> bool:
    if _no_condition(sites):
        return True
    banned = {folded(s) for s in d.banned_sites}
    return _one_of(d.sites, sites) and any(folded(s) not in banned for s in sites or ())


def _tags_match(queue_tags: tuple[str, ...], pilot_tags: tuple[str, ...]) -> bool:
    if any(map(is_any, pilot_tags)):
        return True
    held = {folded(t) for t in pilot_tags}
    return all(folded(t) in held for t in queue_tags)


def _required_tags_match(queue_tags: tuple[str, ...], required: tuple[str, ...]) -> bool:
    if _no_condition(required):
        return True
    wanted = {folded(t) for t in required}
    return sum(folded(t) in wanted for t in queue_tags) == len(required)


def pilot_rows(
    rows: Sequence[TaskQueueRow], pilot: Pilot, job_sharing: Callable[[str], bool]
) -> list[TaskQueueRow]:
    """The rows of the queues the pilot matches, each ``p_first`` the chance that the pilot
    takes its job from that queue: first in ``ORDER BY RAND() / Priority`` among those
    queues alone (priorities as SQL sorts them, single precision)."""
    kept = [row for row in rows if matches(row.queue.definition, pilot, job_sharing)]
    chances = first_try_probabilities([stored_float32(row.computed_priority) for row in kept])
    return [replace(row, p_first=p) for row, p in zip(kept, chances, strict=True)]
