"""A condor_config's knobs as read so far, and their ``$(NAME)`` macros expanded.

At lookup (``lookup_macro``, ``expand_macro`` in config.cpp, HTCondor 25.0): ``$(NAME)``
and ``$(NAME:default)`` expand to another knob of the files, the daemon's own
``SUBSYS.NAME`` first, at the end, as HTCondor expands at lookup; set in no file, to
HTCondor's built-in default (condor_defaults.py; it wins over ``:default``); set to
nothing, or nowhere with no built-in default, to the ``:default``, else to nothing (where
fs takes the value, a warning names the macro: the daemon's environment may set it, as
``_CONDOR_NAME``); a knob HTCondor takes from the machine (``$(FULL_HOSTNAME)``), set in
no file that is not a dump, is an error where fs takes the value. ``$$(NAME)`` is left
alone; knobs that name each other in a loop, macros nested more than 100 deep, or one
knob's expanding more than 100,000 macros (or to a million characters) is an error.

As a line is read (``expand_self_macro``): in ``NAME = value``, only the macros naming
``NAME`` itself (``$(NAME)``, ``$(NAME:default)``, any case) and, when ``NAME`` is the
reading daemon's own ``SUBSYS.X``, those naming ``X``, each looked up as at lookup
(``NEGOTIATOR.X = $(X) more``: the negotiator's earlier ``NEGOTIATOR.X`` if the files set
one, else ``X`` as set so far, not later). Another daemon's ``STARTD.X = $(X)`` keeps its
``$(X)``, expanded when that daemon reads the files. The expansion starts again from the
front after each macro, so a value looked up that names the knob again never ends: an
error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.condor_defaults import default, from_machine

#: How deep ``$(...)`` macros may nest, how many one knob may expand, to how many
#: characters, and how many ``$(`` one text may hold (an unclosed one is read to its end).
MAX_MACRO_DEPTH, MAX_MACROS, MAX_EXPANSION, MAX_OPENINGS = 100, 100_000, 1_000_000, 10_000
#: ``$(NAME)`` and ``$(NAME:default)`` (not ``$$(NAME)``); a default holds the characters
#: ``next_config_macro`` allows there (no ``*``, ``-``, ...) and whole ``(...)`` groups.
_MACRO = re.compile(r"(?<!\$)\$\(([A-Za-z0-9_./]+)(?::((?:[A-Za-z0-9_./$ ,\\:]|\([^)]*\))*))?\)")
#: HTCondor's function macros (``is_special_config_macro``), which are not evaluated.
_FUNCTION_MACRO = re.compile(
    r"(?<!\$)\$(ENV|RANDOM_CHOICE|RANDOM_INTEGER|CHOICE|SUBSTR|INT|REAL|STRING|EVAL|BASENAME|"
    r"DIRNAME|F[pnxdqabfwuPNXDQABFWU]*)\("
)
#: ``$(DOLLAR)`` until the expansion is done (a NUL: no line read holds one).
_DOLLAR = "\x00"
#: The daemons whose knobs fs takes (``READER`` in condor_knobs.py). Each reads the files
#: itself, its own ``SUBSYS.NAME`` first in ``if`` conditions, ``include`` and ``use`` lines
#: (``lookup_macro`` with the daemon's context), so the files may set a knob otherwise for
#: each.
DAEMONS = ("NEGOTIATOR", "STARTD", "SCHEDD")


@dataclass
class Knobs:
    """Knobs as written (their own macros expanded), by upper-case name, and where each
    was set; ``dump`` says the text is ``condor_config_val -dump`` output (its first
    line says so), which holds every knob HTCondor has a default for."""

    raw: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # upper -> as first written
    where: dict[str, str] = field(default_factory=dict)
    dump: bool = False
    #: Knobs a ``use`` template set to a value fs does not hold -> (where, the template).
    templated: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The daemon that reads the files (``if``, ``include`` and ``use`` lines see its own
    #: ``SUBSYS.NAME`` first); "" for none.
    subsys: str = ""
    #: An ``if`` condition, ``include`` or ``use`` line, or a knob saying what is read
    #: after the main file, read otherwise by another of :data:`DAEMONS`: the files may
    #: set knobs otherwise for each.
    per_daemon: bool = False
    #: Warnings for macros set nowhere, with no built-in default, that knobs fs takes,
    #: ``if`` conditions, ``include`` lines or the local sources name (expanded to nothing).
    undefined: dict[str, None] = field(default_factory=dict)

    def sets(self, key: str) -> bool:
        """The files set the knob ``key`` (upper case), to a value held or not."""
        return key in self.raw or key in self.templated

    def unheld(self, key: str) -> str:
        """Why the knob ``key``, which a template set to a value fs does not hold, cannot
        be taken."""
        where, template = self.templated[key]
        return (
            f"{self.names.get(key, key)} is set by use {template} ({where}), to a value fs "
            "does not hold; set it after that line, or import condor_config_val -dump output"
        )

    def assign(self, name: str, value: str, where: str) -> None:
        """``name = value``, its own knob's macros expanded as it is read (:func:`expand_self`):
        one naming a value a template set that fs does not hold leaves the knob so set; one
        naming a value from the machine stays, refused where it is read. A value for another
        of :data:`DAEMONS` naming its plain knob (``STARTD.START = $(START) ...``) is read
        otherwise by that daemon (:attr:`per_daemon`)."""
        key = name.upper()
        unheld: list[str] = []

        def lookup(macro: str) -> str | None:
            found, text = self._lookup(macro.upper(), self.subsys, ())
            if found in self.templated:
                unheld.append(found)
            elif text is not None or self.dump or not from_machine(found):
                return text or ""
            return None

        value = expand_self(name, value, self.subsys, lookup, where)
        prefix, dot, plain = key.partition(".")
        if dot and prefix in DAEMONS and prefix != self.subsys.upper():
            self.per_daemon |= "$(" in value and bool(self_macros((plain,)).search(value))
        if unheld:  # (it builds on the template's value, which fs does not hold)
            self.templated[key] = self.templated[unheld[0]]
            self.raw.pop(key, None)
            self.names.setdefault(key, name)
            return
        self.templated.pop(key, None)
        self.raw[key] = value
        self.names.setdefault(key, name)
        self.where[key] = where

    def expanded(self, name: str, subsys: str = "", strict: bool = False) -> str | None:
        """The knob's value with ``$(...)`` macros expanded (None when not set).

        ``subsys`` is the daemon that reads it (``NEGOTIATOR``): its ``SUBSYS.NAME``
        settings win over ``NAME`` inside the value, as ``lookup_macro`` has them; a knob
        no file sets takes its built-in default. With ``strict``, a macro set nowhere
        whose value HTCondor takes from the machine is an error, and one with no built-in
        default (and no ``:default``) is noted in :attr:`undefined`, unless the text is a
        dump.

        Raises:
            InputError: the macros nest deeper than :data:`MAX_MACRO_DEPTH`, expand more
                than :data:`MAX_MACROS` macros (``A = $(B)$(B)``, ``B = $(C)$(C)``, ...: a
                thousand million of them for thirty knobs) or to more than
                :data:`MAX_EXPANSION` characters; with ``strict``, a macro set nowhere
                that HTCondor takes from the machine or a function macro (``$INT(...)``).
        """
        key = name.upper()
        if key not in self.raw:
            return None
        where = f"{self.where[key]}: {self.names[key]}"
        text = self.expand_text(self.raw[key], where, (key,), subsys.upper(), strict)
        function = _FUNCTION_MACRO.search(text) if strict else None
        if function is not None:
            raise InputError(
                f"{self.where[key]}: {self.names[key]}: ${function.group(1)}(...) is one of "
                "HTCondor's function macros, which fs does not evaluate; write its value"
            )
        return text

    def expand_text(
        self,
        text: str,
        where: str,
        seen: tuple[str, ...] = (),
        subsys: str = "",
        strict: bool | None = None,
    ) -> str:
        """``text`` (a knob's value, an ``if`` condition, an include's file name) with its
        macros expanded; ``strict`` unless given: when the text is not a dump.

        Raises:
            InputError: ``where: ...``, what :meth:`expanded` refuses.
        """
        strict = not self.dump if strict is None else strict
        try:
            expanded = self._expand(text, seen, [0], subsys, strict, where)
            return expanded.replace(_DOLLAR, "$")
        except _TooMuch as exc:
            raise InputError(f"{where}: {exc}") from None

    def _expand(
        self, text: str, seen: tuple[str, ...], work: list[int], subsys: str, strict: bool, at: str
    ) -> str:
        def sub(m: re.Match[str]) -> str:
            key = m.group(1).upper()
            if key == "DOLLAR":  # (a $ that no later pass reads as a macro's)
                return _DOLLAR
            key, value = self._lookup(key, subsys, seen)
            self._refuse_loop(m, key, seen)
            if key in seen or not value:  # (set to nothing: the default too)
                return self._unset(m, key, seen, strict, at)
            work[0] += 1
            if len(seen) >= MAX_MACRO_DEPTH or work[0] > MAX_MACROS:
                raise _TooMuch(f"its macros nest more than {MAX_MACRO_DEPTH} deep or expand "
                               f"more than {MAX_MACROS:,} macros")  # fmt: skip
            return self._expand(value, (*seen, key), work, subsys, strict, at)

        for _ in range(2):  # a default may itself hold a macro
            if text.count("$(") > MAX_OPENINGS:  # (each may be read to the text's end)
                raise _TooMuch(f"it holds, or expands to, more than {MAX_OPENINGS:,} '$('")
            text = _MACRO.sub(sub, text)
            if len(text) > MAX_EXPANSION:
                raise _TooMuch(f"its macros expand to more than {MAX_EXPANSION:,} characters")
        return text

    def _lookup(self, key: str, subsys: str, seen: tuple[str, ...]) -> tuple[str, str | None]:
        """The knob ``$(key)`` names and its text, as ``lookup_macro`` finds them for the
        daemon ``subsys``: ``SUBSYS.NAME`` in the files, else its built-in default, else
        ``NAME`` in the files, else its built-in default (condor_defaults.py; not in a
        dump, which holds them, nor for a value from the machine or the build)."""
        own = f"{subsys}.{key}"
        if subsys and own not in seen:
            if self.sets(own):
                return own, self.raw.get(own)
            if not self.dump and default(own) is not None:
                return own, default(own)
        if key in self.raw or key in self.templated or self.dump or from_machine(key):
            return key, self.raw.get(key)  # (the machine's value wins over the table's)
        return key, default(key)

    def _unset(
        self, m: re.Match[str], key: str, seen: tuple[str, ...], strict: bool, at: str
    ) -> str:
        """What the macro ``m`` of a knob set to nothing, or to no value fs holds, or set
        nowhere (with no built-in default), or naming itself, expands to: its default,
        else nothing (``lookup_macro`` finds nothing: ``evaluate_macro_func`` puts in
        ""); with ``strict``, one set nowhere is noted in :attr:`undefined` (``at`` says
        which text named it).

        Raises:
            _TooMuch: with ``strict``, the knob is set by a template to a value fs does
                not hold, or (in a file that is not a dump) it is set nowhere and HTCondor
                takes it from the machine.
        """
        if strict and key in self.templated and key not in seen:
            raise _TooMuch(f"$({m.group(1)}): {self.unheld(key)}")
        nowhere = strict and not self.dump and (key not in self.raw or key in seen)
        inside = (
            f" (in HTCondor's default of {seen[-1]})" if seen and seen[-1] not in self.raw else ""
        )
        if nowhere and from_machine(key):
            raise _TooMuch(
                f"$({m.group(1)}){inside} is set in no file read here (HTCondor takes the "
                "machine's value); set it, or import condor_config_val -dump output"
            )
        if m.group(2) is not None:
            return m.group(2)
        if key in self.raw and key not in seen:
            return ""
        if nowhere:
            self.undefined[
                f"{at}: $({m.group(1)}){inside} is set in no file read here and has no "
                "built-in default, so it is taken as empty, as HTCondor does unless the "
                f"daemon's environment sets _CONDOR_{m.group(1)}; set it, or write "
                f"$({m.group(1)}:default)"
            ] = None
        return ""

    def _refuse_loop(self, m: re.Match[str], key: str, seen: tuple[str, ...]) -> None:
        """Refuse a macro naming a knob whose expansion led to it (not the knob itself)."""
        if key in seen[:-1] and m.group(2) is None:
            loop = " -> ".join(self.names.get(k, k) for k in (*seen[seen.index(key) :], key))
            raise _TooMuch(
                f"$({m.group(1)}) refers back to itself ({loop}): HTCondor's expansion of it "
                "never ends"
            )


class _TooMuch(Exception):
    """A knob's macros expand too deep or too far, or name a knob set nowhere (the
    message says which)."""


#: A macro's ``:default`` as ``next_config_macro`` allows it: no ``*``, ``-``, ...; whole
#: ``(...)`` groups.
_DEFAULT = r"(?::((?:[A-Za-z0-9_./$ ,\\:]|\([^)]*\))*))?"


def self_names(name: str, subsys: str) -> tuple[str, ...]:
    """The names whose macros ``NAME = ...`` expands as it is read: ``NAME``, and ``X``
    when ``NAME`` is ``SUBSYS.X`` for the reading daemon ``subsys``."""
    prefix, dot, rest = name.partition(".")
    if subsys and dot and rest and prefix.upper() == subsys.upper():
        return (name, rest)
    return (name,)


def self_macros(names: tuple[str, ...]) -> re.Pattern[str]:
    """``$(N)`` and ``$(N:default)`` for each of ``names``, any case (not ``$$(N)``)."""
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"(?<!\$)\$\(({alternatives}){_DEFAULT}\)", re.IGNORECASE)


def expand_self(
    name: str, value: str, subsys: str, lookup: Callable[[str], str | None], where: str
) -> str:
    """``value`` of ``name = value`` with its own knob's macros expanded, again and again
    while a value put in names the knob (``expand_self_macro`` scans from the front after
    each macro).

    ``lookup(macro)`` is the text ``lookup_macro`` finds for the name a macro gives, ""
    for none, or None to leave the macro as written (a value fs does not hold).

    Raises:
        InputError: the values put in name the knob more than :data:`MAX_MACRO_DEPTH`
            times over (HTCondor's expansion never ends), or make it longer than
            :data:`MAX_EXPANSION` characters.
    """
    if "$(" not in value:  # (no macro: no pattern compiled, 10,000 files took 30 s)
        return value
    pattern = self_macros(self_names(name, subsys))
    put_in = [0]

    def sub(m: re.Match[str]) -> str:
        found = lookup(m.group(1))
        if found is None:
            return m.group(0)
        put_in[0] += 1
        return m.group(2) if not found and m.group(2) is not None else found

    for _ in range(MAX_MACRO_DEPTH):
        put_in[0], value = 0, pattern.sub(sub, value)
        if len(value) > MAX_EXPANSION:  # (X = $(X)$(X) forty times: a million million)
            raise InputError(
                f"{where}: {name}: its earlier value, put in where it names itself, makes it "
                f"longer than {MAX_EXPANSION:,} characters"
            )
        if not put_in[0] or not pattern.search(value):
            return value
    raise InputError(
        f"{where}: {name}: '{shown(value, 40)}' still names {name} after "
        f"{MAX_MACRO_DEPTH} expansions: HTCondor's expansion of it never ends"
    )
