"""``priority/basic``'s job priorities (``set_job_prio`` over ``priority_p_set``, 22.05 and
26.05 alike): one less than the lowest given so far, less the job's nice."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.basic_priority import (
    TOP_PRIORITY,
    BasicPriorities,
    first_in_first_out,
)


def _job(job_id: str, **fields: object) -> Job:
    return Job(id=job_id, owner="alice", request_cpus=1, status="idle", **fields)  # type: ignore[arg-type]


def test_each_job_one_below_the_last() -> None:
    """From TOP_PRIORITY (0xffff0000 = 4294901760): 4294901759, then 4294901758."""
    assert first_in_first_out(TOP_PRIORITY, 0) == (4294901759, 4294901759)
    assert first_in_first_out(4294901759, 0) == (4294901758, 4294901758)


def test_a_nice_lowers_the_job_not_the_count() -> None:
    """nice 10 after 4294901760: 4294901759 - 10 = 4294901749; the count takes the job's
    priority plus its nice back, 4294901759. A negative nice (an admin's) raises it:
    4294901758 + 5 = 4294901763, the count 4294901758."""
    assert first_in_first_out(TOP_PRIORITY, 10) == (4294901749, 4294901759)
    assert first_in_first_out(4294901759, -5) == (4294901763, 4294901758)


def test_a_nice_at_the_bottom_is_not_taken_off() -> None:
    """After 12: 11, whose nice 10 would leave 1; ``priority_p_set`` takes a positive nice
    off only while the priority stays above nice + 1 (11 > 11 is false): 11 stays, and the
    count keeps 12 (min(11 + 10, 12)). After 2: 1; after 1 (or 0): 1, never the hold 0."""
    assert first_in_first_out(12, 10) == (11, 12)
    assert first_in_first_out(13, 10) == (2, 12)
    assert first_in_first_out(2, 0) == (1, 1)
    assert first_in_first_out(1, 0) == (1, 1)


def test_the_queue_goes_by_job_id_below_the_dumps_priorities() -> None:
    """Jobs 7 and 5 with no priority, job 9 with a dump's 1000 and job 3 an admin's 50:
    the count starts below the dump's 1000 (the admin's moves nothing); job 5 gets 999,
    job 7 998 (job id order), whatever their order in the queue; a job queued later 997."""
    fifo = BasicPriorities(
        [_job("7"), _job("9", slurm_priority=1000), _job("5"), _job("3", admin_priority=50)]
    )
    assert fifo.queued(_job("7")).slurm_priority == 998
    assert fifo.queued(_job("5")).slurm_priority == 999
    assert fifo.queued(_job("9", slurm_priority=1000)).slurm_priority == 1000
    assert fifo.queued(_job("3", admin_priority=50)).slurm_priority == 50
    assert fifo.queued(_job("11")).slurm_priority == 997


@given(st.lists(st.integers(min_value=-10000, max_value=10000), max_size=50))
def test_the_count_never_rises_and_a_priority_is_never_a_hold(nices: list[int]) -> None:
    """Whatever the nices, the count never rises and falls by one for a job of no positive
    nice, each priority is at least 1, and a job of nice 0 gets one below the count."""
    last = TOP_PRIORITY
    for nice in nices:
        prio, lowest = first_in_first_out(last, nice)
        assert prio >= 1
        assert lowest <= last
        if nice <= 0 and last >= 2:
            assert lowest == last - 1
        if nice == 0:
            assert prio == max(last - 1, 1)
        last = lowest
