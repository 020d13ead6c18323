"""Demand per submitter and per group (``fs quota`` and the simulated group rows).

The rule is HTCondor's: the schedd's ``Scheduler::count_jobs``
(src/condor_schedd.V6/schedd.cpp) puts each submitter's idle jobs into its ad's
``WeightedIdleJobs`` (``RequestCpus`` each with weighted demand) and each claim running one
of its jobs into ``WeightedRunningJobs``; ``hgq_prepare_for_matchmaking``
(src/condor_negotiator.V6/matchmaker.cpp) sums the two over each group's submitters.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor.accountant import EMPTY
from fairshare_cli.core.htcondor.negotiator import Claim, SubmitterPrio, negotiate_cycle
from fairshare_cli.core.htcondor.pool import (
    QuotaKnown,
    check_jobs,
    group_demand,
    group_tree,
    negotiator_knobs,
    quota_view,
    submitter_demand,
    submitter_of,
)
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.errors import InputError
from fairshare_cli.io.config import build_config

NOW = 1_795_262_400.0


def _config(weighted: bool = True) -> Any:
    return build_config(
        {
            "pool": {"uid_domain": "d", "defaults": "current"},
            "machines": [{"name": "m", "count": 1, "slots": 4}],
            "negotiator": {"use_weighted_demand": weighted},
            "groups": {"group_a": {"quota": 2}},
        },
        "test.toml",
    )


def _queue() -> tuple[list[JobBatch], list[Claim]]:
    """Three idle 2-CPU jobs and one running 4-CPU job of group_a.alice; claims: the
    running job's slot, a slot bob's job holds that the queue does not list (charged
    2.5), and a slot carol holds running no job."""
    idle = parse_job(
        {"id": "1.0", "owner": "alice", "accounting_group": "group_a.alice", "request_cpus": 2},
        "j",
    )[0]
    running = parse_job(
        {
            "id": "2.0",
            "owner": "alice",
            "accounting_group": "group_a.alice",
            "request_cpus": 4,
            "status": "running",
            "slot": "slot1@m",
        },
        "j",
    )[0]
    claims = [
        Claim("slot1@m", "group_a.alice@d", "2.0", NOW),
        Claim("slot2@m", "bob@d", "99.0", NOW, weight=2.5),
        Claim("slot3@m", "carol@d", "", NOW, weight=1.0),
    ]
    return [JobBatch(idle, 3), JobBatch(running)], claims


def test_weighted_demand_counts_cpus_of_idle_and_running_jobs_and_a_foreign_claim() -> None:
    batches, claims = _queue()
    got = submitter_demand(batches, claims, _config(), weighted=True, now=NOW)
    # alice: 3 idle x 2 CPUs + 4 running CPUs (her claim adds nothing more) = 10;
    # bob: his claim's charged weight 2.5; carol's claim runs no job: no ad, no demand.
    assert got == {"group_a.alice@d": 3 * 2 + 4, "bob@d": 2.5}


def test_unweighted_demand_counts_jobs() -> None:
    batches, claims = _queue()
    got = submitter_demand(batches, claims, _config(weighted=False), weighted=False, now=NOW)
    assert got == {"group_a.alice@d": 3 + 1, "bob@d": 1.0}


def test_group_demand_sums_each_groups_submitters() -> None:
    tree = group_tree(_config())
    assert tree is not None
    demand, members = group_demand(
        {"group_a.zed@d": 1.5, "bob@d": 2.5, "group_a.alice@d": 10.0}, tree
    )
    assert demand == {"<none>": 2.5, "group_a": 10.0 + 1.5}
    assert members == {"<none>": ["bob@d"], "group_a": ["group_a.alice@d", "group_a.zed@d"]}


def test_quota_view_with_a_counted_demand_equals_its_own_count() -> None:
    config = _config()
    batches, claims = _queue()
    counted = submitter_demand(batches, claims, config, weighted=True, now=NOW)
    own = quota_view(config, batches, EMPTY, claims, NOW)
    assert quota_view(config, [], EMPTY, claims, NOW, known=QuotaKnown(demand=counted)) == own
    assert {r.group: r.demand for r in own} == {"<none>": 2.5, "group_a": 10.0}


def test_quota_view_on_a_reused_tree_equals_one_on_a_fresh_tree() -> None:
    """``fs simulate`` hands its cycle's group tree to the rows: whatever an earlier view
    (here one with no demand at all) left in it is reset."""
    config = _config()
    batches, claims = _queue()
    tree = group_tree(config)
    assert tree is not None
    quota_view(config, [], EMPTY, [], NOW, known=QuotaKnown(demand={}, tree=tree))
    assert quota_view(
        config, batches, EMPTY, claims, NOW, known=QuotaKnown(tree=tree)
    ) == quota_view(config, batches, EMPTY, claims, NOW)


job = st.fixed_dictionaries(
    {
        "owner": st.sampled_from(["a", "b"]),
        "count": st.integers(1, 4),
        "request_cpus": st.integers(1, 3),
        "status": st.sampled_from(["idle", "running"]),
    }
)


@settings(max_examples=30, deadline=None)
@given(
    jobs=st.lists(job, min_size=1, max_size=5),
    foreign=st.lists(st.sampled_from([None, 1.0, 2.5]), max_size=2),
    weighted=st.booleans(),
)
def test_a_cycle_hands_over_the_demand_it_counted(
    jobs: list[dict[str, Any]], foreign: list[float | None], weighted: bool
) -> None:
    """``CycleResult.demand`` is the count of :func:`submitter_demand` on the same queue."""
    config = _config(weighted)
    batches = [
        JobBatch(
            parse_job({**{k: v for k, v in j.items() if k != "count"}, "id": f"{n}.0"}, "j")[0],
            j["count"],
        )
        for n, j in enumerate(jobs, 1)
    ]
    claims = [
        Claim(f"slot{k}@m", "c@d", f"{90 + k}.0", NOW, weight=w) for k, w in enumerate(foreign, 1)
    ]
    result = negotiate_cycle(
        config.machines,
        claims,
        batches,
        submitter_of(config),
        lambda name: SubmitterPrio(0.5, 0.0),
        group_tree(config),
        negotiator_knobs(config),
        NOW,
    )
    assert result.demand == submitter_demand(batches, claims, config, weighted, NOW)


def test_check_jobs_names_the_first_job_a_check_refuses() -> None:
    """Each kind of job is checked once, at its first: a queue whose jobs 1 and 3 are alike
    and pass, and whose jobs 2 and 4 name a group with no configured parent, is refused at
    job 2; one whose bad requirements come before the bad group, at that job."""
    config = build_config(
        {
            "pool": {"uid_domain": "d", "defaults": "current"},
            "machines": [{"name": "m", "count": 1, "slots": 4}],
            "groups": {"group_a": {"quota": 1}},
        },
        "t.toml",
    )
    good = {"owner": "u", "accounting_group": "group_a.u"}
    bad = {"owner": "u", "accounting_group": "other.x.u"}
    jobs = [
        job
        for i, obj in enumerate([good, bad, good, bad], 1)
        for job in parse_job({"id": f"{i}", **obj}, "t")
    ]
    with pytest.raises(InputError) as refused:
        check_jobs(jobs, config, "q")
    assert str(refused.value) == (
        'q: job 2: accounting_group "other.x.u" has no configured parent group "other.x"; '
        'add [groups."other.x"] or fix the job'
    )
    broken = parse_job({"id": "0", "owner": "u", "requirements": "Cpus >"}, "t")
    with pytest.raises(InputError) as refused:
        check_jobs(jobs[:1] + broken + jobs[1:], config, "q")
    assert str(refused.value).startswith("q: job 0 requirements: ")
