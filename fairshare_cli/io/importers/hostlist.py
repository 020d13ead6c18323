"""Slurm host lists (``n[001-100]``, ``a[1-3,7],b01``) and nodes as ``[[machines]]``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fairshare_cli.core.slurm.char_list import MAX_PREFIX_CNT, hostlist_names
from fairshare_cli.errors import InputError


class HostlistError(ValueError):
    """A host list Slurm would not read."""


def expand_hostlist(text: str) -> list[str]:
    """Every host name of a Slurm host list, in order, as ``hostlist_create`` and
    ``hostlist_shift`` give them (:func:`~fairshare_cli.core.slurm.char_list.hostlist_names`,
    the one reader of the bracket syntax): ``n[001-003]``, ``a[1-2,5],b7``, ``r[1-2]n[1-2]``,
    ``n[1-2]x`` (a suffix), at most 65,536 hosts per range (``MAX_RANGE``).

    Raises:
        HostlistError: a ``[`` with no ``]``, or a range Slurm refuses (its message).
    """
    errors: list[str] = []
    try:
        hosts = hostlist_names(text, "26.05", errors)
    except InputError as exc:
        raise HostlistError(f'{exc} in "{text}"') from None
    if hosts is not None:
        return hosts
    if errors:
        raise HostlistError(f'{errors[0]} in "{text}"')
    if re.search(r"\[[^\]]*\Z", text):
        raise HostlistError(f'unbalanced "[" in "{text}"')
    raise HostlistError(f'more than {MAX_PREFIX_CNT:,} prefixes in "{text}"')


def compress_machines(
    nodes: Sequence[tuple[Any, ...]],
) -> list[dict[str, Any]]:
    """``[[machines]]`` entries for nodes ``(name, cpus, memory, partitions[, gres])``
    (``gres``: ``(("gres/gpu:a100", 2), ...)``, added to the attributes), in their order.

    A run ``p001 … pNNN`` of identical nodes (the names ``[[machines]]`` gives ``count``
    machines named ``p``) becomes one entry with ``count``, unless a node is named ``p``
    (or ``p`` is empty: ``001``), which would name two entries alike. Other nodes keep
    their names in ``hosts`` (an entry without it would name its machine ``cn0001001``),
    the identical ones next to each other in one entry, named after its first node.
    """
    out: list[dict[str, Any]] = []
    names = {node[0] for node in nodes}
    i = 0
    while i < len(nodes):
        name, cpus, memory, parts, *more = nodes[i]
        run = _numbered_run(nodes, i)
        prefix = re.sub(r"\d+\Z", "", name)
        if run > 1 and prefix and prefix not in names:
            entry: dict[str, Any] = {"name": prefix, "count": run}
        else:
            run = 1
            while i + run < len(nodes) and _numbered_run(nodes, i + run) <= 1:
                if tuple(nodes[i + run][1:]) != tuple(nodes[i][1:]):
                    break
                run += 1
            entry = {"name": name, "hosts": [node[0] for node in nodes[i : i + run]]}
        entry["attributes"] = {"Cpus": cpus, "Memory": memory, **dict(more[0] if more else ())}
        entry["partitions"] = list(parts)
        out.append(entry)
        i += run
    return out


def _numbered_run(nodes: Sequence[tuple[Any, ...]], i: int) -> int:
    """How many nodes from ``i`` are ``prefix001, prefix002, …`` with equal attributes."""
    m = re.fullmatch(r"(.*?)(\d+)", nodes[i][0])
    if m is None or int(m.group(2)) != 1:
        return 0
    prefix = m.group(1)
    n = 0
    while i + n < len(nodes):
        name, *rest = nodes[i + n]
        width = max(3, len(str(n + 1)))
        if name != f"{prefix}{n + 1:0{width}d}" or tuple(rest) != tuple(nodes[i][1:]):
            break
        n += 1
    # The width of the names depends on the count: check the last one again.
    while n > 1 and nodes[i + n - 1][0] != f"{prefix}{n:0{max(3, len(str(n)))}d}":
        n -= 1
    return n
