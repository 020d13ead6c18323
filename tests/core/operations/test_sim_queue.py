"""The simulation's group rows take the demand their cycle counted, and count again only
when the cycle took away a claim counted by its own weight.

A cycle counts each submitter's running work and idle jobs once, at its start
(``CycleResult.demand``); its matches move jobs from idle to running, where they count the
same (``Scheduler::count_jobs``, src/condor_schedd.V6/schedd.cpp: an idle job counts its
``RequestCpus`` into ``WeightedIdleJobs``, a running one the same into
``WeightedRunningJobs``). A claim running a job the queue does not hold counts its charged
weight; when a match preempts it, that weight leaves the demand, so the count is stale.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.pool import submitter_demand
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.core.operations.sim_queue import SimQueue
from fairshare_cli.io.config import build_config

START = 1_795_262_400.0


def _config(slots: int, **attributes: int) -> Any:
    return build_config(
        {
            "pool": {"uid_domain": "d", "defaults": "current"},
            "accountant": {"priority_halflife": 3600},
            "machines": [{"name": "m", "count": 1, "slots": slots, "attributes": attributes}],
            "negotiator": {"preemption_requirements": "true"},
            "groups": {"group_x": {"quota": 2, "accept_surplus": True}},
        },
        "test.toml",
    )


def _hog() -> tuple[acct.AccountantState, NegotiatorState]:
    """hog@d holds slot1@m001 for a job the queue does not hold, at a bad priority."""
    record = CustomerRecord(name="hog@d", priority=1000.0, last_update=START)
    claim = Claim("slot1@m001", "hog@d", "99.0", START - 60, weight=1.0)
    return acct.AccountantState(
        {"hog@d": record},
    ), NegotiatorState({"slot1@m001": claim})


def _recount(sim: SimQueue) -> dict[str, float]:
    live = [*sim.idle, *(JobBatch(r.job) for r in sim.running.values())]
    return submitter_demand(
        live, sim.claims.values(), sim.config, sim.knobs.use_weighted_demand, sim.start
    )


def _job(n: int, owner: str, cpus: int = 1) -> JobBatch:
    raw = {"id": f"{n}.0", "owner": owner, "accounting_group": f"group_x.{owner}"}
    return JobBatch(parse_job({**raw, "request_cpus": cpus, "submit_time": START}, "j")[0])


def _cycle(sim: SimQueue, t: float) -> None:
    sim.finish_jobs(t)
    sim.submit_due(t)
    sim.negotiate(t)


def test_a_preempted_foreign_claim_makes_the_rows_count_again() -> None:
    accountant, negotiator = _hog()
    sim = SimQueue(_config(1), accountant, negotiator, [], [_job(1, "a")], START, None)
    _cycle(sim, START)
    assert [c.job_id for c in sim.claims.values()] == ["1.0"]  # a's job took hog's slot
    # hog's claim counted 1 at the cycle's start and is gone: a's job alone is left
    assert sim.demand is None
    assert _recount(sim) == {"group_x.a@d": 1.0}
    assert [r.slots for r in sim.rows(START) if r.kind == "group"] == [0.0, 1.0]


def test_a_cycle_that_only_matches_hands_its_count_to_the_rows() -> None:
    sim = SimQueue(
        _config(2, Cpus=1),
        acct.EMPTY,
        NegotiatorState(),
        [],
        [_job(1, "a"), _job(2, "b")],
        START,
        None,
    )
    _cycle(sim, START)
    assert len(sim.running) == 2
    # a and b: one running 1-CPU job each on a 1-CPU slot, as both counted while idle
    assert sim.demand == {"group_x.a@d": 1.0, "group_x.b@d": 1.0} == _recount(sim)


def test_a_job_that_weighs_otherwise_running_makes_the_rows_count_again() -> None:
    sim = SimQueue(
        _config(2), acct.EMPTY, NegotiatorState(), [], [_job(1, "a", 2), _job(2, "b")], START, None
    )
    _cycle(sim, START)
    assert len(sim.running) == 2
    # idle, a's 2-CPU job weighed its RequestCpus (2); running, the SlotWeight of its slot,
    # whose ad has no Cpus: SLOT_WEIGHT = Cpus is undefined there, and the schedd takes 1
    assert sim.demand is None
    assert _recount(sim) == {"group_x.a@d": 1.0, "group_x.b@d": 1.0}


@settings(max_examples=25, deadline=None)
@given(
    owners=st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=6),
    cpus=st.integers(1, 3),
    slots=st.integers(1, 3),
    hog=st.booleans(),
)
def test_the_count_a_row_takes_is_a_fresh_count(
    owners: list[str], cpus: int, slots: int, hog: bool
) -> None:
    accountant, negotiator = _hog() if hog else (acct.EMPTY, NegotiatorState())
    jobs = [_job(n, owner, cpus) for n, owner in enumerate(owners, 1)]
    sim = SimQueue(_config(slots), accountant, negotiator, [], jobs, START, None)
    for k in range(4):
        _cycle(sim, START + 600 * k)
        assert sim.demand is None or sim.demand == _recount(sim)
