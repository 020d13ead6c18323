"""The state writer's msgspec text is ``json.dumps(indent=2, sort_keys=True)``'s, byte for byte."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.io.state_json import dumps_sorted

_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_same_text_as_the_standard_library(value: Any) -> None:
    try:
        want = json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    except ValueError:  # an infinity: both refuse it
        with pytest.raises(ValueError, match="Out of range float"):
            dumps_sorted(value)
        return
    assert dumps_sorted(value) == want


def test_tuples_and_extreme_floats() -> None:
    value: dict[str, Any] = {"b": (1, 1e-05, 1e16, -0.0), "a": [[]], "c": {}}
    assert dumps_sorted(value) == json.dumps(value, indent=2, sort_keys=True)


def test_nan_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        dumps_sorted({"x": [float("nan")]})


_NUMBERS = (
    st.integers()
    | st.sampled_from([10**400, -(10**16), 10**16 - 1, 0, 0.0, -0.0, 1e-4, 1e16])
    | st.floats(allow_nan=True, allow_infinity=True)
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_NUMBERS, max_size=3), min_size=1, max_size=6))
def test_rows_of_numbers_as_the_standard_library(rows: list[list[Any]]) -> None:
    """Lists of number lists (the DIRAC history's steps) take a fast check for the floats
    msgspec prints as ``repr`` does; any other (NaN, infinities, 1e-05, 1e16, huge
    integers) the long way: the text or the refusal is the standard library's either way."""
    value = {"steps": rows}
    try:
        want = json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    except ValueError:
        with pytest.raises(ValueError, match="Out of range float"):
            dumps_sorted(value)
        return
    assert dumps_sorted(value) == want
