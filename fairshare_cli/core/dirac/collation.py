"""How MariaDB holds and compares TaskQueueDB's names: ``utf8mb4``, ``utf8mb4_general_ci``.

DIRAC 9.1's DB layer (``Core/Utilities/MySQL._createTables``) creates every TaskQueueDB
table with ``DEFAULT CHARSET=utf8mb4`` (DIRAC 8 and the 9.0 previews: ``latin1``), whose
default collation on MariaDB 10.11 is ``utf8mb4_general_ci``. For the names a task queue
is made of (``Owner``, ``OwnerGroup`` and the ``tq_TQTo*`` values):

* Any Unicode text fits, but a lone surrogate (``"\\ud800"`` in a JSON file), which UTF-8
  cannot carry to the server, so DIRAC's query fails.
* Names compare by weight, one a character: letters without case and without their
  accents (``é`` = ``E``, ``ö`` = ``O``, ``Å`` = ``A``, so ``jörg`` is ``JORG``), ``ß`` as
  ``S``, ``Æ``, ``Ø``, ``Đ``, ``Ł``, ``Þ`` and the like as their capital, the Cyrillic
  ``й`` as ``Й`` (not ``И``); every character beyond U+FFFF (an emoji) as U+FFFD, so all
  such characters are one. MariaDB folds only in a few blocks of 256 code points (Latin,
  Greek, Cyrillic, Armenian, Latin and Greek Extended, letterlike and number forms, the
  enclosed alphanumerics, the fullwidth forms); elsewhere each character is its own weight.
  Inside those blocks the weights below follow Python's case and decomposition data, which
  MariaDB's older tables follow but where a capital came later into Unicode. Checked
  against MariaDB 10.11 for every character up to U+FFFF (``WEIGHT_STRING``; the tests pin
  a digest of all of them). Names hold no blanks (the name rule), so the collation's
  trailing-space padding never matters.
"""

from __future__ import annotations

import unicodedata

#: Characters MariaDB weighs as themselves where Python's data gives another letter (their
#: capital, or their base letter, came later into Unicode than MariaDB's tables).
_OWN_RANGES = (
    (0x180, 0x180), (0x19A, 0x19A), (0x19E, 0x19E), (0x23C, 0x23C), (0x23F, 0x240),
    (0x242, 0x242), (0x247, 0x247), (0x249, 0x249), (0x24B, 0x24B), (0x24D, 0x24D),
    (0x24F, 0x252), (0x25C, 0x25C), (0x261, 0x261), (0x265, 0x266), (0x26A, 0x26C),
    (0x271, 0x271), (0x27D, 0x27D), (0x282, 0x282), (0x287, 0x287), (0x289, 0x289),
    (0x28C, 0x28C), (0x29D, 0x29E), (0x344, 0x344), (0x371, 0x371), (0x373, 0x373),
    (0x377, 0x377), (0x37B, 0x37D), (0x385, 0x385), (0x3D7, 0x3D7), (0x3D9, 0x3D9),
    (0x3F3, 0x3F3), (0x3F5, 0x3F5), (0x3F8, 0x3F8), (0x3FB, 0x3FB), (0x419, 0x419),
    (0x48B, 0x48B), (0x4C6, 0x4C6), (0x4CA, 0x4CA), (0x4CE, 0x4CF), (0x4F7, 0x4F7),
    (0x4FB, 0x4FB), (0x4FD, 0x4FD), (0x4FF, 0x4FF), (0x1EFB, 0x1EFB), (0x1EFD, 0x1EFD),
    (0x1EFF, 0x1EFF), (0x1FC1, 0x1FC1), (0x1FCD, 0x1FCF), (0x1FDD, 0x1FDF), (0x1FED, 0x1FED),
    (0x214E, 0x214E), (0x2184, 0x2184), (0x219A, 0x219B), (0x21AE, 0x21AE), (0x21CD, 0x21CF),
)  # fmt: skip

#: The Cyrillic Supplement's small letters (odd code points) MariaDB keeps as they are.
_OWN_ODD = (0x501, 0x52F)

#: Characters that weigh as another by MariaDB's rule, not Python's.
_SPECIAL = {"ß": "S", "ϲ": "Σ", "й": "Й"}

#: The blocks of 256 code points (by their high byte) where MariaDB folds case and accents.
_CASED_PAGES = frozenset((0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x1E, 0x1F, 0x21, 0x24, 0xFF))

#: The weight of every character beyond U+FFFF.
_BEYOND_BMP = "\ufffd"

_cache: dict[str, str] = {}


def _weight(char: str) -> str:
    """One character's ``utf8mb4_general_ci`` weight, as a character."""
    code = ord(char)
    if code > 0xFFFF:
        return _BEYOND_BMP
    if code >> 8 not in _CASED_PAGES:
        return char
    if char in _SPECIAL:
        return _SPECIAL[char]
    if any(lo <= code <= hi for lo, hi in _OWN_RANGES):
        return char
    if _OWN_ODD[0] <= code <= _OWN_ODD[1] and code % 2:
        return char
    base = char
    parts = unicodedata.decomposition(char).split()
    if len(parts) > 1 and not parts[0].startswith("<"):  # (a letter and its marks)
        base = unicodedata.normalize("NFD", char)[0]
    upper = base.upper()
    return upper if len(upper) == 1 else base


def unstorable(name: str) -> str | None:
    """The first character of ``name`` that cannot reach MariaDB (a lone surrogate), or
    None."""
    if name.isascii():
        return None
    for char in name:
        if 0xD800 <= ord(char) <= 0xDFFF:
            return char
    return None


def folded(name: str) -> str:
    """``name`` as ``utf8mb4_general_ci`` compares and sorts it: equal texts compare equal,
    and texts sort as their weights do.

    ASCII text weighs as its capitals, found at once.
    """
    if name.isascii():
        return name.upper()
    out = []
    for char in name:
        weight = _cache.get(char)
        if weight is None:
            weight = _cache[char] = _weight(char)
        out.append(weight)
    return "".join(out)


def folded_set(names: tuple[str, ...]) -> tuple[str, ...]:
    """A set of names as the collation compares it (sorted, equal names once)."""
    if len(names) < 2:  # (the usual sets: none or one name)
        return (folded(names[0]),) if names else names
    return tuple(sorted({folded(name) for name in names}))
