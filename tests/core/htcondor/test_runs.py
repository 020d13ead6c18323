"""A submitter's queue of :class:`IdBatch` groups put in job order and cut into runs
(``negotiator/runs.py``), against the job order of ``queue.order_key`` (the 7.x
``legacy`` order of seed §3.4.5: ``JobPrio`` high first, then ``QDate``, ``ClusterId``,
``ProcId``; the current one, reference §5.4, by the ``PRE_JOB_PRIO``/``POST_JOB_PRIO``
attributes around ``JobPrio``), and whole cycles over grouped queues against the same
jobs one object each."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs
from negotiation_helpers import CURRENT, LEGACY, NOW, submitter_of

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import CycleResult, SubmitterPrio, negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster, order_key
from fairshare_cli.core.htcondor.negotiator.runs import RunList, ordered_runs, turn_runs
from fairshare_cli.core.jobs import Job


def _runs(runs: RunList) -> list[tuple[int, object, list[str]]]:
    return [(r.ac.index, r.skip_key, r.batches[0].ids) for r in runs]  # type: ignore[attr-defined]


def test_legacy_order_merges_the_groups_of_one_cluster_by_proc() -> None:
    """Cluster 5, memory 1 on procs 0, 2, 3 and memory 2 on 1 and 4 (one QDate, one
    JobPrio): the order is by proc, 5.0 5.1 5.2 5.3 5.4, and a run breaks where the
    autocluster changes: [5.0] [5.1] [5.2 5.3] [5.4]."""
    one, two = AutoCluster(0, None), AutoCluster(1, None)  # type: ignore[arg-type]
    a = IdBatch(Job("5.0", "u", request_memory=1), 3, ["5.0", "5.2", "5.3"])
    b = IdBatch(Job("5.1", "u", request_memory=2), 2, ["5.1", "5.4"])
    runs = ordered_runs([(one, a), (two, b)], True, order_key)
    assert runs is not None
    assert _runs(runs) == [
        (0, 5, ["5.0"]),
        (1, 5, ["5.1"]),
        (0, 5, ["5.2", "5.3"]),
        (1, 5, ["5.4"]),
    ]


def test_legacy_order_puts_a_higher_job_prio_first_and_then_qdate() -> None:
    """JobPrio 1 before 0 whatever the procs; of equal JobPrio the earlier QDate first,
    then the lower cluster: 7.3 7.9 (prio 1), then 8.0 (QDate 10), then 7.1 (QDate 20)."""
    acs = [AutoCluster(i, None) for i in range(3)]  # type: ignore[arg-type]
    high = IdBatch(Job("7.9", "u", job_prio=1, submit_time=20.0), 2, ["7.9", "7.3"])
    late = IdBatch(Job("7.1", "u", submit_time=20.0), 1, ["7.1"])
    early = IdBatch(Job("8.0", "u", submit_time=10.0), 1, ["8.0"])
    runs = ordered_runs([(acs[0], late), (acs[1], high), (acs[2], early)], True, order_key)
    assert runs is not None
    assert _runs(runs) == [(1, 7, ["7.3", "7.9"]), (2, 8, ["8.0"]), (0, 7, ["7.1"])]


def test_current_order_runs_break_on_the_autocluster_alone() -> None:
    """In the current profile the skip key is the autocluster: clusters 3 and 4 of one
    autocluster and equal priorities are one run, 3.0 3.1 4.0 (cluster order)."""
    ac = AutoCluster(6, None)  # type: ignore[arg-type]
    a = IdBatch(Job("4.0", "u"), 1, ["4.0"])
    b = IdBatch(Job("3.0", "u"), 2, ["3.0", "3.1"])
    runs = ordered_runs([(ac, a), (ac, b)], False, order_key)
    assert runs is not None
    assert _runs(runs) == [(6, 6, ["3.0", "3.1", "4.0"])]


def test_procs_are_ordered_as_numbers() -> None:
    """Procs 9, 10, 100 and 2 of one cluster (two batches): 5.2 5.9 5.10 5.100, as
    numbers, not as text (where 5.10 and 5.100 come before 5.2)."""
    one, two = AutoCluster(0, None), AutoCluster(1, None)  # type: ignore[arg-type]
    a = IdBatch(Job("5.10", "u", request_memory=1), 3, ["5.10", "5.9", "5.100"])
    b = IdBatch(Job("5.2", "u", request_memory=2), 1, ["5.2"])
    runs = ordered_runs([(one, a), (two, b)], True, order_key)
    assert runs is not None
    assert _runs(runs) == [(1, 5, ["5.2"]), (0, 5, ["5.9", "5.10", "5.100"])]


def test_other_ids_are_left_to_the_job_by_job_order() -> None:
    """An id that is no ``C.P`` of whole numbers, or a batch of consecutive ids, gives
    None: the caller orders those job by job."""
    ac = AutoCluster(0, None)  # type: ignore[arg-type]
    for batch in (
        IdBatch(Job("a.1", "u"), 1, ["a.1"]),
        IdBatch(Job("1.x", "u"), 1, ["1.x"]),
        IdBatch(Job("1", "u"), 1, ["1"]),
        IdBatch(Job("1.0", "u"), 2, ["1.0", "1.١"]),  # an Arabic-Indic digit
        IdBatch(Job("1.0", "u"), 2, ["1.0", "1.07"]),  # a leading zero
        IdBatch(Job("1.0", "u"), 2, ["1.0", "2.1"]),  # two clusters
        IdBatch(Job("1.0", "u"), 2, ["1.0", "1.1.1"]),
        JobBatch(Job("1.0", "u"), 3),
    ):
        assert ordered_runs([(ac, batch)], True, order_key) is None


def test_a_rejected_cluster_passes_over_the_runs_not_made() -> None:
    """Legacy, one cluster: once the turn rejects cluster 5, the runs after are passed
    over without being made, and the jobs no turn reached keep that reason."""
    one, two = AutoCluster(0, None), AutoCluster(1, None)  # type: ignore[arg-type]
    a = IdBatch(Job("5.0", "u", request_memory=1), 3, ["5.0", "5.2", "5.3"])
    b = IdBatch(Job("5.1", "u", request_memory=2), 2, ["5.1", "5.4"])
    runs = ordered_runs([(one, a), (two, b)], True, order_key)
    assert runs is not None
    rejected: dict[object, str] = {}
    seen = []
    for run in turn_runs(runs, rejected):
        seen.append(run.head_id())
        rejected[run.skip_key] = "submitter_limit"  # (as the pie records a rejection)
        run.reason = "submitter_limit"
    assert seen == ["5.0"] and len(runs) == 1
    rest = runs.rest()
    assert rest is not None and rest.reason == "submitter_limit"
    assert rest.batches[0].ids == ["5.1", "5.2", "5.3", "5.4"]  # type: ignore[attr-defined]
    # a later turn negotiates them again, run by run, from the first one left
    assert [r.head_id() for r in turn_runs(runs, {})] == ["5.0", "5.1", "5.2", "5.4"]
    assert runs[1].reason == "submitter_limit" and runs.rest() is None


USERS = ["u0", "u1", "group_a.u2"]


@st.composite
def separate_queues(draw: st.DrawFn) -> tuple[list[MachineSpec], list[Job], dict[str, float]]:
    """Small pools and queues of separate job objects: a few clusters per submitter, each
    job one of a few memory sizes, priorities and QDates, listed in a shuffled order."""
    machines = [
        MachineSpec(
            name=f"m{i}-",
            count=draw(st.integers(1, 3)),
            slots=draw(st.integers(1, 3)),
            attributes={"Cpus": 1, "Memory": draw(st.sampled_from([1024, 2048, 4096]))},
        )
        for i in range(draw(st.integers(1, 3)))
    ]
    jobs: list[Job] = []
    cluster = 1
    for user in USERS:
        group, _, owner = user.rpartition(".")
        for _ in range(draw(st.integers(0, 2))):
            procs = draw(st.lists(st.integers(0, 150), min_size=1, max_size=8, unique=True))
            padded = draw(st.integers(0, 4)) == 0  # "7.007": ordered job by job
            for proc in procs:
                jobs.append(
                    Job(
                        f"{cluster}.{proc:03d}" if padded else f"{cluster}.{proc}",
                        owner,
                        accounting_group=user if group else None,
                        job_prio=draw(st.integers(0, 1)),
                        submit_time=NOW - draw(st.integers(0, 1)),
                        request_memory=draw(st.sampled_from([512, 1500, 3000])),
                        requirements="TARGET.Memory >= MY.RequestMemory",
                    )
                )
            cluster += 1
    random.Random(draw(st.integers(0, 1000))).shuffle(jobs)
    prios = {f"{u}@example.org": draw(st.sampled_from([0.5, 1.0, 5.0])) for u in USERS}
    return machines, jobs, prios


def grouped(jobs: list[Job]) -> list[JobBatch]:
    """The groups ``io/job_groups.py`` makes: jobs of one cluster, equal but for the id."""
    groups: dict[tuple[object, ...], list[Job]] = {}
    for job in jobs:  # (the jobs' mappings are all the one empty one)
        values = structs.astuple(structs.replace(job, id="", attributes={}, dirac_requirements={}))
        groups.setdefault((job.id.partition(".")[0], repr(values)), []).append(job)
    return [IdBatch(same[0], len(same), [j.id for j in same]) for same in groups.values()]


def _cycle(
    machines: list[MachineSpec], queue: list[JobBatch], prios: dict[str, float], knobs: object
) -> CycleResult:
    return negotiate_cycle(
        machines,
        [],
        queue,
        submitter_of,  # type: ignore[arg-type]
        lambda name: SubmitterPrio(prios.get(name, 0.5)),
        None,
        knobs,  # type: ignore[arg-type]
        NOW,
    )


@settings(max_examples=150, deadline=None)
@given(separate_queues(), st.sampled_from([LEGACY, CURRENT]), st.booleans())
def test_grouped_queue_negotiates_as_one_object_per_job(
    pool: tuple[list[MachineSpec], list[Job], dict[str, float]], knobs: object, preempt: bool
) -> None:
    """The same matches, unmatched jobs (ids, order, reasons), summaries and spins."""
    machines, jobs, prios = pool
    knobs = replace(knobs, consider_preemption=preempt)  # type: ignore[type-var]
    fast = _cycle(machines, grouped(jobs), prios, knobs)
    plain = _cycle(machines, [JobBatch(j) for j in jobs], prios, knobs)
    assert fast.matches == plain.matches
    assert list(fast.iter_unmatched()) == list(plain.iter_unmatched())
    assert fast.submitters == plain.submitters
    assert (fast.spins, fast.pool_size) == (plain.spins, plain.pool_size)


def test_a_requirement_on_the_proc_makes_each_job_its_own_ad() -> None:
    """``Requirements = MY.ProcId % 2 == 0`` reads each job's own ``ProcId`` (an
    autocluster per job, as ``ProcId`` is significant): of 1.0 to 1.3, grouped as one
    batch, only 1.0 and 1.2 match on a pool of four slots (the current profile, where a
    rejection skips the rest of an autocluster; legacy's skips the rest of the cluster)."""
    machines = [MachineSpec(name="m-", count=1, slots=4, attributes={"Cpus": 1, "Memory": 1024})]
    jobs = [Job(f"1.{p}", "u0", requirements="MY.ProcId % 2 == 0") for p in range(4)]
    result = _cycle(machines, grouped(jobs), {}, CURRENT)
    assert [m.job_id for m in result.matches] == ["1.0", "1.2"]
    assert result.matches == _cycle(machines, [JobBatch(j) for j in jobs], {}, CURRENT).matches
    assert [j for j, _, _ in result.iter_unmatched()] == ["1.1", "1.3"]


segments = st.lists(st.tuples(st.integers(1, 9), st.booleans(), st.integers(0, 9)), max_size=6).map(
    lambda spec: [
        (
            IdBatch(Job(f"{k}.0", "u"), n, [f"{k}.{p}" for p in range(n)])
            if ids
            else JobBatch(Job(f"{k}.0", "u"), n),
            min(start, n - 1),
        )
        for k, (n, ids, start) in enumerate(spec, 1)
    ]
)


@settings(max_examples=200, deadline=None)
@given(segments, st.integers(1, 7))
def test_id_chunks_are_the_ids_cut_in_lists_of_a_size(
    parts: list[tuple[JobBatch, int]], size: int
) -> None:
    """``UnmatchedRun.id_chunks``: the ids of ``iter_ids`` in order, every list but the
    last of ``size``."""
    from fairshare_cli.core.htcondor.negotiator import UnmatchedRun

    run = UnmatchedRun("u@x", "not_reached", parts)
    chunks = list(run.id_chunks(size))
    assert [i for c in chunks for i in c] == list(run.iter_ids())
    assert all(len(c) == size for c in chunks[:-1]) and all(0 < len(c) <= size for c in chunks)


def _proc_order_or_none(ids: list[str]) -> list[str] | None:
    """The rule one id at a time: every id ``C.P`` of one cluster ``C``, both ASCII digits,
    ``P`` without a leading zero but ``0`` itself, no two equal; then the ids in order of
    ``P`` as a number (``ProcId``, an integer in HTCondor's job ad)."""
    cluster = ids[0].partition(".")[0]
    for i in ids:
        c, dot, p = i.partition(".")
        good = (cluster.isascii() and cluster.isdigit(), p.isascii() and p.isdigit())
        if c != cluster or not dot or not all(good) or (p != "0" and p.startswith("0")):
            return None
    if len(set(ids)) != len(ids):
        return None
    return sorted(ids, key=lambda i: int(i.partition(".")[2]))


_ODD_PROCS = st.sampled_from(["00", "07", "١", "1.1", "", "0 "])
_PROCS = st.integers(0, 120).map(str) | st.integers(0, 120).map(str) | _ODD_PROCS
_ID_TEXTS = st.one_of(
    st.builds("1.{}".format, _PROCS),
    st.builds("1.{}".format, _PROCS),
    st.builds("{}.{}".format, st.sampled_from(["12", "10", "", "a", "1١"]), _PROCS),
    st.sampled_from(["1", "10", "1."]),
)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.tuples(st.builds("1.{}".format, _PROCS), st.lists(_ID_TEXTS, max_size=5)),
        min_size=1,
        max_size=3,
    )
)
def test_ids_of_one_cluster_are_merged_by_proc_or_left_to_the_job_by_job_order(
    firsts: list[tuple[str, list[str]]],
) -> None:
    """Batches led by an id of cluster 1 (so ordered as one cluster's), their other ids
    near every edge of the rule (other clusters sharing the first digits, ``C.0`` and
    ``C.00``, several dots, non-ASCII digits): ``ordered_runs`` gives the ids in the order
    of :func:`_proc_order_or_none`, or None where it gives None."""
    groups = [[first, *rest] for first, rest in firsts]
    every = [i for g in groups for i in g]
    want = _proc_order_or_none(every)
    if len(set(every)) != len(every):
        return  # (the reader refuses a duplicate id before)
    acs = [AutoCluster(k, None) for k in range(len(groups))]  # type: ignore[arg-type]
    queued = [(acs[k], IdBatch(Job(g[0], "u"), len(g), g)) for k, g in enumerate(groups)]
    runs = ordered_runs(queued, False, order_key)  # type: ignore[arg-type]
    if want is None:
        assert runs is None
    else:
        assert runs is not None and runs.ids == want
