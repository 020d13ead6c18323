"""What DIRAC's JobManager refuses in a job description before the job reaches TaskQueueDB.

``JobManagerHandler.export_submitJob`` reads the JDL into ``BaseJobDescriptionModel``
(``Core/Utilities/JDL.jdlToBaseJobDescriptionModel``) and validates it as a
``JobDescriptionModel`` (``WorkloadManagementSystem/Utilities/JobModel.py``); a description
that fails is refused ("Invalid JDL: ...") and no job is made. The bounds are the
``/Operations/JobDescription`` options (``[dirac.job_description]``). A job that names no
``CPUTime`` or ``Priority`` is validated with the model's defaults, ``DefaultCPUTime`` and
``DefaultPriority``, which ``JobDB.insertNewJobIntoDB`` (``JobManifest.check``) then writes
into its JDL. The model is built with those defaults before the job's own values are set
(``jdlToBaseJobDescriptionModel``), so a default outside its bounds refuses every job, one
that names its own value too. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from fairshare_cli.core.config import DiracJobDescription
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN
from fairshare_cli.core.names import json_shown

#: DIRAC's ``/Operations/JobDescription`` when it sets nothing.
DEFAULT_JOB_DESCRIPTION = DiracJobDescription()

#: ``Jobs.UserPriority`` is ``INT(11)`` and ``tq_Jobs.Priority`` ``INTEGER UNSIGNED``: a
#: priority outside both is refused by MariaDB's strict mode, and DIRAC cannot queue the job.
STORED_PRIORITY_RANGE = (0, 2**31 - 1)

#: The one spelling of "any site" ``checkSites`` accepts beside the known sites.
ANY_SITE = "ANY"


class DefaultInBounds(NamedTuple):
    """A default of ``/Operations/JobDescription`` and the bounds JobManager holds it to."""

    #: the keys' stem (``cpu_time``: ``default_cpu_time``, ``min_cpu_time``, ...)
    what: str
    #: the options' stem (``CPUTime``: ``DefaultCPUTime``, ``MinCPUTime``, ...)
    option: str
    default: int
    low: int
    high: int


def defaults_and_bounds(d: DiracJobDescription) -> tuple[DefaultInBounds, DefaultInBounds]:
    """The CPU time's and the priority's default with their bounds: a default outside
    them makes JobManager refuse every job (:func:`cpu_time_problem`)."""
    return (
        DefaultInBounds("cpu_time", "CPUTime", d.default_cpu_time, d.min_cpu_time, d.max_cpu_time),
        DefaultInBounds("priority", "Priority", d.default_priority, d.min_priority, d.max_priority),
    )


def waiting_description(description: DiracJobDescription) -> DiracJobDescription:
    """The description the jobs already waiting in the state are read with: the same
    defaults, and no bounds but what MariaDB stores. JobManager checked each job when it
    was submitted, under that day's bounds; a later change of ``/Operations/JobDescription``
    leaves the jobs waiting in TaskQueueDB as they are."""
    return msgspec.structs.replace(
        description,
        min_cpu_time=INT64_MIN,
        max_cpu_time=INT64_MAX,
        min_priority=INT64_MIN,
        max_priority=INT64_MAX,
    )


def _whole(value: float) -> bool:
    """Whether DIRAC's ``ClassAd.getAttributeInt`` reads the value: ``int()`` of its text,
    which a fractional number (``3.7``) fails, leaving None, which the model refuses."""
    return isinstance(value, int) or float(value).is_integer()


def priority_problem(
    user_priority: float | None, description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION
) -> str | None:
    """Why JobManager refuses a job of this ``Priority`` (None: the job names none, so
    ``DefaultPriority``), or why MariaDB refuses to store it; None when DIRAC takes it."""
    d = description
    problem = _default_problem(
        "user_priority",
        user_priority,
        ("DefaultPriority", d.default_priority),
        (d.min_priority, d.max_priority),
        "priority",
    )
    if problem is not None or user_priority is None:
        return problem
    problem = _bounds_problem(
        "user_priority", user_priority, (d.min_priority, d.max_priority), "Priority", "priority"
    )
    low, high = STORED_PRIORITY_RANGE
    if problem is None and not low <= user_priority <= high:
        column = (
            "tq_Jobs.Priority (INTEGER UNSIGNED)"
            if user_priority < 0
            else "Jobs.UserPriority (INT)"
        )
        return (
            f"user_priority: {user_priority!r}: MariaDB refuses it for {column}, so DIRAC "
            "cannot queue the job"
        )
    return problem


def cpu_time_problem(
    cpu_time: float | None, description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION
) -> str | None:
    """Why JobManager refuses a job of this ``CPUTime`` (seconds; None: the job names none,
    so ``DefaultCPUTime``), or None when it takes it."""
    d = description
    bounds = (d.min_cpu_time, d.max_cpu_time)
    field = "dirac_requirements.cpu_time"
    problem = _default_problem(
        field, cpu_time, ("DefaultCPUTime", d.default_cpu_time), bounds, "cpuTime"
    )
    if problem is not None or cpu_time is None:
        return problem
    return _bounds_problem(field, cpu_time, bounds, "CPUTime", "cpuTime", " of seconds")


def _default_problem(
    field: str,
    given: float | None,
    default: tuple[str, int],
    bounds: tuple[int, int],
    model: str,
) -> str | None:
    """Why JobManager refuses a job because of ``JobDescription/<option>`` = ``value``
    (``default``) outside ``bounds``: ``BaseJobDescriptionModel`` is made with the defaults
    (``injectDefaultValues``) and validates them (the model's ``model`` check) before
    ``jdlToBaseJobDescriptionModel`` sets the job's own ``given`` value, so every job is
    refused, not only one that gives none. None when the default is within its bounds."""
    option, value = default
    low, high = bounds
    if low <= value <= high:
        return None
    refusal = f"({model} out of bounds (must be between {low} and {high}))"
    if given is None:
        return (
            f"{field}: not given, so JobDescription/{option} = {value}: DIRAC's JobManager "
            f"refuses the job {refusal}"
        )
    return (
        f"{field}: {given!r}, but JobDescription/{option} = {value} is out of bounds: DIRAC's "
        f"JobManager validates the default before the job's own value, so it refuses every "
        f"job {refusal}"
    )


def _bounds_problem(
    field: str, value: float, bounds: tuple[int, int], jdl: str, model: str, unit: str = ""
) -> str | None:
    """Why JobManager refuses a job whose JDL attribute ``jdl`` (the job's ``field``) holds
    ``value``: not whole, or outside ``bounds`` (the model's ``model`` check); or None."""
    low, high = bounds
    if not _whole(value):
        return (
            f"{field}: {json_shown(value)} is not a whole number{unit}; DIRAC reads a job's "
            f"{jdl} as an integer and its JobManager refuses the job (Invalid JDL)"
        )
    if not low <= value <= high:
        return (
            f"{field}: {json_shown(value)}: DIRAC's JobManager refuses the job ({model} out "
            f"of bounds (must be between {low} and {high}))"
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
