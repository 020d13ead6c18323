"""The column pass of ``state_last_update`` gives what the per-record pass gives."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.operations import last_update as lu
from fairshare_cli.core.state import State

_TIMES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=TIME_MIN, max_value=TIME_MAX),
    st.sampled_from([TIME_MIN, TIME_MAX, float(TIME_MAX) + 1.0, "1", [1.0]]),
)
_BODY = st.one_of(
    st.fixed_dictionaries({}, optional={"last_update": _TIMES, "priority": st.floats()}),
    st.sampled_from([None, 3, "x", [1]]),
)


def _exact(records: dict[str, Any]) -> float | None:
    """The per-record rule: the latest valid time, None when there is none."""
    times = [lu._number(b.get("last_update")) for b in records.values() if isinstance(b, dict)]
    valid = [t for t in times if t is not None]
    return max(valid) if valid else None


@given(st.dictionaries(st.text(max_size=3), _BODY, max_size=8))
def test_column_pass_equals_record_pass(records: dict[str, Any]) -> None:
    got = lu.state_last_update(State(sections={"accountant": {"records": records}}))
    want = _exact(records)
    assert (got is None and want is None) or (
        got is not None and want is not None and math.isclose(got, want, rel_tol=0, abs_tol=0)
    )
    assert got is None or type(got) is float


@given(st.lists(st.floats(min_value=TIME_MIN, max_value=TIME_MAX) | st.none(), max_size=8))
def test_plain_columns(times: list[float | None]) -> None:
    """Every body a dict and every time valid or absent: the fast branch itself."""
    records = {str(i): {"last_update": t} for i, t in enumerate(times)}
    bodies = list(records.values())
    got = [t for t in lu._record_times(bodies) if t is not None]
    valid = [t for t in times if t is not None]
    assert got == ([max(valid)] if valid else [])
