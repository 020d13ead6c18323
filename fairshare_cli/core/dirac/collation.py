"""How MariaDB holds and compares TaskQueueDB's names: ``latin1``, ``latin1_swedish_ci``.

DIRAC's DB layer (``Core/Utilities/MySQL._createTables``) creates every TaskQueueDB table
with ``DEFAULT CHARSET=latin1``, whose default collation is ``latin1_swedish_ci``; the
connection itself speaks UTF-8. Two consequences for the names a task queue is made of
(``Owner``, ``OwnerGroup`` and the ``tq_TQTo*`` values):

* A name must be latin1 text. MariaDB's latin1 is Windows cp1252 with its five undefined
  bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) read as the C1 controls of the same number, so
  ``jörg`` and ``€`` fit and ``李`` or an emoji do not. Comparing such a literal with a
  latin1 column (``__findSmallestTaskQueue``'s ``Owner = "李"``) is MariaDB's error 1267,
  "Illegal mix of collations", so ``insertJob`` fails and the job gets no task queue.
* Names compare by weight, one byte a character: letters without case, most accented
  letters as their base letter (``é`` = ``E``, ``ü`` = ``Y``), the Swedish ``Å``, ``Ä``/``Æ``
  and ``Ö`` as the ASCII ``[``, ``\\`` and ``]`` they replaced in 7-bit Swedish, and ``Ø``,
  ``Þ``, ``ß``, ``ÿ`` and every other character as themselves. Names hold no blanks (the
  name rule), so the collation's trailing-space padding never matters.
"""

from __future__ import annotations

#: The five bytes cp1252 leaves undefined and MariaDB's latin1 reads as C1 controls.
_C1_BYTES = "\x81\x8d\x8f\x90\x9d"


def _weights() -> bytes:
    """The ``latin1_swedish_ci`` weight of each latin1 byte."""
    table = bytearray(range(256))
    for code in range(ord("a"), ord("z") + 1):
        table[code] = code - 32  # (letters weigh as their capital)
    same = {
        "A": "ÀÁÂÃàáâã", "C": "Çç", "D": "Ðð", "E": "ÈÉÊËèéêë", "I": "ÌÍÎÏìíîï",
        "N": "Ññ", "O": "ÒÓÔÕòóôõ", "U": "ÙÚÛùúû", "Y": "ÜÝüý",
        "[": "Åå", "\\": "ÄÆäæ", "]": "Öö", "Ø": "ø", "Þ": "þ",
    }  # fmt: skip
    for weight, letters in same.items():
        for letter in letters:
            table[ord(letter)] = ord(weight)
    return bytes(table)


_WEIGHTS = _weights()


def _latin1(name: str) -> bytes:
    """``name`` in MariaDB's latin1 (UnicodeEncodeError when it has no such bytes)."""
    try:
        return name.encode("cp1252")
    except UnicodeEncodeError:
        if not any(c in _C1_BYTES for c in name):
            raise
        return bytes(ord(c) if c in _C1_BYTES else c.encode("cp1252")[0] for c in name)


def unstorable(name: str) -> str | None:
    """The first character of ``name`` that MariaDB's latin1 cannot hold, or None."""
    if name.isascii():
        return None
    try:
        _latin1(name)
    except UnicodeEncodeError as exc:
        return name[exc.start]
    return None


def folded(name: str) -> str:
    """``name`` as ``latin1_swedish_ci`` compares and sorts it: equal texts compare equal.

    A name latin1 cannot hold (which never reaches the database) is returned as it is.
    ASCII text weighs as its capitals (the table's only change below 0x80), found at once.
    """
    if name.isascii():
        return name.upper()
    try:
        return _latin1(name).translate(_WEIGHTS).decode("latin-1")
    except UnicodeEncodeError:
        return name


def folded_set(names: tuple[str, ...]) -> tuple[str, ...]:
    """A set of names as the collation compares it (sorted, equal names once)."""
    if len(names) < 2:  # (the usual sets: none or one name)
        return (folded(names[0]),) if names else names
    return tuple(sorted({folded(name) for name in names}))
