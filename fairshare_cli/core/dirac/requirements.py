"""A waiting DIRAC job's task-queue definition from its owner, group and requirements.

What DIRAC checks on the way into TaskQueueDB: JobManager's bounds
(:mod:`~fairshare_cli.core.dirac.description`), the JobScheduling executor's required sites
(``__getSitesRequired``), the job manifest's lists (``List.fromChar``) and
``_checkTaskQueueDefinition``'s RAM; each distinct job key is defined once
(:mod:`~fairshare_cli.core.dirac.jobs` counts the keys).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from fairshare_cli.core.config import DiracGroupSpec, DiracJobDescription
from fairshare_cli.core.dirac.columns import fit_owner_and_group, fit_ram, fit_value_tables
from fairshare_cli.core.dirac.description import (
    ANY_SITE,
    DEFAULT_JOB_DESCRIPTION,
    cpu_time_problem,
    sites_problem,
)
from fairshare_cli.core.dirac.taskqueues import TaskQueueDefinition, cpu_segment
from fairshare_cli.core.names import dirac_group_problem, json_shown, name_problem
from fairshare_cli.errors import did_you_mean

REQUIREMENT_KEYS = (
    "cpu_time",
    "sites",
    "banned_sites",
    "grid_ces",
    "platform",
    "platforms",
    "job_type",
    "job_types",
    "tags",
    "min_ram",
    "max_ram",
)
"""Keys of a job's ``dirac_requirements``; singular and plural forms add up."""


def definer(
    groups: Mapping[str, DiracGroupSpec],
    segments: Sequence[int],
    description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION,
) -> Callable[[Hashable], TaskQueueDefinition]:
    """Turn a job's definition key into a task-queue definition, checking it.

    The key is the job's owner, group and requirements as
    :func:`~fairshare_cli.core.dirac.jobs.definition_key` lays them out.

    A job that gives no ``cpu_time`` has ``description.default_cpu_time``.

    Raises (from the returned function):
        ValueError: the message says what is wrong with the job.
    """

    def define(key: Hashable) -> TaskQueueDefinition:
        fields: tuple[Any, ...] = key  # type: ignore[assignment]
        owner, group, _, names, *values = fields
        if not isinstance(owner, str) or name_problem(owner, submitter=True) is not None:
            raise ValueError(f"owner: expected a user name, got {owner!r}")
        if not isinstance(group, str) or dirac_group_problem(group) is not None:
            raise ValueError(f"dirac_group: expected a group name, got {group!r}")
        fit_owner_and_group(owner, group)
        if names is None:
            problem = cpu_time_problem(None, description)
            if problem:
                raise ValueError(problem)
            return TaskQueueDefinition(
                owner, group, cpu_segment(description.default_cpu_time, segments)
            )
        for name in names:
            if name not in REQUIREMENT_KEYS:
                raise ValueError(_unknown("dirac_requirements key", name, REQUIREMENT_KEYS))
        req = dict(zip(names, values, strict=True))
        if not _unicode(values):  # (a lone surrogate, "\udcff": no output takes it)
            raise ValueError("dirac_requirements: expected names of Unicode text")
        cpu = req.get("cpu_time")
        sites, banned, tags = req.get("sites"), req.get("banned_sites"), req.get("tags")
        platform, platforms = req.get("platform"), req.get("platforms")
        job_type, job_types = req.get("job_type"), req.get("job_types")
        if cpu is not None and (isinstance(cpu, bool) or not isinstance(cpu, (int, float))):
            raise ValueError(
                f"dirac_requirements.cpu_time: expected whole seconds, got {json_shown(cpu)}"
            )
        problem = cpu_time_problem(cpu, description)
        if problem:
            raise ValueError(problem)
        if cpu is None:
            cpu = description.default_cpu_time
        min_ram, max_ram = _ram(req.get("min_ram"), req.get("max_ram"))
        definition = TaskQueueDefinition(
            owner=owner,
            group=group,
            cpu_time=cpu_segment(cpu, segments),
            sites=_job_sites(_names("sites", sites), _names("banned_sites", banned)),
            banned_sites=_names("banned_sites", banned),
            platforms=_names("platform", platform, _names("platforms", platforms)),
            job_types=_names("job_type", job_type, _names("job_types", job_types)),
            tags=_names("tags", tags),
            grid_ces=_names("grid_ces", req.get("grid_ces")),
            min_ram=min_ram,
            max_ram=max_ram,
        )
        fit_value_tables(definition)
        return definition

    return define


def _job_sites(sites: tuple[str, ...], banned: tuple[str, ...]) -> tuple[str, ...]:
    """The sites a job's task queue requires, as DIRAC's JobScheduling executor sets them.

    JobManager first refuses what :func:`sites_problem` names. ``__getSitesRequired`` then
    drops ``ANY`` and every banned site (``_applySiteFilter``, compared as Python strings);
    when that leaves none of the sites the job named (``ANY`` and banned sites only), the
    job stops there ("Impossible site requirement").

    Raises:
        ValueError: JobManager refuses the sites, or every named site is banned.
    """
    problem = sites_problem(sites, banned)
    if problem:
        raise ValueError(problem)
    named = [site for site in sites if site != ANY_SITE]
    kept = tuple(site for site in named if site not in banned)
    if named and not kept:
        raise ValueError(
            "dirac_requirements: every site in sites but ANY is in banned_sites; DIRAC's "
            "JobScheduling stops the job (Impossible site requirement)"
        )
    return kept


def _ram(min_ram: Any, max_ram: Any) -> tuple[int, int]:
    """``MinRAM``/``MaxRAM`` (MB) as ``_checkTaskQueueDefinition`` accepts them.

    Each must be an integer of 0 or more (that its column holds: :func:`fit_ram`); MinRAM
    may not exceed a MaxRAM above 0.
    """
    values = []
    for key, value in (("min_ram", min_ram), ("max_ram", max_ram)):
        if value is None:
            value = 0
        if type(value) is not int or value < 0:
            raise ValueError(
                f"dirac_requirements.{key}: expected a whole number of MB (0 or more), "
                f"got {json_shown(value)}"
            )
        fit_ram(key, value)
        values.append(value)
    low, high = values
    if high > 0 and low > high:
        raise ValueError(
            f"dirac_requirements: min_ram {low} is above max_ram {high}; DIRAC refuses the job"
        )
    return low, high


def _unknown(what: str, name: str, known: Sequence[str]) -> str:
    return f"unknown {what} '{name}'{did_you_mean(name, known)}"


def _unicode(values: Sequence[Any]) -> bool:
    """Whether the strings among ``values`` (and their tuples') are Unicode text."""
    texts = [v for v in values if type(v) is str]
    texts += [t for v in values if type(v) is tuple for t in v if type(t) is str]
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _names(key: str, value: Any, more: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A set of names as DIRAC's job manifest reads a list, as a sorted tuple.

    A string is one name, or several: the manifest (a CFG, ``JobState.insertIntoTQ``'s
    ``getOption(name, [])``, diraccfg's ``List.fromChar``) splits every list value at its
    commas and strips each piece, dropping empty ones: ``"GPU, MultiProcessor"`` is two
    names, ``" GPU "`` is ``GPU``, ``""`` none.
    """
    if not more and (value is None or type(value) is str):  # the usual forms, at once
        if not value:
            return ()
        if "," not in value and value == value.strip():
            return (value,)
    if value is None:
        items: tuple[Any, ...] = ()
    elif isinstance(value, str):
        items = (value,)
    elif isinstance(value, tuple):
        items = value
    else:
        raise ValueError(
            f"dirac_requirements.{key}: expected a name or a list of names, got {json_shown(value)}"
        )
    if not all(isinstance(v, str) for v in items):
        raise ValueError(f"dirac_requirements.{key}: expected names (strings), got {list(items)!r}")
    pieces = (piece.strip() for v in (*items, *more) for piece in v.split(","))
    return tuple(sorted({piece for piece in pieces if piece}))
