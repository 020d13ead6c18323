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

``$(NAME)`` macros are expanded as condor_config_macros.py says: a setting's own as its
line is read, the others at lookup.

HTCondor has no ``+=``: it reads ``X += v`` as ``X = v`` and stops on ``X+= v``, so both
are refused. ``if``/``elif``/``else``/``endif`` blocks are read as condor_config_if.py
says; what the daemons read after the file, as condor_config_local.py says; ``use``
templates as condor_templates.py says. ``include command`` and the function macros
(``$INT(...)``, ``$ENV(...)``) are not evaluated: an error naming the line, so nothing is
silently misread.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import refuse_pipe
from fairshare_cli.io.importers.condor_config_if import KEYWORD, IfStack, condition_holds
from fairshare_cli.io.importers.condor_config_lines import (
    EXPECTED,
    Heredoc,
    logical_lines,
    operator,
    refuse_plus_assign,
)
from fairshare_cli.io.importers.condor_config_macros import DAEMONS, Knobs
from fairshare_cli.io.importers.condor_defaults import MACHINE, built_in
from fairshare_cli.io.importers.condor_templates import templates_used
from fairshare_cli.io.inputs import bounded_lines, refuse_device

#: ``CONFIG_MAX_NESTING_DEPTH``: the main file is depth 0, an include at depth 19 is refused.
MAX_INCLUDE_DEPTH = 20
MAX_FILES = 20_000
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*(=|:|@=)\s*(.*)$")


@dataclass
class ConfigFile(Knobs):
    """The knobs the files set (condor_config_macros.py), and what reading them noted."""

    files: int = 0  # how many files ``include`` and the local sources read, each time read
    #: ``use`` templates read, as ``CATEGORY : NAME (FILE:LINE)``.
    templates: list[str] = field(default_factory=list)

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
                _quietly(self, partial(self.expand_text, text, where, subsys=daemon)) != mine
                for daemon in DAEMONS
            )
        return mine


def _quietly(conf: ConfigFile, test: Callable[[], object]) -> object:
    """``test()``, or the error it raises (a value unequal to any result), its warnings
    left out of ``conf``."""
    kept = dict(conf.undefined)
    try:
        return test()
    except InputError as exc:
        return exc
    finally:
        conf.undefined = kept


def read_config(
    fh: Iterable[str], label: str, base: Path | None, into: ConfigFile | None = None, depth: int = 0
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
                conf.assign(here.name, "\n".join(here.lines), here.where)
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
        conf.assign(name, value, where)
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
                _quietly(conf, partial(_holds, conf, condition, at, daemon)) != result
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
            conf.assign(name, value, where)
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
            read_config(bounded_lines(fh, str(path), EXPECTED), str(path), path.parent, conf, depth)
    except OSError as exc:
        return str(exc.strerror)
    return None
