"""The partition slurmctld leaves a job of several partitions in, by its stored priorities:
``_priority_each_qos`` (``priority_multifactor.c``) stores ``part·W + (age + assoc + fs +
js + qos + tres + site − nice)`` truncated to a ``uint32``, and ``sort_job_queue2`` pops a
job's records of one tier highest priority first, equal ones as queued (the later
partition last). Numbers by hand; 22.05 and 26.05 alike."""

from __future__ import annotations

from types import SimpleNamespace

from fairshare_cli.core.slurm.partition import sizing_choices, sizing_partition
from fairshare_cli.core.slurm.sizer import Sizes, weighted_sum

# short: partition factor 0.5 (weighted by 1), long: 1.0; no TRES. A job of 8 CPUs and no
# time limit under SMALL_RELATIVE_TO_TIME: 8 / 60 / 16 x 29520 = 246 in short (MaxTime 60
# minutes), 8 / 1440 / 16 x 29520 = 10.25 in long (1440).
SIZES = Sizes(
    "short", {"short": 246.0, "long": 10.25}, [("short", 0.5, 0.0), ("long", 1.0, 0.0)], {}
)


def test_sums_that_truncate_alike_leave_the_job_in_the_later_partition() -> None:
    # Age 0.1 x 1006 = 100.6. Sized in short at submission: 100.6 + 246 = 346.6; short
    # 0.5 + 346.6 = 347.1 and long 1.0 + 346.6 = 347.6 both store 347: long's record is
    # popped last. In long: 110.85, 111.35 and 111.85, both 111: it stays.
    assert SIZES.pick(0.1 * 1006, (0.0,), 0, 0) == "long"


def test_sums_that_straddle_a_whole_number_leave_it_in_the_lower() -> None:
    # Age 0.05 x 1006 = 50.3: 296.3; short 296.8 -> 296, long 297.3 -> 297: short.
    assert SIZES.pick(0.05 * 1006, (0.0,), 0, 0) == "short"


def test_site_and_nice_add_whole_numbers_and_move_no_boundary() -> None:
    assert SIZES.pick(0.1 * 1006, (0.0,), 300, 25) == "long"
    assert SIZES.pick(0.05 * 1006, (0.0,), 300, 25) == "short"


def test_of_several_qos_the_lowest_record_counts() -> None:
    # 50.3 + 246 = 296.3. QOS 0.4 alone: short 297.2 and long 297.7, both 297: long. With a
    # QOS of 0 too (the job's records: a partition and a QOS each), short's 296.8 -> 296 is
    # below long's least, 297.3 -> 297: short.
    assert SIZES.pick(0.05 * 1006, (0.4,), 0, 0) == "long"
    assert SIZES.pick(0.05 * 1006, (0.4, 0.0), 0, 0) == "short"


def test_weighted_tres_add_up_from_zero_in_order() -> None:
    assert weighted_sum({"cpu": 0.1, "mem": 0.2, "node": 0.3}) == (0.0 + 0.1 + 0.2) + 0.3


def _part(name: str, tier: int = 1, max_time: float | None = None) -> SimpleNamespace:
    return SimpleNamespace(name=name, priority_tier=tier, max_time=max_time)


def test_sizing_choices_are_the_first_named_until_the_pass_then_the_lowest_tier() -> None:
    short, long, top = _part("short", 1, 3600.0), _part("long", 1, 86400.0), _part("top", 2)
    pinfos = [(long, 0.0), (top, 0.0), (short, 0.0)]
    ordered = [(top, 0.0), (long, 0.0), (short, 0.0)]
    came = SimpleNamespace(submit_time=100.0)
    assert sizing_choices(came, pinfos, ordered, 100.0) == [long]  # (since the pass)
    assert sizing_choices(came, pinfos, ordered, 200.0) == [long, short]
    assert sizing_choices(came, pinfos, ordered, 200.0, limit=7200.0) == [long]  # (fits)
    # Of equal stored priorities the last; the least otherwise.
    assert sizing_partition(came, pinfos, ordered, 200.0, {"long": 7, "short": 7}) is short
    assert sizing_partition(came, pinfos, ordered, 200.0, {"long": 6, "short": 7}) is long
