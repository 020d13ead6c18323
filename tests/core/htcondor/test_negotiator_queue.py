"""Running work as demand (``negotiator/queue.py``), hand-checked against the schedd's rule.

``Scheduler::count_jobs`` (``src/condor_schedd.V6/schedd.cpp``) counts each match record
that runs a job (``rec->shadowRec``) as one ``RunningJobs`` of its submitter and adds its
slot weight to ``WeightedRunningJobs``; ``GroupEntry::hgq_prepare_for_matchmaking`` adds
``WeightedRunningJobs + WeightedIdleJobs`` (``RunningJobs + IdleJobs`` without
``NEGOTIATOR_USE_WEIGHTED_DEMAND``) to the group's demand.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.negotiator.queue import add_running_demand
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.jobs import Job


def _name(job: Job) -> str:
    return f"{job.owner}@d"


def _running(*jobs: Job) -> RunningJobs:
    running = RunningJobs(_name)
    for job in jobs:
        running.add(job.id, job)
    return running


RUNNING = _running(Job(id="1.0", owner="alice", status="running", request_cpus=4))
CLAIMS = [
    # the queue's own running job: counted once, by the job
    Claim("slot1@a", "alice@d", "1.0", 0.0, 4.0),
    # a running record of imported history: its charged weight
    Claim("slot2@a", "bob@d", "history:bob@d:0:1.0", 0.0, 2.5),
    # a claim from an older state: no stored weight, 1
    Claim("slot3@a", "bob@d", "9.0", 0.0, None),
    # claimed, no job (condor_status JobId empty): no running job
    Claim("slot4@a", "zed@other", "", 0.0, 1.0),
]


def test_weighted_running_work_is_cpus_or_charged_weight() -> None:
    """alice: RequestCpus 4 (her claim is that job, not a second one); bob: 2.5 + 1."""
    demand = {"alice@d": 2.0}  # two idle jobs already counted
    add_running_demand(demand, RUNNING, CLAIMS, weighted=True)
    assert demand == {"alice@d": 6.0, "bob@d": 3.5}


def test_unweighted_running_work_counts_jobs() -> None:
    """RunningJobs: one per running job, one per claim that runs a job the queue lacks."""
    demand: dict[str, float] = {}
    add_running_demand(demand, RUNNING, CLAIMS, weighted=False)
    assert demand == {"alice@d": 1.0, "bob@d": 2.0}


_claims = st.lists(
    st.builds(
        Claim,
        slot=st.text("ab", min_size=1, max_size=3),
        submitter=st.sampled_from(["u@d", "v@d"]),
        job_id=st.sampled_from(["", "1.0", "2.0", "history:x"]),
        start_time=st.just(0.0),
        weight=st.one_of(st.none(), st.sampled_from([0.5, 1.0, 4.0])),
    ),
    max_size=8,
)


@given(_claims, st.booleans())
def test_claim_order_does_not_matter_and_each_job_counts_once(
    claims: list[Claim], weighted: bool
) -> None:
    running = _running(Job(id="1.0", owner="u", status="running", request_cpus=2))
    forward: dict[str, float] = {}
    backward: dict[str, float] = {}
    add_running_demand(forward, running, claims, weighted)
    add_running_demand(backward, running, list(reversed(claims)), weighted)
    assert forward.keys() == backward.keys()
    for name, value in forward.items():
        assert abs(value - backward[name]) < 1e-9
    orphans = [c for c in claims if c.job_id not in ("", "1.0")]
    per = [(c.weight if c.weight is not None else 1.0) if weighted else 1.0 for c in orphans]
    assert abs(sum(forward.values()) - ((2 if weighted else 1) + sum(per))) < 1e-9
