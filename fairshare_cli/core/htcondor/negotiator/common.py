"""Numbers and small helpers that every part of a negotiation cycle shares."""

from __future__ import annotations

import math
import sys

from fairshare_cli.core.float32 import float32 as c_float32
from fairshare_cli.core.limits import INT64_MAX

INT_MAX = float(2**31 - 1)
DBL_MAX = sys.float_info.max
#: A candidate slot's preemption state, in ``matchmakingAlgorithm``'s order of preference.
NO_PREEMPTION, RANK_PREEMPTION, PRIO_PREEMPTION = 2, 1, 0
REASON_NAMES = {
    NO_PREEMPTION: "no_preemption",
    RANK_PREEMPTION: "rank",
    PRIO_PREEMPTION: "priority",
}

Number = int | float

#: ``a OP b`` is ``b FLIP[OP] a``.
FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
INF = math.inf


def float32(x: float) -> float:
    """A negotiator rank or priority as HTCondor's C ``float`` holds it
    (:func:`fairshare_cli.core.float32.float32`); NaN, which a C sort cannot place,
    ranks lowest."""
    if math.isnan(x):
        return -math.inf
    return c_float32(x)


def match_rank(value: object) -> float:
    """A negotiator rank as ``Matchmaker::EvalNegotiatorMatchRank`` keeps it: a ClassAd
    number (a boolean counts as 0 or 1) cast to a C ``float``; anything else ``-DBL_MAX``."""
    if value is True:
        return 1.0
    if value is False:
        return 0.0
    if type(value) in (int, float):
        return float32(value)  # type: ignore[arg-type]
    return -DBL_MAX


def split_id(job_id: str) -> tuple[int | str, int | str]:
    """``"12.3"`` -> ``(12, 3)``; parts that are not whole numbers stay strings, as do those
    a ClassAd integer cannot hold (beyond 64 bits: the job's ad would fail on ``ClusterId``)."""
    cluster, _, proc = job_id.partition(".")
    # ascii_digits written out: called per job of a negotiation (benchmarks row
    # negotiate-batches)
    c: int | str = int(cluster) if cluster.isdigit() and cluster.isascii() else cluster
    p: int | str = int(proc) if proc.isdigit() and proc.isascii() else proc
    if c.__class__ is int and c > INT64_MAX:
        c = cluster
    if p.__class__ is int and p > INT64_MAX:
        p = proc
    return c, p


def id_key(job_id: str) -> tuple[tuple[int, int | str], tuple[int, int | str]]:
    """A sort key for job ids: numbers in numeric order, before any text."""
    cluster, _, proc = job_id.partition(".")
    # the common case written out: called per idle batch (benchmarks row negotiate-separate)
    if cluster.isdigit() and proc.isdigit() and cluster.isascii() and proc.isascii():
        return (0, int(cluster)), (0, int(proc))
    c, p = split_id(job_id)
    return ((0, c) if isinstance(c, int) else (1, c)), ((0, p) if isinstance(p, int) else (1, p))


def compare(a: Number, op: str, b: Number) -> bool:
    """A ClassAd relational comparison of two numbers (int against real compares as reals)."""
    if type(a) is not type(b):
        a, b = float(a), float(b)
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "<":
        return a < b
    return a <= b


def number(value: object) -> Number | None:
    """``value`` when it is a ClassAd integer or real, else None."""
    return value if type(value) in (int, float) else None  # type: ignore[return-value]
