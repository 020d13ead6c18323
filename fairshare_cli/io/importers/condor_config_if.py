"""``if``/``elif``/``else``/``endif`` in a condor_config, as HTCondor 25.0 reads them.

``ConfigIfStack`` and ``Test_config_if_expression`` (config.cpp): a line is enabled when
every enclosing condition holds; ``elif`` and ``else`` take the branch no earlier one took.
A condition has its ``$(...)`` macros expanded first (one that expands to nothing is
false), may start with ``!``, and is then one of: a number (true unless 0), ``true`` or
``false``, ``yes``/``t`` or ``no``/``f``, ``version OP X.Y[.Z]`` (compared with the version
fs reads configurations as, 25.0.13; ``OP`` one of ``<``, ``<=``, ``==``, ``>=``, ``>``,
``!=``...), or ``defined NAME`` (set to something in the files read, else a built-in
default that is not empty, as condor_defaults.py holds them; a number or boolean is
defined; ``defined use CATEGORY[:NAME]``: HTCondor 25.0 has that template). HTCondor stops on
any other condition ("complex conditionals are not supported"), and so does fs.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.condor_templates import defines_use

#: The HTCondor version a configuration is read as (``version`` conditions).
VERSION = (25, 0, 13)
#: How deep ``if`` blocks may nest: ``ConfigIfStack`` keeps one bit per level in a 64-bit
#: word whose lowest bit is the file itself, and stops on the 64th ("if nesting too deep!").
MAX_IF_DEPTH = 63
#: ``if``, ``elif``, ``else`` or ``endif``, a blank or nothing after it.
KEYWORD = re.compile(r"(?i:(if|elif|else|endif))(?:\s+(.*))?$")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_NAME = re.compile(r"[A-Za-z0-9_./]+")
_VERSION = re.compile(r"(?i:version)\s*(!?)([<=>]?)(=?)\s*[vV]?([0-9]+)\.([0-9]+)(?:\.([0-9]+))?")
_CRUFTY = {"yes": True, "t": True, "no": False, "f": False}
#: ``(condition, where) -> bool``: the test of an ``if`` or ``elif`` condition.
Condition = Callable[[str, str], bool]
#: ``name -> bool | None``: whether the knob has a value that is not empty, in the files or
#: among HTCondor's built-in defaults (None: none at all, not even an empty one).
IsSet = Callable[[str], "bool | None"]


class IfStack:
    """The state of the ``if`` blocks around the line being read."""

    def __init__(self) -> None:
        # one entry per open block: [this branch is on, a branch was taken, else seen]
        self.blocks: list[list[bool]] = []

    def enabled(self) -> bool:
        """Whether the line being read is in a branch that is taken (or in no block)."""
        return all(block[0] for block in self.blocks)

    def line(self, keyword: str, condition: str, where: str, holds: Condition) -> None:
        """An ``if``/``elif``/``else``/``endif`` line; ``holds`` tests a condition.

        Raises:
            InputError: an ``else``/``elif``/``endif`` without its ``if``, or a second
                ``else``, an ``if`` nested more than :data:`MAX_IF_DEPTH` deep, or a
                condition HTCondor stops on.
        """
        keyword = keyword.lower()
        if keyword == "if":
            if len(self.blocks) >= MAX_IF_DEPTH:
                raise InputError(
                    f"{where}: if nesting too deep: HTCondor stops on more than "
                    f"{MAX_IF_DEPTH} nested if blocks"
                )
            on = self.enabled() and holds(condition, where)
            self.blocks.append([on, on, False])
            return
        if not self.blocks:
            raise InputError(f"{where}: {keyword} without matching if")
        block = self.blocks[-1]
        if keyword == "endif":
            self.blocks.pop()
            return
        if block[2]:
            raise InputError(f"{where}: {keyword} is not allowed after else")
        if keyword == "else":
            block[:] = [not block[1], True, True]
            return
        # elif: tested only when no earlier branch was taken and the outer blocks are on
        outer = all(b[0] for b in self.blocks[:-1])
        on = not block[1] and outer and holds(condition, where)
        block[:] = [on, block[1] or on, False]

    def close(self, label: str) -> None:
        """The end of a file.

        Raises:
            InputError: an ``if`` is still open.
        """
        if self.blocks:
            raise InputError(f"{label}: endif(s) not found before end-of-file")


def condition_holds(expanded: str, had_macros: bool, is_set: IsSet, where: str) -> bool:
    """The value of an ``if`` condition whose macros are expanded (``had_macros``: it held
    some); ``is_set(name)`` says whether a knob has a value that is not empty (None: no
    value at all).

    Raises:
        InputError: a condition HTCondor stops on, or one fs cannot decide.
    """
    text = expanded.strip()
    inverted = text.startswith("!")
    if inverted:
        text = text[1:].strip()
    if had_macros and not text:
        return inverted  # (expanded to nothing: false)
    value = _evaluate(text, is_set, where)
    return not value if inverted else value


def _evaluate(text: str, is_set: IsSet, where: str) -> bool:
    low = text.lower()
    if _NUMBER.fullmatch(text):
        return float(text) != 0
    if low in ("true", "false"):
        return low == "true"
    if low in _CRUFTY:
        return _CRUFTY[low]
    if low.startswith("version"):
        return _version(text, where)
    if low.startswith("defined") and (len(text) == 7 or text[7].isspace()):
        return _defined(text[7:].strip(), is_set, where)
    raise InputError(
        f"{where}: '{shown(text)}' is not a valid if condition (HTCondor stops on it: a "
        "number, true, false, version OP X.Y or defined NAME)"
    )


def _version(text: str, where: str) -> bool:
    found = _VERSION.fullmatch(text.strip())
    if found is None or int(found.group(4)) < 6:
        raise InputError(f"{where}: '{shown(text)}': the version literal is invalid")
    negated, op, or_equal = found.group(1) == "!", found.group(2), found.group(3) == "="
    sub = int(found.group(6)) if found.group(6) is not None else VERSION[2]
    other = (int(found.group(4)), int(found.group(5)), sub)
    older, newer = other < VERSION, other > VERSION
    diff = older - newer  # the running version against the literal: -1, 0 or 1
    wanted = {"<": -1, "=": 0, ">": 1, "": 0}[op]
    result = diff == wanted or (or_equal and diff == 0)
    return not result if negated else result


def _defined(name: str, is_set: IsSet, where: str) -> bool:
    if not name:
        return False
    if _NUMBER.fullmatch(name) or name.lower() in ("true", "false"):
        return True
    if name.lower().startswith("use ") or name.lower() == "use":
        try:
            return defines_use(name[3:])
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    if not _NAME.fullmatch(name):
        raise InputError(
            f"{where}: 'defined {shown(name)}' is not read (a knob name, a number or a boolean "
            "is); import condor_config_val -dump output"
        )
    found = is_set(name)
    if found is None:  # (a boolean word set nowhere: "yes", "t", "no", "f")
        return name.lower() in _CRUFTY
    return found
