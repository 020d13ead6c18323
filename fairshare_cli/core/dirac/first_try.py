"""The chance that a pilot tries each task queue first (``matchAndGetJob``'s selection).

``TaskQueueDB.matchAndGetJob`` orders the matching queues by ``RAND() / Priority``; this is a
weighted random order, not proportional sampling. Pure: no I/O.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from itertools import repeat
from operator import mul, sub


def first_try_probabilities(priorities: Sequence[float], nodes: int = 24) -> list[float]:
    """Chance that each queue comes first in ``ORDER BY RAND() / Priority ASC``.

    With U_i uniform on (0, 1) per queue, queue i is first when U_i/P_i is the smallest key.
    With r_j = P_j / max P this is ``r_i ∫_0^1 Π_{j≠i} (1 - r_j t) dt``, a polynomial
    integral computed with Gauss-Legendre quadrature on panels that follow the integrand's
    roughly ``exp(-t Σ r_j)`` decay (exact for up to ``2·nodes`` queues). Equal priorities are
    evaluated once. For two queues P1 >= P2 it is ``1 - P2/(2 P1)`` for the first.

    Args:
        priorities: the queues' stored priorities (all > 0).
        nodes: Gauss-Legendre points per panel.

    Returns:
        One probability per queue, in the order given; they sum to 1.
    """
    if not priorities:
        return []
    top = max(priorities)
    multiplicity: dict[float, int] = {}
    for p in priorities:
        multiplicity[p] = multiplicity.get(p, 0) + 1
    ratios = [(p / top, m) for p, m in multiplicity.items()]
    total = sum(r * m for r, m in ratios)
    degree = len(priorities) - 1
    points = _panel_points(total, degree, nodes)
    # (each sum and product as written: -r·t, log1p, m·log, summed in order; mapped in C)
    neg = [-r for r, _ in ratios]
    counts = [m for _, m in ratios]
    log_product = [
        sum(map(mul, counts, map(math.log1p, map(mul, neg, repeat(t))))) for t, _ in points
    ]
    ts = [t for t, _ in points]
    ws = [w for _, w in points]
    chance: dict[float, float] = {}
    for p, (r, _) in zip(multiplicity, ratios, strict=True):
        # w · exp(lp - log1p(-r·t)) over the points
        logs = map(math.log1p, map(mul, repeat(-r), ts))
        chance[p] = r * math.fsum(map(mul, ws, map(math.exp, map(sub, log_product, logs))))
    return [chance[p] for p in priorities]


def _panel_points(total: float, degree: int, nodes: int) -> list[tuple[float, float]]:
    """Quadrature points and weights over [0, 1] for ``Π (1 - r_j t)`` with ``Σ r_j = total``."""
    base = _gauss_legendre(nodes)
    if degree < 2 * nodes:
        edges = [0.0, 1.0]
    else:
        # The product is at most exp(-total·t); past t = 80/total it is negligible.
        upper = min(1.0, 80.0 / total)
        edges = [0.0]
        step = 1.0 / total
        while step < upper:
            edges.append(step)
            step *= 2.0
        edges.append(upper)
    points: list[tuple[float, float]] = []
    for a, b in itertools.pairwise(edges):
        half = (b - a) / 2.0
        mid = (a + b) / 2.0
        points.extend((mid + half * x, half * w) for x, w in base)
    return points


_GL_CACHE: dict[int, list[tuple[float, float]]] = {}


def _gauss_legendre(n: int) -> list[tuple[float, float]]:
    """Gauss-Legendre nodes and weights on [-1, 1] (Newton iteration on P_n)."""
    cached = _GL_CACHE.get(n)
    if cached is not None:
        return cached
    result: list[tuple[float, float]] = []
    for k in range(1, n + 1):
        x = math.cos(math.pi * (k - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for j in range(2, n + 1):
                p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
            dp = n * (x * p1 - p0) / (x * x - 1.0)
            dx = p1 / dp
            x -= dx
            if abs(dx) < 1e-16:
                break
        p0, p1 = 1.0, x
        for j in range(2, n + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        dp = n * (x * p1 - p0) / (x * x - 1.0)
        result.append((x, 2.0 / ((1.0 - x * x) * dp * dp)))
    _GL_CACHE[n] = result
    return result
