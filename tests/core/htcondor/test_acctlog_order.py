"""``acctlog_order``: the order the accountant's ``HashTable`` iterates its records."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.acctlog_order import hash_key, hash_keys, table_order, table_size


def test_hash_key_by_hand() -> None:
    """``i += (i << 5) + byte``: "A" (65) is 65; "AB" is 65 x 33 + 66 = 2211."""
    assert hash_key("") == 0
    assert hash_key("A") == 65
    assert hash_key("AB") == 2211


def test_hash_key_wraps_at_64_bits() -> None:
    """A long key keeps a 64-bit ``size_t``: 33^20 x 97 overflows long before the end."""
    assert 0 <= hash_key("a" * 100) < 2**64


@given(st.text(max_size=60))
def test_hash_key_is_the_wrapping_loop(key: str) -> None:
    """Taken modulo 2^64 once at the end or at each step (as a ``size_t`` wraps): alike."""
    i = 0
    for byte in key.encode():
        i = (i + (i << 5) + byte) & (2**64 - 1)
    assert hash_key(key) == i


def _wrapping_loop(key: str) -> int:
    i = 0
    for byte in key.encode():
        i = (i + (i << 5) + byte) & (2**64 - 1)
    return i


# Keys that share lengths, prefixes, suffixes and whole columns (a column of one byte is
# added to every slot at once), multi-byte characters, and long ones (many terms a slot).
_KEYS = st.lists(
    st.one_of(
        st.text(alphabet="ab@.é中\x00\xff", max_size=12),
        st.builds("Customer.{}@d".format, st.text(alphabet="xyz09", max_size=6)),
        st.text(min_size=200, max_size=300),
    ),
    max_size=40,
)


@given(_KEYS)
def test_hash_keys_are_each_keys_wrapping_loop(keys: list[str]) -> None:
    """The keys of a length at once, side by side in one int: each key's own hash."""
    assert hash_keys(keys) == [_wrapping_loop(k) for k in keys]


@pytest.mark.parametrize(
    ("entries", "size"),
    [(0, 7), (5, 7), (6, 15), (11, 15), (12, 31), (24, 31), (25, 63), (50, 63), (51, 127)],
)
def test_table_grows_at_a_load_of_0_8(entries: int, size: int) -> None:
    """7 buckets hold 5 (5/7 = 0.71); the 6th (0.86) grows them to 15; 12/15 = 0.8 to 31;
    25/31 = 0.81 to 63; 51/63 = 0.81 to 127."""
    assert table_size(entries) == size


def test_order_is_by_bucket_then_name() -> None:
    """With 63 buckets ben (50) follows dan (41); with 7 (ben 1, dan 6) it leads."""
    names = ["dan@htc.test", "ben@htc.test"]
    assert table_order(names, 28) == ["dan@htc.test", "ben@htc.test"]
    assert table_order(names, 3) == ["ben@htc.test", "dan@htc.test"]
