"""The latest time a state was brought up to, across the models it holds.

A view at an earlier ``--now`` would print decayed values under an earlier date, and an
edit at an earlier time cannot go back; the command line refuses both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from itertools import repeat
from operator import is_not
from typing import Any

from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.state import State

_PLAIN = frozenset({int, float, type(None)})


def _number(value: Any) -> float | None:
    """A time within the years 1 to 9999, else None (its section's decoder refuses it)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    # (the range refuses NaN and the infinities; an int is compared whole, however long)
    return float(value) if ok and TIME_MIN <= value <= TIME_MAX else None


def _record_times(bodies: Iterable[Any]) -> Iterator[float | None]:
    """``_number`` of each record body's ``last_update`` (bodies that are not objects
    skipped), the latest first when it can tell so at column speed.

    The fast pass (``benchmarks/run.py --rows userprio``: 20,000 records) reads the column
    with C loops when every body is a plain dict and every value an int, a float or None,
    none NaN and all within the years 1 to 9999: then the latest is ``max`` of them, the
    same value the per-record pass finds (``float`` is monotonic). Anything else takes the
    per-record pass.
    """
    bodies = list(bodies)
    if set(map(type, bodies)) <= {dict}:
        column: list[Any] = list(map(dict.get, bodies, repeat("last_update")))
        if set(map(type, column)) <= _PLAIN:
            present: list[float] = list(filter(partial(is_not, None), column))
            if not present:
                return
            try:
                nan = any(map(math.isnan, present))
            except OverflowError:  # a whole number beyond any float: the per-record pass
                nan = True
            if not nan:
                low, high = min(present), max(present)
                if low >= TIME_MIN and high <= TIME_MAX:
                    yield float(high)
                    return
    for body in bodies:  # the accountant's LastUpdateTime
        if isinstance(body, Mapping):
            yield _number(body.get("last_update"))


def _times(state: State) -> Iterator[float | None]:
    accountant = state.section("accountant")
    if isinstance(accountant, Mapping) and isinstance(accountant.get("records"), Mapping):
        yield from _record_times(accountant["records"].values())
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
