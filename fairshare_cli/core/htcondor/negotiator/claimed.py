"""Claimed candidates of an autocluster, and the lazily filtered view one submitter takes.

A job may preempt a claimed slot when the machine ranks it above the job it runs (machine
rank preemption) or, for priority preemption, when ``PREEMPTION_REQUIREMENTS`` allows its
submitter (``matchmakingAlgorithm``). The candidates are sorted once per autocluster; a
submitter's scan then skips, in logarithmic time, the entries it can never take: used-up
classes (a union-find) and entries that fail a :class:`Bound` (a segment tree per bound,
found by :mod:`.preemption`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.negotiator.common import (
    FLIP,
    INF,
    PRIO_PREEMPTION,
    RANK_PREEMPTION,
    Number,
    compare,
)
from fairshare_cli.core.htcondor.negotiator.slots import SlotClass

#: A claimed candidate: (rank key, slot class, preemption state).
Entry = tuple[tuple[float, ...], SlotClass, int]


@dataclass
class Bound:
    """A necessary condition for priority preemption: ``slot value OP job value``.

    From a top-level ``&&`` operand of ``PREEMPTION_REQUIREMENTS`` comparing an expression
    of the slot alone with one of the job alone (``RemoteUserPrio > SubmitterUserPrio *
    1.2``), or from 7.x's hard-coded ``remote EUP >= submitter EUP + 0.5``. When the two
    sides are numbers and the comparison is false, the operand is false and so is the
    whole conjunction: the pair needs no evaluation. Anything else (undefined, strings)
    proves nothing and the pair is evaluated in full.

    Attributes:
        op: the comparison, slot side on the left.
        job_expr: the job side, compiled in the slot's scope (None: the submitter's EUP
            + 0.5, the 7.x rule).
        slot_ad: an ad to evaluate ``job_expr`` with as ``MY`` (it reads only TARGET).
        slot_values: claimed class index -> the slot side's value (None: not a number).
    """

    op: str
    job_expr: Compiled | None
    slot_ad: Ad | None
    slot_values: dict[int, Number | None]


class ClaimedList:
    """Claimed candidates of one autocluster, best first, with why others were left out.

    ``bound_trees`` caches, per :class:`Bound`, a segment tree of the slot values in entry
    order, so that a scan finds the next entry that can pass in logarithmic time.
    """

    __slots__ = (
        "bound_trees",
        "entries",
        "live_next",
        "matching",
        "next_rank",
        "policy_only",
        "rank_rejected",
        "top_eup",
    )

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.matching = 0
        self.rank_rejected = 0
        #: matching classes left out of the entries that HTCondor still tests against
        #: ``PREEMPTION_REQUIREMENTS``: the machine ranks the job below the one it runs,
        #: or no submitter may preempt them (``never_preempted``)
        self.policy_only: list[SlotClass] = []
        self.bound_trees: dict[int, list[Number]] = {}
        self.live_next: list[int] | None = None
        self.next_rank: list[int] | None = None
        #: the worst effective priority of a holder the policy scan may meet (see
        #: :func:`policy_classes`; +inf where a class's holder is not known)
        self.top_eup: float | None = None

    def tree(self, k: int, bound: Bound) -> list[Number]:
        """A max segment tree over the entries of bound ``k``'s slot values (negated for
        ``<``/``<=``), built once: leaves are priority entries' values (an unknown value
        is +inf, the most permissive), machine-rank entries and padding -inf."""
        found = self.bound_trees.get(k)
        if found is not None:
            return found
        entries = self.entries
        size = 1
        while size < len(entries):
            size *= 2
        tree: list[Number] = [-INF] * (2 * size)
        upward = bound.op in (">", ">=")
        for i, e in enumerate(entries):
            if e[2] == PRIO_PREEMPTION:
                v = bound.slot_values.get(e[1].index)
                tree[size + i] = INF if v is None else (v if upward else -v)
        for j in range(size - 1, 0, -1):
            left, right = tree[2 * j], tree[2 * j + 1]
            tree[j] = left if compare(left, ">=", right) else right
        self.bound_trees[k] = tree
        return tree

    def find_live(self, pos: int) -> int:
        """The first entry index >= ``pos`` whose class still has a free slot.

        Classes only ever lose slots during a cycle, so entries found used up are linked
        past for good (a union-find with path compression, shared by every submitter
        scanning this list)."""
        nxt = self.live_next
        entries = self.entries
        n = len(entries)
        if nxt is None:
            nxt = self.live_next = list(range(n + 1))
        seen: list[int] = []
        p = pos
        while p < n:
            q = nxt[p]
            if q != p:
                seen.append(p)
                p = q
                continue
            cls = entries[p][1]
            if cls.head < len(cls.slots):
                break
            nxt[p] = p + 1
            seen.append(p)
            p += 1
        for j in seen:
            nxt[j] = p
        return p

    def rank_index(self) -> list[int]:
        """The next machine-rank entry at or after each position."""
        if self.next_rank is None:
            n = len(self.entries)
            nxt = [n] * (n + 1)
            for i in range(n - 1, -1, -1):
                nxt[i] = i if self.entries[i][2] == RANK_PREEMPTION else nxt[i + 1]
            self.next_rank = nxt
        return self.next_rank


class PolicyScan:
    """How far ``Matchmaker.preemption_refusal`` has scanned one autocluster's claimed
    candidates for a submitter: the next position, and the refused class found with the
    index of its last slot held by another submitter. That class stands until the slot is
    taken (slots are taken in order and never given back during a cycle); the scan then
    goes on from the next position."""

    __slots__ = ("found", "last", "pos", "short")

    def __init__(self) -> None:
        self.pos = 0
        self.found: SlotClass | None = None
        self.last = -1
        #: classes passed (legacy) for 7.x's priority margin, each with its ``last``
        self.short: deque[tuple[SlotClass, int]] = deque()

    def short_held(self) -> bool:
        """Whether a class passed for the margin still has a slot held by another (those
        whose slots were all taken are dropped: a taken slot is never given back)."""
        short = self.short
        while short and short[0][0].head > short[0][1]:
            short.popleft()
        return bool(short)


def last_held_by_other(cls: SlotClass, name: str) -> int:
    """The index of the last slot of ``cls`` claimed by a submitter other than ``name`` (-1:
    none; a class not split by holder may hold ``name``'s own claims too)."""
    if cls.remote is not None:
        return -1 if cls.remote == name else len(cls.slots) - 1
    last = len(cls.slots) - 1
    while last >= 0:
        claim = cls.slots[last].claim
        if claim is not None and claim.submitter != name:
            break
        last -= 1
    return last


def first_matching_held(
    ev: Evaluator, classes: Sequence[SlotClass], job_ad: Ad, name: str, scan: PolicyScan
) -> bool:
    """``Matchmaker.preemption_refusal`` where ``PREEMPTION_REQUIREMENTS`` is never true and no
    machine prefers a job to the one it runs: the next claimed class, in pool order, that
    the job matches with a slot still held by a submitter other than ``name``."""
    job_req = job_ad.exprs["requirements"][1]
    while scan.pos < len(classes):
        cls = classes[scan.pos]
        scan.pos += 1
        last = last_held_by_other(cls, name)
        if last < cls.head or not ev.is_true(job_req, job_ad, cls.ad):
            continue
        if ev.is_true(cls.ad.exprs["requirements"][1], cls.ad, job_ad):
            scan.found, scan.last = cls, last
            return True
    return False


class Allowed:
    """A lazily filtered view of a sorted claimed-candidate list (filtered at most once).

    ``tests`` are the submitter's sides of the :class:`Bound` conditions: priority
    entries that fail one are refused without evaluating ``PREEMPTION_REQUIREMENTS``,
    and the scan jumps over them (a segment tree search per test).
    """

    __slots__ = (
        "claimed",
        "decided",
        "keep",
        "live",
        "owner",
        "plain",
        "pos",
        "taken",
        "tests",
    )

    def __init__(
        self,
        claimed: ClaimedList,
        keep: Callable[[Entry], bool],
        tests: Sequence[tuple[int, Bound, Number]] = (),
        owner: str | None = None,
        decided: bool = False,
        plain: bool = False,
    ) -> None:
        self.plain = plain
        self.claimed = claimed
        self.keep = keep
        self.owner = owner
        self.decided = decided
        self.pos = 0
        self.taken: list[Entry] = []
        self.live = 0
        self.tests: list[tuple[list[Number], str, Number]] = []
        for k, bound, w in tests:
            tree = claimed.tree(k, bound)
            if bound.op in (">", ">="):
                self.tests.append((tree, bound.op, w))
            else:  # v < w  is  -v > -w
                self.tests.append((tree, FLIP[bound.op], -w))

    @staticmethod
    def _first(tree: list[Number], op: str, w: Number, pos: int, n: int) -> int:
        """The first entry index >= ``pos`` whose tree leaf ``OP w`` holds (``n``: none)."""
        if pos >= n:
            return n
        size = len(tree) // 2
        i = pos + size
        while True:
            if compare(tree[i], op, w):
                while i < size:
                    i = 2 * i if compare(tree[2 * i], op, w) else 2 * i + 1
                return min(i - size, n)
            while i & 1:
                i >>= 1
            if i == 0:
                return n
            i += 1

    def _next_candidate(self, pos: int) -> int:
        """The next entry index >= ``pos`` with a free slot that is a machine-rank entry or
        a priority entry passing every test (``len(entries)``: none).

        The priority entries jumped over either fail a test (refused) or are used up.
        """
        claimed = self.claimed
        n = len(claimed.entries)
        nxt = claimed.rank_index()
        entries = claimed.entries
        p = pos
        while True:
            p = claimed.find_live(p)
            if p >= n or entries[p][2] != PRIO_PREEMPTION:
                break
            q = p
            for tree, op, w in self.tests:
                q = max(q, self._first(tree, op, w, q, n))
            if q == p:
                break
            p = min(q, nxt[p])
        return p

    def get(self, i: int) -> Entry | None:
        """The ``i``-th allowed candidate, or None past the end."""
        taken = self.taken
        source = self.claimed.entries
        if self.plain:  # every entry decided in turn
            while len(taken) <= i:
                if self.pos >= len(source):
                    return None
                entry = source[self.pos]
                self.pos += 1
                if self.keep(entry):
                    taken.append(entry)
            return taken[i]
        while len(taken) <= i:
            pos = self._next_candidate(self.pos)
            if pos >= len(source):
                self.pos = pos
                return None
            entry = source[pos]
            self.pos = pos + 1
            if self._keep(pos, entry):
                taken.append(entry)
        return taken[i]

    def _keep(self, pos: int, entry: Entry) -> bool:
        """``keep(entry)`` for an entry that passes every test; without evaluating when the
        tests decide ``PREEMPTION_REQUIREMENTS`` (every operand a bound with numbers on both
        sides here, or true on the slot alone)."""
        if self.decided and entry[2] == PRIO_PREEMPTION and entry[1].preq_slot_true:
            known = True
            for tree, _, _ in self.tests:
                v = tree[len(tree) // 2 + pos]
                if v == INF or v == -INF:
                    known = False
                    break
            if known:
                return entry[1].remote != self.owner
        return self.keep(entry)

    def first_live(self) -> int:
        """Index of the first taken entry whose class still has a free slot (those before
        it can never be used again this cycle)."""
        taken = self.taken
        live = self.live
        while live < len(taken) and not self.plain:
            cls = taken[live][1]
            if cls.head < len(cls.slots):
                break
            live += 1
        self.live = live
        return live


NO_CLAIMED = Allowed(ClaimedList(), lambda entry: False)


def policy_classes(claimed: ClaimedList) -> Iterator[SlotClass]:
    """The classes ``Matchmaker.preemption_refusal`` scans: priority entries, then the
    classes HTCondor tests against ``PREEMPTION_REQUIREMENTS`` alone."""
    for _, cls, tier in claimed.entries:
        if tier == PRIO_PREEMPTION:
            yield cls
    yield from claimed.policy_only
