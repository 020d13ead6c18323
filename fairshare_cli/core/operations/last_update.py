"""The latest time a state was brought up to, across the models it holds.

A view at an earlier ``--now`` would print decayed values under an earlier date, and an
edit at an earlier time cannot go back; the command line refuses both (issue 12 #18).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.state import State


def _number(value: Any) -> float | None:
    """A time within the years 1 to 9999, else None (its section's decoder refuses it)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok and math.isfinite(value) and TIME_MIN <= value <= TIME_MAX else None


def _times(state: State) -> Iterator[float | None]:
    accountant = state.section("accountant")
    if isinstance(accountant, Mapping) and isinstance(accountant.get("records"), Mapping):
        for body in accountant["records"].values():  # the accountant's LastUpdateTime
            if isinstance(body, Mapping):
                yield _number(body.get("last_update"))
    slurm = state.section("slurm")
    if isinstance(slurm, Mapping):  # the decay thread's last pass
        yield _number(slurm.get("last_decay_ran"))
    negotiator = state.section("negotiator")
    if isinstance(negotiator, Mapping):  # the last committed cycle
        yield _number(negotiator.get("last_cycle"))


def state_last_update(state: State) -> float | None:
    """The latest update any model in ``state`` records (None for a state never updated).

    Malformed sections are skipped here: their own decoders report them.
    """
    times = [t for t in _times(state) if t is not None]
    return max(times) if times else None
