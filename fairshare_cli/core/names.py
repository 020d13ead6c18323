"""The one rule for names (users, submitters, groups, accounts, partitions, QOS, job ids).

A name is what a scheduler prints in a column and stores as a key: it is never empty and
has no blanks and no control or other unprintable characters (each of these once let a
name in that a table could not show on one line or a later command could not name). A
submitter (``user@domain``) has at most one ``@``. Every door that takes a name (job
objects, usage records, config keys, edit commands) calls :func:`check_name`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Sequence
from typing import Any

from fairshare_cli.errors import InputError

#: TOML's names of its dates and times (the types the TOML reader gives them), for a
#: refusal of one where another kind of value belongs.
TOML_TIME_NAMES: dict[type, str] = {
    dt.datetime: "a date-time",
    dt.date: "a date",
    dt.time: "a time",
}

#: The longest name accepted: far above any scheduler's (Slurm's are 64 bytes at most).
MAX_NAME_LENGTH = 1024


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0-9 (``str.isdigit`` also takes ``²`` and
    other digits ``int`` refuses or reads as another number)."""
    return text.isascii() and text.isdigit()


def c_number_text(text: str) -> bool:
    """Whether ``text`` could be a number as C's ``atof``/``strtol`` read one (condor's
    tools, scontrol): ASCII without ``_``. Python's ``float`` and ``int`` also read
    ``1_000`` (C: 1) and other scripts' digits (``٣``; C: 0)."""
    return text.isascii() and "_" not in text


#: The most of a name or job id a message echoes: more than any scheduler's names (a job id
#: of a megabyte was echoed whole).
SHOWN_LENGTH = 80


def shown(text: str, limit: int = SHOWN_LENGTH) -> str:
    """``text`` as a message echoes it: its first ``limit`` characters and ``...``."""
    return text if len(text) <= limit else text[:limit] + "..."


def json_shown(value: Any) -> str:
    """A value read from a JSON input as a message echoes it: text between quotes, as
    every message quotes what was typed (``'4'``, Python's escapes); anything else in
    JSON's spelling (``true``, ``null``, ``{"a": 1}``; a number past a float's range as
    ``Infinity``), its unprintable characters escaped (:func:`escaped`); at most
    :data:`SHOWN_LENGTH` characters of either."""
    if isinstance(value, str):
        return repr(shown(value))
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # (not JSON's, or an int of over 4,300 digits)
        text = f"a {type(value).__name__}"
    return escaped(shown(text))


def first_five(names: Sequence[str]) -> str:
    """``a, b, c, d, e and 3 more``: the names a note lists, the first five of them."""
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return ", ".join(names[:5]) + more


def escaped(text: str) -> str:
    """``text`` with each unprintable character (a control character, a blank but the
    space) escaped as Python writes it (``\\x1b``, ``\\n``): a message on one line that
    a terminal prints as it is."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def name_problem(name: object, submitter: bool = False, spaces: bool = False) -> str | None:
    """What is wrong with ``name`` as a name, or None when it is a good one (``spaces``: a
    space is taken too, as in a DIRAC group: :func:`dirac_group_problem`)."""
    if not isinstance(name, str):
        return f"expected a name (a string), got {name!r}"
    if not name:
        return "expected a name, got an empty one"
    if len(name) > MAX_NAME_LENGTH:
        return f"expected a name of at most {MAX_NAME_LENGTH} characters, got {len(name)}"
    # Every blank but the space is unprintable (tests/core/test_names.py checks them all).
    if not name.isprintable() or (" " in name and not spaces):
        what = "control characters" if spaces else "blanks or control characters"
        return f"expected a name without {what}, got {name!r}"
    if submitter and name.count("@") > 1:
        return f"expected a name with at most one '@' (user@domain), got {name!r}"
    return None


def dirac_group_problem(name: object) -> str | None:
    """:func:`name_problem` of a DIRAC group, which may hold blanks inside it: DIRAC's
    configuration names a section by its line up to the ``{``, stripped (``lhcb user`` is a
    group of ``/Registry/Groups``), so a group has no blank at either end."""
    if not isinstance(name, str) or " " not in name:
        return name_problem(name, submitter=True)
    if name.strip(" ") != name:
        return (
            "expected a DIRAC group name without a blank at either end (DIRAC's configuration "
            f"strips a section's name), got {name!r}"
        )
    return name_problem(name, submitter=True, spaces=True)


def check_name(name: object, where: str, submitter: bool = False) -> str:
    """``name`` if it is a good name (see the module docstring).

    Raises:
        InputError: naming ``where`` and what is wrong.
    """
    problem = name_problem(name, submitter)
    if problem is not None:
        raise InputError(f"{where}: {problem}")
    assert isinstance(name, str)
    return name


def cluster_proc(job_id: str) -> tuple[int, int]:
    """(ClusterId, ProcId) from an id like ``12.3``; non-numeric ids sort last."""
    head, _, tail = job_id.partition(".")
    if ascii_digits(head) and (not tail or ascii_digits(tail)):
        return int(head), int(tail or 0)
    return (2**62, 0)


def job_sort_key(job_id: str) -> tuple[int, int, str]:
    """The order of job ids (sprio's ``-S i``, the matches ``fs whatif`` lists): by number,
    ``cluster.proc`` ids by both numbers, other ids last, by text."""
    return (int(job_id), 0, job_id) if ascii_digits(job_id) else (*cluster_proc(job_id), job_id)


def names_fit(names: Collection[str]) -> bool:
    """Whether no name is empty or longer than :data:`MAX_NAME_LENGTH` (in C)."""
    lengths = set(map(len, names))
    return not lengths or (min(lengths) > 0 and max(lengths) <= MAX_NAME_LENGTH)


#: Names that passed, per rule (a submitter's or any name's), each checked once (up to a bound).
_GOOD_NAMES: dict[bool, set[str]] = {True: set(), False: set()}


def names_pass(names: Collection[str | None], submitter: bool) -> bool:
    """Whether every name passes :func:`name_problem` (``submitter``: its rule for one): checked
    on the names' joined text at C speed (printable without a space, none empty nor too
    long, no ``@`` at all), else one by one."""
    if not names:
        return True
    joined = "".join(names)  # type: ignore[arg-type]
    lengths = set(map(len, names))  # type: ignore[arg-type]
    text_ok = joined.isprintable() and " " not in joined and "@" not in joined
    if text_ok and min(lengths) > 0 and max(lengths) <= MAX_NAME_LENGTH:
        return True
    good = _GOOD_NAMES[submitter]
    for name in set(names).difference(good):
        if name_problem(name, submitter) is not None:
            return False
        if len(good) < 100_000:
            good.add(name)  # type: ignore[arg-type]
    return True


def escapes_surrogate(text: str) -> bool:
    """Whether JSON ``text`` may escape a surrogate (``\\udcff``): only then is each
    object decoded from it checked for one left alone (:func:`unicode_only`)."""
    return "\\ud" in text or "\\uD" in text


def unicode_only(obj: Any) -> bool:
    """Whether every string in ``obj`` is Unicode text (no lone surrogate, which neither
    UTF-8 output nor classad2 takes)."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
