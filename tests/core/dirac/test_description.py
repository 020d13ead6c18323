"""What DIRAC's JobManager refuses in a job description (core/dirac/description.py).

The bounds are ``JobModel.py``'s defaults, read by hand from DIRAC's source
(``Utilities/JobModel.py``: ``checkPriorityBounds`` ``MinPriority`` 0, ``MaxPriority`` 10;
``checkCPUTimeBounds`` ``MinCPUTime`` 100, ``MaxCPUTime`` 500000; ``checkSites`` known sites
or ``"ANY"``; ``checkThatSitesAndBannedSitesAreNotMutuallyExclusive``), both ends inclusive
(``not min <= v <= max`` refuses).
"""

from __future__ import annotations

import pytest

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
