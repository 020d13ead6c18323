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
# time limit under SMALL_RELATIVE_TO_TIME: 8 / 60 / 16 x 30672 = 255.6 in short (MaxTime 60
# minutes), 8 / 1440 / 16 x 30672 = 10.65 in long (1440).
JS = {"short": 8 / 60 / 16 * 30672, "long": 8 / 1440 / 16 * 30672}
SIZES = Sizes("short", JS, [("short", 0.5, 0.0), ("long", 1.0, 0.0)], {})


def test_sums_that_truncate_alike_leave_the_job_in_the_later_partition() -> None:
    # Age 1000 and ASSOC 1.0. Sized in short: 1001 + 255.6 = 1256.6; short 0.5 + 1256.6 =
    # 1257.1 and long 1.0 + 1256.6 = 1257.6 both store 1257: long's record is popped
    # last. In long: 1011.65, 1012.15 and 1012.65, both 1012: it stays.
    assert SIZES.pick(1000.0 + 1.0, (0.0,), 0, 0) == "long"


def test_sums_that_straddle_a_whole_number_leave_it_in_the_lower() -> None:
    # ASSOC 0.5: 1256.1; short 1256.6 -> 1256, long 1257.1 -> 1257: short (in long:
    # 1011.65 -> 1011 and 1012.15 -> 1012, short again).
    assert SIZES.pick(1000.0 + 0.5, (0.0,), 0, 0) == "short"


def test_site_and_nice_add_whole_numbers_and_move_no_boundary() -> None:
    assert SIZES.pick(1000.0 + 1.0, (0.0,), 300, 25) == "long"
    assert SIZES.pick(1000.0 + 0.5, (0.0,), 300, 25) == "short"


def test_of_several_qos_the_lowest_record_counts() -> None:
    # ASSOC 0.5, in short 1256.1. QOS 0.5 alone: short 1257.1 and long 1257.6, both 1257:
    # long (and in long, 1012.15 and 1012.65: long). With a QOS of 0 too (the job's records:
    # a partition and a QOS each), short's 1256.6 -> 1256 is below long's least, 1257.1 ->
    # 1257: short.
    assert SIZES.pick(1000.0 + 0.5, (0.5,), 0, 0) == "long"
    assert SIZES.pick(1000.0 + 0.5, (0.5, 0.0), 0, 0) == "short"


def test_the_choice_starts_from_the_first_named_partitions_size_factor() -> None:
    # First named long (partition 0.5), then short (1.0); size factors 10.25 and 255.6.
    # ASSOC 1.25: sized in long, 1011.5: long 1012.0 and short 1012.5, equal: short; sized
    # in short, 1256.85: long 1257.35 and short 1257.85, equal: short. It holds.
    sizes = Sizes("long", {"short": 255.6, "long": 10.25},
                  [("long", 0.5, 0.0), ("short", 1.0, 0.0)], {})  # fmt: skip
    assert sizes.pick(1000.0 + 1.25, (0.0,), 0, 0) == "short"


def test_a_choice_that_flips_pass_to_pass_ends_after_one_pass_more_than_choices() -> None:
    # a (partition 0) before b (0.5); size factors 0.2 (a) and 0.7 (b), ASSOC 0: sized in a,
    # 1000.2: a 1000.2 and b 1000.7, equal: b; sized in b, 1000.7: a 1000.7 -> 1000 and b
    # 1001.2 -> 1001: a; and so on, pass to pass (not modelled): three steps, b.
    sizes = Sizes("a", {"a": 0.2, "b": 0.7}, [("a", 0.0, 0.0), ("b", 0.5, 0.0)], {})
    assert sizes.pick(1000.0, (0.0,), 0, 0) == "b"


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
