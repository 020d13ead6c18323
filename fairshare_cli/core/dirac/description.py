"""What DIRAC's JobManager refuses in a job description before the job reaches TaskQueueDB.

``JobManagerHandler.export_submitJob`` reads the JDL into ``BaseJobDescriptionModel``
(``Core/Utilities/JDL.jdlToBaseJobDescriptionModel``) and validates it as a
``JobDescriptionModel`` (``WorkloadManagementSystem/Utilities/JobModel.py``); a description
that fails is refused ("Invalid JDL: ...") and no job is made. The bounds are the
``/Operations/JobDescription`` options, which ``fs`` does not read: their defaults are used.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

#: ``JobDescription/MinPriority`` and ``MaxPriority`` (``checkPriorityBounds``), defaults.
PRIORITY_BOUNDS = (0, 10)

#: ``JobDescription/MinCPUTime`` and ``MaxCPUTime`` (``checkCPUTimeBounds``), defaults.
CPU_TIME_BOUNDS = (100, 500000)

#: The one spelling of "any site" ``checkSites`` accepts beside the known sites.
ANY_SITE = "ANY"


def _whole(value: float) -> bool:
    """Whether DIRAC's ``ClassAd.getAttributeInt`` reads the value: ``int()`` of its text,
    which a fractional number (``3.7``) fails, leaving None, which the model refuses."""
    return isinstance(value, int) or float(value).is_integer()


def priority_problem(user_priority: float) -> str | None:
    """Why JobManager refuses a job of this ``Priority``, or None when it takes it."""
    low, high = PRIORITY_BOUNDS
    if not _whole(user_priority):
        return (
            f"user_priority: {user_priority!r} is not a whole number; DIRAC reads a job's "
            "Priority as an integer and its JobManager refuses the job (Invalid JDL)"
        )
    if not low <= user_priority <= high:
        return (
            f"user_priority: {user_priority!r}: DIRAC's JobManager refuses the job (priority "
            f"out of bounds (must be between {low} and {high}))"
        )
    return None


def cpu_time_problem(cpu_time: float) -> str | None:
    """Why JobManager refuses a job of this ``CPUTime`` (seconds), or None when it takes it."""
    low, high = CPU_TIME_BOUNDS
    if not _whole(cpu_time):
        return (
            f"dirac_requirements.cpu_time: {cpu_time!r} is not a whole number of seconds; DIRAC "
            "reads a job's CPUTime as an integer and its JobManager refuses the job (Invalid JDL)"
        )
    if not low <= cpu_time <= high:
        return (
            f"dirac_requirements.cpu_time: {cpu_time!r}: DIRAC's JobManager refuses the job "
            f"(cpuTime out of bounds (must be between {low} and {high}))"
        )
    return None


def sites_problem(sites: Sequence[str], banned: Sequence[str]) -> str | None:
    """Why JobManager refuses these ``Site`` and ``BannedSites``, or None when it takes them.

    ``checkSites`` takes the known sites and ``ANY`` spelt so (``any`` is no site name:
    DIRAC's are ``Grid.Site.cc``); ``checkThatSitesAndBannedSitesAreNotMutuallyExclusive``
    refuses sites that are all banned (compared as Python strings, ``ANY`` included).
    """
    odd = [site for site in sites if site.lower() == "any" and site != ANY_SITE]
    if odd:
        return (
            f"dirac_requirements.sites: {odd[0]!r}: DIRAC's JobManager refuses the job (Invalid "
            f"sites: {odd[0]}); any site is {ANY_SITE!r}, spelt so"
        )
    if sites and banned and not set(sites) - set(banned):
        return (
            "dirac_requirements: every site in sites is in banned_sites; DIRAC's JobManager "
            "refuses the job (sites and bannedSites are mutually exclusive)"
        )
    return None
