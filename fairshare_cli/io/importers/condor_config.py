"""HTCondor configuration files (``condor_config``, ``condor_config_val -dump``).

The syntax as ``config.cpp`` reads it: leading and trailing white space is dropped; ``#``
starts a comment line; a line ending in ``\\`` continues on the next (a comment line does
not continue); ``NAME = value`` (or ``NAME : value``) sets a knob, names are
case-insensitive and the last setting wins; ``include : FILE`` (also ``include ifexist :``)
reads another file in place, relative names from the including file's folder;
``NAME @=TAG`` takes the lines up to ``@TAG`` as its value;
``$(NAME)`` and ``$(NAME:default)`` expand to another knob of these files (undefined: the
default, else nothing), at the end, as HTCondor expands at lookup; a knob that names itself
(``X = $(X) more``) sees its earlier value; macros nested more than 100 deep, or one
knob's expanding more than 100,000 macros, is an error. ``use`` meta-knobs, ``include command``
and ``if``/``else`` blocks are not evaluated: they are an error naming
the line and ``condor_config_val -dump``, so nothing is silently misread.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import refuse_bom
from fairshare_cli.io.inputs import refuse_device

MAX_INCLUDE_DEPTH = 20
#: How deep ``$(...)`` macros may nest, how many one knob may expand, and to how many
#: characters.
MAX_MACRO_DEPTH = 100
MAX_MACROS = 100_000
MAX_EXPANSION = 1_000_000
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*(\+?=|:)\s*(.*)$")
#: ``NAME @=TAG``: a value on the lines that follow, up to the line ``@TAG``.
_HERE = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*(@=)\s*(\S*)$")
_MACRO = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_.]*)(?::([^()]*))?\)")
_CONDITIONAL = re.compile(r"^(if|elif|else|endif)\b", re.IGNORECASE)
#: The way past what is not evaluated: the dump of the knobs HTCondor made of the files.
DUMP = "import 'condor_config_val -dump' output instead, which HTCondor has evaluated"


@dataclass
class ConfigFile:
    """Knobs as written (unexpanded), by upper-case name, and where each was set."""

    raw: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # upper -> as first written
    where: dict[str, str] = field(default_factory=dict)

    def expanded(self, name: str) -> str | None:
        """The knob's value with ``$(...)`` macros expanded (None when not set).

        Raises:
            InputError: the macros nest deeper than :data:`MAX_MACRO_DEPTH`, expand more
                than :data:`MAX_MACROS` macros (``A = $(B)$(B)``, ``B = $(C)$(C)``, ...: a
                thousand million of them for thirty knobs) or to more than
                :data:`MAX_EXPANSION` characters.
        """
        key = name.upper()
        if key not in self.raw:
            return None
        try:
            return self._expand(self.raw[key], (key,), [0])
        except _TooMuch as exc:
            raise InputError(f"{self.where[key]}: {self.names[key]}: {exc}") from None

    def _expand(self, text: str, seen: tuple[str, ...], work: list[int]) -> str:
        def sub(m: re.Match[str]) -> str:
            key = m.group(1).upper()
            if key == "DOLLAR":
                return "$"
            if key in seen or key not in self.raw:
                return m.group(2) if m.group(2) is not None else ""
            work[0] += 1
            if len(seen) >= MAX_MACRO_DEPTH or work[0] > MAX_MACROS:
                raise _TooMuch(f"its macros nest more than {MAX_MACRO_DEPTH} deep or expand "
                               f"more than {MAX_MACROS:,} macros")  # fmt: skip
            return self._expand(self.raw[key], (*seen, key), work)

        for _ in range(2):  # a default may itself hold a macro
            text = _MACRO.sub(sub, text)
            if len(text) > MAX_EXPANSION:
                raise _TooMuch(f"its macros expand to more than {MAX_EXPANSION:,} characters")
        return text


class _TooMuch(Exception):
    """A knob's macros expand too deep or too far (the message says which)."""


def _lines(fh: IO[str], label: str) -> Iterator[tuple[int, str]]:
    """Logical lines (continuations joined) with the number of their first line."""
    parts: list[str] = []
    first = 0
    for number, raw in enumerate(fh, start=1):
        if number == 1:
            refuse_bom(raw, label)
        if "\x00" in raw or re.search("[\udc80-\udcff]", raw):
            raise InputError(
                f"{label}:{number}: binary data, not text; expected a condor_config file"
            )
        line = raw.strip()
        if not parts:
            first = number
            if line.startswith("#"):
                continue
        elif line.startswith("#"):
            line = ""  # a comment inside a continuation counts as white space
        if line.endswith("\\"):
            parts.append(line[:-1])
            continue
        parts.append(line)
        yield first, "".join(parts)
        parts = []
    if parts:
        yield first, "".join(parts)


def read_config(
    fh: IO[str], label: str, base: Path | None, into: ConfigFile | None = None, depth: int = 0
) -> ConfigFile:
    """Read one configuration file (and what it includes) into ``into``.

    Raises:
        InputError: ``FILE:LINE: ...`` for a line that is not a knob setting, an include
            that cannot be read, or a construct that is not evaluated.
    """
    conf = into if into is not None else ConfigFile()
    lines = _lines(fh, label)
    for number, line in lines:
        if not line:
            continue
        where = f"{label}:{number}"
        if _CONDITIONAL.match(line):
            raise InputError(f"{where}: if/else blocks are not evaluated; {DUMP}")
        head = line.split(":", 1)[0].split()
        keyword = head[0].lower().lstrip("@") if head else ""
        if ":" in line and keyword in ("include", "use", "error", "warning"):
            _keyword(conf, keyword, head, line, where, base, depth)
            continue
        m = _HERE.match(line) or _ASSIGN.match(line)
        if m is None:
            shown = line[:40]
            raise InputError(
                f"{where}: expected NAME = value (a condor_config line), got '{shown}'"
            )
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        if op == "@=":
            value = _here_body(lines, value, where)
        key = name.upper()
        if key == "MYTYPE":  # (a job's Rank, a slot's Start: taken as the knobs RANK, START)
            raise InputError(
                f"{where}: {name} = {value[:20]}: a ClassAd (condor_q or condor_status -long "
                "output); expected a condor_config file or condor_config_val -dump output"
            )
        old = conf.raw.get(key)
        # A value that names its own knob sees the earlier value (expanded now).
        if old is not None:
            own = re.compile(rf"\$\({re.escape(name)}(:[^()]*)?\)", re.IGNORECASE)
            value = own.sub(lambda _m, was=old: was, value)
        if op == "+=" and old:
            value = f"{old} {value}".strip()
        conf.raw[key] = value
        conf.names.setdefault(key, name)
        conf.where[key] = where
    return conf


def _here_body(lines: Iterator[tuple[int, str]], tag: str, where: str) -> str:
    """The lines of a ``NAME @=TAG`` value up to the line ``@TAG``, joined by newlines
    (``config.cpp``: comment and blank lines left out), as ``condor_config_val -dump``
    prints a value of more than one line.

    Raises:
        InputError: the file ends before ``@TAG``.
    """
    body: list[str] = []
    for _number, line in lines:
        if line == f"@{tag}":
            return "\n".join(body)
        if line:
            body.append(line)
    raise InputError(f"{where}: the file ends before '@{tag}', the end of this @= value")


def _keyword(
    conf: ConfigFile,
    keyword: str,
    head: list[str],
    line: str,
    where: str,
    base: Path | None,
    depth: int,
) -> None:
    if keyword != "include":
        if keyword == "warning":
            return
        raise InputError(f"{where}: '{keyword}' lines are not evaluated; {DUMP}")
    options = {w.lower() for w in head[1:]}
    if options - {"ifexist"}:
        raise InputError(f"{where}: 'include {' '.join(head[1:])}' is not read; {DUMP}")
    try:
        target = conf._expand(line.split(":", 1)[1].strip(), (), [0])
    except _TooMuch as exc:
        raise InputError(f"{where}: include: {exc}") from None
    path = Path(target)
    if not path.is_absolute() and base is not None:
        path = base / path
    if depth >= MAX_INCLUDE_DEPTH:
        raise InputError(f"{where}: includes nested too deep")
    try:
        refuse_device(path)
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            read_config(fh, str(path), path.parent, conf, depth + 1)
    except OSError as exc:
        if "ifexist" in options:
            return
        raise InputError(f"{where}: cannot include {shown(str(path))}: {exc.strerror}") from None
