"""Backfill's earliest start: the node space (one node) and the search of a job of several
nodes equal trying every node at every time."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.operations.sim_slurm import SlurmSim
from fairshare_cli.core.slurm.node_space import Node, NodeSpace, Reservation

T = 1000.0
INF = math.inf


def _free_during(node: Node, lo: float, hi: float, held: list[Reservation]) -> int:
    """The fewest CPUs free at any moment of ``[lo, hi)``, moment by moment."""
    moments = {lo} | {a for a, _, _ in held if lo < a < hi}
    free = []
    for p in moments:
        busy = sum(c for end, c in node.planned.values() if end > p)
        busy += sum(c for a, b, c in held if a <= p < b)
        free.append(node.cpus - busy)
    return min(free)


def _reference(
    nodes: list[Node], per: int, want: int, length: float, t: float, reserved: dict[str, Any]
) -> tuple[float, list[str]]:
    """The plain search: every planned end and reservation end of the cluster (and ``t``)
    in order; the first time ``want`` nodes are free for ``length``; the first in order."""
    times = {t}
    for node in nodes:
        times.update(end for end, _ in node.planned.values() if t < end < INF)
    for held in reserved.values():
        times.update(to for _, to, _ in held if t < to < INF)
    for when in sorted(times):
        chosen = [
            n.name
            for n in nodes
            if _free_during(n, when, when + length, reserved.get(n.name, [])) >= per
        ]
        if len(chosen) >= want:
            return when, chosen[:want]
    return INF, []


@st.composite
def clusters(draw: Any) -> tuple[list[Node], dict[str, Any]]:
    nodes = []
    reserved: dict[str, list[tuple[float, float, int]]] = {}
    for i in range(draw(st.integers(1, 5))):
        cpus = draw(st.integers(1, 8))
        node = Node(f"n{i}", cpus, frozenset({"batch"}))
        for k in range(draw(st.integers(0, 4))):
            c = draw(st.integers(1, cpus))
            if node.used + c > cpus:
                break
            node.used += c
            end = draw(st.sampled_from([T + 60, T + 120, T + 300, T + 600, INF]))
            node.planned[f"j{i}.{k}"] = (end, c)
        for _ in range(draw(st.integers(0, 3))):
            a = draw(st.sampled_from([T, T + 60, T + 180, T + 300]))
            b = a + draw(st.sampled_from([60.0, 240.0, 600.0, INF]))
            reserved.setdefault(node.name, []).append((a, b, draw(st.integers(1, cpus))))
        nodes.append(node)
    return nodes, reserved


@settings(max_examples=300, deadline=None)
@given(
    clusters(),
    st.integers(1, 8),
    st.integers(1, 2),
    st.sampled_from([60.0, 200.0, 600.0, INF]),
)
def test_earliest_equals_the_plain_search(
    cluster: tuple[list[Node], dict[str, Any]], cpus: int, want: int, length: float
) -> None:
    nodes, reserved = cluster
    sim = SlurmSim.__new__(SlurmSim)
    sim.config = Config()  # ("batch" not in it: no MaxTime, a job of no limit plans a year)
    sim.fit = NodeFit(sim.config)
    sim.nodes = nodes
    sim.space = NodeSpace(nodes)
    sim.space.begin_pass(T, reserved)
    job = Job(
        id="9",
        owner="u",
        request_cpus=cpus * want,
        num_nodes=want,
        time_limit=None if length == INF else length,
    )
    when, chosen = sim._earliest(job, ("batch",), T, reserved)
    assert (when, [n.name for n, _ in chosen]) == _reference(nodes, cpus, want, length, T, reserved)
    assert all(c == cpus for _, c in chosen)


def _spread_reference(
    nodes: list[Node], cpus: int, length: float, t: float, reserved: dict[str, Any]
) -> tuple[float, list[tuple[str, int]]]:
    """The plain search for a job spread over nodes: the first time (as ``_reference``) the
    nodes' CPUs free for ``length`` add up to ``cpus``; taken from the nodes in order."""
    times = {t}
    for node in nodes:
        times.update(end for end, _ in node.planned.values() if t < end < INF)
    for held in reserved.values():
        times.update(to for _, to, _ in held if t < to < INF)
    for when in sorted(times):
        free = [
            (n.name, _free_during(n, when, when + length, reserved.get(n.name, []))) for n in nodes
        ]
        if sum(max(f, 0) for _, f in free) >= cpus:
            out, left = [], cpus
            for name, f in free:
                if f > 0 and left:
                    out.append((name, min(f, left)))
                    left -= min(f, left)
            return when, out
    return INF, []


@settings(max_examples=300, deadline=None)
@given(clusters(), st.integers(9, 30), st.sampled_from([60.0, 200.0, 600.0, INF]))
def test_a_job_no_node_holds_spreads_at_the_plain_search_time(
    cluster: tuple[list[Node], dict[str, Any]], cpus: int, length: float
) -> None:
    """A job of more CPUs than any node (at most 8 here) that names no node count."""
    nodes, reserved = cluster
    sim = SlurmSim.__new__(SlurmSim)
    sim.config = Config()  # ("batch" not in it: no MaxTime, a job of no limit plans a year)
    sim.fit = NodeFit(sim.config)
    sim.nodes = nodes
    sim.largest = {}
    sim.space = NodeSpace(nodes)
    sim.space.begin_pass(T, reserved)
    job = Job(id="9", owner="u", request_cpus=cpus, time_limit=None if length == INF else length)
    when, chosen = sim._earliest(job, ("batch",), T, reserved)
    assert (when, [(n.name, c) for n, c in chosen]) == _spread_reference(
        nodes, cpus, length, T, reserved
    )


@pytest.mark.parametrize(
    ("compat", "held60", "held300"),
    [("22.05", (1020, 1620), (900, 1500)), ("current", (1020, 1680), (900, 1800))],
)
def test_reservation_rounds_to_bf_resolution(
    compat: str, held60: tuple[int, int], held300: tuple[int, int]
) -> None:
    """A 600 s job reserved from 1030.5 (Slurm's whole second 1030), ending at 1630: the
    start is rounded down to a multiple of ``bf_resolution``; the end down in 22.05's
    ``_attempt_backfill``, up in today's ``_set_slot_time`` (end + resolution - 1, then
    down). With no time limit, in no partition (an UNLIMITED ``MaxTime``), backfill plans
    a year (``YEAR_MINUTES``: ``_set_backfill_timelimits``): 31,536,000 s where the first
    job has 600, rounded alike (both whole numbers of 60 s and of 300 s)."""
    from fairshare_cli.core.config import Config, SlurmPriorityConfig

    node = Node("n0", 4, frozenset({"batch"}))
    for res, held in [(60, held60), (300, held300)]:
        sim = SlurmSim.__new__(SlurmSim)
        prio = SlurmPriorityConfig(bf_resolution=res, output_compat=compat)
        sim.config = Config(priority=prio)
        sim.fit = NodeFit(sim.config)
        reserved: dict[str, list[tuple[float, float, int]]] = {}
        job = Job(id="1", owner="u", request_cpus=2, time_limit=600)
        sim._reserve(job, [(node, 2)], 1030.5, reserved)
        assert reserved == {"n0": [(*held, 2)]}
        open_ended: dict[str, list[tuple[float, float, int]]] = {}
        sim._reserve(Job(id="2", owner="u", request_cpus=2), [(node, 2)], 1030.5, open_ended)
        assert open_ended == {"n0": [(held[0], held[1] - 600 + 31_536_000, 2)]}
