"""The node space equals the plain search: every node, in config order, asked for the
earliest time its CPUs are free (``_attempt_backfill``'s walk of ``node_space`` in
``src/plugins/sched/backfill/backfill.c``, at CPU level) and, for the main scheduler, the
first node with the CPUs free now (``schedule()`` in ``src/slurmctld/job_scheduler.c``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.node_space import (
    Node,
    NodeSpace,
    OverdueEnds,
    Profile,
    Reservation,
    guessed_end,
    plain_key,
)

T = 1000.0
INF = math.inf


def _plain_free_during(node: Node, lo: float, hi: float, held: Sequence[Reservation]) -> int:
    """The fewest CPUs free at any moment of ``[lo, hi)``, moment by moment."""
    moments = {lo} | {a for a, _, _ in held if lo < a < hi}
    free = []
    for p in moments:
        busy = sum(c for end, c in node.planned.values() if end > p)
        busy += sum(c for a, b, c in held if a <= p < b)
        free.append(node.cpus - busy)
    return min(free)


def _plain_earliest(
    nodes: list[Node], per: int, parts: tuple[str, ...], length: float, t: float, reserved: Any
) -> tuple[float, str | None]:
    """Every node of the partitions, in config order, at ``t`` and at every planned end and
    reservation end of its own: the earliest start, ties to the first node."""
    best, found = INF, None
    for node in nodes:
        if node.cpus < per or (parts and node.partitions.isdisjoint(parts)):
            continue
        held = reserved.get(node.name, [])
        times = {t} | {e for e, _ in node.planned.values() if t < e < INF}
        times |= {b for _, b, _ in held if t < b < INF}
        for when in sorted(times):
            if _plain_free_during(node, when, when + length, held) >= per:
                if when < best:
                    best, found = when, node.name
                break
    return best, found


def _plain_first_free(nodes: list[Node], per: int, parts: tuple[str, ...]) -> str | None:
    for node in nodes:
        if (not parts or not node.partitions.isdisjoint(parts)) and node.cpus - node.used >= per:
            return node.name
    return None


def test_plain_key_is_the_end_that_frees_enough_cpus() -> None:
    """8 CPUs, jobs of 4 CPUs planned to end at T+300 and 2 CPUs at T+600: 2 free now; 2
    CPUs now (-inf), 6 from T+300 (2 + 4), 8 from T+600; 9 never (more than the node)."""
    node = Node("n0", 8, frozenset({"batch"}), used=6)
    node.planned = {"a": (T + 300, 4), "b": (T + 600, 2)}
    assert [plain_key(node, per) for per in (2, 3, 6, 7, 8, 9)] == [
        -INF,
        T + 300,
        T + 300,
        T + 600,
        T + 600,
        INF,
    ]


def test_profile_counts_reservations() -> None:
    """The node above with 4 CPUs reserved from T+300 to T+900: free CPUs are 2 now, still
    2 at T+300 (job a's 4 go to the reservation), 4 at T+600 (8 - 4 reserved), 8 at T+900."""
    node = Node("n0", 8, frozenset({"batch"}), used=6)
    node.planned = {"a": (T + 300, 4), "b": (T + 600, 2)}
    held = [(T + 300, T + 900, 4)]
    profile = Profile(node, T, held)
    assert (profile.times, profile.free) == ([T, T + 300, T + 600, T + 900], [2, 2, 4, 8])
    got = [profile.first(per) for per in (2, 3, 4, 5, 8)]
    assert got == [T, T + 600, T + 600, T + 900, T + 900]


def test_profile_earliest_needs_the_whole_time_limit() -> None:
    """The node above, 2 CPUs held from T+200 to T+400 instead: free CPUs 2 now, 0 from
    T+200 (the reservation), 4 from T+300 (job a ends), 6 from T+400, 8 from T+600. Two CPUs
    for 100 s fit now (T .. T+100); for 300 s not now (T+200 has none), from T+300; six
    CPUs from T+400 for any length; nine never."""
    node = Node("n0", 8, frozenset({"batch"}), used=6)
    node.planned = {"a": (T + 300, 4), "b": (T + 600, 2)}
    profile = Profile(node, T, [(T + 200, T + 400, 2)])
    assert profile.free == [2, 0, 4, 6, 8]
    assert profile.earliest(2, 100.0) == T
    assert profile.earliest(2, 300.0) == T + 300
    assert profile.earliest(6, INF) == T + 400
    assert profile.earliest(9, 1.0) == INF


@st.composite
def _pools(draw: Any) -> list[Node]:
    nodes = []
    for i in range(draw(st.integers(1, 6))):
        cpus = draw(st.integers(1, 8))
        parts = draw(st.sampled_from([{"a"}, {"b"}, {"a", "b"}]))
        nodes.append(Node(f"n{i}", cpus, frozenset(parts)))
    return nodes


ENDS = [T + 60, T + 120, T + 300, T + 600, INF]
#: one step: ("start", node, cpus, end) | ("end", node) | ("pass",) | ("reserve", node,
#: from, length, cpus) | ("ask", cpus, parts, length) | ("fit", cpus, parts)
_steps = st.lists(
    st.one_of(
        st.tuples(st.just("start"), st.integers(0, 5), st.integers(1, 8), st.sampled_from(ENDS)),
        st.tuples(st.just("end"), st.integers(0, 5)),
        st.tuples(st.just("pass")),
        st.tuples(
            st.just("reserve"),
            st.integers(0, 5),
            st.sampled_from([T - 30, T, T + 60, T + 180, T + 300]),
            st.sampled_from([60.0, 240.0, 600.0, INF]),
            st.integers(1, 8),
        ),
        st.tuples(
            st.just("ask"),
            st.integers(1, 8),
            st.sampled_from([(), ("a",), ("b",), ("a", "b")]),
            st.sampled_from([60.0, 200.0, 600.0, INF]),
        ),
        st.tuples(st.just("fit"), st.integers(1, 8), st.sampled_from([("a",), ("b",), ()])),
    ),
    max_size=40,
)


def _start(space: NodeSpace, node: Node, cpus: int, end: float, k: int) -> None:
    if node.used + cpus <= node.cpus:
        node.used += cpus
        node.planned[f"j{k}"] = (end, cpus)
        space.changed(node)


def _end(space: NodeSpace, node: Node) -> None:
    if node.planned:
        job = min(node.planned)
        node.used -= node.planned.pop(job)[1]
        space.changed(node)


@settings(max_examples=400, deadline=None)
@given(_pools(), _steps)
def test_node_space_equals_the_plain_search(
    nodes: list[Node], steps: list[tuple[Any, ...]]
) -> None:
    """Jobs start and end on random nodes, backfill passes come and go with reservations,
    and at every question the node space answers as the plain search does."""
    space = NodeSpace(nodes)
    reserved: dict[str, list[Reservation]] = {}
    for k, step in enumerate(steps):
        kind = step[0]
        if kind == "start":
            _start(space, nodes[step[1] % len(nodes)], step[2], step[3], k)
        elif kind == "end":
            _end(space, nodes[step[1] % len(nodes)])
        elif kind == "pass":
            if space.live:
                space.end_pass()
                reserved = {}
            else:
                space.begin_pass(T, reserved)
        elif kind == "reserve" and space.live:
            node = nodes[step[1] % len(nodes)]
            held = (step[2], step[2] + step[3], min(step[4], node.cpus))
            reserved.setdefault(node.name, []).append(held)
        elif kind == "ask" and space.live:
            when, node = space.earliest(step[1], step[2], step[3])
            got = (when, node.name if node is not None else None)
            assert got == _plain_earliest(nodes, step[1], step[2], step[3], T, reserved)
        elif kind == "fit" and not space.live:
            node = space.first_free(step[1], step[2])
            assert (node.name if node else None) == _plain_first_free(nodes, step[1], step[2])


@dataclass
class _Running:
    nodes: list[tuple[Node, int]]


def test_overdue_ends_are_guessed_as_cons_tres_guesses() -> None:
    """``_guess_job_end`` (OverTimeLimit 0): the planned end + KillWait (30 s), or now + 1
    when that has passed too; a job that ended is forgotten."""
    node = Node("n0", 4, frozenset())
    node.used = 1
    node.planned["1"] = (1000.0, 1)
    ends = OverdueEnds(NodeSpace([node]))
    ends.add(1000.0, "1")
    running = {"1": _Running([(node, 1)])}
    ends.replan(999.0, running)
    assert node.planned["1"] == (1000.0, 1)
    ends.replan(1010.0, running)
    assert node.planned["1"] == (1030.0, 1)
    ends.replan(1060.0, running)
    assert node.planned["1"] == (1061.0, 1)
    ends.replan(1120.0, {})
    assert ends.past == {}


@pytest.mark.parametrize(
    ("over_time", "kill_wait", "limit", "guess"),
    [
        # OverTimeLimit 0: the end (1000) + KillWait
        pytest.param(0.0, 30, 600.0, 1030.0, id="kill-wait"),
        # 20 minutes: 1000 + 60 + 1200
        pytest.param(1200.0, 60, 600.0, 2260.0, id="over-time-limit"),
        # UNLIMITED: now (1010) + the time limit, or a year for none
        pytest.param(math.inf, 30, 600.0, 1610.0, id="unlimited"),
        pytest.param(math.inf, 30, None, 1010.0 + 365 * 86400, id="unlimited-no-limit"),
        # a guess gone by: a second from now
        pytest.param(0.0, 0, 600.0, 1011.0, id="gone-by"),
    ],
)
def test_guessed_end_is_cons_tres_guess(
    over_time: float, kill_wait: int, limit: float | None, guess: float
) -> None:
    """``_guess_job_end`` (cons_tres, 22.05 and 26.05 alike) for a job planned to end at
    1000, asked at 1010."""
    assert guessed_end(1000.0, limit, 1010.0, over_time, kill_wait) == guess
