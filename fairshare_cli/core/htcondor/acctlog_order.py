"""The order the negotiator's accountant walks its records in: the submitters' numbers in
its one ad (``Accountant::ReportState``, which ``condor_userprio -l -allusers`` prints).

The accountant keeps its records in a ``ClassAdLog`` whose table is HTCondor's own
``HashTable``: chained buckets, ``hashFunction`` of the key (``i += (i << 5) + byte`` over
its bytes, in a 64-bit ``size_t``), 7 buckets at first, grown to 2n + 1 whenever an insert
brings the load to 0.8, never shrunk. ``ReportState`` iterates bucket by bucket, and
numbers the ``Customer.<name>`` keys that are not groups in that order. The table also
holds the ``Accountant.`` record and a ``Resource.<slot>`` record per match, so its size
follows the most entries it ever held; ``fs`` takes the entries it holds now (every
record, every claim, the ``Accountant.`` record), the size a negotiator reaches when it
reads its log afresh. Keys that share a bucket are chained newest first, an order of
insertions no state holds: they go by name.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import mod

#: The table's buckets at first, and the load that grows it (``HashTable``).
FIRST_SIZE = 7
MAX_LOAD = 0.8
_SIZE_T = (1 << 64) - 1
_MOD = 1 << 64


def hash_key(key: str) -> int:
    """``hashFunction`` of a ``std::string`` key: ``i += (i << 5) + byte``, wrapping."""
    return hash_keys([key])[0]


def hash_keys(keys: Sequence[str]) -> list[int]:
    """:func:`hash_key` of each key, the keys of one length in bytes at once.

    ``i += (i << 5) + byte`` over bytes ``b0 .. b(L-1)`` ends at ``Σ bj·33^(L-1-j)`` modulo
    2^64. So the keys of length ``L`` are laid out side by side in one int, a key's byte in
    each 128-bit slot: column ``j`` of all the keys is times ``33^(L-1-j) mod 2^64`` (under
    2^72), ``L`` such terms add up under 2^80 in their slot (no carry into the next one),
    and each slot's low 64 bits are that key's hash. A column whose bytes are all the same
    (``Customer.``, a shared domain) adds one number to every slot."""
    encoded = list(map(str.encode, keys))
    lengths = list(map(len, encoded))
    order = sorted(range(len(keys)), key=lengths.__getitem__)
    hashes: list[int] = []
    start = 0
    while start < len(order):
        length = lengths[order[start]]
        end = bisect_right(order, length, lo=start, key=lengths.__getitem__)
        blob = b"".join(map(encoded.__getitem__, order[start:end]))
        hashes.extend(_column_hashes(blob, length, end - start))
        start = end
    return list(map(dict(zip(order, hashes, strict=True)).__getitem__, range(len(keys))))


def _column_hashes(blob: bytes, length: int, count: int) -> tuple[int, ...]:
    """The hashes of ``count`` keys of ``length`` bytes, laid end to end in ``blob``."""
    slots, same = 0, 0
    for j in range(length):
        column = blob[j::length]
        weight = pow(33, length - 1 - j, _MOD)
        if column.count(column[0]) == count:
            same += column[0] * weight
        else:  # (each byte into 16: latin-1 to UTF-32 twice)
            wide = column.decode("latin-1").encode("utf-32-le").decode("latin-1")
            slots += int.from_bytes(wide.encode("utf-32-le"), "little") * weight
    if slots == 0:
        return (same & _SIZE_T,) * count
    slots += int.from_bytes((same & _SIZE_T).to_bytes(16, "little") * count, "little")
    return struct.unpack(f"<{2 * count}Q", slots.to_bytes(16 * count, "little"))[::2]


def table_size(entries: int) -> int:
    """The buckets of a table that ``entries`` inserts brought up from :data:`FIRST_SIZE`."""
    size = FIRST_SIZE
    while entries / size >= MAX_LOAD:
        size = 2 * size + 1
    return size


def table_order(names: Iterable[str], entries: int) -> list[str]:
    """``names`` (customers) in the order the table of ``entries`` entries iterates them."""
    size = table_size(entries)
    names = sorted(names)  # (then by bucket, stably: by bucket, then name)
    buckets = list(map(mod, hash_keys(list(map("Customer.".__add__, names))), repeat(size)))
    return list(map(names.__getitem__, sorted(range(len(names)), key=buckets.__getitem__)))
