"""``GresTypes``: the GRES names slurmctld knows, and how it compares them.

slurmctld makes a GRES context for each name of ``GresTypes`` (``gres_init``, 22.05's
``src/common/gres.c`` and 26.05's ``src/interfaces/gres.c`` alike) and knows no other GRES:
a node's ``Gres=`` token whose name (before its first ``:``) is none of them is dropped
("Invalid GRES configured on node", ``gres_name_filter``: with no ``GresTypes`` every
token, without a word), and a job asking one is refused at submission
(``ESLURM_INVALID_GRES``). These names are compared case-sensitively (``xstrcmp``):
``Gres=GPU:2`` names no GPU of ``GresTypes=gpu``. The TRES a GRES is counted in
(``gres/gpu``, which ``PriorityWeightTRES`` and ``TRESBillingWeights`` weigh) is found
without regard to case (``assoc_mgr_find_tres_pos``: ``xstrcasecmp``), as the weights' own
names are, and a job's ``gres/`` attributes, which are its TRES: a job asking a GRES none
of whose names equals in any case is one slurmctld never took (:func:`unknown_gres`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from fairshare_cli.errors import InputError

T = TypeVar("T")

#: The GRES that share a GPU: slurmctld moves them after ``gpu`` and stops without it.
SHARED = ("mps", "shard")


def gres_build_id(name: str) -> int:
    """A GRES name's plugin id, as ``gres_build_id`` sums it: each byte (a C ``char``,
    signed) shifted by 0, 8, 16, 24, 0, ... bits, in 32 bits."""
    out = 0
    for i, byte in enumerate(name.encode()):
        out += (byte - 256 if byte > 127 else byte) << (8 * (i % 4))
    return out % 2**32


def parse_gres_types(text: str) -> tuple[str, ...]:
    """``GresTypes`` as ``gres_init`` reads it: comma-separated names (empty ones skipped,
    a name given again ignored: "Duplicate plugin ignored"), in the order given.

    Raises:
        ValueError: what makes slurmctld stop (``fatal``): ``mps`` or ``shard`` without
            ``gpu`` (in that case), or two names of the same plugin id.
    """
    names = tuple(dict.fromkeys(name for name in text.split(",") if name))
    shared = [name for name in names if name in SHARED]
    if shared and "gpu" not in names:
        raise ValueError(
            f"gres/{shared[0]} requires that gres/gpu also be configured: slurmctld stops on "
            "it (GresTypes: gres/'shared' requires that gres/gpu also be configured); add "
            "gpu (in lower case)"
        )
    seen: dict[int, str] = {}
    for name in names:
        other = seen.setdefault(gres_build_id(name), name)
        if other != name:
            raise ValueError(
                f"gres/{other} and gres/{name} have the same plugin id "
                f"{gres_build_id(name)}: slurmctld stops on it (Gres: Duplicate plugin_id); "
                "rename one of them"
            )
    return names


def gres_name(key: str) -> str:
    """The GRES name of a ``gres/NAME[:TYPE]`` key (or of a ``Gres=`` token without the
    ``gres/``): what comes before the first ``:``, as ``gres_name_filter`` cuts it."""
    return (key[5:] if key[:5].lower() == "gres/" else key).split(":", 1)[0]


def unlisted(keys: Iterable[str], names: Iterable[str]) -> list[str]:
    """The ``gres/NAME[:TYPE]`` keys whose name ``names`` (``GresTypes``) does not hold,
    compared in case as slurmctld compares them."""
    known = set(names)
    return [key for key in keys if gres_name(key) not in known]


def unlisted_tres(keys: Iterable[str], names: Iterable[str]) -> list[str]:
    """The ``gres/NAME[:TYPE]`` keys of a job's TRES (its ``attributes``) whose name no
    name of ``names`` (``GresTypes``) equals in any case. slurmctld refuses at submission a
    job asking a GRES it has no context for (``_get_next_gres``, reached from
    ``gres_job_state_validate`` in ``_job_create``: ``ESLURM_INVALID_GRES``, the name
    compared in case, ``xstrcmp``); a job it took is counted in the TRES of that name,
    found in any case (``assoc_mgr_find_tres_pos``), as these keys are. Other keys
    (``license/``, ``bb/``, ``fs/``, a ClassAd attribute) name no GRES."""
    known = {name.lower() for name in names}
    return [k for k in keys if k[:5].lower() == "gres/" and gres_name(k).lower() not in known]


def unknown_gres(job_id: str, attributes: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """Why slurmctld holds no job ``job_id`` asking the GRES of ``attributes``
    (:func:`unlisted_tres`, its first such key), ``names`` being ``GresTypes``; None when
    it knows them all."""
    for key in unlisted_tres(attributes, names)[:1]:
        return (
            f'job {job_id}: attributes: "{key}" names a GRES priority.gres_types '
            f'("{",".join(names)}") does not list: slurmctld refuses such a job at submission '
            "(Invalid generic resource (gres) specification), so no queue holds it; list "
            f"{gres_name(key)} in gres_types (GresTypes) or drop the attribute"
        )
    return None


def refuse_unknown_gres(
    jobs: Iterable[Any], names: Sequence[str] | None, source: str | None
) -> None:
    """Refuse the first of ``jobs`` asking a GRES ``names`` (``GresTypes``; None: unset,
    fs cannot know the cluster's, nothing refused) does not list (:func:`unknown_gres`),
    naming ``source``, where the jobs came from (None: the caller names it).

    Raises:
        InputError: ``source: job ID: attributes: "gres/..." names a GRES ...``.
    """
    if names is None:
        return
    for job in jobs:
        why = unknown_gres(job.id, job.attributes, names)
        if why is not None:
            raise InputError(why if source is None else f"{source}: {why}")


def kept_known_gres(
    items: Sequence[T], job_of: Callable[[T], Any], names: Sequence[str] | None
) -> tuple[list[T], list[str]]:
    """``items`` (jobs, or batches: ``job_of`` gives each one's job) less those whose job
    asks a GRES ``names`` does not list, and why slurmctld holds none of those (in order):
    a side of ``fs whatif`` leaves them out, as the other side's config may list it."""
    if names is None:
        return list(items), []
    kept: list[T] = []
    why: list[str] = []
    for item in items:
        job = job_of(item)
        said = unknown_gres(job.id, job.attributes, names)
        if said is None:
            kept.append(item)
        else:
            why.append(said)
    return kept, why


def known_gres(jobs: list[T], names: Sequence[str] | None, left_out: list[str] | None) -> list[T]:
    """``jobs`` as ``fs sprio`` reads them from a file: with ``left_out`` (a side of ``fs
    whatif``), those asking a GRES ``names`` does not list left out and noted there
    (:func:`kept_known_gres`); without, the first such job refused (unnamed source).

    Raises:
        InputError: such a job, without ``left_out``.
    """
    if left_out is None:
        refuse_unknown_gres(jobs, names, None)
        return jobs
    kept, why = kept_known_gres(jobs, lambda job: job, names)
    left_out.extend(why)
    return kept
