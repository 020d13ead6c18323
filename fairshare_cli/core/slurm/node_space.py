"""When a one-node job's CPUs are free: ``fs simulate --scheduler slurm``'s nodes over time.

Slurm's backfill (``_attempt_backfill`` in ``src/plugins/sched/backfill/backfill.c``) builds
a ``node_space`` map once a pass: a time-ordered list of (begin, end, available nodes), from
the running jobs' planned ends, updated by each reservation (``_add_reservation``); a tested
job walks that list instead of asking every node. The simulator's nodes hold several jobs
each (CPUs, not whole nodes), so the equivalent here is an index kept as jobs start and end:

* a node's free CPUs only rise at its planned ends, so without reservations the earliest
  time it has ``per`` CPUs free (for any length) is a number of its own: ``-inf`` (free
  now), the planned end that frees them, or ``inf`` (:func:`plain_key`);
* per (CPUs per node, partitions) a heap of (that time, config order) over the nodes that
  could take such a job, updated when a job starts or ends on a node (entries of an older
  node version are dropped when they come up): its top answers "the first node in config
  order with the CPUs free now" (the main scheduler) in O(log n);
* in a backfill pass the time of a node is a lower bound of its earliest start (a
  reservation only takes CPUs); a node that carries one of the pass's reservations is
  looked at again when it comes up: first the earliest instant it has the CPUs free with
  its reservations (a tighter bound, kept for the pass), then, if it is still the best
  candidate, the full check over the job's time limit (:meth:`Profile.earliest`, on the
  node's free CPUs over time, made once a pass and reservation count). The search
  stops when the next bound is not below the best start found (ties: config order).

Tuned for ``benchmarks/bench_simulate.py --case backfill-week``. A job of several nodes, or
spread over them, is placed by trying every node at every time (:func:`earliest_on_many`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

INF = math.inf

#: A backfill reservation on one node: CPUs held from, to.
Reservation = tuple[float, float, int]

#: A heap entry: (time, node index, node version, pass tag); the pass tag is ``PLAIN`` for
#: a node's plain time, else (pass number, reservations on the node) for a time that counts
#: that pass's reservations.
Entry = tuple[float, int, int, tuple[int, int]]
PLAIN = (0, 0)


@dataclass
class Node:
    """One simulated node: its CPUs, partitions, CPUs in use and running jobs."""

    name: str
    cpus: int
    partitions: frozenset[str]
    used: int = 0
    #: (planned end, cpus) of the jobs running here (for backfill's map)
    planned: dict[str, tuple[float, int]] = field(default_factory=dict)


def plain_key(node: Node, per: int, releases: Sequence[tuple[float, int]] | None = None) -> float:
    """The earliest time ``per`` of the node's CPUs are free with no reservation:
    ``-inf`` when they are free now, else the planned end that frees them (``inf``: never).
    ``releases``: the node's planned (end, cpus), sorted (made here when not given)."""
    free = node.cpus - node.used
    if free >= per:
        return -INF
    for end, cpus in releases if releases is not None else sorted(node.planned.values()):
        free += cpus
        if free >= per:
            return end
    return INF


class Profile:
    """A node's free CPUs from ``t`` on with some reservations: ``free[k]`` from
    ``times[k]`` (``times[0]`` is ``t``) until the next time, the last for ever."""

    __slots__ = ("free", "times")

    def __init__(self, node: Node, t: float, reserved: Sequence[Reservation]) -> None:
        change: dict[float, int] = {}
        free = node.cpus
        for end, cpus in node.planned.values():
            if end > t:
                free -= cpus
                if end < INF:
                    change[end] = change.get(end, 0) + cpus
        for a, b, cpus in reserved:
            if a >= b:  # (holds nothing)
                continue
            if a <= t < b:
                free -= cpus
            elif a > t and a < INF:
                change[a] = change.get(a, 0) - cpus
            if t < b < INF:
                change[b] = change.get(b, 0) + cpus
        self.times = [t]
        self.free = [free]
        for when in sorted(change):
            free += change[when]
            self.times.append(when)
            self.free.append(free)

    def first(self, per: int) -> float:
        """The earliest instant with ``per`` CPUs free (``inf``: none)."""
        for k, free in enumerate(self.free):
            if free >= per:
                return self.times[k]
        return INF

    def earliest(self, per: int, length: float) -> float:
        """The earliest time from which ``per`` CPUs are free for ``length`` (``inf``:
        none). It is ``t`` or a rise of free CPUs (a planned or reservation end): a start
        at a time with no rise works only if the time before it does too."""
        times, free = self.times, self.free
        n = len(times)
        k = 0
        while k < n:
            if free[k] < per:
                k += 1
                continue
            until = times[k] + length
            j = k + 1
            while j < n and times[j] < until and free[j] >= per:
                j += 1
            if j == n or times[j] >= until:
                return times[k]
            k = j + 1  # (no start before the shortfall at j works)
        return INF


def free_during(node: Node, lo: float, hi: float, reserved: Sequence[Reservation]) -> int:
    """The fewest CPUs free on the node at any moment of ``[lo, hi)`` (free CPUs only fall
    at a reservation's start)."""
    points = {lo} | {a for a, _, _ in reserved if lo < a < hi}
    worst = node.cpus
    for p in points:
        busy = sum(c for end, c in node.planned.values() if end > p)
        busy += sum(c for a, b, c in reserved if a <= p < b)
        worst = min(worst, node.cpus - busy)
    return worst


#: Where a job's CPUs go: (node, CPUs) pairs.
Alloc = list[tuple[Node, int]]


def spread(nodes: Iterable[Node], cpus: int, free: Callable[[Node], int]) -> Alloc:
    """``cpus`` CPUs over ``nodes``, in order, each giving what it has ``free`` (until there
    are enough): a job that names no node count and that no one node could hold, as
    slurmctld spreads ``sbatch -n`` over as many nodes as it needs ([] when too few)."""
    alloc: Alloc = []
    for node in nodes:
        take = min(free(node), cpus)
        if take > 0:
            alloc.append((node, take))
            cpus -= take
            if not cpus:
                return alloc
    return []


def nodes_of(nodes: Iterable[Node], parts: Iterable[str]) -> list[Node]:
    """The nodes (in config order) of the partitions ``parts`` (none: every node)."""
    parts = tuple(parts)
    return [n for n in nodes if not parts or not n.partitions.isdisjoint(parts)]


def place(
    nodes: Sequence[Node], want: int, per: int, spread_cpus: int, free: Callable[[Node], int]
) -> Alloc:
    """Where a job goes on ``nodes`` (in order), each with ``free`` CPUs: the first ``want``
    nodes with ``per`` CPUs free, or with ``spread_cpus``, those CPUs :func:`spread`
    ([] when they do not fit)."""
    if spread_cpus:
        return spread(nodes, spread_cpus, free)
    chosen = [(n, per) for n in nodes if free(n) >= per][:want]
    return chosen if len(chosen) == want else []


def earliest_on_many(
    nodes: Sequence[Node],
    parts: Sequence[str],
    want: int,
    per: int,
    spread_cpus: int,
    t: float,
    length: float,
    reserved: Mapping[str, Sequence[Reservation]],
) -> tuple[float, Alloc]:
    """The earliest time (``t`` or a planned or reservation end) from which a job has CPUs
    free for ``length`` on nodes of ``parts``, and where: ``want`` nodes of ``per`` CPUs
    each, or with ``spread_cpus``, those CPUs :func:`spread` (``inf``, []: never)."""
    candidates = nodes_of(nodes, parts)
    times = {t}
    for node in nodes:
        times.update(end for end, _ in node.planned.values() if t < end < INF)
    for held in reserved.values():
        times.update(to for _, to, _ in held if t < to < INF)
    for when in sorted(times):

        def free(n: Node, when: float = when) -> int:
            return free_during(n, when, when + length, reserved.get(n.name, ()))

        alloc = place(candidates, want, per, spread_cpus, free)
        if alloc:
            return when, alloc
    return INF, []


def reservation(when: float, length: float, res: int, down: bool) -> tuple[float, float]:
    """A backfill reservation from ``when`` for ``length`` seconds, at whole seconds on the
    ``bf_resolution`` (``res``) grid: the start rounded down; the end rounded up
    (``_set_slot_time``, today's Slurm) or, ``down``, down (22.05's ``_attempt_backfill``)."""
    start = math.floor(when) // res * res
    end = when + length
    if math.isfinite(end):
        end = (math.floor(end) + (0 if down else res - 1)) // res * res
    return start, end


def takes(node: Node, per: int, parts: Iterable[str]) -> bool:
    """Whether the node could ever run ``per`` CPUs of a job of ``parts`` (none: any)."""
    return node.cpus >= per and bool(nodes_of((node,), parts))


class _Heap:
    """The nodes that could take ``per`` CPUs of a job of some partitions, by plain key."""

    def __init__(self, space: NodeSpace, per: int, members: list[int]) -> None:
        self.per = per
        self.members = frozenset(members)
        self.size = len(members)
        self.entries: list[Entry] = []
        self.rebuild(space)

    def rebuild(self, space: NodeSpace) -> None:
        nodes, version = space.nodes, space.version
        self.entries = [(plain_key(nodes[i], self.per), i, version[i], PLAIN) for i in self.members]
        heapq.heapify(self.entries)


class NodeSpace:
    """The pool's nodes (config order) with, per (CPUs, partitions), a heap of the
    earliest time each node has those CPUs free; see the module docstring."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.index = {n.name: i for i, n in enumerate(nodes)}
        self.version = [0] * len(nodes)
        self.heaps: dict[tuple[int, frozenset[str]], _Heap] = {}
        self.asked: dict[tuple[int, Sequence[str]], _Heap] = {}  # the same, as asked for
        self.by_node: list[list[_Heap]] = [[] for _ in nodes]
        self.pass_no = 0
        self.live = 0  # the pass under way (0: none)
        self.t = 0.0
        self.reserved: dict[str, list[Reservation]] = {}
        self.displaced: list[tuple[_Heap, Entry]] = []  # plain entries a pass set aside
        #: the pass's profiles of nodes with reservations: index -> (version, count, profile)
        self.profiles: dict[int, tuple[int, int, Profile]] = {}
        #: nodes the main scheduler's pass may no longer use, and the entries it set aside
        self.closed: set[int] = set()
        self.set_aside: list[tuple[_Heap, Entry]] = []

    def _heap(self, per: int, parts: Sequence[str]) -> _Heap:
        made = self.asked.get((per, parts))
        if made is not None:
            return made
        key = (per, frozenset(parts))
        heap = self.heaps.get(key)
        if heap is None:
            members = [i for i, n in enumerate(self.nodes) if takes(n, per, parts)]
            heap = self.heaps[key] = _Heap(self, per, members)
            for i in members:
                self.by_node[i].append(heap)
        self.asked[(per, parts)] = heap
        return heap

    def changed(self, node: Node) -> None:
        """A job started or ended on ``node``: its times are computed again."""
        i = self.index[node.name]
        self.version[i] += 1
        ver = self.version[i]
        releases = sorted(node.planned.values())
        for heap in self.by_node[i]:
            heapq.heappush(heap.entries, (plain_key(node, heap.per, releases), i, ver, PLAIN))
            if not self.live and len(heap.entries) > 4 * heap.size + 64:
                heap.rebuild(self)

    def first_free(self, per: int, parts: Sequence[str]) -> Node | None:
        """The first node in config order with ``per`` CPUs free now (no reservation)."""
        heap = self._heap(per, parts)
        entries, version, closed = heap.entries, self.version, self.closed
        while entries:
            key, i, ver, tag = entries[0]
            if ver != version[i] or tag != PLAIN:  # (a pass's time outlives no pass)
                heapq.heappop(entries)
                continue
            if i in closed:
                self.set_aside.append((heap, heapq.heappop(entries)))
                continue
            return self.nodes[i] if key == -INF else None
        return None

    def close(self, nodes: Iterable[Node]) -> None:
        """``nodes`` are no longer the main scheduler's to use in this pass: a partition of
        theirs failed (``_schedule`` takes its nodes out of ``avail_node_bitmap``)."""
        self.closed.update(self.index[n.name] for n in nodes)

    def is_closed(self, node: Node) -> bool:
        """Whether :meth:`close` closed ``node`` in this pass."""
        return bool(self.closed) and self.index[node.name] in self.closed

    def end_main_pass(self) -> None:
        """The main scheduler's pass is over: every node is open again, and the entries
        :meth:`first_free` set aside come back (those no start has made stale)."""
        version = self.version
        for heap, entry in self.set_aside:
            if entry[2] == version[entry[1]]:
                heapq.heappush(heap.entries, entry)
        self.set_aside = []
        self.closed = set()

    # -- a backfill pass ---------------------------------------------------------------

    def begin_pass(self, t: float, reserved: dict[str, list[Reservation]]) -> None:
        """A backfill pass at ``t`` with its reservations (by node name, filled as it goes)."""
        self.pass_no += 1
        self.live = self.pass_no
        self.t = t
        self.reserved = reserved
        self.profiles = {}

    def end_pass(self) -> None:
        """The pass's reservations are gone: the plain entries it set aside come back."""
        version = self.version
        for heap, entry in self.displaced:
            if entry[2] == version[entry[1]]:
                heapq.heappush(heap.entries, entry)
        self.displaced = []
        self.live = 0
        self.reserved = {}
        self.profiles = {}
        for heap in self.heaps.values():
            if len(heap.entries) > 4 * heap.size + 64:
                heap.rebuild(self)

    def earliest(self, per: int, parts: Sequence[str], length: float) -> tuple[float, Node | None]:
        """The earliest start of a one-node job of ``per`` CPUs and time limit ``length`` in
        this pass, and its node: the least (start, config order) over the nodes."""
        heap = self._heap(per, parts)
        entries, version, t = heap.entries, self.version, self.t
        best, best_i = INF, len(self.nodes)
        looked: list[Entry] = []
        while entries:
            entry = entries[0]
            key, i, ver, tag = entry
            if ver != version[i] or (tag != PLAIN and tag[0] != self.live):
                heapq.heappop(entries)
                continue
            bound = t if key == -INF else key  # (other times are after t)
            if bound == INF or bound > best or (bound == best and i > best_i):
                break
            heapq.heappop(entries)
            held = self.reserved.get(self.nodes[i].name)
            if held and tag != (self.pass_no, len(held)):
                self._refine(heap, entry, held)
                continue
            looked.append(entry)
            when = self._profile(i, held).earliest(per, length) if held else bound
            if when < best or (when == best < INF and i < best_i):
                best, best_i = when, i
        for entry in looked:
            heapq.heappush(entries, entry)
        return (best, self.nodes[best_i]) if best_i < len(self.nodes) else (INF, None)

    def _refine(self, heap: _Heap, entry: Entry, held: Sequence[Reservation]) -> None:
        """A node with reservations came up: its time again, counting them (for this pass)."""
        _, i, ver, tag = entry
        if tag == PLAIN:
            self.displaced.append((heap, entry))
        key = self._profile(i, held).first(heap.per)
        if key == self.t:
            key = -INF  # free now: ordered with the plain times of nodes free now
        heapq.heappush(heap.entries, (key, i, ver, (self.pass_no, len(held))))

    def _profile(self, i: int, held: Sequence[Reservation]) -> Profile:
        """Node ``i``'s free CPUs over time in this pass, with its reservations ``held``."""
        ver, count = self.version[i], len(held)
        made = self.profiles.get(i)
        if made is None or made[0] != ver or made[1] != count:
            made = self.profiles[i] = (ver, count, Profile(self.nodes[i], self.t, held))
        return made[2]


class Running(Protocol):
    """A running job as the simulator holds it: where it runs."""

    @property
    def nodes(self) -> Alloc: ...


#: slurm.conf's ``KillWait`` at its default (``DEFAULT_KILL_WAIT``), seconds.
KILL_WAIT = 30
#: A year in seconds (``YEAR_SECONDS``; 22.05 and 26.05 alike).
_YEAR = 365 * 24 * 60 * 60


def guessed_end(
    end: float, limit: float | None, t: float, over_time: float, kill_wait: float = KILL_WAIT
) -> float:
    """When backfill plans a job still running at ``t`` past its planned ``end`` to end
    (``_guess_job_end`` in ``cons_tres``, 22.05 and 26.05 alike): ``KillWait`` after that
    end; with an ``OverTimeLimit`` (``over_time``, seconds) that too; with an UNLIMITED one
    (``inf``) its time limit (``limit``, seconds) from now, a year for none (None or
    ``inf``); at the least a second from now."""
    if over_time == 0:
        guess = end + kill_wait
    elif math.isinf(over_time):
        guess = t + (limit if limit and not math.isinf(limit) else _YEAR)
    else:
        guess = end + kill_wait + over_time
    return guess if guess > t else t + 1


class OverdueEnds:
    """The planned ends of running jobs that may outlive them (a job of no limit, planned
    a year after its start, or one ``OverTimeLimit`` lets run past its limit): backfill
    then plans such a job to end when :func:`guessed_end` guesses."""

    def __init__(self, space: NodeSpace, kill_wait: float = KILL_WAIT) -> None:
        self.space = space
        self.kill_wait = kill_wait
        self.heap: list[tuple[float, str]] = []  # (planned end, job id), to come
        #: job id -> (time limit, over-time limit) of the jobs in ``heap`` and ``past``
        self.limits: dict[str, tuple[float | None, float]] = {}
        self.past: dict[str, float] = {}  # job id -> its planned end, gone by

    def add(self, end: float, job_id: str, limit: float | None = None, over: float = 0.0) -> None:
        """A job started, planned to end at ``end`` under time ``limit`` (None: UNLIMITED)
        and over-time limit ``over`` (seconds; ``inf``: UNLIMITED)."""
        heapq.heappush(self.heap, (end, job_id))
        self.limits[job_id] = (limit, over)

    def replan(self, t: float, running: Mapping[str, Running]) -> None:
        """Before a backfill pass at ``t``: the jobs still ``running`` (by id) past their
        planned end get the guessed one."""
        while self.heap and self.heap[0][0] <= t:
            end, job_id = heapq.heappop(self.heap)
            self.past[job_id] = end
        for job_id, end in list(self.past.items()):
            run = running.get(job_id)
            if run is None:
                del self.past[job_id]
                self.limits.pop(job_id, None)
                continue
            limit, over = self.limits.get(job_id, (None, 0.0))
            guess = guessed_end(end, limit, t, over, self.kill_wait)
            for node, cpus in run.nodes:
                node.planned[job_id] = (guess, cpus)
                self.space.changed(node)
