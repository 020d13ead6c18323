"""GRES as Slurm's dumps write them, read into the counts a GRES weight reads: a node's
``Gres=`` (slurm.conf) as ``[[machines]]`` attributes, and a job's GRES request
(``TresPerNode=``, squeue's ``%b``) as job attributes, both ``gres/NAME[:TYPE]`` = N."""

from __future__ import annotations

from fairshare_cli.errors import InputError

#: ``suffix_mult``'s suffixes (any case): K, M, G, T, P in 1024s (``KiB`` ...), ``KB`` ...
#: in 1000s.
_MULT = {
    **{s: 1024**i for i, s in enumerate("kmgtp", 1)},
    **{s + "ib": 1024**i for i, s in enumerate("kmgtp", 1)},
    **{s + "b": 1000**i for i, s in enumerate("kmgtp", 1)},
    "": 1,
}


def _count(text: str) -> int | None:
    """``strtoll`` of ``text``'s leading digits times ``suffix_mult`` of the rest; None
    where the rest is no suffix (``Bad GRES configuration``)."""
    digits = text[: len(text) - len(text.lstrip("0123456789"))]
    mult = _MULT.get(text[len(digits) :].lower())
    return None if mult is None else int(digits) * mult


def node_gres(text: str, where: str) -> dict[str, int]:
    """A node's ``Gres=`` as ``gres/NAME`` and ``gres/NAME:TYPE`` counts, as ``_get_gres_cnt``
    reads it (``gres.c``, 22.05 and 26.05): comma-separated ``NAME[:TYPE][:COUNT]``, the
    socket binding in brackets dropped (``gpu:2(S:0-1)``), a count with a suffix
    (``K``, ``G`` ...), none: 1. ``gpu:a100:2`` is ``{"gres/gpu:a100": 2}`` (the typed
    count counts towards ``gres/gpu`` where the partitions are summed), ``gpu:2`` is
    ``{"gres/gpu": 2}``.

    Raises:
        InputError: a count slurmctld calls a bad GRES configuration.
    """
    out: dict[str, int] = {}
    for token in text.split(","):
        if not token or token.lower() in ("(null)", "none"):
            continue
        body = token[: token.rfind("(")] if "(" in token else token
        parts = body.split(":")
        name, rest = parts[0], parts[1:]
        count: int | None = 1
        if rest and rest[-1][:1].isascii() and rest[-1][:1].isdigit():
            count = _count(rest.pop())
        if count is None or not name:
            raise InputError(
                f"{where}: Gres: {token}: slurmctld reads no count in it (Bad GRES "
                "configuration); write NAME[:TYPE][:COUNT], e.g. gpu:a100:2"
            )
        for key in [f"gres/{name}:{kind}" for kind in rest if kind] or [f"gres/{name}"]:
            out[key] = out.get(key, 0) + count
    return out
