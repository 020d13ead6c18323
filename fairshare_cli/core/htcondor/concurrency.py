"""Concurrency limits: the job's ``ConcurrencyLimits`` against the accountant's counts.

Mirrors ``ParseConcurrencyLimit`` (``src/condor_utils/NegotiationUtils.cpp``),
``Accountant::GetLimitMax``/``LoadLimits``/``IncrementLimits`` and
``Matchmaker::rejectForConcurrencyLimits`` (``src/condor_negotiator.V6``): the string is
lower-cased and split on commas and white space; each token is ``name`` or
``name:amount`` (an amount of 0 or less, or not a number at all, counts 1; ``nan``, which
``strtod`` reads, stays NaN, and a count it joins is NaN, which no maximum refuses, not
even a negative count's check: that limit is unlimited until the counts are made
afresh); a name is an attribute name, or two joined by one dot (a sub-limit), and tokens
with any other name are ignored. A limit's maximum is ``NAME_LIMIT``, else, for a
sub-limit ``scope.name``, ``CONCURRENCY_LIMIT_DEFAULT_<scope>`` (the part before the last
dot), else ``CONCURRENCY_LIMIT_DEFAULT`` (2308032).
Claims already running count against their limits; each match adds to them (preempting a
claim does not give its limits back within the cycle: the accountant never decrements).
A job is refused when any of its limits would go over its maximum.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor.classads import Evaluator
from fairshare_cli.errors import InputError

#: ``CONCURRENCY_LIMIT_DEFAULT``'s default (``Accountant::GetLimitMax``).
DEFAULT_LIMIT_MAX = 2308032.0

_SPLIT = re.compile(r"[,\s]+")
_ATTR = re.compile(r"[a-z_][a-z0-9_]*\Z")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|inf|nan)")
#: C99 ``strtod``'s hexadecimal form (``0x1p-1`` = 0.5), lower-cased as the limits are.
_HEX_PREFIX = re.compile(r"\s*[+-]?0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?")

#: A job's limits: (lower-cased name, increment) for each valid token, in order.
Limits = tuple[tuple[str, float], ...]


def _strtod(text: str) -> float:
    """C ``strtod``: the longest number at the start of ``text``, decimal or hexadecimal,
    else 0."""
    hexadecimal = _HEX_PREFIX.match(text)
    if hexadecimal:
        try:
            return float.fromhex(hexadecimal.group(0).strip())
        except OverflowError:  # (beyond a double: HUGE_VAL)
            return -math.inf if hexadecimal.group(0).strip().startswith("-") else math.inf
    m = _FLOAT_PREFIX.match(text)
    return float(m.group(0)) if m else 0.0


def parse_limits(text: str) -> Limits:
    """The valid tokens of a ``ConcurrencyLimits`` string (``ParseConcurrencyLimit``)."""
    out: list[tuple[str, float]] = []
    for token in _SPLIT.split(text.lower()):
        if not token:
            continue
        name, sep, amount = token.partition(":")
        increment = _strtod(amount) if sep else 1.0
        if increment <= 0:  # (NaN is kept: no comparison with it holds)
            increment = 1.0
        if all(_ATTR.match(part) for part in name.split(".", 1)):
            out.append((name, increment))
    return tuple(out)


class LimitCounts:
    """The accountant's concurrency-limit counts and maxima for one cycle."""

    __slots__ = ("counts", "default", "maxima", "scopes")

    def __init__(
        self,
        maxima: Mapping[str, float],
        default: float,
        scopes: Mapping[str, float] | None = None,
    ) -> None:
        self.maxima = {k.lower(): float(v) for k, v in maxima.items()}
        self.default = default
        self.scopes = {k.lower(): float(v) for k, v in (scopes or {}).items()}
        self.counts: dict[str, float] = {}

    def maximum(self, name: str) -> float:
        """``Accountant::GetLimitMax``: ``NAME_LIMIT``, else the scope's default (the part
        of the name before its last dot), else ``CONCURRENCY_LIMIT_DEFAULT``."""
        found = self.maxima.get(name)
        if found is not None:
            return found
        scope, dot, _ = name.rpartition(".")
        if dot and self.scopes:
            return self.scopes.get(scope, self.default)
        return self.default

    def add(self, limits: Limits) -> None:
        """``IncrementLimits``: a claim or a match holds these limits."""
        counts = self.counts
        for name, inc in limits:
            counts[name] = counts.get(name, 0.0) + inc

    def refuses(self, limits: Limits) -> bool:
        """``rejectForConcurrencyLimits``: some limit would go over its maximum."""
        counts = self.counts
        for name, inc in limits:
            count = counts.get(name, 0.0)
            if count < 0 or count + inc > self.maximum(name):
                return True
        return False


def reported_limits(texts: Iterable[str], seen: Iterable[str] = ()) -> dict[str, float]:
    """The ``ConcurrencyLimit_<name>`` attributes of the negotiator's one ad
    (``Accountant::ReportLimits``): each limit the claims hold, summed (``LoadLimits``:
    each claimed slot's ``ConcurrencyLimits``), and each name of ``seen`` at 0 (the
    accountant's map keeps a limit once counted: ``ClearLimits`` zeroes it, never drops
    it); a dot in a name is written ``_``; of two names that then meet, the later in name
    order wins, as its ``std::map`` assigns them.
    """
    counts: dict[str, float] = dict.fromkeys(seen, 0.0)
    for text in texts:
        for name, inc in parse_limits(text):
            counts[name] = counts.get(name, 0.0) + inc
    return {f"ConcurrencyLimit_{name.replace('.', '_')}": counts[name] for name in sorted(counts)}


def limit_expr_refs(ev: Evaluator, idle: Iterable[JobBatch], names: frozenset[str]) -> set[str]:
    """What the idle jobs' ``ConcurrencyLimits`` expressions read (they split slot classes
    and autoclusters as matching expressions do).

    Raises:
        InputError: one does not parse.
    """
    refs: set[str] = set()
    for text in {b.job.concurrency_limits_expr for b in idle} - {None}:
        assert text is not None
        c = ev.compile(text, names, "job concurrency_limits_expr", InputError)
        refs.update(c.my_refs)
        refs.update(c.target_refs)
    return refs
