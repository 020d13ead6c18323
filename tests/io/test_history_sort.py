"""The external merge sort of usage records (io/history_sort.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.io.history_sort import sorted_by_start


@given(st.lists(st.integers(0, 20), max_size=60), st.integers(1, 7))
def test_a_stable_sort_by_start_whatever_the_run_size(starts: list[int], run: int) -> None:
    records = [UsageRecord(owner=f"u{i}", start=float(s)) for i, s in enumerate(starts)]
    assert list(sorted_by_start(records, run_size=run)) == sorted(records, key=lambda r: r.start)


def test_every_field_survives_the_spill() -> None:
    rec = UsageRecord("a", 2.0, None, "g.a", True, "acc", "batch", "normal", "dg", 3, 4)
    out = list(sorted_by_start([rec, UsageRecord("b", 1.0, 5.0)], run_size=1))
    assert out == [UsageRecord("b", 1.0, 5.0), rec]
