"""Slurm host lists (``n[001-100]``, ``a[1-3,7],b01``) and nodes as ``[[machines]]``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

#: More hosts than this in one list is a typo (``n[1-100000000]``), not a cluster.
MAX_HOSTS = 1_000_000


class HostlistError(ValueError):
    """A host list Slurm would not read."""


def _split_top(text: str) -> list[str]:
    """Split at commas outside brackets."""
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise HostlistError(f'unbalanced "]" in "{text}"')
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if depth:
        raise HostlistError(f'unbalanced "[" in "{text}"')
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _ranges(body: str, text: str) -> list[str]:
    out: list[str] = []
    for item in body.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", item.strip())
        if m is None:
            raise HostlistError(f'expected numbers or ranges like 001-100 in "{text}"')
        lo, hi = m.group(1), m.group(2) or m.group(1)
        if int(hi) < int(lo):
            raise HostlistError(f'range {item} goes down in "{text}"')
        if int(hi) - int(lo) > MAX_HOSTS:
            raise HostlistError(f'range {item} has more than {MAX_HOSTS:,} hosts in "{text}"')
        width = len(lo)
        out.extend(f"{n:0{width}d}" for n in range(int(lo), int(hi) + 1))
    return out


def expand_hostlist(text: str) -> list[str]:
    """Every host name of a Slurm host list, in order.

    Raises:
        HostlistError: unbalanced brackets or a bad range.
    """
    hosts: list[str] = []
    for part in _split_top(text):
        m = re.match(r"([^\[]*)\[([^\]]*)\](.*)\Z", part)
        if m is None:
            hosts.append(part)
            continue
        prefix, body, rest = m.groups()
        tails = expand_hostlist(rest) if "[" in rest else [rest]
        for number in _ranges(body, part):
            hosts.extend(prefix + number + tail for tail in tails)
        if len(hosts) > MAX_HOSTS:
            raise HostlistError(f'more than {MAX_HOSTS:,} hosts in "{text}"')
    return hosts


def compress_machines(
    nodes: Sequence[tuple[Any, ...]],
) -> list[dict[str, Any]]:
    """``[[machines]]`` entries for nodes ``(name, cpus, memory, partitions[, gres])``
    (``gres``: ``(("gres/gpu:a100", 2), ...)``, added to the attributes).

    A run ``p001 … pNNN`` of identical nodes (the names ``[[machines]]`` gives ``count``
    machines named ``p``) becomes one entry with ``count``, unless a node is named ``p``
    (or ``p`` is empty: ``001``), which would name two entries alike; any other node is an
    entry of its own (one slot with all its CPUs).
    """
    out: list[dict[str, Any]] = []
    names = {node[0] for node in nodes}
    i = 0
    while i < len(nodes):
        name, cpus, memory, parts, *more = nodes[i]
        run = _numbered_run(nodes, i)
        prefix = re.sub(r"\d+\Z", "", name)
        if not prefix or prefix in names:  # (a node of that name: each its own entry)
            run = 0
        entry: dict[str, Any] = {"name": name}
        if run > 1:
            entry = {"name": prefix, "count": run}
        entry["attributes"] = {"Cpus": cpus, "Memory": memory, **dict(more[0] if more else ())}
        entry["partitions"] = list(parts)
        out.append(entry)
        i += max(run, 1)
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
