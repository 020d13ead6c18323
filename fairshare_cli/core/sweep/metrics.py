"""How fair and how fast a simulated policy was: the formulas of ``fs sweep``'s metrics.

Plain numbers in, plain numbers out (docs/sweep.md gives each formula):

- achieved share of an entity: its slots summed over the cycles, over every entity's;
- entitled share: its weight (quota, priority factor's inverse, Slurm shares) over all;
- share error: the mean over entities of |achieved − entitled|;
- Jain's fairness index of x = achieved / entitled: (Σx)² / (n·Σx²), 1 when every entity
  got what it was entitled to, 1/n when one got everything;
- waits (submit to start): mean and the 95th percentile by nearest rank (the smallest
  wait with at least 95 % of the waits at or below it);
- utilisation: slots in use summed over the cycles, over the pool's slots summed likewise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def shares(totals: Mapping[str, float]) -> dict[str, float]:
    """Each entity's fraction of the total (all 0 when the total is 0)."""
    whole = math.fsum(totals.values())
    return {name: (value / whole if whole > 0 else 0.0) for name, value in totals.items()}


def share_error(achieved: Mapping[str, float], entitled: Mapping[str, float]) -> float:
    """Mean absolute share error over the entities of either map (a missing one is 0)."""
    names = sorted(set(achieved) | set(entitled))
    if not names:
        return 0.0
    return math.fsum(abs(achieved.get(n, 0.0) - entitled.get(n, 0.0)) for n in names) / len(names)


def jain_index(achieved: Mapping[str, float], entitled: Mapping[str, float]) -> float | None:
    """Jain's fairness index of achieved / entitled over the entities entitled to a share
    (None when there are none, or none achieved anything)."""
    ratios = [achieved.get(n, 0.0) / e for n, e in sorted(entitled.items()) if e > 0]
    top = max(ratios, default=0.0)
    if not 0 < top < math.inf:
        return None
    scaled = [x / top for x in ratios]  # the index is scale-free; this keeps x² finite
    return math.fsum(scaled) ** 2 / (len(scaled) * math.fsum(x * x for x in scaled))


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile: the ⌈fraction·n⌉-th smallest value (None if empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(math.ceil(fraction * len(ordered) - 1e-9), 1)
    return ordered[rank - 1]


def mean(values: Sequence[float]) -> float | None:
    """The arithmetic mean (None if empty)."""
    return math.fsum(values) / len(values) if values else None


def utilization(in_use: Sequence[float], capacity: Sequence[float]) -> float | None:
    """Slots in use over the pool's slots, each summed over the cycles (None: no slots)."""
    whole = math.fsum(capacity)
    return math.fsum(in_use) / whole if whole > 0 else None
