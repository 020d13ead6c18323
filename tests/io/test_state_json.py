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
