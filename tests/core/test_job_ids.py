"""What the pieces of a jobs file have taken so far (``core/job_ids.py``): ids in order
make no set, and a duplicate is found either way."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.job_ids import TakenIds, ascending
from fairshare_cli.core.jobs import Job


@pytest.mark.parametrize(
    ("ids", "after", "expected"),
    [
        (["1", "2", "3"], "", True),
        (["9", "10", "11"], "8", True),  # longer is later, as numbers are
        (["99", "100"], "", True),
        (["10", "9"], "", False),  # "10" < "9" as text, but it is shorter that counts
        (["1", "1"], "", False),  # equal: not after
        (["5"], "5", False),
        (["5"], "10", False),  # after 10, 5 is not later
        (["11"], "10", True),
        (["1.0", "1.1", "1.10"], "", True),
        (["1.10", "2.0"], "", False),  # shorter after longer: not as numbers are
        (["b", "a"], "", False),
        ([], "7", True),
    ],
)
def test_ascending_by_length_then_text(ids: list[str], after: str, expected: bool) -> None:
    assert ascending(ids, after) is expected


_ID = st.text(alphabet="0123456789.ab", min_size=1, max_size=4)


@given(st.lists(_ID, max_size=12), _ID)
def test_ascending_is_strictly_increasing_by_length_then_text(ids: list[str], after: str) -> None:
    """The rule checked in C is the plain one: each (length, text) after the one before."""
    keys = [(len(after), after), *((len(i), i) for i in ids)]
    assert ascending(ids, after) is all(a < b for a, b in pairwise(keys))


def _jobs(*ids: str) -> list[Job]:
    return [Job(id=i, owner="u") for i in ids]


def test_a_duplicate_after_ascending_pieces_is_found() -> None:
    """Ascending pieces keep no set; the first piece out of order makes it of every id so far."""
    taken = TakenIds(Job)
    assert taken.take(_jobs("1", "2"), ["1", "2"])
    assert taken.take(_jobs("3", "10"), ["3", "10"])
    assert taken.ids is None  # (none taken twice: no set made)
    assert not taken.take(_jobs("4", "2"), ["4", "2"])  # 2 again


def test_ids_out_of_order_but_new_are_taken() -> None:
    taken = TakenIds(Job)
    assert taken.take(_jobs("5", "6"), ["5", "6"])
    assert taken.take(_jobs("1", "2"), ["1", "2"])
    assert taken.ids == {"1", "2", "5", "6"}
    assert taken.take(_jobs("7"), ["7"])
    assert not taken.take(_jobs("6"), ["6"])


@given(st.lists(st.lists(st.integers(0, 30), max_size=5), max_size=6))
def test_take_refuses_exactly_the_pieces_with_a_taken_id(pieces: list[list[int]]) -> None:
    """Whatever the order, a piece is refused exactly when one of its ids was taken before
    (or twice in it): as a set of every id would tell."""
    taken, seen = TakenIds(Job), set[str]()
    for piece in pieces:
        ids = [str(n) for n in piece]
        fresh = len(set(ids)) == len(ids) and not seen.intersection(ids)
        assert taken.take(_jobs(*ids), ids) is fresh
        if not fresh:
            return
        seen.update(ids)
