"""What is charged comes back: properties of commit, ``fs rm`` and the history import.

For any ``SLOT_WEIGHT`` (``Cpus``, ``2*Cpus``, ``Memory/1024``, an undefined attribute) and
any pool and queue: commit a cycle, then remove every started job, and every submitter's
and group's weighted resources in use (own and hierarchical) are back at 0. The same for a
usage history whose records all end.
"""

from __future__ import annotations

from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import (
    AccountantConfig,
    Config,
    GroupSpec,
    MachineSpec,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.operations.import_usage import import_usage
from fairshare_cli.core.operations.negotiate import negotiate
from fairshare_cli.core.operations.queue import read_queue, remove
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import UsageRecord

NOW = 1_795_262_400.0
DAY = 86400.0
SLOT_WEIGHTS = ["Cpus", "2*Cpus", "Memory/1024", "NoSuchAttribute"]
GROUPS = {"g": GroupSpec("g", quota=6), "g.h": GroupSpec("g.h", quota=3)}
SUBMITTERS = [("alice", None), ("bob", "g.bob"), ("carol", "g.h.carol"), ("dave", "g.h")]

machine = st.builds(
    lambda i, count, slots, cpus, memory, rank: MachineSpec(
        name=f"m{i}",
        count=count,
        slots=slots,
        attributes={"Cpus": cpus, "Memory": memory},
        rank=rank,
    ),
    st.integers(0, 99),
    st.integers(1, 3),
    st.integers(1, 2),
    st.integers(4, 8),  # every job (1 to 4 CPUs) fits every slot: the first cycle matches
    # a weight under 1 (512 MB) leaves a lone submitter a pie slice of 0 slots: no match
    st.sampled_from([1024, 2048, 3000, 4096, 8192]),
    # a machine preferring bigger jobs preempts smaller ones in later cycles (rank preemption)
    st.sampled_from(["0", "TARGET.RequestCpus"]),
)
machines = st.lists(machine, min_size=1, max_size=3, unique_by=lambda m: m.name)
job = st.tuples(st.sampled_from(SUBMITTERS), st.integers(1, 4), st.integers(-2, 2))


def make_config(expr: str, pool: list[MachineSpec], groups: bool) -> Config:
    return Config(
        pool=PoolConfig(uid_domain="example.org"),
        accountant=AccountantConfig(priority_halflife=DAY),
        negotiator=NegotiatorConfig(use_slot_weights=True, slot_weight=expr),
        machines=tuple(pool),
        groups=GROUPS if groups else {},
    )


def job_objects(jobs: list[tuple[tuple[str, str | None], int, int]]) -> list[dict[str, Any]]:
    out = []
    for k, ((owner, group), cpus, prio) in enumerate(jobs):
        # 1024 MB fits every slot, and weighs an idle job 1 under Memory/1024 (with 0 MB it
        # weighs 0, as the schedd counts it: a group of such jobs has no demand, no match)
        obj: dict[str, Any] = {
            "id": f"{k + 1}.0",
            "owner": owner,
            "request_cpus": cpus,
            "request_memory": 1024,
        }
        if group is not None:
            obj["accounting_group"] = group
        obj["job_prio"] = prio
        out.append(obj)
    return out


def assert_nothing_in_use(state: State, config: Config, when: float) -> None:
    records = acct.view(acct.accountant_from_json(state.section("accountant")), config, when)
    for name, rec in records.items():
        assert rec.resources_used == 0, name
        assert rec.weighted_resources_used == 0.0, (name, rec.weighted_resources_used)
        assert rec.hier_weighted_resources_used == 0.0, (name, rec.hier_weighted_resources_used)


@settings(max_examples=100, deadline=None)
@given(
    expr=st.sampled_from(SLOT_WEIGHTS),
    pool=machines,
    jobs=st.lists(job, min_size=1, max_size=12),
    groups=st.booleans(),
    cycles=st.integers(1, 3),
)
def test_removing_every_started_job_releases_everything(
    expr: str,
    pool: list[MachineSpec],
    jobs: list[tuple[tuple[str, str | None], int, int]],
    groups: bool,
    cycles: int,
) -> None:
    config = make_config(expr, pool, groups)
    if not groups:
        jobs = [((owner, None), cpus, prio) for (owner, _), cpus, prio in jobs]
    state = State().with_section("jobs", job_objects(jobs))
    charged = 0.0
    for k in range(cycles):  # later cycles may preempt: releases by the stored weight too
        state, result = negotiate(config, state, NOW + 300 * k)
        charged += sum(m.weight for m in result.matches)
        preempted = sum(1 for m in result.matches if m.preempted_job)
        event(f"preemptions: {'some' if preempted else 'none'}")
    assert charged > 0  # some slot is always free in the first cycle
    end = NOW + 300 * cycles
    running = [j.id for j in read_queue(state, "state") if j.status == "running"]
    assert running
    state, gone = remove(config, state, end, running, where="state")
    assert {j.id for j in gone} == set(running)
    assert_nothing_in_use(state, config, end)


record = st.builds(
    lambda who, start, length, slots, cpus: UsageRecord(
        owner=who[0],
        accounting_group=who[1],
        start=NOW - 3 * DAY + start,
        end=NOW - 3 * DAY + start + length,
        slots=slots,
        cpus=cpus,
    ),
    st.sampled_from(SUBMITTERS),
    st.floats(0, 2 * DAY),
    st.floats(0, DAY),
    st.integers(0, 3),
    st.integers(1, 8),
)


@settings(max_examples=60, deadline=None)
@given(
    expr=st.sampled_from(SLOT_WEIGHTS),
    records=st.lists(record, min_size=1, max_size=15),
    sort=st.booleans(),
)
def test_a_history_whose_jobs_all_end_leaves_nothing_in_use(
    expr: str, records: list[UsageRecord], sort: bool
) -> None:
    config = make_config(expr, [], groups=True)
    if sort:  # streamed; else the unsorted retry buffers and sorts
        records = sorted(records, key=lambda r: r.start)
    state, done = import_usage(config, State(), NOW, lambda: iter(records), label="h")
    assert done.records == len(records)
    assert_nothing_in_use(state, config, NOW)
    charged = acct.accountant_from_json(state.section("accountant")).records
    worked = sum(r.slots * (r.end - r.start) for r in records if r.end is not None)
    total = sum(c.accumulated_usage for c in charged.values() if "@" in c.name)
    assert abs(total - worked) <= 1e-6 * max(1.0, worked)
