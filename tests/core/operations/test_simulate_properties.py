"""Invariants of ``fs simulate`` (HTCondor cycles), checked on random small pools and
workloads: nothing over-committed, usage conserved, priorities at least 0.5, the same
rows for the same inputs. (A larger pool may start fewer jobs in a cycle: with 4 slots
and 3 submitters of equal priority the limits of 4/3 let a second spin hand out the last
slot, with 5 the limits of 5/3 leave 2 slots no submitter may take; fs negotiate does the
same.)"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.simulate import SimResult, SimWindow, simulate
from fairshare_cli.io.config import build_config

START = 1_795_262_400.0
CYCLE = 600.0
UNTIL = 3 * 3600.0

machines = st.lists(st.tuples(st.integers(1, 2), st.integers(1, 3)), min_size=1, max_size=2)
clusters = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.integers(1, 4),
        st.sampled_from([300.0, 900.0, 1700.0, 3600.0, 20000.0]),
        st.sampled_from([0.0, 600.0, 1500.0, 4000.0]),
        st.sampled_from([None, "g1", "g2"]),
    ),
    min_size=1,
    max_size=5,
)
group_knobs = st.one_of(
    st.none(), st.tuples(st.integers(0, 4), st.integers(0, 4), st.booleans(), st.booleans())
)


def _config(pool: list[tuple[int, int]], groups: tuple[int, int, bool, bool] | None) -> Any:
    raw: dict[str, Any] = {
        "pool": {"uid_domain": "d", "defaults": "current"},
        "accountant": {"priority_halflife": 1800},
        "negotiator": {"use_slot_weights": False},
        "machines": [
            {"name": f"m{i}x", "count": count, "slots": slots}
            for i, (count, slots) in enumerate(pool)
        ],
    }
    if groups is not None:
        q1, q2, s1, s2 = groups
        raw["groups"] = {
            "g1": {"quota": q1, "accept_surplus": s1},
            "g2": {"quota": q2, "accept_surplus": s2},
        }
    return build_config(raw, "test.toml")


def _workload(spec: list[tuple[str, int, float, float, str | None]], groups: bool) -> list[Any]:
    out = []
    for k, (owner, count, run_time, offset, group) in enumerate(spec, start=1):
        ag = f"{group}.{owner}" if group and groups else None
        job = Job(
            id=f"{k}.0",
            owner=owner,
            run_time=run_time,
            submit_time=START + offset,
            accounting_group=ag,
        )
        out.append(JobBatch(job, count))
    return out


def _run(pool: Any, groups: Any, spec: Any) -> tuple[SimResult, Any]:
    config = _config(pool, groups)
    work = _workload(spec, groups is not None)
    window = SimWindow(START, UNTIL, CYCLE)
    return simulate(
        config, acct.AccountantState(records={}), NegotiatorState(), [], work, window
    ), work


@settings(max_examples=60, deadline=None)
@given(pool=machines, groups=group_knobs, spec=clusters)
def test_a_simulation_commits_no_slot_twice_and_charges_the_slot_time_its_jobs_held(
    pool: list[tuple[int, int]], groups: Any, spec: Any
) -> None:
    """Each cycle the submitters hold what the pool has in use, at most its slots, and
    every effective priority is at least 0.5 (factor 1). At the end each submitter's
    accumulated usage is the slot time of its jobs as the accountant sees it: from the
    cycle a job started to the first cycle at or after its end (``CheckMatches`` sees an
    end there), or to the last cycle; and the same inputs give the same rows."""
    result, _ = _run(pool, groups, spec)
    capacity = sum(count * slots for count, slots in pool)
    times = sorted({r.time for r in result.rows})
    for t in times:
        rows = [r for r in result.rows if r.time == t]
        (row,) = [r for r in rows if r.kind == "pool"]
        held = sum(r.slots for r in rows if r.kind == "submitter")
        assert held == row.slots <= float(capacity) and row.capacity == capacity
        for r in rows:
            if r.kind == "submitter":
                assert r.effective_priority is not None and r.effective_priority >= 0.5
    run_time = {f"{k}": rt for k, (_, _, rt, _, _) in enumerate(spec, start=1)}
    last = times[-1]
    charged: dict[str, float] = {}
    for s in result.starts:
        end = s.start_time + run_time[s.job_id.split(".")[0]]
        seen = START + math.ceil((end - START) / CYCLE - 1e-9) * CYCLE
        charged[s.submitter] = charged.get(s.submitter, 0.0) + min(seen, last) - s.start_time
    for name, seconds in charged.items():
        record = result.accountant.records[name]
        assert math.isclose(record.accumulated_usage, seconds, rel_tol=1e-9, abs_tol=1e-6)
    again, _ = _run(pool, groups, spec)
    assert again.rows == result.rows and again.starts == result.starts


@settings(max_examples=60, deadline=None)
@given(
    pslots=st.lists(st.integers(2, 6), min_size=1, max_size=3),
    spec=st.lists(
        st.tuples(
            st.sampled_from(["a", "b"]),
            st.integers(1, 4),
            st.integers(1, 3),
            st.sampled_from([300.0, 1700.0, 5000.0]),
            st.sampled_from([0.0, 1500.0]),
        ),
        min_size=1,
        max_size=4,
    ),
    weights=st.booleans(),
    legacy=st.booleans(),
)
def test_partitionable_slots_never_carve_more_cpus_than_they_have(
    pslots: list[int], spec: Any, weights: bool, legacy: bool
) -> None:
    """Partitionable slots (slot weights on or off, preemption of the legacy profile or
    none): each cycle the running jobs' CPUs (the Slurm users' rows) fit in the dynamic
    slots' (the pool row's in use), which fit in the pool's (its capacity),
    every effective priority is at least 0.5, and the same inputs give the same rows."""
    raw: dict[str, Any] = {
        "pool": {"uid_domain": "d", "defaults": "legacy" if legacy else "current"},
        "accountant": {"priority_halflife": 1800},
        "negotiator": {"use_slot_weights": weights},
        "machines": [
            {"name": f"p{i}x", "partitionable": True, "attributes": {"Cpus": c, "Memory": 8192}}
            for i, c in enumerate(pslots)
        ],
        "accounts": {"acc": {"users": {"a": 1, "b": 1}}},
    }
    config = build_config(raw, "test.toml")
    work = [
        JobBatch(
            Job(
                id=f"{k}.0",
                owner=owner,
                request_cpus=cpus,
                run_time=run_time,
                submit_time=START + offset,
                account="acc",
            ),
            count,
        )
        for k, (owner, count, cpus, run_time, offset) in enumerate(spec, start=1)
    ]
    from fairshare_cli.core.operations.slurm_series import SlurmSeries

    def once() -> SimResult:
        return simulate(
            config,
            acct.AccountantState(records={}),
            NegotiatorState(),
            [],
            work,
            SimWindow(START, UNTIL, CYCLE),
            slurm=SlurmSeries(config, None),
        )

    result = once()
    for t in sorted({r.time for r in result.rows}):
        rows = [r for r in result.rows if r.time == t]
        cpus = sum(r.slots for r in rows if r.kind == "slurm_user")
        (pool,) = [r for r in rows if r.kind == "pool"]
        # (a job that preempts runs in the dynamic slot it took: its CPUs may be more)
        assert cpus <= pool.slots <= sum(pslots) and pool.capacity == sum(pslots)
        for r in rows:
            if r.kind == "submitter":
                assert r.effective_priority is not None and r.effective_priority >= 0.5
    if any(cpus <= max(pslots) for _, _, cpus, _, _ in spec):  # (some job fits: not vacuous)
        assert any(r.kind == "slurm_user" and r.slots for r in result.rows)
    assert once().rows == result.rows


@settings(max_examples=40, deadline=None)
@given(
    nodes=st.lists(
        st.tuples(st.integers(1, 2), st.sampled_from([1, 2, 4]), st.sampled_from(["p1", "p2"])),
        min_size=1,
        max_size=3,
    ),
    spec=st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.integers(1, 4),
            st.sampled_from([1, 2, 3]),
            st.sampled_from([300.0, 1700.0, 5000.0]),
            st.sampled_from([None, 900.0, 2000.0]),
            st.sampled_from(["p1", "p2", "p1,p2"]),
            st.sampled_from([0.0, 1500.0]),
        ),
        min_size=1,
        max_size=5,
    ),
    algorithm=st.sampled_from(["classic", "fair_tree"]),
    backfill=st.booleans(),
)
def test_slurm_scheduling_never_uses_more_cpus_than_the_nodes_have(
    nodes: Any, spec: Any, algorithm: str, backfill: bool
) -> None:
    """``--scheduler slurm`` (with or without backfill): each cycle the users' CPUs are the
    pool row's in use, at most the nodes' CPUs, every fair-share factor is in [0, 1], and
    the same inputs give the same rows."""
    raw: dict[str, Any] = {
        "pool": {"uid_domain": "d"},
        "priority": {
            "fairshare": algorithm,
            "decay_halflife": "1:00:00",
            "calc_period": "5",
            "weights": {"fairshare": 1000, "age": 100},
        },
        "machines": [
            {"name": f"n{i}x", "count": c, "attributes": {"Cpus": cpus}, "partitions": [part]}
            for i, (c, cpus, part) in enumerate(nodes)
        ],
        "partitions": {"p1": {"default": True}, "p2": {}},
        "qos": {"normal": {"priority": 0}},
        "accounts": {
            "x": {"shares": 2, "users": {"a": 1, "b": 1}},
            "y": {"shares": 1, "users": {"c": 1}},
        },
    }
    config = build_config(raw, "test.toml")
    work = [
        JobBatch(
            Job(
                id=f"{k}.0",
                owner=owner,
                account="y" if owner == "c" else "x",
                request_cpus=cpus,
                run_time=run_time,
                time_limit=limit,
                partition=part,
                submit_time=START + offset,
            ),
            count,
        )
        for k, (owner, count, cpus, run_time, limit, part, offset) in enumerate(spec, start=1)
    ]
    from fairshare_cli.core.operations.slurm_series import SlurmSeries

    def once() -> SimResult:
        state = (acct.AccountantState(records={}), NegotiatorState())
        window = SimWindow(START, UNTIL, CYCLE)
        series = SlurmSeries(config, None)
        return simulate(
            config, *state, [], work, window, slurm=series, scheduler="slurm", backfill=backfill
        )

    result = once()
    capacity = sum(count * cpus for count, cpus, _ in nodes)
    for t in sorted({r.time for r in result.rows}):
        rows = [r for r in result.rows if r.time == t]
        (pool,) = [r for r in rows if r.kind == "pool"]
        used = sum(r.slots for r in rows if r.kind == "slurm_user")
        assert used == pool.slots <= capacity and pool.capacity == capacity
        for r in rows:
            if r.kind == "slurm_user":
                assert r.fairshare is not None and 0.0 <= r.fairshare <= 1.0
    assert once().rows == result.rows
