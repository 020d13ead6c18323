"""The decay passes a Slurm usage charge is counted over, and the decay between them.

Shared by :mod:`.usage` (an association's stored usage and its views) and :mod:`.passes`
(what each pass charges an association, and its fold).
"""

from __future__ import annotations

import math

import msgspec

UsageKey = tuple[str, str]  # (account, user)


def decay_factor(halflife: float) -> float:
    """``decay_factor = 1 - 0.693 / PriorityDecayHalfLife`` (linearised ln 2); 1 for 0/inf."""
    if halflife <= 0 or math.isinf(halflife):
        return 1.0
    return 1.0 - 0.693 / halflife


def real_decay(factor: float, seconds: float) -> float:
    """``pow(decay_factor, seconds)`` floored at DBL_MIN as the decay thread does."""
    if seconds <= 0:
        return 1.0
    value: float = factor**seconds
    return max(value, 2.2250738585072014e-308)


class PassGrid(msgspec.Struct, frozen=True):
    """The decay passes a charge is counted over, and when it is looked at.

    Attributes:
        anchor: a pass time; passes fall every ``period`` seconds from it.
        period: ``PriorityCalcPeriod`` in seconds.
        factor: the per-second decay factor.
        upto: the pass the charge is wanted at.
        after: only passes after this one count (those before are in the stored usage).
        cutoff: only passes at or after the last usage reset count.
        charge_job_end: charge the part after the last pass when the job ends.
        view: the moment looked at (a job ending by then has its end charged).
    """

    anchor: float
    period: float
    factor: float
    upto: float
    after: float | None = None
    cutoff: float | None = None
    charge_job_end: bool = False
    view: float | None = None
