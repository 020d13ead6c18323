"""The ids ``fs submit`` takes: those a scheduler hands out, given by ``--id`` or in a
``--file`` list; the imports of a queue take no other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError


def check_new_id(job_id: str, count: int) -> None:
    """Refuse an id ``fs submit --id`` is given that no scheduler hands out: HTCondor's is
    ``CLUSTER.PROC`` (a cluster from 1, its jobs numbered from 0), Slurm's and DIRAC's one
    whole number from 1; written without leading zeros, so that ``fs rm 8`` finds it. With
    ``count`` jobs the id is the cluster, whose jobs are numbered ``CLUSTER.0`` on.

    Raises:
        InputError: naming the id and the forms taken.
    """
    if not scheduler_id(job_id):
        raise InputError(f'fs submit: job id "{shown(job_id)}": {ID_FORMS}')
    cluster, dot, _proc = job_id.partition(".")
    if dot and count > 1:
        raise InputError(
            f"fs submit: job id {job_id} with --count {count}: the {count} jobs are numbered"
            f" {cluster}.0 ... {cluster}.{count - 1}, as condor_submit numbers a cluster's;"
            f" give the cluster alone (--id {cluster})"
        )


def check_file_ids(objects: Sequence[Any], source: str) -> None:
    """Refuse an id a jobs file given to ``fs submit --file`` holds that no scheduler hands
    out, as :func:`check_new_id` refuses ``--id``'s (an object of ``count`` N may name its
    cluster ``C`` or ``C.P``: its jobs are ``C.0`` on either way, docs/jobs.md). Objects
    without an id, or whose id is no text, are left to the jobs reader.

    Raises:
        InputError: naming ``source``, the object's place (counting from 1) and its id.
    """
    kinds: dict[str, dict[bool, tuple[int, str]]] = {}  # cluster -> bare or not -> first
    for place, obj in enumerate(objects, 1):
        given = obj.get("id") if isinstance(obj, Mapping) else None
        if type(given) is int:  # (as the jobs reader takes it: 12 is "12")
            given = str(given)
        if not isinstance(given, str):
            continue
        if not scheduler_id(given):
            raise InputError(
                f'{source}: job object {place} (counting from 1): job id "{shown(given)}": '
                + ID_FORMS
            )
        cluster = given.partition(".")[0]
        count = obj.get("count", 1)
        if type(count) is int and count > 1:  # (its jobs are C.0 on, however it names C)
            given = f"{cluster}.0"
        kinds.setdefault(cluster, {}).setdefault("." not in given, (place, given))
        _refuse_bare_beside_procs(kinds, cluster, source)


def _refuse_bare_beside_procs(
    kinds: Mapping[str, Mapping[bool, tuple[int, str]]], cluster: str, source: str
) -> None:
    """Refuse a jobs file that gives a job ``C`` (a Slurm or DIRAC job, or an HTCondor
    cluster of one job) and a job of cluster ``C`` by its proc (``C.0``, or ``C`` with a
    ``count``), as a submission beside such a queued job is refused: ``fs rm C`` or
    ``fs prio C`` would act on both.

    ``kinds``: by cluster, the first object (its place and id) that gives the cluster
    alone (True) and the first that gives its procs (False).

    Raises:
        InputError: naming both objects, by their places, and their ids.
    """
    seen = kinds.get(cluster, {})
    if True in seen and False in seen:
        (at, one), (then, other) = sorted((seen[True], seen[False]))
        raise InputError(
            f"{source}: job objects {at} and {then} (counting from 1) give jobs {one} and"
            f" {other} of one cluster {cluster}, and fs rm {cluster} or fs prio {cluster}"
            f" would act on both; give each job its own cluster, or each its proc"
            f" ({cluster}.0, {cluster}.1, ...)"
        )


#: The ids a scheduler hands out, as a refusal of another names them.
ID_FORMS = (
    "expected a whole number from 1 (a Slurm or DIRAC job id, or an HTCondor cluster) or"
    " CLUSTER.PROC (HTCondor's 12.0), in digits without leading zeros"
)


def scheduler_id(job_id: str) -> bool:
    """``job_id`` is one a scheduler hands out: ``CLUSTER`` or ``CLUSTER.PROC``."""
    cluster, dot, proc = job_id.partition(".")
    return _whole(cluster, least=1) and (not dot or _whole(proc, least=0))


def _whole(text: str, *, least: int) -> bool:
    """``text`` is a whole number of ``least`` (0 or 1) or more, in ASCII digits and
    without leading zeros."""
    digits = text.isascii() and text.isdigit()
    return digits and ((text == "0" and least == 0) or not text.startswith("0"))
