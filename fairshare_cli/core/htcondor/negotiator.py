"""One HTCondor negotiation cycle: pie spins, job order, slot choice, preemption.

Mirrors ``Matchmaker::negotiationTime``, ``negotiateWithGroup``, ``negotiate`` and
``matchmakingAlgorithm`` in HTCondor's ``src/condor_negotiator.V6/matchmaker.cpp``
(reference §5, seed §3.4.5-3.4.6):

* submitters in effective-priority order; each gets a pie slice inversely proportional to
  its effective priority, net of what it already uses; the pie is spun again over what is
  left until no slots, no jobs or no progress remain;
* a submitter's jobs go in job-priority order; a job that matches nothing does not block the
  next one, but the rest of its autocluster (its cluster, in the 7.x ``legacy`` profile) is
  skipped for the rest of that submitter's turn;
* candidate slots are ordered by ``NEGOTIATOR_PRE_JOB_RANK``, the job's ``Rank``,
  ``NEGOTIATOR_POST_JOB_RANK``, the reason (no preemption, machine rank, user priority) and
  ``PREEMPTION_RANK``; priority preemption needs ``PREEMPTION_REQUIREMENTS``;
* with groups configured, the group quotas of :mod:`fairshare_cli.core.htcondor.quotas` decide how
  many slots each group negotiates for.

Scale: jobs are grouped into autoclusters (identical values of every job attribute that
any expression reads) and slots into slot classes (same machine stanza, same claim state,
same values of the per-slot attributes any expression reads). Requirements and ranks are
evaluated once per (autocluster, slot class) pair through
:mod:`fairshare_cli.core.htcondor.classads`;
a submitter's queue is a list of runs of consecutive jobs of one autocluster, so skipping a
rejected autocluster costs one step, not one per job.

Deterministic tie-breaks where HTCondor's sorts are unstable: submitters by name, groups in
breadth-first order, slots in configuration order (stanza, machine, slot id).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import (
    Ad,
    Compiled,
    Evaluator,
    evaluate_alone,
    split_comparison,
    split_conjuncts,
)
from fairshare_cli.core.htcondor.quotas import (
    ROOT,
    GroupNode,
    GroupTree,
    QuotaKnobs,
    assign_quotas,
    assigned_group,
    negotiate_groups,
    prepare_groups,
    updated_rr_times,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import ConfigError, InputError

INT_MAX = float(2**31 - 1)
FLT_MAX = 3.4028234663852886e38
NO_PREEMPTION, RANK_PREEMPTION, PRIO_PREEMPTION = 2, 1, 0
REASON_NAMES = {
    NO_PREEMPTION: "no_preemption",
    RANK_PREEMPTION: "rank",
    PRIO_PREEMPTION: "priority",
}

#: Slot attributes that differ between slots of one machine stanza.
_PER_SLOT = ("name", "machine", "slotid")
#: Slot attributes that describe the claim on a slot (set only on claimed slots).
_CLAIM_ATTRS = (
    "remoteuser",
    "remoteowner",
    "accountinggroup",
    "remoteuserprio",
    "remoteuserresourcesinuse",
    "remotegroup",
    "remotegroupresourcesinuse",
    "remotegroupquota",
    "currentrank",
    "enteredcurrentstate",
    "totaljobruntime",
    "jobstart",
    "globaljobid",
)
#: Job attributes set per submitter during negotiation (seed §3.4.3, reference §5.6).
_SUBMITTER_ATTRS = (
    "submitteruserprio",
    "submittorprio",
    "submitteruserresourcesinuse",
    "submittergroup",
    "submittergroupresourcesinuse",
    "submittergroupquota",
    "submitternegotiatinggroup",
    "submitterautoregroup",
)


#: The job fields the negotiator reads are those of :class:`fairshare_cli.core.jobs.Job`.


@dataclass(frozen=True)
class Claim:
    """A slot held by a running job (from the ``negotiator`` state section)."""

    slot: str
    submitter: str
    job_id: str
    start_time: float


@dataclass(frozen=True)
class SubmitterPrio:
    """What the accountant says about a submitter at ``now``.

    Attributes:
        effective_priority: EUP = max(RUP, 0.5) × factor.
        weighted_in_use: weighted resources in use (slot weights of the slots it holds).
        ceiling: ``Ceiling`` (-1 = unlimited).
    """

    effective_priority: float
    weighted_in_use: float = 0.0
    ceiling: int = -1


@dataclass(frozen=True)
class NegotiatorKnobs:
    """Negotiator settings (DESIGN §3 ``[negotiator]``), profile already applied."""

    profile: str = "legacy"
    use_slot_weights: bool = False
    slot_weight: str = "Cpus"
    preemption_requirements: str | None = None
    preemption_rank: str | None = None
    pre_job_rank: str | None = None
    post_job_rank: str | None = None
    use_weighted_demand: bool = True
    quotas: QuotaKnobs = field(default_factory=QuotaKnobs)


@dataclass(frozen=True)
class Match:
    """One match of the cycle (DESIGN §5 ``negotiate.matches``)."""

    job_id: str
    submitter: str
    slot: str
    reason: str
    preempted_job: str | None
    weight: float
    group: str | None


@dataclass
class SubmitterSummary:
    """One submitter's part of the cycle (DESIGN §5 ``negotiate.submitters``)."""

    name: str
    group: str | None
    effective_priority: float
    share: float | None = None
    limit: float | None = None
    matched: int = 0


@dataclass
class UnmatchedRun:
    """Idle jobs of one submitter left unmatched for one reason (kept as batch segments)."""

    submitter: str
    reason: str
    segments: list[tuple[JobBatch, int]]

    @property
    def count(self) -> int:
        """How many jobs."""
        return sum(b.count - start for b, start in self.segments)

    def iter_ids(self) -> Iterator[str]:
        """The job ids, in queue order."""
        for batch, start in self.segments:
            for i in range(start, batch.count):
                yield batch.job_id(i)

    @property
    def job_ids(self) -> list[str]:
        """The job ids as a list (for small results)."""
        return list(self.iter_ids())


@dataclass
class CycleResult:
    """Everything one cycle did."""

    matches: list[Match]
    submitters: list[SubmitterSummary]
    unmatched: list[UnmatchedRun]
    explain: list[dict[str, Any]]
    pool_size: float
    spins: int
    evaluations: int
    rr_times: dict[str, float]
    group_limits: dict[str, int | None]

    def iter_unmatched(self) -> Iterator[tuple[str, str, str]]:
        """Yield ``(job_id, submitter, reason)`` for every unmatched idle job."""
        for run in self.unmatched:
            for job_id in run.iter_ids():
                yield job_id, run.submitter, run.reason


def _float32(x: float) -> float:
    """Round to single precision, as HTCondor's negotiator ranks are C ``float``."""
    if math.isnan(x):
        return -math.inf
    if abs(x) > FLT_MAX:
        return math.copysign(math.inf, x)
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _split_id(job_id: str) -> tuple[int | str, int | str]:
    cluster, _, proc = job_id.partition(".")
    c: int | str = int(cluster) if cluster.isdigit() else cluster
    p: int | str = int(proc) if proc.isdigit() else proc
    return c, p


def _id_key(job_id: str) -> tuple[tuple[int, int | str], tuple[int, int | str]]:
    c, p = _split_id(job_id)
    return ((0, c) if isinstance(c, int) else (1, c)), ((0, p) if isinstance(p, int) else (1, p))


# ---------------------------------------------------------------------------------------
# Slots


class _Slot:
    __slots__ = ("claim", "index", "machine", "name", "remote_group", "slot_id", "stanza")

    def __init__(self, index: int, stanza: int, machine: str, slot_id: int) -> None:
        self.index = index
        self.stanza = stanza
        self.machine = machine
        self.slot_id = slot_id
        self.name = f"slot{slot_id}@{machine}"
        self.claim: Claim | None = None
        self.remote_group: str | None = None


def machine_names(spec: MachineSpec) -> list[str]:
    """Machine names of a stanza: ``exec001`` … (at least three digits)."""
    width = max(3, len(str(spec.count)))
    return [f"{spec.name}{m:0{width}d}" for m in range(1, spec.count + 1)]


def expand_slots(machines: Sequence[MachineSpec]) -> list[tuple[int, str, int]]:
    """Every slot as ``(stanza index, machine name, slot id)``, in configuration order."""
    out: list[tuple[int, str, int]] = []
    for i, spec in enumerate(machines):
        for machine in machine_names(spec):
            out.extend((i, machine, k) for k in range(1, spec.slots + 1))
    return out


class _SlotClass:
    """Slots with the same stanza, claim state and referenced per-slot values."""

    __slots__ = (
        "ad",
        "claimed",
        "head",
        "index",
        "never_preempted",
        "preq_slot_true",
        "remote",
        "slots",
        "weight",
    )

    def __init__(self, index: int, ad: Ad, weight: float, claimed: bool) -> None:
        self.index = index
        self.ad = ad
        self.weight = weight
        self.claimed = claimed
        self.slots: list[_Slot] = []
        self.head = 0
        self.remote: str | None = None
        self.never_preempted = False
        self.preq_slot_true = True

    def first_index(self) -> int:
        return self.slots[self.head].index if self.head < len(self.slots) else 1 << 62


# ---------------------------------------------------------------------------------------
# Jobs


class _AutoCluster:
    __slots__ = ("ad", "claimed", "group_keys", "groups", "index", "matching_slots", "ptr")

    def __init__(self, index: int, ad: Ad) -> None:
        self.index = index
        self.ad = ad
        self.groups: list[list[_SlotClass]] | None = None
        self.group_keys: list[tuple[float, ...]] = []
        self.claimed: _ClaimedList | None = None
        self.ptr = 0
        self.matching_slots = 0


Entry = tuple[tuple[float, ...], "_SlotClass", int]
Number = int | float

#: ``a OP b`` is ``b FLIP[OP] a``.
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
_INF = math.inf


def _compare(a: Number, op: str, b: Number) -> bool:
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


def _number(value: object) -> Number | None:
    """``value`` when it is a ClassAd integer or real, else None."""
    return value if type(value) in (int, float) else None  # type: ignore[return-value]


@dataclass
class _Bound:
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


class _ClaimedList:
    """Claimed candidates of one autocluster, best first, with why others were left out.

    ``bound_trees`` caches, per :class:`_Bound`, a segment tree of the slot values in entry
    order, so that a scan finds the next entry that can pass in logarithmic time.
    """

    __slots__ = (
        "bound_trees",
        "entries",
        "live_next",
        "matching",
        "next_rank",
        "prio_before",
        "rank_rejected",
    )

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.matching = 0
        self.rank_rejected = 0
        self.bound_trees: dict[int, list[Number]] = {}
        self.live_next: list[int] | None = None
        self.next_rank: list[int] | None = None
        self.prio_before: list[int] = []

    def tree(self, k: int, bound: _Bound) -> list[Number]:
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
        tree: list[Number] = [-_INF] * (2 * size)
        upward = bound.op in (">", ">=")
        for i, e in enumerate(entries):
            if e[2] == PRIO_PREEMPTION:
                v = bound.slot_values.get(e[1].index)
                tree[size + i] = _INF if v is None else (v if upward else -v)
        for j in range(size - 1, 0, -1):
            left, right = tree[2 * j], tree[2 * j + 1]
            tree[j] = left if _compare(left, ">=", right) else right
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

    def rank_index(self) -> tuple[list[int], list[int]]:
        """(next machine-rank entry at or after each position, priority entries before it)."""
        if self.next_rank is None:
            n = len(self.entries)
            nxt = [n] * (n + 1)
            before = [0] * (n + 1)
            for i in range(n - 1, -1, -1):
                nxt[i] = i if self.entries[i][2] == RANK_PREEMPTION else nxt[i + 1]
            for i, e in enumerate(self.entries):
                before[i + 1] = before[i] + (e[2] == PRIO_PREEMPTION)
            self.next_rank = nxt
            self.prio_before = before
        return self.next_rank, self.prio_before


class _Allowed:
    """A lazily filtered view of a sorted claimed-candidate list (filtered at most once).

    ``tests`` are the submitter's sides of the :class:`_Bound` conditions: priority
    entries that fail one are refused without evaluating ``PREEMPTION_REQUIREMENTS``,
    and the scan jumps over them (a segment tree search per test).
    """

    __slots__ = (
        "claimed",
        "decided",
        "keep",
        "live",
        "owner",
        "pending",
        "plain",
        "pos",
        "refused",
        "taken",
        "tests",
    )

    def __init__(
        self,
        claimed: _ClaimedList,
        keep: Callable[[Entry], bool],
        tests: Sequence[tuple[int, _Bound, Number]] = (),
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
        self.refused = False
        self.live = 0
        self.pending: list[tuple[int, int]] = []
        self.tests: list[tuple[list[Number], str, Number]] = []
        for k, bound, w in tests:
            tree = claimed.tree(k, bound)
            if bound.op in (">", ">="):
                self.tests.append((tree, bound.op, w))
            else:  # v < w  is  -v > -w
                self.tests.append((tree, _FLIP[bound.op], -w))

    @staticmethod
    def _first(tree: list[Number], op: str, w: Number, pos: int, n: int) -> int:
        """The first entry index >= ``pos`` whose tree leaf ``OP w`` holds (``n``: none)."""
        if pos >= n:
            return n
        size = len(tree) // 2
        i = pos + size
        while True:
            if _compare(tree[i], op, w):
                while i < size:
                    i = 2 * i if _compare(tree[2 * i], op, w) else 2 * i + 1
                return min(i - size, n)
            while i & 1:
                i >>= 1
            if i == 0:
                return n
            i += 1

    def _next_candidate(self, pos: int) -> int:
        """The next entry index >= ``pos`` with a free slot that is a machine-rank entry or
        a priority entry passing every test (``len(entries)``: none).

        The priority entries jumped over either fail a test (refused) or are used up;
        whether one of the latter would have been refused is left to :meth:`was_refused`.
        """
        claimed = self.claimed
        n = len(claimed.entries)
        nxt, before = claimed.rank_index()
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
        if before[p] > before[pos] and not self.refused:
            self.pending.append((pos, p))
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
                elif entry[2] == PRIO_PREEMPTION:
                    self.refused = True
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
            elif entry[2] == PRIO_PREEMPTION:
                self.refused = True
        return taken[i]

    def _keep(self, pos: int, entry: Entry) -> bool:
        """``keep(entry)`` for an entry that passes every test; without evaluating when the
        tests decide ``PREEMPTION_REQUIREMENTS`` (every operand a bound with numbers on both
        sides here, or true on the slot alone)."""
        if self.decided and entry[2] == PRIO_PREEMPTION and entry[1].preq_slot_true:
            known = True
            for tree, _, _ in self.tests:
                v = tree[len(tree) // 2 + pos]
                if v == _INF or v == -_INF:
                    known = False
                    break
            if known:
                return entry[1].remote != self.owner
        return self.keep(entry)

    def _fails(self, pos: int) -> bool:
        """Whether the priority entry at ``pos`` fails one of the tests."""
        return any(not _compare(tree[len(tree) // 2 + pos], op, w) for tree, op, w in self.tests)

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

    def was_refused(self) -> bool:
        """Whether a priority entry the scan went past was refused (for the reason):
        settles the ranges jumped over lazily, in scan order, stopping at the first."""
        if not self.refused:
            entries = self.claimed.entries
            for start, end in self.pending:
                for j in range(start, end):
                    entry = entries[j]
                    if entry[2] == PRIO_PREEMPTION and (self._fails(j) or not self._keep(j, entry)):
                        self.refused = True
                        break
                if self.refused:
                    break
        self.pending = []
        return self.refused


_NO_CLAIMED = _Allowed(_ClaimedList(), lambda entry: False)


class _Run:
    """Consecutive jobs of one submitter with the same autocluster (and cluster in legacy)."""

    __slots__ = ("ac", "batches", "bi", "left", "off", "reason", "skip_key")

    def __init__(self, ac: _AutoCluster, skip_key: object, batch: JobBatch) -> None:
        self.ac = ac
        self.skip_key = skip_key
        self.batches = [batch]
        self.bi = 0
        self.off = 0
        self.left = batch.count
        self.reason: str | None = None

    def add(self, batch: JobBatch) -> None:
        self.batches.append(batch)
        self.left += batch.count

    def head_id(self) -> str:
        return self.batches[self.bi].job_id(self.off)

    def advance(self) -> None:
        self.off += 1
        self.left -= 1
        if self.off >= self.batches[self.bi].count:
            self.bi += 1
            self.off = 0

    def segments(self) -> list[tuple[JobBatch, int]]:
        out = [(self.batches[self.bi], self.off)] if self.left else []
        out.extend((b, 0) for b in self.batches[self.bi + 1 :])
        return out

    def holds(self, job_id: str) -> bool:
        return any(b.holds(job_id, start) for b, start in self.segments())


class _Submitter:
    __slots__ = (
        "ceiling",
        "eup",
        "group",
        "idle",
        "name",
        "runs",
        "starvation",
        "stop_reason",
        "summary",
    )

    def __init__(self, name: str, eup: float, group: str | None, ceiling: int) -> None:
        self.name = name
        self.eup = eup
        self.group = group
        self.ceiling = ceiling
        self.runs: list[_Run] = []
        self.idle = 0
        self.starvation = 0.0
        self.stop_reason: str | None = None
        self.summary = SubmitterSummary(name, group, eup)


# ---------------------------------------------------------------------------------------
# The cycle


class _Cycle:
    def __init__(
        self,
        machines: Sequence[MachineSpec],
        claims: Iterable[Claim],
        jobs: Iterable[Job | JobBatch],
        submitter_of: Callable[[Job], str],
        priorities: Callable[[str], SubmitterPrio],
        tree: GroupTree | None,
        knobs: NegotiatorKnobs,
        now: float,
        explain_job: str | None,
        progress: Callable[[float], None] | None,
        rr_times: Mapping[str, float],
        reference: bool = False,
    ) -> None:
        self.reference = reference
        self.knobs = knobs
        self.rr_times = rr_times
        self.explained_sub: _Submitter | None = None
        self._explained_matching = 0
        self.allowed_claimed: dict[tuple[str, str, int], _Allowed] = {}
        self.preemption_memo: dict[tuple[str, str, int], bool] = {}
        self.now = now
        self.legacy = knobs.profile == "legacy"
        self.tree = tree if (tree is not None and len(tree.groups) > 1) else None
        self.ev = Evaluator()
        self.explain_job = explain_job
        self.explain: list[dict[str, Any]] = []
        self.progress = progress
        self.priorities = priorities
        self.submitter_of = submitter_of
        self.matches: list[Match] = []
        self.spins = 0
        self.usage: dict[str, float] = {}
        self.group_usage: dict[str, float] = {}
        self.group_quota: dict[str, float] = {}
        self.negotiating_group = ROOT
        self._build(machines, list(claims), jobs)

    # -- setup -----------------------------------------------------------------------

    def _knob_expr(self, text: str | None, names: frozenset[str], what: str) -> Compiled | None:
        if text is None or not text.strip():
            return None
        return self.ev.compile(text, names, f"[negotiator] {what}", ConfigError)

    def _build(self, machines: Sequence[MachineSpec], claims: list[Claim], jobs: Any) -> None:
        ev = self.ev
        knobs = self.knobs
        # Slot ad attribute names (literal + expressions) for compiling slot-side expressions.
        base_slot_names = {"name", "machine", "slotid", "state", "activity", "currenttime"}
        base_slot_names |= {"enteredcurrentstate", "mycurrenttime", "requirements", "rank"}
        stanza_names: list[frozenset[str]] = []
        for spec in machines:
            names = base_slot_names | {k.lower() for k in spec.attributes}
            stanza_names.append(frozenset(names))
        claimed_extra = frozenset(_CLAIM_ATTRS)
        # Compile the negotiator's slot-context expressions for unclaimed and claimed shapes.
        self.slot_exprs: dict[tuple[int, bool], dict[str, Compiled | None]] = {}
        refs: set[str] = set()
        preempt_refs: set[str] = set()
        for i, stanza in enumerate(stanza_names):
            for claimed in (False, True):
                my = stanza | claimed_extra if claimed else stanza
                exprs = {
                    "pre": self._knob_expr(knobs.pre_job_rank, my, "pre_job_rank"),
                    "post": self._knob_expr(knobs.post_job_rank, my, "post_job_rank"),
                    "weight": (
                        self._knob_expr(knobs.slot_weight, my, "slot_weight")
                        if knobs.use_slot_weights
                        else None
                    ),
                    "preq": self._knob_expr(
                        knobs.preemption_requirements, my, "preemption_requirements"
                    ),
                    "prank": self._knob_expr(knobs.preemption_rank, my, "preemption_rank"),
                }
                self.slot_exprs[(i, claimed)] = exprs
                for key, c in exprs.items():
                    if c is not None:
                        target = preempt_refs if key in ("preq", "prank") else refs
                        target.update(c.my_refs)
                        target.update(c.target_refs)
            spec = machines[i]
            for what, text in (("start", spec.start), ("rank", spec.rank)):
                c = ev.compile(text or "true", stanza, f"machine {spec.name} {what}", ConfigError)
                refs.update(c.my_refs)
                refs.update(c.target_refs)
        # Jobs: collect distinct expression texts first; their references decide autoclusters.
        self.job_names = frozenset(
            {
                "owner",
                "user",
                "accountinggroup",
                "niceuser",
                "jobprio",
                "qdate",
                "jobstatus",
                "requestcpus",
                "requestmemory",
                "clusterid",
                "procid",
                "requirements",
                "rank",
            }
        )
        job_names_pre = self.job_names | frozenset(_SUBMITTER_ATTRS)
        idle: list[JobBatch] = []
        running: dict[str, Job] = {}
        texts: dict[tuple[str, str], str] = {}
        for item in jobs:
            batch = item if isinstance(item, JobBatch) else JobBatch(item)
            job = batch.job
            if job.status == "idle":
                idle.append(batch)
                texts.setdefault((job.requirements or "true", job.rank or "0"), job.id)
            elif job.status == "running":
                for i in range(batch.count):
                    running[batch.job_id(i)] = job
        for (req, rank), job_id in texts.items():
            for what, text in (("requirements", req), ("rank", rank)):
                c = ev.compile(text, self.job_names, f"job {job_id} {what}", InputError)
                refs.update(c.my_refs)
                refs.update(c.target_refs)
        self.refs = frozenset(refs)
        self.unclaimed_per_submitter = any(r in _SUBMITTER_ATTRS for r in self.refs)
        self.all_refs = frozenset(refs | preempt_refs)
        self.job_names_pre = job_names_pre
        self._build_slots(machines, claims, running)
        self._build_jobs(idle, running)
        self._add_remote_group_attrs()
        self._analyse_claimed(machines)

    def _slot_values(self, spec: MachineSpec, slot: _Slot) -> dict[str, object]:
        values: dict[str, object] = dict(spec.attributes)
        values.update(
            {
                "Name": slot.name,
                "Machine": slot.machine,
                "SlotID": slot.slot_id,
                "CurrentTime": int(self.now),
                "MyCurrentTime": int(self.now),
            }
        )
        if slot.claim is None:
            values.update(
                {"State": "Unclaimed", "Activity": "Idle", "EnteredCurrentState": int(self.now)}
            )
        return values

    def _build_slots(
        self, machines: Sequence[MachineSpec], claims: list[Claim], running: dict[str, Job]
    ) -> None:
        ev = self.ev
        self._stanza_names = [spec.name for spec in machines]
        by_name: dict[str, _Slot] = {}
        self.slots: list[_Slot] = []
        for index, (stanza, machine, slot_id) in enumerate(expand_slots(machines)):
            slot = _Slot(index, stanza, machine, slot_id)
            self.slots.append(slot)
            by_name[slot.name.lower()] = slot
        for held in claims:
            target = by_name.get(held.slot.lower())
            if target is None:
                continue  # a claim on a slot no longer configured: ignored, like a stale ad
            target.claim = held
        # Usage from the accountant for every submitter that holds or wants slots.
        self.classes: list[_SlotClass] = []
        class_by_key: dict[tuple[object, ...], _SlotClass] = {}
        per_slot = [a for a in _PER_SLOT if a in self.all_refs]
        claim_attrs = [a for a in _CLAIM_ATTRS if a in self.all_refs]
        empty = Ad({}, {}, ev, "empty")
        self.empty = empty
        for slot in self.slots:
            spec = machines[slot.stanza]
            claim = slot.claim
            values = None
            if claim is None:
                key: tuple[object, ...] = (slot.stanza, None)
            else:
                values = self._claimed_values(spec, slot, claim, running)
                lowered = {k.lower(): v for k, v in values.items()}
                key = (slot.stanza, claim.submitter, tuple(lowered.get(a) for a in claim_attrs))
            if per_slot:
                lowered_slot = {"name": slot.name, "machine": slot.machine, "slotid": slot.slot_id}
                key = (*key, tuple(lowered_slot[a] for a in per_slot))
            cls = class_by_key.get(key)
            if cls is None:
                if values is None:
                    values = self._slot_values(spec, slot)
                ad = Ad(
                    values,
                    {"Requirements": spec.start or "true", "Rank": spec.rank or "0"},
                    ev,
                    f"machine {spec.name}",
                    ConfigError,
                )
                exprs = self.slot_exprs[(slot.stanza, claim is not None)]
                weight = 1.0
                if exprs["weight"] is not None:
                    weight = ev.number(exprs["weight"], ad, empty, -1.0)
                    if weight < 0:
                        weight = 1.0
                cls = _SlotClass(len(self.classes), ad, weight, claim is not None)
                cls.remote = claim.submitter if claim is not None else None
                self.classes.append(cls)
                class_by_key[key] = cls
            cls.slots.append(slot)
        self.slot_class = {}
        for cls in self.classes:
            for slot in cls.slots:
                self.slot_class[slot.index] = cls
        self.available = len(self.slots)
        weights = [self.slot_class[s.index].weight for s in self.slots]
        self.pool_weight = sum(weights) if self.knobs.use_slot_weights else float(len(weights))
        self.min_weight = min(weights) if (weights and self.knobs.use_slot_weights) else 1.0
        self.unclaimed_classes = [c for c in self.classes if not c.claimed]
        self.claimed_classes = [c for c in self.classes if c.claimed]

    def _add_remote_group_attrs(self) -> None:
        """``RemoteGroup``, ``RemoteGroupResourcesInUse`` and ``RemoteGroupQuota`` on claimed
        slots (``Matchmaker::addRemoteUserPrios``, seed §3.4.3, reference §5.6).

        Set only with group quotas in effect, for every running submitter — ``<none>``
        included, as HTCondor's group table holds the root. The usage is the group's at the
        start of the cycle; the quota is the one assigned from the pool size (the whole pool
        for ``<none>`` in autoregroup mode). Slot weights were computed before, as HTCondor
        sums them before it adds these attributes.
        """
        tree = self.tree
        if tree is None or not self.claimed_classes:
            return
        for g in tree.groups:
            g.quota = g.subtree_quota = 0.0
        assign_quotas(tree.root, self.pool_weight, self.knobs.quotas.allow_quota_oversubscription)
        quotas = {g.name: g.quota for g in tree.groups}
        if tree.autoregroup:
            quotas[ROOT] = self.pool_weight
        self.remote_group_quota = quotas
        for cls in self.claimed_classes:
            slot = cls.slots[0]
            group = slot.remote_group
            if group is None:
                continue
            values = {k: v for k, v in cls.ad.values.values()}
            values["RemoteGroup"] = group
            values["RemoteGroupResourcesInUse"] = self.group_usage.get(group, 0.0)
            values["RemoteGroupQuota"] = quotas.get(group, 0.0)
            exprs = {k: c.text for k, c in cls.ad.exprs.values()}
            spec_name = self._stanza_names[slot.stanza]
            cls.ad = Ad(values, exprs, self.ev, f"machine {spec_name}", ConfigError)

    def _analyse_claimed(self, machines: Sequence[MachineSpec]) -> None:
        """What can ever happen to claimed slots this cycle (shortcuts for the search)."""
        ev = self.ev
        empty = self.empty
        # Can a claimed slot ever be taken? Machine-rank preemption needs a machine RANK
        # that reads something; priority preemption a PREEMPTION_REQUIREMENTS that is not
        # constantly false (and a submitter under its limit).
        self.rank_constant = all(
            not (c.ad.exprs["rank"][1].my_refs or c.ad.exprs["rank"][1].target_refs)
            for c in self.claimed_classes
        )
        reads: list[Compiled] = []
        for c in self.claimed_classes:
            reads.append(c.ad.exprs["requirements"][1])
            reads.append(c.ad.exprs["rank"][1])
        for (_, claimed), exprs in self.slot_exprs.items():
            if claimed:
                reads.extend(e for k, e in exprs.items() if e is not None and k != "preq")
        self.claimed_per_submitter = any(
            r in _SUBMITTER_ATTRS for c in reads for r in (*c.my_refs, *c.target_refs)
        ) or any(r in _SUBMITTER_ATTRS for r in self.refs)
        self.preq_reads_submitter_only = all(
            r in _SUBMITTER_ATTRS
            for (_, claimed), exprs in self.slot_exprs.items()
            if claimed and exprs["preq"] is not None
            for r in exprs["preq"].target_refs
        )
        self._mark_never_preempted(machines)
        self.preq_never = False
        if self.claimed_classes:
            preq = self.slot_exprs[(self.claimed_classes[0].slots[0].stanza, True)]["preq"]
            if preq is not None and not (preq.my_refs or preq.target_refs):
                self.preq_never = not ev.is_true(preq, empty, empty)
        self.preq_covered = False
        self.preq_bounds = [] if self.reference else self._preemption_bounds()
        self._slot_only: dict[tuple[object, ...], tuple[float, float, float, float]] = {}
        self._partitions: dict[frozenset[str], list[tuple[_SlotClass, list[_SlotClass]]]] = {}
        self._entry_lists: dict[tuple[object, ...], _ClaimedList] = {}
        self._static_exprs: list[Compiled] | None = None

    def _side(self, expr: Compiled, ad: Ad) -> str:
        """Which ad an operand of a slot-scope expression reads: "const", "slot", "job"
        or "both" (a slot expression attribute it reads may itself read the job)."""
        if expr.target_refs:
            return "both" if expr.my_refs else "job"
        todo = [r for r in expr.my_refs if r in ad.exprs]
        seen: set[str] = set()
        while todo:  # expression attributes of the slot it reads, and theirs
            ref = todo.pop()
            if ref in seen:
                continue
            seen.add(ref)
            inner = ad.exprs[ref][1]
            if inner.target_refs:
                return "both"
            todo.extend(r for r in inner.my_refs if r in ad.exprs)
        return "slot" if expr.my_refs else "const"

    def _preemption_bounds(self) -> list[_Bound]:
        """Necessary conditions for priority preemption that cost a number comparison
        (see :class:`_Bound`): 7.x's 0.5 rule, and every top-level ``&&`` operand of
        ``PREEMPTION_REQUIREMENTS`` of the form ``slot expression OP job expression``
        (in either order) with OP one of ``< <= > >=``, the same for every claimed class."""
        bounds: list[_Bound] = []
        classes = self.claimed_classes
        if not classes:
            return bounds
        if self.legacy:
            values: dict[int, Number | None] = {}
            for cls in classes:
                if cls.remote is not None:
                    values[cls.index] = float(self.priorities(cls.remote).effective_priority)
            bounds.append(_Bound(">=", None, None, values))
        text = self.knobs.preemption_requirements
        self.preq_covered = not self.preq_never
        if not text or not text.strip() or self.preq_never:
            return bounds
        where = "[negotiator] preemption_requirements"
        for part in split_conjuncts(text):
            count = len(bounds)
            self._add_bound(part, where, bounds)
            if len(bounds) == count and not self._slot_only_conjunct(part, where):
                self.preq_covered = False
        return bounds

    def _slot_only_conjunct(self, part: str, where: str) -> bool:
        """Whether an operand of ``PREEMPTION_REQUIREMENTS`` reads only the slot in every
        claimed class; marks the classes where it is not ``true``."""
        for cls in self.claimed_classes:
            c = self.ev.compile(part, cls.ad.names, where, ConfigError)
            if self._side(c, cls.ad) not in ("slot", "const"):
                return False
        for cls in self.claimed_classes:
            c = self.ev.compile(part, cls.ad.names, where, ConfigError)
            if self.ev.evaluate(c, cls.ad, self.empty) is not True:
                cls.preq_slot_true = False
        return True

    def _add_bound(self, part: str, where: str, bounds: list[_Bound]) -> None:
        """Append the :class:`_Bound` of one ``&&`` operand, when it is one."""
        parts = split_comparison(part)
        if parts is None:
            return
        left, op, right = parts
        bound: _Bound | None = None
        for cls in self.claimed_classes:
            ad = cls.ad
            lhs = self.ev.compile(left, ad.names, where, ConfigError)
            rhs = self.ev.compile(right, ad.names, where, ConfigError)
            sides = (self._side(lhs, ad), self._side(rhs, ad))
            if sides[1] == "job" and sides[0] in ("slot", "const"):
                slot_expr, job_expr, cls_op = lhs, rhs, op
            elif sides[0] == "job" and sides[1] in ("slot", "const"):
                slot_expr, job_expr, cls_op = rhs, lhs, _FLIP[op]
            else:
                return
            if bound is None:
                bound = _Bound(cls_op, job_expr, ad, {})
            elif job_expr.text != bound.job_expr.text or cls_op != bound.op:  # type: ignore[union-attr]
                return
            bound.slot_values[cls.index] = _number(self.ev.evaluate(slot_expr, ad, self.empty))
        if bound is not None:
            bounds.append(bound)

    def _mark_never_preempted(self, machines: Sequence[MachineSpec]) -> None:
        """Flag claimed classes that no submitter may preempt for priority: a top-level
        ``&&`` operand of ``PREEMPTION_REQUIREMENTS`` that reads only the slot is false
        (or undefined) there — e.g. ``TotalJobRuntime > 3600`` on a claim younger than that."""
        text = self.knobs.preemption_requirements
        if not text or not self.claimed_classes:
            return
        conjuncts = split_conjuncts(text)
        if len(conjuncts) < 2:
            return
        for cls in self.claimed_classes:
            ad = cls.ad
            for part in conjuncts:
                c = self.ev.compile(part, ad.names, "[negotiator] preemption_requirements")
                if c.target_refs or any(
                    ad.exprs[r][1].my_refs or ad.exprs[r][1].target_refs
                    for r in c.my_refs
                    if r in ad.exprs
                ):
                    continue
                value = self.ev.evaluate(c, ad, self.empty)
                # false, undefined, error or a string: the conjunction cannot be true
                # (a number is left alone: old ClassAds read non-zero as true)
                if value is not True and type(value) not in (int, float):
                    cls.never_preempted = True
                    break

    def _claimed_values(
        self, spec: MachineSpec, slot: _Slot, claim: Claim, running: dict[str, Job]
    ) -> dict[str, object]:
        prio = self.priorities(claim.submitter)
        group = self._group_of(claim.submitter)
        values = self._slot_values(spec, slot)
        job = running.get(claim.job_id)
        owner = job.owner if job is not None else claim.submitter.split("@")[0]
        domain = claim.submitter.rsplit("@", 1)[1] if "@" in claim.submitter else ""
        values.update(
            {
                "State": "Claimed",
                "Activity": "Busy",
                "RemoteUser": claim.submitter,
                "RemoteOwner": f"{owner}@{domain}" if domain else owner,
                # HTCondor stores the remote EUP as a C float (both profiles)
                "RemoteUserPrio": _float32(prio.effective_priority),
                "RemoteUserResourcesInUse": prio.weighted_in_use,
                "EnteredCurrentState": int(claim.start_time),
                "JobStart": int(claim.start_time),
                "TotalJobRuntime": int(self.now - claim.start_time),
                "GlobalJobId": claim.job_id,
            }
        )
        if group is not None and group != ROOT:
            values["AccountingGroup"] = claim.submitter
            values["RemoteGroup"] = group
        slot.remote_group = group
        # CurrentRank: the machine's Rank of the job it runs.
        if job is not None:
            job_ad = self._job_ad(job, claim.submitter)
            probe = Ad(values, {"Rank": spec.rank or "0"}, self.ev, f"machine {spec.name}")
            values["CurrentRank"] = self.ev.number(probe.exprs["rank"][1], probe, job_ad, 0.0)
        else:
            values["CurrentRank"] = 0.0
        return values

    def _group_of(self, submitter: str) -> str | None:
        if self.tree is None:
            return None
        return assigned_group(self.tree, submitter).name

    def _job_values(self, job: Job, submitter: str) -> dict[str, object]:
        cluster, proc = _split_id(job.id)
        values: dict[str, object] = {
            "Owner": job.owner,
            "User": submitter,
            "NiceUser": bool(job.nice_user),
            "JobPrio": int(job.job_prio),
            "QDate": int(job.submit_time or 0),
            "JobStatus": 1 if job.status == "idle" else 2,
            "RequestCpus": job.request_cpus,
            "RequestMemory": job.request_memory,
            "ClusterId": cluster,
            "ProcId": proc,
        }
        if job.accounting_group:
            values["AccountingGroup"] = submitter
        return values

    def _job_ad(self, job: Job, submitter: str, extra: Mapping[str, object] = {}) -> Ad:
        values = self._job_values(job, submitter)
        values.update(extra)
        return Ad(
            values,
            {"Requirements": job.requirements or "true", "Rank": job.rank or "0"},
            self.ev,
            f"job {job.id}",
            InputError,
        )

    def _build_jobs(self, idle: list[JobBatch], running: dict[str, Job]) -> None:
        sig_attrs = [a for a in self.job_names if a in self.refs and a not in ("requirements",)]
        sig_attrs = [a for a in sig_attrs if a != "rank"]
        need_submitter = any(a in self.refs for a in _SUBMITTER_ATTRS) or "user" in self.refs
        self.autoclusters: list[_AutoCluster] = []
        ac_by_key: dict[tuple[object, ...], _AutoCluster] = {}
        subs: dict[str, _Submitter] = {}
        per_sub: dict[str, list[tuple[Any, _AutoCluster, JobBatch]]] = {}
        demand: dict[str, float] = {}
        weighted = self.knobs.use_weighted_demand
        for batch in idle:
            job = batch.job
            submitter = self.submitter_of(job)
            lowered: dict[str, object] | None = None
            if sig_attrs:
                lowered = {k.lower(): v for k, v in self._job_values(job, submitter).items()}
            key: tuple[object, ...] = (
                job.requirements or "true",
                job.rank or "0",
                tuple(lowered.get(a) for a in sig_attrs) if lowered else (),
                submitter if need_submitter else None,
            )
            ac = ac_by_key.get(key)
            if ac is None:
                ac = _AutoCluster(len(self.autoclusters), self._job_ad(job, submitter))
                self.autoclusters.append(ac)
                ac_by_key[key] = ac
            per_sub.setdefault(submitter, []).append((self._order_key(job), ac, batch))
            weight = job.request_cpus if weighted else 1
            demand[submitter] = demand.get(submitter, 0.0) + weight * batch.count
        for job in running.values():
            submitter = self.submitter_of(job)
            demand[submitter] = demand.get(submitter, 0.0) + (job.request_cpus if weighted else 1)
        self.demand = demand
        # Submitters: those with jobs in the queue (idle or running), as HTCondor's
        # submitter ads; usage from the accountant.
        for name in sorted(demand):
            prio = self.priorities(name)
            sub = _Submitter(name, prio.effective_priority, self._group_of(name), prio.ceiling)
            subs[name] = sub
        for sub in subs.values():
            self.usage[sub.name] = self.priorities(sub.name).weighted_in_use
        for slot in self.slots:  # holders that no longer have jobs still count as users
            if slot.claim is not None and slot.claim.submitter not in self.usage:
                self.usage[slot.claim.submitter] = self.priorities(
                    slot.claim.submitter
                ).weighted_in_use
        for name, value in self.usage.items():
            g = self._group_of(name) or ROOT
            self.group_usage[g] = self.group_usage.get(g, 0.0) + value
        for name, entries in per_sub.items():
            entries.sort(key=lambda e: e[0])
            sub = subs[name]
            sub.idle = sum(e[2].count for e in entries)
            runs = sub.runs
            for _, ac, batch in entries:
                skip_key: object = _split_id(batch.job.id)[0] if self.legacy else ac.index
                if runs and runs[-1].ac is ac and runs[-1].skip_key == skip_key:
                    runs[-1].add(batch)
                else:
                    runs.append(_Run(ac, skip_key, batch))
        self.submitters = subs

    def _order_key(self, job: Job) -> tuple[object, ...]:
        """Job order within a submitter (reference §5.4; seed §3.4.5 for legacy)."""
        if self.legacy:
            return (-int(job.job_prio), float(job.submit_time or 0.0), _id_key(job.id))
        pre1 = getattr(job, "pre_job_prio1", None) or 0
        pre2 = getattr(job, "pre_job_prio2", None) or 0
        post1 = getattr(job, "post_job_prio1", None) or 0
        post2 = getattr(job, "post_job_prio2", None) or 0
        return (-pre1, -pre2, -int(job.job_prio), -post1, -post2, _id_key(job.id))

    # -- candidates --------------------------------------------------------------------

    def _unclaimed_candidates(self, ac: _AutoCluster) -> None:
        """Unclaimed slot classes the autocluster matches, in groups of equal rank, best first.

        Fills ``ac.groups`` and ``ac.group_keys`` (pre-job rank, job rank, post-job rank,
        reason, preemption rank); evaluated once per (autocluster, slot class).
        """
        ev = self.ev
        rows: list[tuple[tuple[float, ...], _SlotClass]] = []
        job_req = ac.ad.exprs["requirements"][1]
        matching = 0
        for cls in self.unclaimed_classes:
            sad = cls.ad
            if not ev.is_true(job_req, ac.ad, sad):
                continue
            if not ev.is_true(sad.exprs["requirements"][1], sad, ac.ad):
                continue
            matching += len(cls.slots)
            rows.append(((*self._ranks(cls, ac.ad, False), NO_PREEMPTION, -FLT_MAX), cls))
        ac.matching_slots = matching
        rows.sort(key=lambda r: (tuple(-x for x in r[0]), r[1].index))
        groups: list[list[_SlotClass]] = []
        keys: list[tuple[float, ...]] = []
        for key, cls in rows:
            if not keys or key != keys[-1]:
                groups.append([])
                keys.append(key)
            groups[-1].append(cls)
        ac.groups = groups
        ac.group_keys = keys

    def _ranks(self, cls: _SlotClass, job_ad: Ad, claimed: bool) -> tuple[float, float, float]:
        """(NEGOTIATOR_PRE_JOB_RANK, job Rank, NEGOTIATOR_POST_JOB_RANK) of a candidate."""
        ev = self.ev
        exprs = self.slot_exprs[(cls.slots[0].stanza, claimed)]
        pre, post = exprs["pre"], exprs["post"]
        return (
            _float32(ev.number(pre, cls.ad, job_ad, -math.inf)) if pre else -math.inf,
            ev.number(job_ad.exprs["rank"][1], job_ad, cls.ad, 0.0),
            _float32(ev.number(post, cls.ad, job_ad, -math.inf)) if post else -math.inf,
        )

    def _claimed_entries(self, ac: _AutoCluster, job_ad: Ad) -> _ClaimedList:
        """Claimed slot classes a job of the autocluster could preempt, best first.

        Each entry is (rank key, class, tier): RANK when the machine prefers the job to the
        one it runs, else PRIO — which still needs ``PREEMPTION_REQUIREMENTS`` for the
        submitter at hand (checked lazily, only for the candidates a job reaches).

        Requirements and the job's Rank are evaluated once per group of classes that agree
        on every slot value they read (:meth:`_claimed_groups`); the slot-side ranks once
        per class and set of job values they read (:meth:`_claimed_static`).
        """
        ev = self.ev
        job_req = job_ad.exprs["requirements"][1]
        job_rank = job_ad.exprs["rank"][1]
        matched: list[tuple[float, list[_SlotClass]]] = []
        for rep, members in self._claimed_groups(job_ad):
            sad = rep.ad
            if not ev.is_true(job_req, job_ad, sad):
                continue
            if not ev.is_true(sad.exprs["requirements"][1], sad, job_ad):
                continue
            matched.append((ev.number(job_rank, job_ad, sad, 0.0), members))
        # jobs that match the same groups with the same ranks, and show the slot-side
        # ranks the same values, get the same list (shared, with its search structures)
        sig = self._static_signature(job_ad)
        key = None
        if sig is not None and not self.reference:
            key = (tuple((id(m), r) for r, m in matched), sig)
            shared = self._entry_lists.get(key)
            if shared is not None:
                return shared
        found = _ClaimedList()
        for rank_value, members in matched:
            for cls in members:
                found.matching += len(cls.slots)
                machine_rank, pre, post, prank = self._claimed_static(cls, job_ad)
                current = cls.ad.get("currentrank")
                current_rank = float(current) if isinstance(current, (int, float)) else 0.0
                if machine_rank > current_rank:
                    tier = RANK_PREEMPTION
                elif machine_rank < current_rank:
                    found.rank_rejected += len(cls.slots)
                    continue
                elif cls.never_preempted:
                    continue
                else:
                    tier = PRIO_PREEMPTION
                found.entries.append(((pre, rank_value, post, tier, prank), cls, tier))
        found.entries.sort(key=lambda e: (tuple(-x for x in e[0]), e[1].index))
        if key is not None:
            self._entry_lists[key] = found
        return found

    def _static_signature(self, job_ad: Ad) -> tuple[object, ...] | None:
        """The job values every claimed class's slot-side ranks read (None: not known)."""
        if self._static_exprs is None:
            seen: dict[int, Compiled] = {}
            for cls in self.claimed_classes:
                exprs = self.slot_exprs[(cls.slots[0].stanza, True)]
                for expr in (cls.ad.exprs["rank"][1], exprs["pre"], exprs["post"], exprs["prank"]):
                    if expr is not None:
                        seen[expr.uid] = expr
            self._static_exprs = list(seen.values())
        out: list[object] = []
        for expr in self._static_exprs:
            proj = job_ad.projection(expr, 1)
            if proj is None:
                return None
            out.append(proj)
        return tuple(out)

    def _claimed_static(self, cls: _SlotClass, job_ad: Ad) -> tuple[float, float, float, float]:
        """(machine Rank, pre-job rank, post-job rank, ``PREEMPTION_RANK``) of a claimed
        class for a job: cached per class and the job values these expressions read."""
        ad = cls.ad
        exprs = self.slot_exprs[(cls.slots[0].stanza, True)]
        rank_expr = ad.exprs["rank"][1]
        pre, post, prank = exprs["pre"], exprs["post"], exprs["prank"]
        sig: list[object] = []
        key: tuple[object, ...] | None = None
        for expr in (rank_expr, pre, post, prank):
            if expr is None:
                continue
            proj = job_ad.projection(expr, 1)
            if proj is None:
                break
            sig.append((expr.uid, proj))
        else:
            if not self.reference:
                key = (cls.index, tuple(sig))
                found = self._slot_only.get(key)
                if found is not None:
                    return found
        ev = self.ev
        value = (
            ev.number(rank_expr, ad, job_ad, 0.0),
            _float32(ev.number(pre, ad, job_ad, -math.inf)) if pre else -math.inf,
            _float32(ev.number(post, ad, job_ad, -math.inf)) if post else -math.inf,
            ev.number(prank, ad, job_ad, -FLT_MAX) if prank else -FLT_MAX,
        )
        if key is not None:
            self._slot_only[key] = value
        return value

    def _claimed_groups(self, job_ad: Ad) -> list[tuple[_SlotClass, list[_SlotClass]]]:
        """Claimed classes grouped by the slot values read by the job's Requirements and
        Rank (their TARGET references) and by the slot's Requirements (its MY references),
        so that one evaluation with a representative decides the match and the job's rank
        for the whole group. Cached per set of job references."""
        job_refs = frozenset(job_ad.exprs["requirements"][1].target_refs) | frozenset(
            job_ad.exprs["rank"][1].target_refs
        )
        found = self._partitions.get(job_refs)
        if found is not None:
            return found
        groups: dict[tuple[object, ...], list[_SlotClass]] = {}
        for cls in self.claimed_classes:
            key = None if self.reference else self._partition_key(cls, job_refs)
            groups.setdefault(("class", cls.index) if key is None else key, []).append(cls)
        result = [(members[0], members) for members in groups.values()]
        self._partitions[job_refs] = result
        return result

    def _partition_key(
        self, cls: _SlotClass, job_refs: frozenset[str]
    ) -> tuple[object, ...] | None:
        """The values :meth:`_claimed_groups` groups by (None: the class stands alone)."""
        ad = cls.ad
        stanza = cls.slots[0].stanza
        names = set(job_refs) | set(ad.exprs["requirements"][1].my_refs)
        parts: list[object] = [stanza]
        for name in sorted(names):
            inner = ad.exprs.get(name)
            if inner is None:
                item = ad.values.get(name)
                value = None if item is None else item[1]
                parts.append((type(value).__name__, value))
                continue
            compiled = inner[1]
            if any(r in ad.exprs for r in compiled.my_refs):
                return None
            inner_values = []
            for r in compiled.my_refs:
                item = ad.values.get(r)
                value = None if item is None else item[1]
                inner_values.append((type(value).__name__, value))
            parts.append(("expr", compiled.uid, tuple(inner_values)))
        return tuple(parts)

    def _any_claimed_match(self, ac: _AutoCluster) -> bool:
        """Whether some claimed slot satisfies both Requirements (stops at the first)."""
        if ac.claimed is not None:
            return ac.claimed.matching > 0
        ev = self.ev
        job_req = ac.ad.exprs["requirements"][1]
        return any(
            ev.is_true(job_req, ac.ad, cls.ad)
            and ev.is_true(cls.ad.exprs["requirements"][1], cls.ad, ac.ad)
            for cls in self.claimed_classes
        )

    def _claimed_for(
        self, sub: _Submitter, ac: _AutoCluster, cache: dict[Any, Any]
    ) -> _ClaimedList:
        """The claimed candidates, per autocluster (or per submitter when the expressions
        read the submitter's negotiation-time attributes)."""
        if self.claimed_per_submitter:
            key = ("claimed", ac.index)
            if key not in cache:
                cache[key] = self._claimed_entries(ac, self._job_ad_for(sub, ac, cache))
            return cache[key]  # type: ignore[no-any-return]
        if ac.claimed is None:
            ac.claimed = self._claimed_entries(ac, ac.ad)
        return ac.claimed

    def _allowed_claimed(
        self, sub: _Submitter, ac: _AutoCluster, cache: dict[Any, Any]
    ) -> _Allowed:
        """The claimed candidates this submitter may take, filtered lazily: machine-rank ones,
        and those whose ``PREEMPTION_REQUIREMENTS`` allow it.

        Kept for the whole cycle per (submitter, autocluster), as HTCondor may with
        ``PREEMPTION_REQUIREMENTS_STABLE`` (the default); slots taken later are skipped by
        the walk.
        """
        key = (sub.name, self.negotiating_group, ac.index)
        found = self.allowed_claimed.get(key)
        if found is None:
            job_ad = self._job_ad_for(sub, ac, cache)

            # PREEMPTION_REQUIREMENTS reading only the submitter's attributes on the job
            # side gives one answer per (submitter, slot class) whatever the autocluster
            memo = self.preemption_memo if self.preq_reads_submitter_only else {}

            def allowed(entry: tuple[tuple[float, ...], _SlotClass, int]) -> bool:
                cls, tier = entry[1], entry[2]
                if cls.remote == sub.name:
                    return False
                if tier == RANK_PREEMPTION:
                    return True
                # the same for every autocluster of sub in this group
                key = (sub.name, self.negotiating_group, cls.index)
                ok = memo.get(key)
                if ok is None:
                    ok = memo[key] = self._preemption_allowed(sub, cls, job_ad)
                return ok

            tests: list[tuple[int, _Bound, Number]] = []
            for k, bound in enumerate(self.preq_bounds):
                if bound.job_expr is None:
                    w: Number | None = sub.eup + 0.5
                else:
                    assert bound.slot_ad is not None
                    w = _number(self.ev.evaluate(bound.job_expr, bound.slot_ad, job_ad))
                if w is not None:
                    tests.append((k, bound, w))
            decided = self.preq_covered and len(tests) == len(self.preq_bounds)
            found = _Allowed(
                self._claimed_for(sub, ac, cache), allowed, tests, sub.name, decided, self.reference
            )
            self.allowed_claimed[key] = found
        return found

    def _turn_ac(self, sub: _Submitter, ac: _AutoCluster, cache: dict[Any, Any]) -> _AutoCluster:
        """The autocluster as this submitter's turn sees it: itself, or — when a job-side
        or machine-side expression reads the submitter's ephemeral attributes — a copy
        whose ad carries them (its candidates are then ranked for this turn only, as
        HTCondor rebuilds its match list for every submitter it negotiates with)."""
        if not self.unclaimed_per_submitter:
            return ac
        key = ("turn", ac.index)
        found = cache.get(key)
        if found is None:
            found = cache[key] = _AutoCluster(ac.index, self._job_ad_for(sub, ac, cache))
        return found

    def _job_ad_for(self, sub: _Submitter, ac: _AutoCluster, cache: dict[Any, Any]) -> Ad:
        key = ("ad", ac.index)
        if key not in cache:
            cache[key] = self._submitter_job_ad(sub, ac)
        return cache[key]  # type: ignore[no-any-return]

    def _submitter_job_ad(self, sub: _Submitter, ac: _AutoCluster) -> Ad:
        """The autocluster's job ad with the submitter's ephemeral attributes (seed §3.4.3,
        reference §5.6; ``Matchmaker::negotiate``).

        ``SubmitterNegotiatingGroup`` is the group being negotiated (``<none>`` without
        group quotas and for the root), ``SubmitterAutoregroup`` whether this is the
        autoregroup round of ``<none>``. With group quotas in effect every submitter —
        those of ``<none>`` too — gets ``SubmitterGroup``, its group's usage and quota.
        """
        values = {k: v for k, v in ac.ad.values.values()}
        negotiating = self.negotiating_group
        autoregroup = self.tree is not None and self.tree.autoregroup and negotiating == ROOT
        # 7.x assigned the submitter's EUP as a C float, today's code as a double
        eup = _float32(sub.eup) if self.legacy else sub.eup
        values.update(
            {
                "SubmitterUserPrio": eup,
                "SubmittorPrio": eup,
                "SubmitterUserResourcesInUse": self.usage.get(sub.name, 0.0),
                "SubmitterNegotiatingGroup": negotiating,
                "SubmitterAutoregroup": autoregroup,
            }
        )
        if sub.group is not None:
            values["SubmitterGroup"] = sub.group
            values["SubmitterGroupResourcesInUse"] = self.group_usage.get(sub.group, 0.0)
            values["SubmitterGroupQuota"] = self.group_quota.get(sub.group, 0.0)
        exprs = {k: c.text for k, c in ac.ad.exprs.values()}
        return Ad(values, exprs, self.ev, "job", InputError)

    def _preemption_allowed(self, sub: _Submitter, cls: _SlotClass, job_ad: Ad) -> bool:
        """``PREEMPTION_REQUIREMENTS`` (MY = slot, TARGET = job), and in 7.x the hard-coded
        rule that the running user's priority be at least 0.5 worse."""
        # the cheap test first, on the accountant's (double) EUP
        if (
            self.legacy
            and cls.remote is not None
            and self.priorities(cls.remote).effective_priority < sub.eup + 0.5
        ):
            return False
        preq = self.slot_exprs[(cls.slots[0].stanza, True)]["preq"]
        # each (submitter, slot class) is decided once and memoised by the caller
        return preq is None or self.ev.is_true(preq, cls.ad, job_ad, cached=False)

    # -- negotiation ---------------------------------------------------------------------

    @staticmethod
    def _permits(used: float, allowed: float, cost: float) -> bool:
        """``SubmitterLimitPermits``: fits, or the first match of a spin may round up."""
        return used + cost <= allowed or (used <= 0 and allowed > 0)

    def _find(
        self,
        sub: _Submitter,
        ac: _AutoCluster,
        cache: dict[Any, Any],
        only_rank: bool,
        used: float,
        limit: float,
        used_unclaimed: float,
        limit_unclaimed: float,
    ) -> tuple[_Slot | None, int, str]:
        """The best slot for the next job of ``ac`` (``matchmakingAlgorithm``), or a reason.

        Walks unclaimed groups and claimed candidates together in rank order; the first
        rank group with an acceptable slot wins, ties going to the slot first in the pool.
        """
        if ac.groups is None:
            self._unclaimed_candidates(ac)
        groups, keys = ac.groups or [], ac.group_keys
        use_claimed = bool(self.claimed_classes) and not (
            self.rank_constant and (self.preq_never or only_rank or limit <= 0)
        )
        # no priority preemption can pass the limit: one allowed candidate is enough to
        # know the job was rejected for the submitter limit
        prio_blocked = not self._permits(used, limit, self.min_weight)
        claimed = self._allowed_claimed(sub, ac, cache) if use_claimed else _NO_CLAIMED
        gi, ci = ac.ptr, claimed.first_live()
        limit_rejected = policy_rejected = False
        while True:
            head = claimed.get(ci)
            if head is None and gi >= len(groups):
                break
            if head is None or (gi < len(groups) and keys[gi] > head[0]):
                best: _SlotClass | None = None
                exhausted = True
                for cls in groups[gi]:
                    if cls.head >= len(cls.slots):
                        continue
                    exhausted = False
                    if only_rank:
                        continue
                    if not self._permits(used_unclaimed, limit_unclaimed, cls.weight):
                        limit_rejected = True
                        continue
                    if best is None or cls.first_index() < best.first_index():
                        best = cls
                if exhausted and gi == ac.ptr:
                    ac.ptr = gi + 1
                gi += 1
                if best is not None:
                    slot = best.slots[best.head]
                    best.head += 1
                    return slot, NO_PREEMPTION, ""
                continue
            key = head[0]
            best = None
            best_tier = PRIO_PREEMPTION
            while head is not None and head[0] == key:
                _, cls, tier = head
                ci += 1
                head = claimed.get(ci)
                if cls.head >= len(cls.slots) or cls.remote == sub.name:
                    continue
                if only_rank and tier != RANK_PREEMPTION:
                    continue
                if tier == PRIO_PREEMPTION:
                    if prio_blocked and limit_rejected:
                        continue
                    if not self._permits(used, limit, cls.weight):
                        limit_rejected = True
                        continue
                if best is None or cls.first_index() < best.first_index():
                    best, best_tier = cls, tier
            if best is not None:
                slot = best.slots[best.head]
                best.head += 1
                return slot, best_tier, ""
            if prio_blocked and limit_rejected and self.rank_constant:
                break
        if claimed.was_refused():
            policy_rejected = True
        return (
            None,
            NO_PREEMPTION,
            self._reject_reason(
                sub, ac, cache, only_rank, limit_rejected, policy_rejected, limit_unclaimed < limit
            ),
        )

    def _reject_reason(
        self,
        sub: _Submitter,
        ac: _AutoCluster,
        cache: dict[Any, Any],
        only_rank: bool,
        limit_rejected: bool,
        policy_rejected: bool,
        group_capped: bool,
    ) -> str:
        if limit_rejected:
            return "group_quota" if group_capped else "submitter_limit"
        if only_rank:
            return "submitter_limit"
        if policy_rejected:
            return "preemption_requirements"
        if ac.matching_slots == 0 and not self._any_claimed_match(ac):
            return "no_matching_slot"
        if ac.matching_slots == 0 and self.claimed_classes:
            if self.preq_never or not self.rank_constant:
                return "preemption_requirements"
            claimed = self._claimed_for(sub, ac, cache)
            if claimed.rank_rejected and not claimed.entries:
                return "preemption_rank"
            return "preemption_requirements"
        return "matching_slots_taken"

    def _note(self, event: str, **data: Any) -> None:
        self.explain.append({"event": event, **data})

    def _record_match(
        self, sub: _Submitter, job_id: str, slot: _Slot, tier: int, group_name: str | None
    ) -> float:
        cls = self.slot_class[slot.index]
        weight = cls.weight
        preempted = None
        claim = slot.claim
        if claim is not None:  # AddMatch on a claimed resource first removes the old match
            preempted = claim.job_id
            old = claim.submitter
            self.usage[old] = max(0.0, self.usage.get(old, 0.0) - weight)
            old_group = slot.remote_group or ROOT
            self.group_usage[old_group] = max(0.0, self.group_usage.get(old_group, 0.0) - weight)
        self.usage[sub.name] = self.usage.get(sub.name, 0.0) + weight
        g = sub.group or ROOT
        self.group_usage[g] = self.group_usage.get(g, 0.0) + weight
        self.available -= 1
        self.matches.append(
            Match(job_id, sub.name, slot.name, REASON_NAMES[tier], preempted, weight, sub.group)
        )
        sub.summary.matched += 1
        if job_id == self.explain_job:
            self._note(
                "matched",
                spin=self.spins,
                slot=slot.name,
                reason=REASON_NAMES[tier],
                preempted_job=preempted,
                group=group_name,
                unclaimed_matching=self._explained_matching,
            )
        return weight

    def _negotiate(
        self,
        sub: _Submitter,
        limit: float,
        limit_unclaimed: float,
        headroom: float,
        ignore_limit: bool,
        env: dict[str, float],
        group_name: str | None,
    ) -> bool:
        """One submitter's turn (``Matchmaker::negotiate``). Returns True to resume later."""
        used = used_unclaimed = 0.0
        limited = False
        rejected: dict[object, str] = {}
        cache: dict[int, Any] = {}
        explain = self.explain_job
        for run in sub.runs:
            if not run.left:
                continue
            if run.skip_key in rejected:
                run.reason = rejected[run.skip_key]
                continue
            while run.left:
                job_id = run.head_id()
                only_rank = False
                if used >= limit:
                    if ignore_limit:
                        only_rank = True
                    else:
                        sub.stop_reason = "submitter_limit"
                        return True
                if used >= headroom:
                    sub.stop_reason = "ceiling"
                    return True
                if self.available <= 0:
                    sub.stop_reason = "pool_exhausted"
                    return True
                ac = self._turn_ac(sub, run.ac, cache)
                slot, tier, reason = self._find(
                    sub, ac, cache, only_rank, used, limit, used_unclaimed, limit_unclaimed
                )
                if slot is None:
                    run.reason = reason
                    if explain is not None and job_id == explain:
                        self._note(
                            "rejected",
                            spin=self.spins,
                            reason=reason,
                            group=group_name,
                            unclaimed_matching=ac.matching_slots,
                        )
                    if reason in ("submitter_limit", "group_quota"):
                        limited = True
                        sub.stop_reason = reason
                    rejected[run.skip_key] = reason
                    break
                self._explained_matching = ac.matching_slots
                cost = self._record_match(sub, job_id, slot, tier, group_name)
                run.advance()
                used += cost
                if slot.claim is None:
                    used_unclaimed += cost
                env["pie_left"] -= cost
        if used >= limit and not limited:
            sub.stop_reason = "submitter_limit"
        return used >= limit or limited

    def _limits(
        self,
        sub: _Submitter,
        env: dict[str, float],
        group_quota: float,
        group_name: str | None,
    ) -> tuple[float, float, float]:
        """``calculateSubmitterLimit``: (limit, limit on unclaimed slots, share)."""
        share = env["max_prio"] / (sub.eup * env["normal"])
        usage = self.usage.get(sub.name, 0.0)
        limit = max(0.0, share * env["total"] - usage)
        limit_unclaimed = limit
        if group_name is not None:
            limit_unclaimed = min(limit, max(0.0, group_quota - env["group_usage"]))
        return limit, limit_unclaimed, share

    def negotiate_with_group(
        self, subs: list[_Submitter], group_quota: float, group_name: str | None
    ) -> None:
        """The pie-spin loop for one group (``Matchmaker::negotiateWithGroup``).

        ``subs`` is the group's submitter list; submitters that are done are removed from
        it, as HTCondor removes their ads.
        """
        spin_in_group = 0
        self.negotiating_group = group_name or ROOT
        # The autoregroup round of <none> negotiates without a group name: no group cap
        capped = (
            group_name if not (self.tree and self.tree.autoregroup and group_name == ROOT) else None
        )
        while True:
            spin_in_group += 1
            self.spins += 1
            ignore_limit = spin_in_group == 1  # NEGOTIATOR_CONSIDER_PREEMPTION is on
            group_usage = self.group_usage.get(capped, 0.0) if capped else 0.0
            if not ignore_limit and capped is not None and group_usage >= group_quota:
                for sub in subs:
                    sub.stop_reason = "group_quota"
                break
            if not subs:
                break
            max_prio = max(s.eup for s in subs)
            normal = sum(max_prio / s.eup for s in {s.name: s for s in subs}.values())
            env = {
                "max_prio": max_prio,
                "normal": normal,
                "total": min(self.pool_weight, group_quota),
                "group_usage": group_usage,
                "pie_left": 0.0,
            }
            pie_left = 0.0
            for sub in subs:
                limit, _, _ = self._limits(sub, env, group_quota, capped)
                usage = self.usage.get(sub.name, 0.0)
                sub.starvation = usage / (usage + limit) if usage + limit > 0 else FLT_MAX
                pie_left += limit
            env["pie_left"] = pie_left
            if spin_in_group == 1:
                subs.sort(key=lambda s: (s.eup, s.starvation, s.name))
            pie_orig = pie_left
            count_orig = len(subs)
            keep: list[_Submitter] = []
            halted = False
            for sub in subs:
                if halted:
                    keep.append(sub)
                    continue
                if (
                    not ignore_limit
                    and capped is not None
                    and self.group_usage.get(capped, 0.0) >= group_quota
                ):
                    halted = True
                    sub.stop_reason = "group_quota"
                    keep.append(sub)
                    continue
                limit, limit_unclaimed, share = self._limits(sub, env, group_quota, capped)
                if sub.summary.share is None:
                    sub.summary.share = share
                    sub.summary.limit = share * env["total"]
                if limit > env["pie_left"]:
                    limit = env["pie_left"]
                headroom = math.inf
                if sub.ceiling >= 0:
                    headroom = max(0.0, sub.ceiling - int(self.usage.get(sub.name, 0.0)))
                if sub is self.explained_sub:
                    self._note(
                        "turn",
                        spin=self.spins,
                        group=group_name,
                        share=share,
                        limit=limit,
                        limit_unclaimed=limit_unclaimed,
                        pie_left=env["pie_left"],
                    )
                if sub.idle <= 0:
                    resume = False
                elif spin_in_group > 1 and (
                    limit < self.min_weight or env["pie_left"] < self.min_weight
                ):
                    sub.stop_reason = sub.stop_reason or "submitter_limit"
                    resume = True
                elif headroom <= 0 or headroom < self.min_weight:
                    sub.stop_reason = "ceiling"
                    resume = False
                else:
                    resume = self._negotiate(
                        sub, limit, limit_unclaimed, headroom, ignore_limit, env, group_name
                    )
                if resume:
                    keep.append(sub)
                self._tick()
            subs[:] = keep
            progressed = env["pie_left"] < pie_orig or len(subs) < count_orig
            if not progressed or not subs or self.available <= 0:
                break

    def _holds_explained(self, sub: _Submitter) -> bool:
        return self.explain_job is not None and any(r.holds(self.explain_job) for r in sub.runs)

    def _tick(self) -> None:
        if self.progress is not None:
            self.progress(len(self.matches) / max(1, len(self.slots)))

    def run(self) -> CycleResult:
        subs = list(self.submitters.values())
        explained_sub = None
        if self.explain_job is not None:
            for sub in subs:
                if self._holds_explained(sub):
                    explained_sub = sub
                    self.explained_sub = sub
                    self._note(
                        "submitter",
                        submitter=sub.name,
                        group=sub.group,
                        effective_priority=sub.eup,
                    )
        rr_times: dict[str, float] = {}
        group_limits: dict[str, int | None] = {}
        if self.tree is None:
            self.negotiate_with_group(subs, INT_MAX, None)
        else:
            tree = self.tree
            members: dict[str, list[str]] = {}
            demand: dict[str, float] = {}
            for sub in subs:
                g = sub.group or ROOT
                members.setdefault(g, []).append(sub.name)
                demand[g] = demand.get(g, 0.0) + self.demand.get(sub.name, 0.0)
            quota_pool = self.pool_weight
            prepare_groups(
                tree,
                quota_pool,
                demand,
                members,
                lambda name: self.group_usage.get(name, 0.0),
                self.knobs.quotas,
                self.rr_times,
            )
            for node in tree.groups:
                self.group_quota[node.name] = node.quota
            if tree.autoregroup:  # the root negotiates for the whole pool
                self.group_quota[ROOT] = quota_pool
            group_subs = {g.name: [self.submitters[n] for n in g.submitters] for g in tree.groups}

            def negotiate(group: GroupNode, limit: int) -> None:
                if explained_sub is not None and explained_sub in group_subs[group.name]:
                    self._note("group", group=group.name, limit=limit, quota=group.quota)
                self.negotiate_with_group(group_subs[group.name], float(limit), group.name)

            negotiate_groups(
                tree,
                quota_pool,
                self.knobs.quotas,
                lambda name: self.group_usage.get(name, 0.0),
                negotiate,
                lambda expr, values: evaluate_alone(expr, values, "[negotiator] group_sort_expr"),
            )
            rr_times = updated_rr_times(tree, self.now)
            group_limits = {g.name: g.first_limit for g in tree.groups}
            for sub in subs:  # never negotiated: its group had nothing allocated
                if sub.stop_reason is None and not group_limits.get(sub.group or ROOT):
                    sub.stop_reason = "group_quota"
        unmatched: list[UnmatchedRun] = []
        for sub in self.submitters.values():
            for run in sub.runs:
                if run.left:
                    reason = run.reason or sub.stop_reason or self._default_reason()
                    if self.explain_job is not None and run.holds(self.explain_job):
                        self._note("unmatched", reason=reason)
                    segments = run.segments()
                    last = unmatched[-1] if unmatched else None
                    if last is not None and last.submitter == sub.name and last.reason == reason:
                        last.segments.extend(segments)
                    else:
                        unmatched.append(UnmatchedRun(sub.name, reason, segments))
        return CycleResult(
            matches=self.matches,
            submitters=sorted(
                (s.summary for s in self.submitters.values()),
                key=lambda s: (s.effective_priority, s.name),
            ),
            unmatched=unmatched,
            explain=self.explain,
            pool_size=self.pool_weight,
            spins=self.spins,
            evaluations=self.ev.evaluations,
            rr_times=rr_times,
            group_limits=group_limits,
        )

    def _default_reason(self) -> str:
        return "pool_exhausted" if self.available <= 0 else "not_reached"


def negotiate_cycle(
    machines: Sequence[MachineSpec],
    claims: Iterable[Claim],
    jobs: Iterable[Job | JobBatch],
    submitter_of: Callable[[Job], str],
    priorities: Callable[[str], SubmitterPrio],
    tree: GroupTree | None,
    knobs: NegotiatorKnobs,
    now: float,
    *,
    explain_job: str | None = None,
    rr_times: Mapping[str, float] | None = None,
    progress: Callable[[float], None] | None = None,
    reference: bool = False,
) -> CycleResult:
    """Run one negotiation cycle and return its matches, summaries and unmatched jobs.

    Args:
        machines: the ``[[machines]]`` stanzas (expanded to slots here).
        claims: slots currently held by running jobs.
        jobs: the queue (jobs or batches of identical jobs); idle jobs negotiate, running
            jobs count as demand.
        submitter_of: the accountant's submitter name of a job (``owner@domain``,
            ``group.owner@domain``, ``nice-user.owner@domain``).
        priorities: the accountant's view of a submitter at ``now``.
        tree: the group tree, or None without groups.
        knobs: negotiator settings.
        now: the cycle time (epoch seconds).
        explain_job: a job id whose story is recorded in ``CycleResult.explain``.
        rr_times: persisted group round-robin times.
        progress: called with the fraction of slots matched, now and then.
        reference: search claimed slots the plain way — every class on its own, every
            candidate's ``PREEMPTION_REQUIREMENTS`` evaluated, no pruning — for tests
            that check the fast path gives the same cycle.

    Raises:
        ConfigError: a machine or negotiator expression does not parse.
        InputError: a job expression does not parse.
    """
    cycle = _Cycle(
        machines,
        claims,
        jobs,
        submitter_of,
        priorities,
        tree,
        knobs,
        now,
        explain_job,
        progress,
        rr_times or {},
        reference,
    )
    return cycle.run()


def pool_size(
    machines: Sequence[MachineSpec], claims: Iterable[Claim], knobs: NegotiatorKnobs, now: float
) -> float:
    """The pool size group quotas share: Σ slot weights with weights on, else slot count.

    Raises:
        ConfigError: a machine or negotiator expression does not parse.
    """
    cycle = _Cycle(
        machines,
        claims,
        [],
        lambda job: job.owner,
        lambda name: SubmitterPrio(0.5),
        None,
        knobs,
        now,
        None,
        None,
        {},
    )
    return cycle.pool_weight
