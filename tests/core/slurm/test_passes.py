"""Usage charged pass by pass: equal work at the same passes gives bit-identical usage.

Slurm's decay thread applies the same operations to two associations charged the same
amounts at the same passes (``_apply_decay``, then ``_apply_new_usage`` per job), so their
``usage_raw`` are equal and Fair Tree ties them; how the work was cut into jobs, and in
which order the jobs are read, must not break that tie by a rounding.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.pass_grid import PassGrid, decay_factor
from fairshare_cli.core.slurm.passes import Ledger, charged
from fairshare_cli.core.slurm.usage import (
    DecayParams,
    RunningCharge,
    SlurmUsage,
    advance,
    charge_at,
    record_charge,
    record_grid,
)


def _t(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


def test_an_imported_job_that_ended_is_charged_its_end_with_limits_enforced() -> None:
    """4 CPUs from 23:09:01 to 23:16:01, passes every minute at :20, half-life 10 minutes,
    imported at the pass of 23:19:20 with limits enforced (``priority_p_job_end``).

    The passes from 23:09:20 to 23:15:20 charge it (19 s, then six full minutes; the
    pass of 23:16:20 comes after its end), each decaying to 23:19:20; its end charges the
    41 s after 23:15:20, ``41 · d^41 · 4``, which decays as if charged at 23:15:20 (the
    next pass decays it over the whole minute), four minutes to 23:19:20. ``charge_at`` on a grid anchored before the
    job gives the same total (the import's grid is anchored at its last pass, after it).
    """
    d = decay_factor(600)
    p = DecayParams(halflife=600, calc_period=60, charge_job_end=True)
    t = _t("2026-11-21T23:19:20")
    start, end = _t("2026-11-21T23:09:01"), _t("2026-11-21T23:16:01")
    got = record_charge(t, None, start, end, 4.0, t, p)
    passes = 19 * d**19 * 4 * d ** (9 * 60 + 60) + sum(
        60 * d**60 * 4 * d ** (60 * m) for m in range(4, 10)
    )
    want = passes + 41 * d**41 * 4 * d ** (4 * 60)
    assert got == pytest.approx(want, rel=1e-12)
    grid = PassGrid(_t("2026-11-21T23:08:20"), 60, d, t, charge_job_end=True)
    assert got == pytest.approx(charge_at(start, end, 4.0, grid), rel=1e-12)
    without = record_charge(t, None, start, end, 4.0, t, DecayParams(halflife=600, calc_period=60))
    assert got - without == pytest.approx(41 * d**41 * 4 * d ** (4 * 60), rel=1e-9)


PERIOD = 300.0
T0 = 1_795_262_400.0  # on a pass


@settings(max_examples=80, deadline=None)
@given(
    passes=st.integers(1, 30),
    cuts=st.sets(st.integers(1, 29), max_size=8),
    offset=st.sampled_from([0.0, 7.0, 150.0]),
    rate=st.sampled_from([1.0, 2.0, 3.0, 0.5, 0.1]),
    halflife=st.sampled_from([600.0, 7200.0, 604800.0, 0.0]),
    step=st.integers(1, 4),
    tail=st.sampled_from([0.0, 120.0]),
    end_charge=st.booleans(),
)
def test_equal_work_cut_into_jobs_gives_bit_identical_usage(
    passes: int,
    cuts: set[int],
    offset: float,
    rate: float,
    halflife: float,
    step: int,
    tail: float,
    end_charge: bool,
) -> None:
    """User a runs back-to-back jobs cut at passes, user c one job over the same time:
    imported in any order, or advanced every ``step`` passes, their usage is equal."""
    params = DecayParams(halflife=halflife, calc_period=PERIOD, charge_job_end=end_charge)
    start = T0 + offset
    end = T0 + passes * PERIOD + tail
    bounds = [start] + [T0 + k * PERIOD for k in sorted(cuts) if k < passes] + [end]
    pieces = list(itertools.pairwise(bounds))
    now = T0 + (passes + 2) * PERIOD
    jobs = [(("x", "a"), lo, hi, rate) for lo, hi in pieces] + [(("x", "c"), start, end, rate)]
    grid = record_grid(now, None, now, params)
    for order in (jobs, jobs[::-1]):
        got = charged(order, grid)
        assert got[("x", "a")] == got[("x", "c")]
    # the simulation's path: the state advanced pass group by pass group
    running = tuple(
        RunningCharge(key[0], key[1], r, lo, hi, f"{key[1]}{i}")
        for i, (key, lo, hi, r) in enumerate(jobs)
    )
    state = SlurmUsage(last_decay_ran=T0 - PERIOD, running=running)
    t = T0
    while t <= now:
        state = advance(state, t, params)
        assert state.usage.get(("x", "a"), 0.0) == state.usage.get(("x", "c"), 0.0), t
        t += step * PERIOD
    grid = PassGrid(T0, PERIOD, params.factor, now, charge_job_end=end_charge, view=now)
    single = charge_at(start, end, rate, grid)
    assert charged(jobs, grid)[("x", "c")] == pytest.approx(single, rel=1e-12, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    amounts=st.lists(st.floats(min_value=0, max_value=1e12), min_size=1, max_size=40),
    seed=st.randoms(use_true_random=False),
)
def test_a_pass_sums_its_charges_exactly_in_any_order(amounts: list[float], seed: Any) -> None:
    """What a pass adds is the correctly rounded sum of its jobs' amounts (``fsum``),
    whatever order the jobs come in."""
    shuffled = list(amounts)
    seed.shuffle(shuffled)
    one, two = Ledger(), Ledger()
    for x in amounts:
        one.add_extra(3, x)
    for x in shuffled:
        two.add_extra(3, x)
    assert math.fsum(one.extras[3]) == math.fsum(two.extras[3]) == math.fsum(amounts)
    assert len(one.extras[3]) <= len(amounts)


_JOBS = st.lists(
    st.tuples(
        st.integers(0, 3000),  # start, seconds after the grid's first pass
        st.one_of(st.none(), st.integers(0, 2000)),  # run time (None: still running)
        st.sampled_from([0.0, 1.0, 2.0, 0.5, 3.0, 8.0]),  # rate
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(_JOBS, st.booleans(), st.sampled_from([None, 0.0, 1200.0]), st.integers(1, 6))
def test_folding_as_passes_close_is_fold(
    jobs: list[tuple[int, int | None, float]],
    charge_job_end: bool,
    cutoff: float | None,
    every: int,
) -> None:
    """Folding a ledger's passes as records come in start order (every ``every`` jobs,
    the passes before the latest start) gives fold's usage bit for bit: the same runs,
    applied in the same order."""
    from fairshare_cli.core.slurm.passes import Folding, charge, fold

    anchor = 1.0e9
    grid = PassGrid(
        anchor, 60.0, decay_factor(600), anchor + 2400.0, None, cutoff, charge_job_end, None
    )
    jobs = sorted(jobs, key=lambda j: j[0])
    whole, part = Ledger(), Ledger()
    folding = Folding(grid)
    for n, (start, run, rate) in enumerate(jobs, 1):
        t0 = anchor + start - 100.0
        t1 = None if run is None else t0 + run
        charge(whole, t0, t1, rate, grid)
        charge(part, t0, t1, rate, grid)
        if n % every == 0:
            folding.take(part, math.floor((t0 - anchor) / grid.period))
    folding.take(part)
    assert not part.rates and not part.extras
    assert folding.result() == fold(whole, grid, None)
