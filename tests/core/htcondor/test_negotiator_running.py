"""Running jobs kept from cycle to cycle (``negotiator/running.py``): the sums a cycle
reads (``Scheduler::count_jobs``' ``RunningJobs`` and the CPUs of ``WeightedRunningJobs``
per submitter) stay those of the jobs running, whatever the starts and ends between."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.jobs import Job


def _name(job: Job) -> str:
    return f"{job.owner}@d"


def _cpus(job_id: str, job: Job) -> float:
    """A running job weighed by its CPUs (a slot of as many CPUs as it asks for)."""
    return float(job.request_cpus)


def test_sums_by_hand() -> None:
    running = RunningJobs(_name, _cpus)
    running.add("1.0", Job(id="1.0", owner="alice", status="running", request_cpus=4))
    running.add("1.1", Job(id="1.1", owner="alice", status="running", request_cpus=2))
    running.add("2.0", Job(id="2.0", owner="bob", status="running", concurrency_limits="lic"))
    assert running.count == {"alice@d": 2, "bob@d": 1}
    assert running.weights == {"alice@d": 6, "bob@d": 1}
    assert running.limited == {"2.0"}
    running.remove("1.0")
    running.remove("2.0")
    assert running.count == {"alice@d": 1}
    assert running.weights == {"alice@d": 2}
    assert running.limited == set()
    # a job added again under its id replaces the first (4 CPUs become 8)
    running.add("1.1", Job(id="1.1", owner="alice", status="running", request_cpus=8))
    assert running.weights == {"alice@d": 8}


_steps = st.lists(
    st.tuples(
        st.booleans(),
        st.integers(0, 5),
        st.sampled_from(["u", "v", "w"]),
        st.integers(0, 64),
        st.sampled_from([None, "lic"]),
    ),
    max_size=40,
)


@given(_steps)
def test_kept_sums_equal_sums_from_scratch(
    steps: list[tuple[bool, int, str, int, str | None]],
) -> None:
    running = RunningJobs(_name, _cpus)
    for add, k, owner, cpus, limits in steps:
        job_id = f"1.{k}"
        if add:
            job = Job(
                id=job_id,
                owner=owner,
                status="running",
                request_cpus=cpus,
                concurrency_limits=limits,
            )
            running.add(job_id, job)
        elif job_id in running.jobs:
            running.remove(job_id)
    fresh = RunningJobs(_name, _cpus)
    for job_id, job in running.jobs.items():
        fresh.add(job_id, job)
    count: dict[str, int] = {}
    total: dict[str, int] = {}
    for job in running.jobs.values():
        count[_name(job)] = count.get(_name(job), 0) + 1
        total[_name(job)] = total.get(_name(job), 0) + job.request_cpus
    assert running.count == count == fresh.count
    assert running.weights == total == fresh.weights
    assert running.limited == {i for i, j in running.jobs.items() if j.concurrency_limits}


_claim_steps = st.lists(
    st.tuples(st.sampled_from(["add", "remove", "claim", "unclaim"]), st.integers(0, 4)),
    max_size=40,
)


@given(_claim_steps)
def test_orphans_are_the_claimed_jobs_that_do_not_run(steps: list[tuple[str, int]]) -> None:
    """Kept as claims and jobs come and go in any order, ``orphans`` equals its definition:
    the job ids of the claims given that run no job here (``Scheduler::count_jobs`` counts
    such a claim on its own, ``queue.add_running_demand``)."""
    running = RunningJobs(_name, _cpus, keeps_claims=True)
    claims: list[str] = []  # the job id of each claim given, one entry per claim
    for what, k in steps:
        job_id = f"1.{k}" if k else ""  # "": a claim that runs no job
        if what == "add" and job_id:
            running.add(job_id, Job(id=job_id, owner="u", status="running"))
        elif what == "remove" and job_id in running.jobs:
            running.remove(job_id)
        elif what == "claim":
            running.claim(job_id)
            claims.append(job_id)
        elif what == "unclaim" and job_id in claims:
            running.unclaim(job_id)
            claims.remove(job_id)
    assert running.orphans == {j for j in claims if j and j not in running.jobs}
