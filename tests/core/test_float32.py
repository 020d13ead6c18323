"""The one single-precision rounding that HTCondor's ranks and DIRAC's FLOAT columns share."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.float32 import FLT_MAX, float32
from fairshare_cli.errors import did_you_mean


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # 0.1 = 0x3DCCCCCD in single precision: 13421773 / 2**27.
        pytest.param(0.1, 13421773 / 2**27, id="tenth"),
        # 1e8/3 = 33333333.33 lies between 2**24 and 2**25, where floats are 2 apart:
        # 33333332 is 1.33 away, 33333334 only 0.67.
        pytest.param(1e8 / 3, 33333334.0, id="rounds-to-even-spacing"),
        pytest.param(FLT_MAX, FLT_MAX, id="largest"),
        pytest.param(1e39, math.inf, id="overflow"),
        pytest.param(-1e39, -math.inf, id="negative-overflow"),
        pytest.param(math.inf, math.inf, id="inf"),
    ],
)
def test_float32_rounds_like_a_c_float(value: float, expected: float) -> None:
    assert float32(value) == expected


def test_float32_keeps_nan() -> None:
    assert math.isnan(float32(math.nan))


@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float32_is_the_identity_on_single_precision_values(value: float) -> None:
    assert float32(value) == value


@given(st.floats(allow_nan=False, min_value=-FLT_MAX, max_value=FLT_MAX))
def test_float32_is_idempotent(value: float) -> None:
    once = float32(value)
    assert float32(once) == once


@pytest.mark.parametrize(
    ("word", "known", "expected"),
    [
        pytest.param(
            "halflife",
            ["priority_halflife", "pool"],
            " (did you mean 'priority_halflife'?)",
            id="close",
        ),
        pytest.param("zzz", ["priority_halflife", "pool"], "", id="none-close"),
        pytest.param("QOS", ["qos", "pool"], " (did you mean 'qos'?)", id="other-case"),
        pytest.param("OWNER", ["owner", "owned"], " (did you mean 'owner'?)", id="case-first"),
        pytest.param("x", [], "", id="nothing-known"),
    ],
)
def test_did_you_mean(word: str, known: list[str], expected: str) -> None:
    assert did_you_mean(word, known) == expected
