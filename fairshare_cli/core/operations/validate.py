"""The state's entry check: what a command writes is what every view will read.

Every view decodes a state section with that section's decoder (``accountant_from_json``,
``negotiator_from_json``, ``usage_from_json``, ``history_from_json``, ``parse_jobs``) and
checks its jobs against the config (ClassAd expressions, accounting groups, DIRAC groups and
requirements). :func:`check_state` applies those same readers to each section a command
changed, before anything is written, so an input that would poison the state is refused
(exit 2) instead of being stored and refused by every later view.

:func:`check_known_keys` refuses a section holding keys its encoder does not write: such
content was read as empty and silently dropped on the next write.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import compress, repeat
from operator import eq, not_
from typing import TYPE_CHECKING, Any

from fairshare_cli.core.state import SectionError, State
from fairshare_cli.errors import did_you_mean

if TYPE_CHECKING:  # every view checks its state's keys here: it need not load the job model
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.jobs import Job

Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def _codec(name: str) -> Codec | None:
    """Decoder and encoder of one structured section, importing only its own module (a
    Slurm view need not import the HTCondor negotiator); None for a free-form section."""
    if name == "accountant":
        from fairshare_cli.core.htcondor import accountant

        return accountant.accountant_from_json, accountant.accountant_to_json
    if name == "negotiator":
        from fairshare_cli.core.htcondor import claims

        return claims.negotiator_from_json, claims.negotiator_to_json
    if name == "slurm":
        from fairshare_cli.core.slurm import usage

        return usage.usage_from_json, usage.usage_to_json
    if name == "dirac":
        from fairshare_cli.core.dirac import correction

        return correction.history_from_json, correction.history_to_json
    return None


#: The top-level keys each structured section is written with, so that every view checks a
#: state's keys without importing the Slurm, DIRAC and negotiator models (views start fast);
#: ``tests/core/operations/test_validate_known_keys.py`` holds them equal to what the
#: encoders write.
_KNOWN: dict[str, frozenset[str] | None] = {
    "accountant": frozenset({"records"}),
    "negotiator": frozenset(
        {"claims", "group_quotas", "jobless_matches", "last_cycle", "limits_seen", "rr_times"}
    ),
    "slurm": frozenset({"last_decay_ran", "last_reset", "reset_now_done", "running", "usage"}),
    "dirac": frozenset({"running_jobs"}),
}


def known_keys(name: str) -> frozenset[str] | None:
    """The top-level keys section ``name`` is written with, or None for a free-form one."""
    if name not in _KNOWN:
        codec = _codec(name)
        _KNOWN[name] = None if codec is None else frozenset(codec[1](codec[0](None)))
    return _KNOWN[name]


def check_known_keys(name: str, raw: Any) -> None:
    """Refuse keys in section ``name`` that its encoder would drop on the next write.

    Raises:
        SectionError: naming the section and the first unknown key.
    """
    known = known_keys(name)
    if known is None or not isinstance(raw, Mapping):
        return
    unknown = sorted((k for k in raw if k not in known), key=str)
    if unknown:
        key = unknown[0]
        raise SectionError(
            f"{name}: unknown key {key!r}{did_you_mean(str(key), sorted(known))} "
            "(this fs would drop it on the next write)"
        )


def decode_section(name: str, raw: Any) -> Any:
    """Section ``name`` decoded as every view decodes it (keys checked first).

    Raises:
        SectionError: it is malformed.
    """
    check_known_keys(name, raw)
    codec = _codec(name)
    return raw if codec is None else codec[0](raw)


def check_state(
    before: State,
    after: State,
    config: Config,
    source: str,
    written_jobs: tuple[Any, list[Job], Collection[str]] | None = None,
    jobs_source: str | None = None,
) -> None:
    """Decode every section of ``after`` that is not the very object ``before`` held.

    Jobs are parsed in full (or, when ``written_jobs`` holds ``after``'s very ``jobs`` list
    and the records it was written from, taken from those, their ids and slots checked);
    those new or changed are also checked against the config (the ids ``written_jobs``
    names as found equal to ``before``'s object of their id are not compared again), a
    refusal naming ``jobs_source`` (where they came from) if given.

    Raises:
        SectionError: a section a view would refuse.
        InputError: a job a view would refuse (naming ``source``).
    """
    from fairshare_cli.core.jobs import parse_jobs

    for name, kept in after.sections.items():
        if before.sections.get(name) is kept:
            continue
        raw = after.section(name)
        if name == "jobs":
            jobs = _written(raw, written_jobs)
            told: Collection[str] = ()
            if jobs is None:
                jobs = parse_jobs([] if raw is None else raw, f"{source}: jobs")
            elif written_jobs is not None:
                told = written_jobs[2]
            fresh = _fresh(before.section("jobs"), _objects(raw), jobs, told)
            check_jobs_against_config(fresh, config, jobs_source or f"{source}: jobs")
        else:
            decode_section(name, raw)


def check_kept(before: State, after: State, source: str) -> None:
    """Decode every section of ``after`` that is the very object ``before`` held: a command
    that writes the state writes back the sections it did not change, and a value a view
    refuses there (an accountant record `fs rm` never reads) must not pass through it.

    Jobs are read as the views read the state's queue (:func:`~fairshare_cli.core.jobs.
    parse_jobs`: 0.19 s for 95,100 jobs, the benchmark's ``import-squeue`` state);
    they are not checked against the config, which may have changed since they entered.

    Raises:
        SectionError: a section a view would refuse.
        InputError: a job a view would refuse (naming ``source``).
    """
    for name, kept in after.sections.items():
        if before.sections.get(name) is not kept or kept is None:
            continue
        if name == "jobs":
            from fairshare_cli.core.jobs import parse_jobs

            parse_jobs(kept, f"{source}: jobs")
        else:
            decode_section(name, kept)


def _fresh(old: Any, objs: list[Any], jobs: list[Job], told: Collection[str]) -> list[Any]:
    """The ``(object, job)`` pairs whose object is not ``old``'s object of its id: compared
    in C (100,000 jobs), but for the ids ``told`` (found equal by the command)."""
    pairs: Iterable[tuple[Any, Job]] = zip(objs, jobs, strict=True)
    ids = _ids(objs)
    if told:
        unsure = [*map(not_, map(told.__contains__, ids))]
        if not any(unsure):
            return []
        objs, ids, pairs = (
            [*compress(objs, unsure)],
            [*compress(ids, unsure)],
            compress(pairs, unsure),
        )
    old_objs = dict(zip(_ids(old), old, strict=True)) if isinstance(old, list) else {}
    same = map(eq, map(old_objs.get, ids), objs)
    return [*compress(pairs, map(not_, same))]


def _written(raw: Any, written: tuple[Any, list[Job], Collection[str]] | None) -> list[Job] | None:
    """The records ``raw`` was written from, when they are known and their ids and running
    jobs' slots are distinct (else None: :func:`parse_jobs` reads ``raw`` and words why)."""
    if written is None or written[0] is not raw or len(written[1]) != len(raw):
        return None
    jobs = written[1]
    slots = [j.slot for j in jobs if j.status == "running" and j.slot is not None]
    if len({j.id for j in jobs}) != len(jobs) or len(set(slots)) != len(slots):
        return None
    return jobs


def _objects(raw: Any) -> list[Any]:
    """One object per parsed job (a ``count`` object stands for each of its jobs)."""
    if _all_dicts(raw) and not any(map(dict.__contains__, raw, repeat("count"))):
        return raw  # type: ignore[no-any-return]
    out: list[Any] = []
    for obj in raw or []:
        count = obj.get("count", 1) if isinstance(obj, Mapping) else 1
        out.extend([obj] * (count if isinstance(count, int) else 1))
    return out


def _key(obj: Any) -> Any:
    return obj.get("id") if isinstance(obj, Mapping) else None


def _ids(objs: list[Any]) -> list[Any]:
    """Each object's ``id`` (:func:`_key`; a list of objects alone: in C)."""
    if _all_dicts(objs):
        return [*map(dict.get, objs, repeat("id"))]
    return [*map(_key, objs)]


def _all_dicts(objs: Any) -> bool:
    return type(objs) is list and set(map(type, objs)) <= {dict}


def check_jobs_against_config(
    pairs: Iterable[tuple[Any, Job]], config: Config, source: str
) -> None:
    """The checks the views make of a job, made when it enters.

    Expressions (``requirements``, ``rank``) must parse and fit the size limit, a dotted
    ``accounting_group`` must name a configured parent group, a Slurm job's partition, QOS
    and account must be defined and its ``gres/`` attributes name a GRES of ``gres_types``,
    and a waiting DIRAC job must name a configured ``dirac_group`` with well-formed
    ``dirac_requirements``.

    Raises:
        InputError: naming ``source`` and the job.
    """
    pairs = _first_of_each_run(pairs)
    if not pairs:  # (nothing new: the HTCondor and DIRAC models not even imported)
        return
    from fairshare_cli.core.dirac.jobs import task_queues_from_objects
    from fairshare_cli.core.htcondor.pool import check_jobs
    from fairshare_cli.core.operations.node_fit import check_slurm_names
    from fairshare_cli.core.slurm.gres_types import refuse_unknown_gres

    check_jobs([j for _, j in pairs], config, source)
    for _, job in pairs:  # what sprio and sshare refuse (fs submit also checks associations)
        check_slurm_names(config, job, f"{source}: job {job.id}")
    refuse_unknown_gres([j for _, j in pairs], config.priority.gres_types, source)
    dirac = [o for o, j in pairs if j.dirac_group is not None]
    if dirac:
        dedup = list({id(o): o for o in dirac}.values())
        dirac_config = config.dirac
        task_queues_from_objects(
            dedup,
            source,
            dirac_config.groups,
            dirac_config.cpu_segments,
            dirac_config.job_description,
        )


def _first_of_each_run(pairs: Iterable[tuple[Any, Job]]) -> list[tuple[Any, Job]]:
    """The pairs but those whose job is its predecessor's but for its id (a ``count``
    object's, an array's): a run of jobs alike is checked at its first."""
    from fairshare_cli.core.jobs import alike_but_id

    kept: list[tuple[Any, Job]] = []
    before: Job | None = None
    for pair in pairs:
        if not alike_but_id(pair[1], before):
            kept.append(pair)
        before = pair[1]
    return kept
