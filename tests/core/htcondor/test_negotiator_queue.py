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
from negotiation_helpers import CURRENT

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Evaluator
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.negotiator.frozen_pool import FrozenPool
from fairshare_cli.core.htcondor.negotiator.queue import (
    AutoCluster,
    KeptAds,
    add_running_demand,
    group_queue,
)
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.jobs import Job


def _name(job: Job) -> str:
    return f"{job.owner}@d"


def _cpus(job_id: str, job: Job) -> float:
    """A running job weighed by its CPUs (a slot of as many CPUs as it asks for)."""
    return float(job.request_cpus)


def _running(*jobs: Job) -> RunningJobs:
    running = RunningJobs(_name, _cpus)
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


def _autoclusters(jobs: list[Job], kept: KeptAds, refs: frozenset[str]) -> list[AutoCluster]:
    """One cycle's autoclusters of ``jobs`` (all idle), with ads ``kept`` from the last."""
    ev = Evaluator()
    idle = [JobBatch(job) for job in jobs]
    made, _, _ = group_queue(idle, _running(), [], ev, refs, _name, CURRENT, kept)
    return made


MEMORY = frozenset({"requestmemory", "memory"})


def test_an_autocluster_keeps_its_ad_from_one_cycle_to_the_next() -> None:
    """The second cycle's first job (2.0) has the key of the first cycle's autocluster
    (RequestMemory 512, nothing else read): it gets that cycle's ad, made for job 1.0,
    whose other values no expression reads. 1500 opens an autocluster of its own."""
    kept = KeptAds()
    (first,) = _autoclusters([Job(id="1.0", owner="alice", request_memory=512)], kept, MEMORY)
    second = _autoclusters(
        [
            Job(id="2.0", owner="bob", request_memory=512),
            Job(id="3.0", owner="c", request_memory=1500),
        ],
        kept,
        MEMORY,
    )
    assert second[0].ad is first.ad
    assert first.ad.get("clusterid") == 1  # the job it was made for, not 2.0
    assert second[1].ad.get("requestmemory") == 1500
    assert len(kept.made) == 2  # what the next cycle can take: this cycle's keys


def test_an_autocluster_ad_is_made_again_when_what_it_reads_differs() -> None:
    """512 and 512.0 share a key (they are equal) but not an ad (``RequestMemory / 3``
    differs: 170 and 170.666...); an accounting group gives the ad a name the first had
    not; other significant attributes (``Owner`` now read) give another key."""
    kept = KeptAds()
    (first,) = _autoclusters([Job(id="1.0", owner="a", request_memory=512)], kept, MEMORY)
    (real,) = _autoclusters([Job(id="2.0", owner="a", request_memory=512.0)], kept, MEMORY)
    assert real.ad is not first.ad and real.ad.get("requestmemory") == 512.0
    grouped = Job(id="3.0", owner="a", accounting_group="g.a", request_memory=512.0)
    (named,) = _autoclusters([grouped], kept, MEMORY)
    assert named.ad is not real.ad and "accountinggroup" in named.ad.names
    (owned,) = _autoclusters([grouped], kept, MEMORY | {"owner"})
    assert owned.ad is not named.ad  # the expressions read another attribute


def test_a_pool_with_a_consumption_policy_keeps_no_ads() -> None:
    """A consumption policy reads the job's ad beyond its autocluster key."""
    spec = MachineSpec(
        name="p", count=1, slots=1, attributes={"Cpus": 4}, partitionable=True,
        consumption_policy=True,
    )  # fmt: skip
    static = MachineSpec(name="s", count=1, slots=1, attributes={"Cpus": 1})
    assert FrozenPool(machines=[static, spec]).autoclusters is None
    assert FrozenPool(machines=[static]).autoclusters is not None
