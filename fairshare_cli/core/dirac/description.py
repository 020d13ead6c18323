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
    return _bounds_problem("user_priority", user_priority, PRIORITY_BOUNDS, "Priority", "priority")


def cpu_time_problem(cpu_time: float) -> str | None:
    """Why JobManager refuses a job of this ``CPUTime`` (seconds), or None when it takes it."""
    return _bounds_problem(
        "dirac_requirements.cpu_time",
        cpu_time,
        CPU_TIME_BOUNDS,
        "CPUTime",
        "cpuTime",
        " of seconds",
    )


def _bounds_problem(
    field: str, value: float, bounds: tuple[int, int], jdl: str, model: str, unit: str = ""
) -> str | None:
    """Why JobManager refuses a job whose JDL attribute ``jdl`` (the job's ``field``) holds
    ``value``: not whole, or outside ``bounds`` (the model's ``model`` check); or None."""
    low, high = bounds
    if not _whole(value):
        return (
            f"{field}: {value!r} is not a whole number{unit}; DIRAC reads a job's {jdl} as "
            "an integer and its JobManager refuses the job (Invalid JDL)"
        )
    if not low <= value <= high:
        return (
            f"{field}: {value!r}: DIRAC's JobManager refuses the job ({model} out of bounds "
            f"(must be between {low} and {high}))"
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
