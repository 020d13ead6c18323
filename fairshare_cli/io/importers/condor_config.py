"""HTCondor configuration files (``condor_config``, ``condor_config_val -dump``).

The syntax as ``config.cpp`` (HTCondor 25.0) reads it: leading and trailing white space is
dropped; ``#`` starts a comment line; a line ending in ``\\`` continues on the next (a
comment line does not continue; a comment line inside a continuation is reduced to its
last character, so one ending in ``\\`` keeps the line going); a line ``[...]`` with no
``=`` or ``:`` is skipped (an ``.ini`` section); ``NAME = value`` (or ``NAME : value``)
sets a knob, names are case-insensitive and the last setting wins; ``NAME @=TAG`` starts a
value of many lines, up to the line ``@TAG`` (comment and blank lines skipped, lines joined
by newlines); ``include : FILE`` (also ``include ifexist :``) reads another file in place,
relative names from the including file's folder.

``$(NAME)`` and ``$(NAME:default)`` expand to another knob of these files, the daemon's
own ``SUBSYS.NAME`` first, at the end, as HTCondor expands at lookup; set in no file, to
HTCondor's built-in default (condor_defaults.py; it wins over ``:default``); set to
nothing or with no built-in default, to the default, else to nothing, except in a knob fs
takes from a file that is not a dump: there a knob with no built-in default, or one
HTCondor takes from the machine (``$(FULL_HOSTNAME)``), is an error.
``$$(NAME)`` is left alone; a knob that names itself (``X = $(X) more``) sees its earlier
value; knobs that name each other in a loop, macros nested more than 100 deep, or one
knob's expanding more than 100,000 macros (or to a million characters) is an error.

HTCondor has no ``+=``: it reads ``X += v`` as ``X = v`` and stops on ``X+= v``, so both
are refused. ``if``/``elif``/``else``/``endif`` blocks are read as condor_config_if.py
says; what the daemons read after the file, as condor_config_local.py says; ``use``
templates as condor_templates.py says. ``include command`` and the function macros
(``$INT(...)``, ``$ENV(...)``) are not evaluated: an error naming the line, so nothing is
silently misread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import refuse_pipe
from fairshare_cli.io.importers.condor_config_if import KEYWORD, IfStack, condition_holds
from fairshare_cli.io.importers.condor_config_lines import (
    Heredoc,
    logical_lines,
    operator,
    refuse_plus_assign,
)
from fairshare_cli.io.importers.condor_defaults import MACHINE, built_in, default, from_machine
from fairshare_cli.io.importers.condor_templates import templates_used
from fairshare_cli.io.inputs import refuse_device

#: ``CONFIG_MAX_NESTING_DEPTH``: the main file is depth 0, an include at depth 19 is refused.
MAX_INCLUDE_DEPTH = 20
MAX_FILES = 20_000
#: How deep ``$(...)`` macros may nest, how many one knob may expand, to how many
#: characters, and how many ``$(`` one text may hold (an unclosed one is read to its end).
MAX_MACRO_DEPTH, MAX_MACROS, MAX_EXPANSION, MAX_OPENINGS = 100, 100_000, 1_000_000, 10_000
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*(=|:|@=)\s*(.*)$")
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
class ConfigFile:
    """Knobs as written (unexpanded), by upper-case name, and where each was set.

    ``dump`` says the text is ``condor_config_val -dump`` output (its first line says
    so), which holds every knob HTCondor has a default for.
    """

    raw: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # upper -> as first written
    where: dict[str, str] = field(default_factory=dict)
    dump: bool = False
    files: int = 0  # how many files ``include`` and the local sources read, each time read
    #: Knobs a ``use`` template set to a value fs does not hold -> (where, the template).
    templated: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: ``use`` templates read, as ``CATEGORY : NAME (FILE:LINE)``.
    templates: list[str] = field(default_factory=list)
    #: The daemon that reads the files (``if``, ``include`` and ``use`` lines see its own
    #: ``SUBSYS.NAME`` first); "" for none.
    subsys: str = ""
    #: An ``if`` condition, ``include`` or ``use`` line, or a knob saying what is read
    #: after the main file, read otherwise by another of :data:`DAEMONS`: the files may
    #: set knobs otherwise for each.
    per_daemon: bool = False

    def note_first_line(self, raw: str) -> None:
        """A file's first line: ``# Configuration from machine:`` marks a dump."""
        self.dump = self.dump or raw.startswith("# Configuration from machine: ")

    def daemon_text(self, text: str, where: str) -> str:
        """``text`` (an ``include``'s file, a ``use`` category) with its macros expanded
        as :attr:`subsys` expands them, noting in :attr:`per_daemon` whether another
        daemon would expand them otherwise.

        Raises:
            InputError: what :meth:`expand_text` refuses.
        """
        mine = self.expand_text(text, where, subsys=self.subsys)
        if "$" in text and not self.per_daemon:
            self.per_daemon = any(
                _quietly(partial(self.expand_text, text, where, subsys=daemon)) != mine
                for daemon in DAEMONS
            )
        return mine

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

    def expanded(self, name: str, subsys: str = "", strict: bool = False) -> str | None:
        """The knob's value with ``$(...)`` macros expanded (None when not set).

        ``subsys`` is the daemon that reads it (``NEGOTIATOR``): its ``SUBSYS.NAME``
        settings win over ``NAME`` inside the value, as ``lookup_macro`` has them; a knob
        no file sets takes its built-in default. With ``strict``, a macro set nowhere
        whose value HTCondor takes from the machine, or with no built-in default (and no
        ``:default``), is an error, unless the text is a dump.

        Raises:
            InputError: the macros nest deeper than :data:`MAX_MACRO_DEPTH`, expand more
                than :data:`MAX_MACROS` macros (``A = $(B)$(B)``, ``B = $(C)$(C)``, ...: a
                thousand million of them for thirty knobs) or to more than
                :data:`MAX_EXPANSION` characters; with ``strict``, a macro set nowhere or
                a function macro (``$INT(...)``).
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
            return self._expand(text, seen, [0], subsys, strict).replace(_DOLLAR, "$")
        except _TooMuch as exc:
            raise InputError(f"{where}: {exc}") from None

    def _expand(
        self, text: str, seen: tuple[str, ...], work: list[int], subsys: str, strict: bool
    ) -> str:
        def sub(m: re.Match[str]) -> str:
            key = m.group(1).upper()
            if key == "DOLLAR":  # (a $ that no later pass reads as a macro's)
                return _DOLLAR
            key, value = self._lookup(key, subsys, seen)
            self._refuse_loop(m, key, seen)
            if key in seen or not value:  # (set to nothing: the default too)
                return self._unset(m, key, seen, strict)
            work[0] += 1
            if len(seen) >= MAX_MACRO_DEPTH or work[0] > MAX_MACROS:
                raise _TooMuch(f"its macros nest more than {MAX_MACRO_DEPTH} deep or expand "
                               f"more than {MAX_MACROS:,} macros")  # fmt: skip
            return self._expand(value, (*seen, key), work, subsys, strict)

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

    def _unset(self, m: re.Match[str], key: str, seen: tuple[str, ...], strict: bool) -> str:
        """What the macro ``m`` of a knob set to nothing, or to no value fs holds, or set
        nowhere (with no built-in default), or naming itself, expands to: its default,
        else nothing.

        Raises:
            _TooMuch: with ``strict``, the knob is set by a template to a value fs does
                not hold, or (in a file that is not a dump) it is set nowhere and HTCondor
                takes it from the machine, or has no built-in default for it.
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
            raise _TooMuch(
                f"$({m.group(1)}){inside} is set in no file read here and has no built-in "
                "default (HTCondor expands it to nothing, or to the daemon's _condor_"
                f"{m.group(1)} environment variable); set it, write $({m.group(1)}:default), "
                "or import condor_config_val -dump output"
            )
        return ""

    def _refuse_loop(self, m: re.Match[str], key: str, seen: tuple[str, ...]) -> None:
        """Refuse a macro naming a knob whose expansion led to it (not the knob itself)."""
        if key in seen[:-1] and m.group(2) is None:
            loop = " -> ".join(self.names.get(k, k) for k in (*seen[seen.index(key) :], key))
            raise _TooMuch(
                f"$({m.group(1)}) refers back to itself ({loop}): HTCondor's expansion of it "
                "never ends"
            )


def _quietly(test: Callable[[], object]) -> object:
    """``test()``, or the error it raises (a value unequal to any result)."""
    try:
        return test()
    except InputError as exc:
        return exc


class _TooMuch(Exception):
    """A knob's macros expand too deep or too far, or name a knob set nowhere (the
    message says which)."""


def read_config(
    fh: IO[str], label: str, base: Path | None, into: ConfigFile | None = None, depth: int = 0
) -> ConfigFile:
    """Read one configuration file (and what it includes) into ``into``.

    Raises:
        InputError: ``FILE:LINE: ...`` for a line that is not a knob setting, an include
            that cannot be read, or a construct that is not evaluated.
    """
    conf = into if into is not None else ConfigFile()
    here: Heredoc | None = None  # the NAME @=TAG value being read
    ifs = IfStack()
    for number, line in logical_lines(fh, label, conf.note_first_line):
        if not line:
            continue
        where = f"{label}:{number}"
        if here is not None:
            if line == "@" + here.tag:
                _assign(conf, here.name, "\n".join(here.lines), here.where)
                here = None
            else:
                here.lines.append(line)
            continue
        if (kept := _conditional(conf, ifs, line, where)) is None:
            continue
        line = kept
        word, op = operator(line)
        keyword = word.lower().removeprefix("@")
        if op == ":" and keyword in ("include", "use", "error", "warning"):
            head = line.split(":", 1)[0].split()
            _keyword(conf, keyword, head, line, where, base, depth)
            continue
        if not op and line.startswith("[") and line.endswith("]"):
            continue  # an .ini section line: HTCondor skips it
        refuse_plus_assign(line, where)
        m = _ASSIGN.match(line)
        if m is None or (m.group(2) == "@=" and word != m.group(1)):
            # (NAME@=TAG: HTCondor reads NAME@ as the name, an "Illegal Identifier")
            raise InputError(
                f"{where}: expected NAME = value (a condor_config line), got '{shown(line, 40)}'"
            )
        name, value = m.group(1), m.group(3).strip()
        if m.group(2) == "@=":
            here = Heredoc(name, value, where, [])
            continue
        if name.upper() == "MYTYPE":  # (a job's Rank, a slot's Start: the knobs RANK, START)
            raise InputError(
                f"{where}: {name} = {value[:20]}: a ClassAd (condor_q or condor_status -long "
                "output); expected a condor_config file or condor_config_val -dump output"
            )
        _assign(conf, name, value, where)
    if here is not None:
        raise InputError(f"{here.where}: {here.name} @={here.tag}: no line '@{here.tag}' ends it")
    ifs.close(label)
    return conf


def _conditional(conf: ConfigFile, ifs: IfStack, line: str, where: str) -> str | None:
    """``line`` to read on, or None when it is done with: an ``if``/``elif``/``else``/
    ``endif`` line, or a line in a branch not taken. A ``:`` that hid an ``if`` body from
    HTCondor before 8.1.5 is dropped (inside a block, or before ``if``).

    Raises:
        InputError: what :meth:`IfStack.line` refuses.
    """
    if line.startswith(":") and (ifs.blocks or re.match(r"if(\s|$)", line[1:])):
        line = line[1:]
    keyword = KEYWORD.match(line)
    if keyword is None:
        return line if ifs.enabled() else None

    def holds(condition: str, at: str) -> bool:
        result = _holds(conf, condition, at, conf.subsys)
        if not conf.per_daemon and ("$" in condition or "defined" in condition.lower()):
            conf.per_daemon = any(
                _quietly(partial(_holds, conf, condition, at, daemon)) != result
                for daemon in DAEMONS
            )
        return result

    ifs.line(keyword.group(1), keyword.group(2) or "", where, holds)
    return None


def _holds(conf: ConfigFile, condition: str, at: str, subsys: str) -> bool:
    """Whether an ``if`` condition holds for the daemon ``subsys`` (its ``SUBSYS.NAME``
    first, in macros and ``defined``).

    Raises:
        InputError: what :func:`condition_holds` refuses; a knob a template set to a value
            fs does not hold.
    """
    had = "$" in condition
    text = conf.expand_text(condition, f"{at}: if", subsys=subsys) if had else condition

    def is_set(name: str) -> bool | None:
        key = name.upper()
        if subsys and conf.sets(f"{subsys}.{key}"):
            key = f"{subsys}.{key}"
        elif subsys and not conf.dump and built_in(f"{subsys}.{key}"):
            return True  # (the daemon's own default: NEGOTIATOR.IsNegotiator)
        if key in conf.templated:
            raise InputError(f"{at}: {conf.unheld(key)}")
        value = conf.raw.get(key)
        if value is not None or conf.dump:
            return bool(value)
        if key in MACHINE:
            raise InputError(
                f"{at}: 'defined {shown(name)}': {shown(name)} is set in no file read here, "
                "and HTCondor sets it from the machine it runs on (or after the main file); "
                "set it, or import condor_config_val -dump output"
            )
        return True if built_in(key) else None

    return condition_holds(text, had, is_set, at)


def _assign(conf: ConfigFile, name: str, value: str, where: str) -> None:
    """``name = value``: a value that names its own knob sees the earlier value
    (``expand_self_macro``), or with none, HTCondor's built-in default (as written)."""
    key = name.upper()
    old = conf.raw.get(key)
    own = re.compile(
        rf"(?<!\$)\$\({re.escape(name)}(?::(?:[A-Za-z0-9_./$ ,\\:]|\([^)]*\))*)?\)",
        re.IGNORECASE,
    )
    if key in conf.templated:
        if own.search(value):  # (it builds on the template's value, which fs does not hold)
            return
        del conf.templated[key]
    if old is None and not conf.dump and not from_machine(name):  # (the default's text)
        old = default(name)
    if old is not None:
        was: str = old
        value = own.sub(lambda _m: was, value)
        if len(value) > MAX_EXPANSION:  # (X = $(X)$(X) forty times: a million million)
            raise InputError(
                f"{where}: {name}: its earlier value, put in where it names itself, makes it "
                f"longer than {MAX_EXPANSION:,} characters"
            )
    conf.raw[key] = value
    conf.names.setdefault(key, name)
    conf.where[key] = where


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
        if keyword == "use":
            _use(conf, " ".join(head[1:]), line.split(":", 1)[1], where)
            return
        if keyword == "warning":
            return
        # error : (config.cpp: the read fails there, whatever the code)
        raise InputError(
            f"{where}: error : {shown(line.split(':', 1)[1].strip())}: HTCondor stops "
            "reading the configuration at this line, so its daemons would not start"
        )
    options = set(head[1:])
    if options - {"ifexist", "ifexists"}:
        raise InputError(
            f"{where}: 'include {' '.join(head[1:])}' is not read; expected include : FILE "
            "(import condor_config_val -dump output, which holds what it sets)"
        )
    target = conf.daemon_text(line.split(":", 1)[1].strip(), f"{where}: include")
    path = Path(target)
    if not path.is_absolute() and base is not None:
        path = base / path
    if depth + 1 >= MAX_INCLUDE_DEPTH:  # (Parse_macros: depth+1 >= CONFIG_MAX_NESTING_DEPTH)
        raise InputError(f"{where}: includes nested too deep")
    problem = read_file(conf, path, depth + 1)
    if problem is not None and not options:  # (ifexist or ifexists: a missing file is fine)
        raise InputError(f"{where}: cannot include {shown(str(path))}: {problem}")


def _use(conf: ConfigFile, category: str, names: str, where: str) -> None:
    """``use CATEGORY : NAME, ...``: each template's settings in place of the line, as
    ``read_meta_config`` reads them (the category's macros expanded, the names not).

    Raises:
        InputError: what :func:`templates_used` refuses.
    """
    if "$" in category:
        category = conf.daemon_text(category, f"{where}: use")
    for template in templates_used(category, names, where):
        for name, value in template.values:
            _assign(conf, name, value, where)
        for name in template.unknown:
            conf.raw.pop(name.upper(), None)
            conf.names.setdefault(name.upper(), name)
            conf.templated[name.upper()] = (where, template.label)
        if template.unknown or not template.values:
            conf.templates.append(f"{template.label} ({where})")


def read_file(conf: ConfigFile, path: Path, depth: int) -> str | None:
    """Read the configuration file ``path`` into ``conf``; why it cannot be opened, or
    None. More than :data:`MAX_FILES` reads is an InputError."""
    conf.files += 1
    if conf.files > MAX_FILES:  # (a folder of 10,000 named 50 times: minutes to read)
        raise InputError(
            f"{shown(str(path))}: more than {MAX_FILES:,} configuration files read (each "
            "include and LOCAL_CONFIG_DIR file counted each time it is read)"
        )
    try:
        refuse_device(path)
        refuse_pipe(path)
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            read_config(fh, str(path), path.parent, conf, depth)
    except OSError as exc:
        return str(exc.strerror)
    return None
