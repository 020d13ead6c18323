"""What the decay thread charges one association, pass by pass, and its fold.

At each decay pass Slurm multiplies every ``usage_raw`` by ``d^Δ`` (``_apply_decay``), then
adds each running job's ``δ · d^δ · billable · usage_factor`` for the seconds since the
previous pass (``_apply_new_usage``; with limits enforced a job's last part is added when
it ends, ``priority_p_job_end``). Two associations charged the same amounts at the same
passes therefore get the same ``usage_raw`` (the same operations on the same numbers),
and Fair Tree, which compares ``level_fs`` with ``==``, ties them
(``_count_tied_accounts``, ``_calc_tree_fs`` in ``fair_tree.c``).

So a job's charge is not summed on its own and then added: it is split into what it adds
at each pass (:class:`Ledger`: the full periods as a rate from one pass to another, the
partial first period and the end as amounts at a pass), and an association's usage folds
the passes in order. What a pass adds depends only on what was charged at it (the exact
sum of the rates running a full period there, partial amounts summed with ``fsum``), not on
how the work was cut into jobs or in which order they were read: five 300-second jobs run
back to back and one 1,500-second job charge equal passes and get bit-identical usage.
A run of passes adding the same amount ``C`` folds at once as
``u · d^(nP) + C · (1 + q + … + q^(n-1))`` with ``q = d^P``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fairshare_cli.core.slurm.pass_grid import PassGrid, UsageKey, real_decay

if TYPE_CHECKING:
    from fractions import Fraction


def exact_rate(rate: float) -> int | Fraction:
    """A rate, exactly: whole CPU counts (the usual rate) as ints, exact and much cheaper
    than a Fraction (``fractions`` imported on the first other rate: a view that charges
    nothing never pays for it)."""
    if rate.is_integer():
        return int(rate)
    from fractions import Fraction

    return Fraction(rate)


@dataclass
class Ledger:
    """What one association is charged at each pass ``k`` (the pass at anchor + k·period).

    Attributes:
        rates: the change, from pass ``k`` on, of the rate charged a full period per pass
            (exact, so a rate that stops and one that starts at the same pass cancel).
        extras: amounts charged at pass ``k`` besides the full periods (a job's first,
            partial period; with ``charge_job_end``, its part after the last pass before
            its end, which the next pass decays): floats whose exact sum is the pass's,
            which ``math.fsum`` rounds (the amounts as charged, or fewer partials of the
            same exact sum once a pass holds :data:`COMPACT_AT` of them).
    """

    rates: dict[int, int | Fraction] = field(default_factory=dict)
    extras: dict[int, list[float]] = field(default_factory=dict)

    def add_rate(self, first: int, last: int, rate: float) -> None:
        exact = exact_rate(rate)
        rates = self.rates
        get = rates.get
        rates[first] = get(first, 0) + exact
        last += 1
        rates[last] = get(last, 0) - exact

    def add_extra(self, k: int, amount: float) -> None:
        """Add ``amount`` to pass ``k``'s exact sum: ``fsum`` of the pass's floats is then
        the correctly rounded sum of every amount charged there, whatever their order.

        The amounts are kept as they come (an append) until a pass holds
        :data:`COMPACT_AT`, then replaced by the non-overlapping partials of their exact
        sum (:func:`partials`), so a pass holds a few dozen floats however many jobs it has.
        """
        amounts = self.extras.get(k)
        if amounts is None:
            self.extras[k] = [amount]
            return
        add_exact(amounts, amount)


#: How many amounts a pass holds before they are compacted to partials (:meth:`Ledger.add_extra`).
COMPACT_AT = 64


def add_exact(amounts: list[float], amount: float) -> None:
    """Add ``amount`` to ``amounts``, floats whose exact sum ``math.fsum`` rounds: appended,
    the list first compacted to the :func:`partials` of its exact sum once it holds
    :data:`COMPACT_AT` (:meth:`Ledger.add_extra`)."""
    if len(amounts) >= COMPACT_AT:
        amounts[:] = partials(amounts)
    amounts.append(amount)


def partials(amounts: Iterable[float]) -> list[float]:
    """The non-overlapping partials of the exact sum of ``amounts`` (Shewchuk's ``msum``,
    what ``math.fsum`` rounds): their exact sum is the amounts' (finite floats)."""
    out: list[float] = []
    for x in amounts:
        i = 0
        for y in out:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                out[i] = lo
                i += 1
            x = hi
        out[i:] = [x]
    return out


#: ``real_decay``'s floor (C's DBL_MIN).
DBL_MIN = 2.2250738585072014e-308


def _index(grid: PassGrid, t: float) -> int:
    """The index of the last pass at or before ``t``."""
    return math.floor((t - grid.anchor) / grid.period)


def charge(ledger: Ledger, start: float, end: float | None, rate: float, grid: PassGrid) -> None:
    """Add a job's charges to ``ledger``: the passes of :func:`~.usage.charge_at`.

    The passes ``t`` in ``(after, upto]`` (and at or after ``cutoff``, the last reset)
    during which the job ran (``start < t ≤ end``) charge ``Δ · d^Δ · rate`` for the
    seconds since the previous pass; with ``charge_job_end``, a job that ended by ``view``
    is charged its part after the last pass before its end, at that pass.

    The reference for ``fs import history``'s hot loop
    (:meth:`~fairshare_cli.core.slurm.model.SlurmHistorySink.add_batch`), which does the
    same operations in the same order; here :func:`_index`, :func:`~.pass_grid.real_decay`,
    ``max``/``min`` and :meth:`Ledger.add_rate` are written out in place too.
    """
    anchor, period, after, upto = grid.anchor, grid.period, grid.after, grid.upto
    lo = after if after is not None and after > start else start  # max(start, after)
    k_first = math.floor((lo - anchor) / period) + 1
    cutoff = grid.cutoff
    if cutoff is not None:
        k_cut = math.ceil((cutoff - anchor) / period)
        if k_cut > k_first:
            k_first = k_cut
    k_last = math.floor(((end if end is not None and end < upto else upto) - anchor) / period)
    if k_first <= k_last:
        t_first = anchor + k_first * period
        prev = t_first - period
        delta = t_first - (start if start > prev else prev)  # max(prev, start)
        k_full = k_first
        if delta < period:
            if delta <= 0:  # real_decay(factor, delta)
                decay = 1.0
            else:
                decay = grid.factor**delta
                if decay < DBL_MIN:
                    decay = DBL_MIN
            ledger.add_extra(k_first, delta * decay * rate)
            k_full += 1
        if k_full <= k_last:  # ledger.add_rate(k_full, k_last, rate)
            exact = exact_rate(rate)
            rates = ledger.rates
            get = rates.get
            rates[k_full] = get(k_full, 0) + exact
            k_stop = k_last + 1
            rates[k_stop] = get(k_stop, 0) - exact
    if grid.charge_job_end and end is not None:
        charge_end(ledger, start, end, rate, grid)


def charge_end(ledger: Ledger, start: float, end: float, rate: float, grid: PassGrid) -> None:
    """With ``charge_job_end``: a job that ended by ``view`` is charged its part after the
    last pass before its end, at that pass (:func:`charge`)."""
    anchor, period, after, upto, cutoff = (
        grid.anchor,
        grid.period,
        grid.after,
        grid.upto,
        grid.cutoff,
    )
    limit = upto if grid.view is None else max(grid.view, upto)
    if end > limit or (after is not None and end <= after):
        return
    k_prev = _index(grid, end)
    t_prev = anchor + k_prev * period
    if cutoff is not None and t_prev < cutoff:
        return
    delta = end - max(t_prev, start)
    if delta > 0:
        ledger.add_extra(k_prev, delta * real_decay(grid.factor, delta) * rate)


def fold(ledger: Ledger, grid: PassGrid, k_from: int | None, u: float = 0.0) -> float:
    """The usage at pass ``grid.upto``: ``u`` at pass ``k_from`` (after that pass's
    charges), then every later pass decays it and adds its charges.

    ``k_from`` None: from before the first charge (``u`` must be 0).
    """
    period, factor = grid.period, grid.factor
    k_to = _index(grid, grid.upto)
    points = sorted(set(ledger.rates) | set(ledger.extras))
    if k_from is None:
        k_from = (points[0] - 1) if points else k_to
    per = period * real_decay(factor, period)
    rate: int | Fraction = 0
    runs: list[list[float]] = []  # [amount a pass adds, passes in a row]
    k = k_from
    for p in points:
        if p <= k_from:
            rate += ledger.rates.get(p, 0)
            u += math.fsum(ledger.extras.get(p, ())) if p == k_from else 0.0
            continue
        if p > k_to:
            break
        _extend(runs, per * float(rate), p - 1 - k)
        rate += ledger.rates.get(p, 0)
        _extend(runs, math.fsum([per * float(rate), *ledger.extras.get(p, ())]), 1)
        k = p
    _extend(runs, per * float(rate), k_to - k)
    q = real_decay(factor, period)
    done = k_from
    for amount, n in runs:
        count = int(n)
        start = grid.anchor + done * period
        done += count
        u *= real_decay(factor, (grid.anchor + done * period) - start)
        if amount:
            u += amount * (float(count) if q == 1.0 else (1.0 - q**count) / (1.0 - q))
    return u


class Folding:
    """``fold(ledger, grid, None)`` computed as passes become final, so that a ledger
    fed records in start order holds only the passes still open (flat memory).

    :meth:`take` folds (and removes) the ledger's passes before a given one: no later
    charge may fall there. The operations are :func:`fold`'s, in its order: the same
    runs (a run stays open while the next pass may extend it), applied one by one.
    """

    def __init__(self, grid: PassGrid) -> None:
        self.grid = grid
        self.k_to = _index(grid, grid.upto)
        self.q = real_decay(grid.factor, grid.period)
        self.per = grid.period * self.q
        self.k: int | None = None  # the last pass folded (None: none yet)
        self.done = 0  # the pass the usage stands at
        self.rate: int | Fraction = 0
        self.u = 0.0
        self.run: list[float] | None = None  # [amount a pass adds, passes in a row]

    def take(self, ledger: Ledger, below: int | None = None) -> None:
        """Fold the ledger's passes before ``below`` (all when None), in order.

        A measured hot loop (``benchmarks/run.py --rows import``): :meth:`_extend` written
        out in place, on locals (the same runs, the same operations in the same order).
        """
        rates, extras = ledger.rates, ledger.extras
        if below is None:
            points = sorted(rates.keys() | extras.keys())
        else:
            points = sorted({p for p in (*rates, *extras) if p < below})
        k_to, per, fsum, apply = self.k_to, self.per, math.fsum, self._apply
        k, rate, run = self.k, self.rate, self.run
        for p in points:
            change = rates.pop(p, 0)
            partials = extras.pop(p, ())
            if p > k_to:  # (fold stops at upto)
                continue
            if k is None:
                k = self.done = p - 1
            n = p - 1 - k
            if n > 0:  # _extend(per * rate, n)
                amount = per * float(rate)
                if run is not None and run[0] == amount:
                    run[1] += n
                else:
                    if run is not None:
                        apply(*run)
                    run = [amount, float(n)]
            rate += change
            amount = fsum([per * float(rate), *partials])
            if run is not None and run[0] == amount:  # _extend(amount, 1)
                run[1] += 1
            else:
                if run is not None:
                    apply(*run)
                run = [amount, 1.0]
            k = p
        self.k, self.rate, self.run = k, rate, run

    def result(self) -> float:
        """The usage at pass ``grid.upto`` (call once, after the last :meth:`take`)."""
        if self.k is None:
            return self.u
        self._extend(self.per * float(self.rate), self.k_to - self.k)
        if self.run is not None:
            self._apply(*self.run)
            self.run = None
        return self.u

    def _extend(self, amount: float, n: int) -> None:
        if n <= 0:
            return
        run = self.run
        if run is not None and run[0] == amount:
            run[1] += n
            return
        if run is not None:
            self._apply(*run)
        self.run = [amount, float(n)]

    def _apply(self, amount: float, n: float) -> None:
        grid, q = self.grid, self.q
        count = int(n)
        start = grid.anchor + self.done * grid.period
        self.done += count
        self.u *= real_decay(grid.factor, (grid.anchor + self.done * grid.period) - start)
        if amount:
            self.u += amount * (float(count) if q == 1.0 else (1.0 - q**count) / (1.0 - q))


def _extend(runs: list[list[float]], amount: float, n: int) -> None:
    """Append ``n`` passes adding ``amount`` each, merged with the run before if equal."""
    if n <= 0:
        return
    if runs and runs[-1][0] == amount:
        runs[-1][1] += n
    else:
        runs.append([amount, float(n)])


def charged(
    jobs: Iterable[tuple[UsageKey, float, float | None, float]], grid: PassGrid
) -> dict[UsageKey, float]:
    """What ``(key, start, end, rate)`` jobs add to each association by pass ``grid.upto``
    (from before their first pass; add it to the usage stored at that pass)."""
    return {key: fold(ledger, grid, None) for key, ledger in ledgers_of(jobs, grid).items()}


def ledgers_of(
    jobs: Iterable[tuple[UsageKey, float, float | None, float]], grid: PassGrid
) -> dict[UsageKey, Ledger]:
    """The ledger of what ``(key, start, end, rate)`` jobs charge each association on
    ``grid``, pass by pass (not yet folded)."""
    ledgers: dict[UsageKey, Ledger] = {}
    for key, start, end, rate in jobs:
        charge(ledgers.setdefault(key, Ledger()), start, end, rate, grid)
    return ledgers
