"""``fs userprio -af[:OPTS] EXPR...``: chosen values of each accounting ad, one line an
ad, as condor_userprio's ``-autoformat`` prints them (``parse_autoformat_args`` and
``AttrListPrintMask::display`` of HTCondor 25.0).

Each expression is evaluated in the ad (an attribute's name is one). ``%v`` prints a
string as it is and any other value as an old-syntax ClassAd unparses it (``undefined``,
``error``, ``true``, ``17``, ``2.5``); ``V`` quotes strings too; ``r`` (or ``o``) prints an
attribute's expression unevaluated. Between the values a space (``t``: a tab; ``g``:
nothing, and a newline before each ad), after each but the last ``,`` or a newline
(``,``/``n``); ``l`` puts ``EXPR = `` before each value. ``h`` prints the expressions
as headings first and pads each value on the right to its column's width, which starts at
the heading's and grows with each longer value as the ads are printed, in bytes (``l`` is then
ignored). Job ids (``j``) are refused: accounting ads carry none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fairshare_cli.core.htcondor.accounting_ads import NOT_HELD, AdValue
from fairshare_cli.core.htcondor.classads import check_expression
from fairshare_cli.errors import InputError
from fairshare_cli.render.userprio_long import classad_value

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass(frozen=True)
class Column:
    """One expression's format (``registerFormat`` in ``parse_autoformat_args``)."""

    expr: str
    label: bool = False
    quoted: bool = False
    raw: bool = False
    heading: str | None = None  # (a heading's column is left-aligned and widens)


@dataclass(frozen=True)
class AutoFormat:
    """The columns ``-af`` prints and the separators of its last ``:OPTS``."""

    columns: tuple[Column, ...]
    row_prefix: str = ""
    col_prefix: str = " "
    col_suffix: str = ""


def autoformat(exprs: Sequence[str], opts: str, each: Sequence[str] | None = None) -> AutoFormat:
    """The ``-af`` of ``exprs``: each formatted by its ``-af``'s letters (``each``; all
    by ``opts`` when None), the separators by ``opts``, the last ``-af``'s, read in order
    as ``parse_autoformat_args`` reads them (a later ``t`` undoes ``g``'s blank prefix;
    letters it does not know are ignored). Once one ``-af`` has ``h``, each expression
    after it has a heading, its own text (with ``h``, or without it an attribute, a literal
    or a text of at most 16 characters; any other: ``(expr)``), and no label.

    Raises:
        InputError: no expression, ``j``, an expression that does not parse (or is no
            attribute's name with ``r``, or calls ``time()``), or one naming an attribute
            of the real ads that fs does not hold.
    """
    if not exprs:
        raise InputError("-af (-autoformat) needs at least one attribute or expression")
    letters = list(each) if each is not None else [opts] * len(exprs)
    for given in {opts, *letters}:
        if "j" in given:
            raise InputError(
                f"-af:{given}: job ids (j) are not modelled (accounting ads have none); "
                "leave that letter out"
            )
    seps: dict[str, str] = {}
    for letter in opts:
        if letter in ",n":
            seps["col_suffix"] = "," if letter == "," else "\n"
        elif letter == "g":
            seps.update(col_prefix="", row_prefix="\n")
        elif letter == "t":
            seps["col_prefix"] = "\t"
    columns: list[Column] = []
    for expr, own in zip(exprs, letters, strict=True):
        held = [n for n in _NAME.findall(_STRING.sub("", expr)) if n.lower() in NOT_HELD]
        if held:
            raise InputError(
                f"-af {expr}: fs does not hold {', '.join(held)} (the collector's and "
                "the negotiator's own attributes, and the last cycle's shares)"
            )
        check_expression(expr, expr)  # (parse_autoformat_args: before anything is read)
        check_clockless(expr, f"-af {expr}")
        if ("r" in own or "o" in own) and not _NAME.fullmatch(expr):
            raise InputError(_RAW_EXPRESSION.format(expr=expr))
        headed = "h" in own or any(c.heading is not None for c in columns)
        columns.append(Column(
            expr, label="l" in own and not headed, quoted="V" in own,
            raw="r" in own or "o" in own,
            heading=(expr if "h" in own else _implicit_heading(expr)) if headed else None,
        ))  # fmt: skip
    return AutoFormat(columns=tuple(columns), **seps)


#: A call of ``time()`` or ``random()`` (any case), as ``knob_values`` spots one, or of
#: ``absTime()``/``formatTime()`` with no argument (the current time).
_IMPURE = re.compile(r"\b(?i:time|random)\s*\(|\b(?i:abstime|formattime)\s*\(\s*\)")


def check_clockless(expr: str, where: str) -> None:
    """Refuse an expression that calls ``time()`` or ``random()`` (outside its strings;
    or ``absTime()``, ``formatTime()``):
    condor_userprio evaluates it with its clock, or a die, when it prints; fs reads no
    clock (its time is ``--now``), so it would print the machine's instead.

    Raises:
        InputError: naming ``where``.
    """
    if _IMPURE.search(_STRING.sub('""', expr)):
        raise InputError(
            f"{where}: reads the clock (time()) or a die (random()), which "
            "condor_userprio does as it prints; fs reads no clock: write the time itself "
            "(--now's epoch seconds)"
        )


#: An attribute reference (``Name``, ``MY.Name``, ``.Name``) or a literal, which
#: ``getExpressionKind`` ranks at most ``Attr``: their text stays a heading at any length.
_PLAIN = re.compile(
    r"\s*(\.?\s*[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*"
    r'|"(?:[^"\\]|\\.)*"|[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?)\s*'
)


def _implicit_heading(expr: str) -> str:
    """The heading of an expression of an ``-af`` without ``h`` after one with it, as
    ``parse_autoformat_args`` sets it: the text, but ``(expr)`` for an expression that is
    neither an attribute nor a literal (``kind > ExpressionKind::Attr``) and is longer
    than 16 characters."""
    return "(expr)" if len(expr) > 16 and not _PLAIN.fullmatch(expr) else expr


def render_autoformat(ads: Sequence[Mapping[str, AdValue]], af: AutoFormat) -> str:
    """Each ad's line (``PrintModularAds`` with a custom format), after the headings'
    (``display_Headings``: the headings in order over the first columns) when a column
    has one. A column with a heading is left-aligned to the widest of its heading and the
    values printed so far (``FormatOptionAutoWidth``, the width kept from one
    ``AttrListPrintMask::display`` to the next); the others print their values bare."""
    from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone

    cache: dict[Any, Compiled] = {}
    sep = af.col_suffix + af.col_prefix
    cols = af.columns
    widths = [_width(c.heading) if c.heading is not None else 0 for c in cols]
    heads = [c.heading for c in cols if c.heading is not None]
    lines = []
    if heads:
        cells = [_padded(h, w) for h, w in zip(heads, widths, strict=False)]
        tail = af.col_suffix if len(cells) < len(cols) else ""
        lines.append(af.row_prefix + sep.join(cells) + tail + "\n")
    for ad in ads:
        cells = []
        for i, col in enumerate(cols):
            expr = col.expr
            if col.raw:
                text = _raw(expr, ad)
            else:
                text = _text(evaluate_alone(expr, ad, expr, cache), col.quoted)
            if col.heading is not None:
                widths[i] = max(widths[i], _width(text))
                text = _padded(text, widths[i])
            cells.append((f"{expr} = " if col.label else "") + text)
        lines.append(af.row_prefix + sep.join(cells) + "\n")
    return "".join(lines)


def _width(text: str) -> int:
    """A cell's width as ``AttrListPrintMask`` counts it: its bytes (``strlen``) in UTF-8, so
    a name with an ``é`` is one wider than its characters."""
    return len(text.encode("utf-8", "surrogatepass"))


def _padded(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` bytes, as ``%-Ns`` pads it."""
    return text + " " * (width - _width(text))


def _text(value: object, quoted: bool) -> str:
    """A value as ``%v`` (or ``%V``) prints it."""
    if isinstance(value, Enum):  # the evaluator's undefined and error
        return value.name.lower()
    if isinstance(value, str) and not quoted:
        return value
    if isinstance(value, str | bool | int | float):
        return classad_value(value)
    if isinstance(value, list):
        return _unparsed(value)
    raise InputError(f"-af: a {type(value).__name__} value is not modelled; print its parts")


def _unparsed(value: object) -> str:
    """A list, or an element of one, as ``ClassAdUnParser`` writes it: ``{ 1,"a" }`` (its
    elements unevaluated, as the list holds them: ``{ 1 + 1,Name }``), ``{  }`` empty.

    Raises:
        InputError: an element fs cannot write (a nested ClassAd).
    """
    if isinstance(value, list):
        return "{ " + ",".join(_unparsed(v) for v in value) + " }"
    if isinstance(value, Enum):
        return value.name.lower()
    if isinstance(value, str | bool | int | float):
        return classad_value(value)
    if type(value).__name__ == "ExprTree":  # (classad2's unevaluated element: its text)
        return str(value)
    raise InputError(f"-af: a {type(value).__name__} value is not modelled; print its parts")


def _raw(expr: str, ad: Mapping[str, AdValue]) -> str:
    """``%r``: an attribute's expression unparsed; ``undefined`` for a name the ad lacks.

    Raises:
        InputError: an expression that is no attribute name (HTCondor prints it as its
            unparser writes it, which fs does not model).
    """
    lower = {k.lower(): k for k in ad}
    if expr.lower() in lower:
        return classad_value(ad[lower[expr.lower()]])
    if _NAME.fullmatch(expr):
        return "undefined"
    raise InputError(_RAW_EXPRESSION.format(expr=expr))


_RAW_EXPRESSION = "-af:r {expr}: fs prints attributes unevaluated, not expressions"
