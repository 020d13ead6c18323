"""The groups DIRAC's matcher gives a generic pilot (one that names no ``OwnerGroup``).

Mirrors DIRAC 9.1.22's ``Matcher._checkCredentials`` and ``Registry.getGroupsForVO``: with
the services' ``/DIRAC/VirtualOrganization`` set (``[dirac] vo``), every group of
``/Registry/Groups``, in its order; without it, the groups whose ``VO`` option (a
comma-separated list) names the pilot's VO, sorted by name as Python sorts texts (capitals
first). The pilot's VO is its credential group's, or, for a host certificate, its
``VirtualOrganization``; ``fs`` reads it from ``--pilot VirtualOrganization``. A config
that names no VO at all (neither ``[dirac] vo`` nor a group's ``vo``) is no DIRAC of one VO:
there the matcher finds no group for any VO and every generic pilot fails. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Why a generic pilot is refused when ``[dirac.groups]`` lists no group: the matcher gives
#: it an empty list of groups, from which ``TaskQueueDB.__generateTQMatchSQL`` builds a query
#: MariaDB cannot parse (an empty bracket, or an empty condition with ``Owner``); the
#: matcher's error goes back to the pilot as the short text ``MatcherHandler`` gives for any
#: matcher failure.
NO_GROUPS_FOR_GENERIC_PILOT = (
    "gives no OwnerGroup and [dirac.groups] lists no group: DIRAC's matcher gives "
    "such a (generic) pilot its VO's groups, here none, the task queue query it then builds "
    "fails, and the pilot gets only 'Error requesting job' (DIRAC's MatcherHandler); list the "
    "groups in [dirac.groups] or name the pilot's with --pilot OwnerGroup=NAME,..."
)


def vo_names(text: str) -> list[str]:
    """A group's ``VO`` option as ``getGroupsForVO`` reads it: comma-separated, blanks
    around each name dropped, empty names dropped."""
    return [name.strip() for name in text.split(",") if name.strip()]


def generic_groups(
    groups: Sequence[tuple[str, str]], services_vo: str, pilot_vo: str | None
) -> tuple[str, ...]:
    """The groups the matcher gives a pilot without ``OwnerGroup``.

    Args:
        groups: ``(name, VO option)`` of each group ``[dirac.groups]`` lists, in its order.
        services_vo: ``[dirac] vo`` (``""``: not set).
        pilot_vo: the pilot's ``VirtualOrganization`` (None: not given).

    Raises:
        ValueError: where the matcher fails and the pilot gets only 'Error requesting job':
            no group at all; no VO for the pilot (``No VO requested``); no group of its VO.
    """
    if not groups:
        raise ValueError(NO_GROUPS_FOR_GENERIC_PILOT)
    if services_vo:
        return tuple(name for name, _ in groups)
    fails = "DIRAC's matcher fails and the pilot gets only 'Error requesting job'"
    known = sorted({name for _, vo in groups for name in vo_names(vo)})
    fix = (
        f"e.g. --pilot VirtualOrganization={known[0]} (the VOs of [dirac.groups]: "
        f"{', '.join(known)})"
        if known
        else "no group names a VO: set [dirac] vo (the services' VO) or the groups' vo, "
        "or name the pilot's groups with --pilot OwnerGroup=NAME,..."
    )
    if not pilot_vo:
        raise ValueError(
            "gives no OwnerGroup and no VirtualOrganization: with [dirac] vo unset, DIRAC's "
            "matcher gives such a (generic) pilot the groups of its VO (its credential "
            f"group's, or a host's VirtualOrganization), here none ('No VO requested'), so "
            f"{fails}; {fix}"
        )
    mine = sorted(name for name, vo in groups if pilot_vo in vo_names(vo))
    if not mine:
        more = "" if known else f"; {fix}"
        raise ValueError(
            f"VirtualOrganization={pilot_vo}: no group of [dirac.groups] has that vo, so "
            f"{fails} ('No groups found for VO={pilot_vo}'){more}"
        )
    return tuple(mine)
