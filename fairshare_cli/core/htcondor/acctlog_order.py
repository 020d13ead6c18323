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

from collections.abc import Iterable

#: The table's buckets at first, and the load that grows it (``HashTable``).
FIRST_SIZE = 7
MAX_LOAD = 0.8
_SIZE_T = (1 << 64) - 1


def hash_key(key: str) -> int:
    """``hashFunction`` of a ``std::string`` key: ``i += (i << 5) + byte``, wrapping
    (taken modulo 2^64 once, at the end: the same number)."""
    i = 0
    for byte in key.encode():
        i = i * 33 + byte
    return i & _SIZE_T


def table_size(entries: int) -> int:
    """The buckets of a table that ``entries`` inserts brought up from :data:`FIRST_SIZE`."""
    size = FIRST_SIZE
    while entries / size >= MAX_LOAD:
        size = 2 * size + 1
    return size


def table_order(names: Iterable[str], entries: int) -> list[str]:
    """``names`` (customers) in the order the table of ``entries`` entries iterates them."""
    size = table_size(entries)
    return sorted(names, key=lambda name: (hash_key("Customer." + name) % size, name))
