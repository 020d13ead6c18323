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
    (``K``, ``G`` ...), none: 1 (a bare ``gpu`` too); the word ``no_consume`` (any case)
    is a flag, no type (``gres_add_type``). ``gpu:a100:2`` is ``{"gres/gpu:a100": 2}``
    (the typed count counts towards ``gres/gpu`` where the partitions are summed),
    ``gpu:2`` and ``gpu:no_consume:2`` are ``{"gres/gpu": 2}``.

    Raises:
        InputError: a token slurmctld drops, or whose name's count it stops reading at.
    """
    out: dict[str, int] = {}
    tokens = [t for t in text.split(",") if t and t.lower() not in ("(null)", "none")]
    for token in tokens:
        key, count = _node_token(token, tokens, where)
        out[key] = out.get(key, 0) + count
    return out


def _node_token(token: str, tokens: list[str], where: str) -> tuple[str, int]:
    """One token of a node's ``Gres=``: its ``gres/NAME[:TYPE]`` key and count."""
    head = f"{where}: Gres: {token}: "
    name = token.split(":", 1)[0]
    if not name or "(" in name:  # (gres_name_filter: no GresTypes name)
        raise InputError(
            head + "names no GRES, so slurmctld drops it (Invalid GRES configured on "
            "node); write NAME[:TYPE][:COUNT], e.g. gpu:a100:2"
        )
    if token == name and len([t for t in tokens if t.split(":", 1)[0] == name]) > 1:
        raise InputError(
            head + f"slurmctld counts {name} as 1 at it, whatever the line's other {name} "
            f"tokens say, and reads none after it (_get_gres_cnt); give the count once, e.g. "
            f"{name}:2"
        )
    body = token[: token.rfind("(")] if "(" in token else token
    rest = [part for part in body.split(":")[1:] if part]
    after = body.rsplit(":", 1)[-1][:1]  # the count is after the last colon, if a digit
    count: int | None = 1
    if rest and after.isascii() and after.isdigit():
        count = _count(rest.pop())
    if count is None:
        raise InputError(
            head + "slurmctld reads no count in it (Bad GRES configuration) and no further "
            f"{name} of the line; write NAME[:TYPE][:COUNT], e.g. gpu:a100:2"
        )
    kinds = [kind for kind in rest if kind.lower() != "no_consume"]
    if len(kinds) > 1:
        raise InputError(
            head + f"slurmctld counts {count} for each of its types ({', '.join(kinds)}) and "
            f"{count} for {name}, which no [[machines]] attributes hold; give one type a token"
        )
    return (f"gres/{name}:{kinds[0]}" if kinds else f"gres/{name}"), count
