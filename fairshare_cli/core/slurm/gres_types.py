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
names are.
"""

from __future__ import annotations

from collections.abc import Iterable

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
