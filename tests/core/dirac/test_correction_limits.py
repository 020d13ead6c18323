"""The share corrector with weights and maximum corrections below 1, as DIRAC takes them.

DIRAC reads ``Weight``, ``MaxCorrection`` and ``MaxGlobalCorrection`` as any integers
(``BaseHistoryCorrector._fillSlices``): each weight over their sum (``weight /=
float(weightSum)``), a slice's factor ``max(min(f, Max), 1.0 / Max)``, the global one
``max(min(sum, G), 1.0 / G)``. Every number below is derived by hand from that code.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import DiracCorrectionInstance as CorrectorInstance
from fairshare_cli.core.config import DiracSlice
from fairshare_cli.core.dirac.correction import apply_correction, started_instances
from fairshare_cli.core.dirac.taskqueues import CorrectionFails

SHARES = {"g1": 500.0, "g2": 500.0}  # (normalised: 0.5 each)
# Slice 1: g1 ran 3, g2 0.5 (T 3.5): raw factors 0.5/(3/3.5) = 7/12 and 0.5/(0.5/3.5) = 3.5.
# Slice 2: g1 ran 3, g2 1 (T 4): raw factors 0.5/0.75 = 2/3 and 0.5/0.25 = 2.
HISTORIES = [{"g1": 3.0, "g2": 0.5}, {"g1": 3.0, "g2": 1.0}]


def instance(
    weights: tuple[int, int], maxima: tuple[int, int] = (2, 4), top: int = 3
) -> CorrectorInstance:
    slices = tuple(DiracSlice(3600, w, m) for w, m in zip(weights, maxima, strict=True))
    return CorrectorInstance("i", max_global_correction=top, slices=slices)


def test_a_negative_weight_subtracts_its_slice() -> None:
    """Weights 3 and -1 (sum 2): 1.5 and -0.5.
    g1: clamp(7/12, 1/2, 2) = 7/12 × 1.5 = 0.875; clamp(2/3, 1/4, 4) × -0.5 = -1/3;
        sum 0.541667 (inside [1/3, 3]).
    g2: clamp(3.5) = 2 × 1.5 = 3; clamp(2) = 2 × -0.5 = -1; sum 2."""
    corrected, factors = apply_correction(SHARES, instance((3, -1)), HISTORIES)
    assert factors["g1"] == pytest.approx(0.875 - 1 / 3, rel=1e-15)
    assert factors["g2"] == 2.0
    assert corrected == {"g1": pytest.approx(270.833333333, rel=1e-10), "g2": 1000.0}


def test_weights_all_negative_weigh_as_their_opposites() -> None:
    """Weights -3 and -1 (sum -4): -3/-4 = 0.75 and 0.25, as weights 3 and 1 give.
    g1: 7/12 × 0.75 + 2/3 × 0.25 = 0.604167; g2: 2 × 0.75 + 2 × 0.25 = 2."""
    _, negative = apply_correction(SHARES, instance((-3, -1)), HISTORIES)
    _, positive = apply_correction(SHARES, instance((3, 1)), HISTORIES)
    assert negative == positive
    assert negative["g1"] == pytest.approx(7 / 16 + 1 / 6, rel=1e-15)
    assert negative["g2"] == 2.0


def test_a_weighted_sum_below_the_global_floor_is_clamped() -> None:
    """Weights 1 and -3 (sum -2): -0.5 and 1.5.
    g1: 7/12 × -0.5 = -7/24; 2/3 × 1.5 = 1; sum 0.708333.
    g2: 2 × -0.5 = -1; 2 × 1.5 = 3; sum 2."""
    _, factors = apply_correction(SHARES, instance((1, -3)), HISTORIES)
    assert factors["g1"] == pytest.approx(1 - 7 / 24, rel=1e-15)
    assert factors["g2"] == 2.0
    # Weights 5 and -4 (sum 1): g1 35/12 - 8/3 = 0.25, below 1/3: 1/3; g2 10 - 8 = 2.
    _, floored = apply_correction(SHARES, instance((5, -4)), HISTORIES)
    assert floored["g1"] == 1 / 3
    assert floored["g2"] == 2.0


def test_a_negative_max_correction_gives_its_reciprocal() -> None:
    """MaxCorrection -2 in both slices, weights 1 and 1 (0.5 each): min(f, -2) = -2, then
    max(-2, 1/-2 = -0.5) = -0.5, × 0.5 = -0.25 for every present entity; sums -0.5,
    clamped by max(min(-0.5, 3), 1/3) to 1/3. An absent entity gets the slice's
    MaxCorrection, -2, unweighted: g3's sum -4, clamped to 1/3 too."""
    shares = {**SHARES, "g3": 500.0}
    corrected, factors = apply_correction(shares, instance((1, 1), (-2, -2)), HISTORIES)
    assert factors == {"g1": 1 / 3, "g2": 1 / 3, "g3": 1 / 3}
    assert corrected == dict.fromkeys(shares, 500 * (1 / 3))


def test_a_negative_global_maximum_makes_every_share_negative() -> None:
    """MaxGlobalCorrection -2: max(min(sum, -2), 1/-2) = -0.5 whatever the sum: every
    entity with a slice factor gets -0.5 (its share -250, which the queues floor at 0.001)."""
    corrected, factors = apply_correction(SHARES, instance((3, 1), top=-2), HISTORIES)
    assert factors == {"g1": -0.5, "g2": -0.5}
    assert corrected == {"g1": -250.0, "g2": -250.0}


@pytest.mark.parametrize(
    ("maxima", "top", "histories"),
    [
        pytest.param((0, 4), 3, HISTORIES, id="slice-max-0"),
        pytest.param((2, 4), 0, HISTORIES, id="global-max-0"),
        # (slice totals of 0 skip every slice, but 1.0 / G is still computed)
        pytest.param((2, 4), 0, [{"x": 1.0}, {"x": 1.0}], id="global-max-0-no-usage"),
    ],
)
def test_a_max_correction_of_0_divides_by_zero_once_there_is_history(
    maxima: tuple[int, int], top: int, histories: list[dict[str, float]]
) -> None:
    """``1.0 / maxSliceCorrection`` (for a slice whose entities ran) and ``1.0 /
    maxGlobalCorrectionFactor`` (once any history is known) raise ZeroDivisionError."""
    with pytest.raises(CorrectionFails, match=r"Correction 0$"):
        apply_correction(SHARES, instance((1, 1), maxima, top), histories)


@pytest.mark.parametrize(
    ("maxima", "top", "histories"),
    [
        pytest.param((0, 4), 3, [{}, {}], id="no-history"),
        pytest.param((0, 4), 3, [{"x": 1.0}, {"g1": 1.0}], id="slice-without-usage"),
        pytest.param((2, 4), 0, [{}, {"g1": 1.0}], id="a-slice-without-report"),
    ],
)
def test_a_max_correction_of_0_is_never_divided_by_without_history(
    maxima: tuple[int, int], top: int, histories: list[dict[str, float]]
) -> None:
    """No report (DIRAC's ``__usageHistory`` empty): shares unchanged. A slice whose
    entities did not run is skipped before its 1.0 / Max (slice 2 only: g1 clamp(0.5 / 1,
    1/4, 4) × 0.5 = 0.25, raised to the floor 1/3; g2, absent, its Max 4, lowered to 3)."""
    corrected, factors = apply_correction(SHARES, instance((1, 1), maxima, top), histories)
    if histories[0] == {"x": 1.0}:
        assert factors == {"g1": 1 / 3, "g2": 3}
    else:
        assert (corrected, factors) == (SHARES, {"g1": 1.0, "g2": 1.0})


def test_an_instance_whose_weights_sum_to_0_and_its_types_later_ones_never_start() -> None:
    """``SharesCorrector.instantiateRequiredCorrectors`` registers the type, then starts its
    instances in order; ``_fillSlices`` raises at one whose weights sum to 0, so it and the
    type's later ones never start (the type is registered); other types start."""
    bad = CorrectorInstance("a", slices=(DiracSlice(weight=1), DiracSlice(weight=-1)))
    before = CorrectorInstance("b", group="g0", slices=(DiracSlice(),))
    after = CorrectorInstance("c", group="g1", slices=(DiracSlice(),))
    other = CorrectorInstance("d", slices=(DiracSlice(),), corrector="MonitoringHistory")
    empty = CorrectorInstance("e", group="g2", corrector="MonitoringHistory")
    assert started_instances([before, bad, after, other, empty]) == [before, other, empty]
