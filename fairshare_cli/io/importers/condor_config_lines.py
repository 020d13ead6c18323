"""The lines of a condor_config as ``config.cpp`` (HTCondor 25.0) cuts them: continuation
lines joined, a line's keyword and operator found, ``+=`` refused, a value of many lines
(``NAME @=TAG``) held."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import refuse_bom

#: What a file read as a condor_config should be, in refusals.
EXPECTED = "a condor_config file"

#: ``X += v`` (the ``+`` a word before the operator) and ``X+= v`` (a name ending in ``+``).
_PLUS_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*\+\s*=\s*(.*)$")


class Heredoc(NamedTuple):
    """A ``NAME @=TAG`` value being read: its lines up to the line ``@TAG``."""

    name: str
    tag: str
    where: str
    lines: list[str]


def logical_lines(
    fh: Iterable[str], label: str, dump: Callable[[str], None]
) -> Iterator[tuple[int, str]]:
    """Logical lines (continuations joined) with the number of their first line, as
    ``getline_implementation`` joins them; ``dump`` is called with the first line (whose
    ``# Configuration from machine:`` marks a dump)."""
    parts: list[str] = []
    first = 0
    for number, raw in enumerate(fh, start=1):
        if number == 1:
            refuse_bom(raw, label)
            dump(raw)
        if "\x00" in raw or re.search("[\udc80-\udcff]", raw):
            raise InputError(f"{label}:{number}: binary data, not text; expected {EXPECTED}")
        line = raw.strip()
        if not parts:
            first = number
            if line.lower() == "#opt:oldcomment":  # (HTCondor reads SMART_COM_IN_CONT)
                raise InputError(
                    f"{label}:{number}: #opt:oldcomment (comments and continuations as before "
                    "HTCondor 8.1.3) is not read; import condor_config_val -dump output"
                )
            if line.startswith("#"):
                continue
        elif line.startswith("#"):
            line = line[-1]  # HTCondor keeps a comment's last character: a \ continues
        if line.endswith("\\"):
            parts.append(line[:-1])
            continue
        parts.append(line)
        yield first, "".join(parts)
        parts = []
    if parts:
        yield first, "".join(parts)


def operator(line: str) -> tuple[str, str]:
    """The line's first word and its operator (``=``, ``:``, ``@=``, or ``""`` for none),
    found as ``Parse_macros`` finds them: the word ends at a blank, ``=`` or ``:``; the
    operator is the first ``=``, ``:`` or ``@`` after it (an ``@`` must be followed by
    ``=``)."""
    word = re.match(r"[^\s=:]*", line)
    head = word.group(0) if word is not None else ""
    found = re.search(r"[=:@]", line[len(head) :])
    if found is None:
        return head, ""
    if found.group(0) != "@":
        return head, found.group(0)
    after = len(head) + found.end()
    return head, "@=" if line[after : after + 1] == "=" else ""


def refuse_plus_assign(line: str, where: str) -> None:
    """HTCondor has no ``+=``: ``X += v`` sets X to v (the ``+`` is a word before the
    operator, dropped), ``X+= v`` names the knob ``X+`` and stops the daemon.

    Raises:
        InputError: ``line`` is either.
    """
    plus = _PLUS_ASSIGN.match(line)
    if plus is None:
        return
    name = plus.group(1)
    raise InputError(
        f"{where}: HTCondor has no +=: it reads '{name} += v' as {name} = v (the earlier "
        f"value dropped) and stops on '{name}+= v'; write {name} = $({name}) v to add to it"
    )
