"""What DIRAC's JobManager refuses in a job description (core/dirac/description.py).

The bounds are ``JobModel.py``'s defaults (and, below, a pool's own), read by hand from DIRAC's source
(``Utilities/JobModel.py``: ``checkPriorityBounds`` ``MinPriority`` 0, ``MaxPriority`` 10;
``checkCPUTimeBounds`` ``MinCPUTime`` 100, ``MaxCPUTime`` 500000; ``checkSites`` known sites
or ``"ANY"``; ``checkThatSitesAndBannedSitesAreNotMutuallyExclusive``), both ends inclusive
(``not min <= v <= max`` refuses).
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from fairshare_cli.core.config import DiracJobDescription
from fairshare_cli.core.dirac.description import cpu_time_problem, priority_problem, sites_problem


@pytest.mark.parametrize(
    ("priority", "refused"),
    [
        pytest.param(0, False, id="zero"),
        pytest.param(10, False, id="ten"),
        pytest.param(10.0, False, id="ten-as-float"),
        pytest.param(-0.0, False, id="minus-zero"),
        pytest.param(-1, True, id="minus-one"),
        pytest.param(11, True, id="eleven"),
        pytest.param(9.5, True, id="fraction"),
        pytest.param(0.5, True, id="half"),
    ],
)
def test_priority_bounds(priority: float, refused: bool) -> None:
    assert (priority_problem(priority) is not None) is refused


@pytest.mark.parametrize(
    ("cpu_time", "refused"),
    [
        pytest.param(100, False, id="lowest"),
        pytest.param(500000, False, id="highest"),
        pytest.param(86400.0, False, id="whole-float"),
        pytest.param(99, True, id="below"),
        pytest.param(0, True, id="zero"),
        pytest.param(500001, True, id="above"),
        pytest.param(3600.5, True, id="fraction"),
    ],
)
def test_cpu_time_bounds(cpu_time: float, refused: bool) -> None:
    assert (cpu_time_problem(cpu_time) is not None) is refused


def test_the_messages_carry_dirac_words() -> None:
    assert priority_problem(11) == (
        "user_priority: 11: DIRAC's JobManager refuses the job (priority out of bounds (must "
        "be between 0 and 10))"
    )
    assert cpu_time_problem(99) == (
        "dirac_requirements.cpu_time: 99: DIRAC's JobManager refuses the job (cpuTime out of "
        "bounds (must be between 100 and 500000))"
    )


@pytest.mark.parametrize(
    ("sites", "banned", "words"),
    [
        pytest.param(("ANY",), (), None, id="any-spelt-so"),
        pytest.param(("A",), ("B",), None, id="one-left"),
        pytest.param(("A", "B"), ("B",), None, id="some-left"),
        pytest.param(("A",), ("a",), None, id="compared-with-case"),
        pytest.param(("ANY", "A"), ("A",), None, id="any-left"),
        pytest.param((), ("A",), None, id="only-banned"),
        pytest.param(("any",), (), "Invalid sites: any", id="any-lower"),
        pytest.param(("A", "aNy"), (), "Invalid sites: aNy", id="any-mixed"),
        pytest.param(("A",), ("A",), "mutually exclusive", id="all-banned"),
        pytest.param(("ANY",), ("ANY",), "mutually exclusive", id="any-banned"),
    ],
)
def test_sites(sites: tuple[str, ...], banned: tuple[str, ...], words: str | None) -> None:
    problem = sites_problem(sites, banned)
    if words is None:
        assert problem is None
    else:
        assert problem is not None and words in problem


# ``/Operations/JobDescription`` set by the pool: the same checks with its numbers
# (``checkPriorityBounds``/``checkCPUTimeBounds`` read Min*/Max* through ``Operations``;
# a job without the value is validated with ``DefaultPriority``/``DefaultCPUTime``, the
# model's field defaults, which ``JobManifest.check`` then writes into the job).
WIDE = DiracJobDescription(
    default_cpu_time=7200, max_cpu_time=1000000, default_priority=5, max_priority=20
)
NARROW = DiracJobDescription(default_cpu_time=86400, min_cpu_time=100000, default_priority=12)


@pytest.mark.parametrize(
    ("priority", "description", "refused"),
    [
        pytest.param(20, WIDE, False, id="max-20-takes-20"),
        pytest.param(21, WIDE, True, id="max-20-refuses-21"),
        pytest.param(None, WIDE, False, id="default-5-in-bounds"),
        pytest.param(None, NARROW, True, id="default-12-above-10"),
        # The model is made with DefaultPriority 12 before the job's own 3 is set: refused.
        pytest.param(3, NARROW, True, id="default-12-refuses-a-given-3"),
        pytest.param(None, DiracJobDescription(), False, id="dirac-default-1"),
        # MinPriority -5 lets -1 past JobManager; tq_Jobs.Priority is INTEGER UNSIGNED.
        pytest.param(-1, DiracJobDescription(min_priority=-5), True, id="negative-unsigned"),
        pytest.param(2**31, DiracJobDescription(max_priority=2**40), True, id="over-int"),
        pytest.param(2**31 - 1, DiracJobDescription(max_priority=2**40), False, id="int-max"),
    ],
)
def test_priority_under_the_pools_job_description(
    priority: int | None, description: DiracJobDescription, refused: bool
) -> None:
    assert (priority_problem(priority, description) is not None) is refused


@pytest.mark.parametrize(
    ("cpu_time", "description", "refused"),
    [
        pytest.param(1000000, WIDE, False, id="max-1e6-takes-1e6"),
        pytest.param(1000001, WIDE, True, id="max-1e6-refuses-more"),
        pytest.param(None, WIDE, False, id="default-7200-in-bounds"),
        pytest.param(None, NARROW, True, id="default-86400-below-min-100000"),
        pytest.param(99999, NARROW, True, id="below-min-100000"),
        # The model is made with DefaultCPUTime 86400 (below MinCPUTime 100000) before the
        # job's own 200000 is set: refused, though 200000 is within the bounds.
        pytest.param(200000, NARROW, True, id="default-below-min-refuses-a-given-200000"),
        pytest.param(200000, replace(NARROW, default_cpu_time=100000), False, id="in-bounds"),
    ],
)
def test_cpu_time_under_the_pools_job_description(
    cpu_time: int | None, description: DiracJobDescription, refused: bool
) -> None:
    assert (cpu_time_problem(cpu_time, description) is not None) is refused


def test_a_default_out_of_bounds_is_named() -> None:
    assert priority_problem(None, NARROW) == (
        "user_priority: not given, so JobDescription/DefaultPriority = 12: DIRAC's JobManager "
        "refuses the job (priority out of bounds (must be between 0 and 10))"
    )
    assert cpu_time_problem(None, NARROW) == (
        "dirac_requirements.cpu_time: not given, so JobDescription/DefaultCPUTime = 86400: "
        "DIRAC's JobManager refuses the job (cpuTime out of bounds (must be between 100000 "
        "and 500000))"
    )
    assert cpu_time_problem(200000, NARROW) == (
        "dirac_requirements.cpu_time: 200000, but JobDescription/DefaultCPUTime = 86400 is out "
        "of bounds: DIRAC's JobManager validates the default before the job's own value, so "
        "it refuses every job (cpuTime out of bounds (must be between 100000 and 500000))"
    )
    assert priority_problem(-1, DiracJobDescription(min_priority=-5)) == (
        "user_priority: -1: MariaDB refuses it for tq_Jobs.Priority (INTEGER UNSIGNED), so "
        "DIRAC cannot queue the job"
    )
