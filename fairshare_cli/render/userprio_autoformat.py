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
the heading's and grows with each longer value as the ads are printed (``l`` is then
ignored). Job ids (``j``) are refused: accounting ads carry none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fairshare_cli.core.htcondor.accounting_ads import NOT_HELD, AdValue
from fairshare_cli.errors import InputError
from fairshare_cli.render.userprio_long import classad_value

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass(frozen=True)
class AutoFormat:
    """The expressions ``-af`` prints and how (its ``:OPTS``)."""

    exprs: tuple[str, ...]
    label: bool = False
    quoted: bool = False
    raw: bool = False
    row_prefix: str = ""
    col_prefix: str = " "
    col_suffix: str = ""
    headings: bool = False


def autoformat(exprs: Sequence[str], opts: str) -> AutoFormat:
    """The ``-af`` of ``exprs`` with the option letters ``opts`` (``lrng``...), read in
    order as ``parse_autoformat_args`` reads them (a later ``t`` undoes ``g``'s blank
    prefix; letters it does not know are ignored).

    Raises:
        InputError: no expression, ``h`` or ``j``, or an expression naming an attribute
            of the real ads that fs does not hold.
    """
    if not exprs:
        raise InputError("-af (-autoformat) needs at least one attribute or expression")
    if "j" in opts:
        raise InputError(
            f"-af:{opts}: job ids (j) are not modelled (accounting ads have none); "
            "leave that letter out"
        )
    fields: dict[str, Any] = {}
    for letter in opts:
        if letter in ",n":
            fields["col_suffix"] = "," if letter == "," else "\n"
        elif letter == "g":
            fields.update(col_prefix="", row_prefix="\n")
        elif letter == "t":
            fields["col_prefix"] = "\t"
        elif letter in "lVroh":
            fields[{"l": "label", "V": "quoted", "h": "headings"}.get(letter, "raw")] = True
    for expr in exprs:
        held = [n for n in _NAME.findall(_STRING.sub("", expr)) if n.lower() in NOT_HELD]
        if held:
            raise InputError(
                f"-af {expr}: fs does not hold {', '.join(held)} (the collector's and "
                "the negotiator's own attributes, and the last cycle's shares)"
            )
    return AutoFormat(exprs=tuple(exprs), **fields)


def render_autoformat(ads: Sequence[Mapping[str, AdValue]], af: AutoFormat) -> str:
    """Each ad's line (``PrintModularAds`` with a custom format), after the headings'
    (``display_Headings``) with ``h``: each column is left-aligned to the widest of its
    heading and the values printed so far (``FormatOptionAutoWidth``, the width kept from
    one ``AttrListPrintMask::display`` to the next)."""
    from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone

    cache: dict[Any, Compiled] = {}
    sep = af.col_suffix + af.col_prefix
    widths = [len(expr) for expr in af.exprs]
    lines = [af.row_prefix + sep.join(af.exprs) + "\n"] if af.headings else []
    label = af.label and not af.headings
    for ad in ads:
        cells = []
        for i, expr in enumerate(af.exprs):
            text = _raw(expr, ad) if af.raw else _text(evaluate_alone(expr, ad, expr, cache), af)
            if af.headings:
                widths[i] = max(widths[i], len(text))
                text = text.ljust(widths[i])
            cells.append((f"{expr} = " if label else "") + text)
        lines.append(af.row_prefix + sep.join(cells) + "\n")
    return "".join(lines)


def _text(value: object, af: AutoFormat) -> str:
    """A value as ``%v`` (or ``%V``) prints it."""
    if isinstance(value, Enum):  # the evaluator's undefined and error
        return value.name.lower()
    if isinstance(value, str) and not af.quoted:
        return value
    if isinstance(value, str | bool | int | float):
        return classad_value(value)
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
    raise InputError(f"-af:r {expr}: fs prints attributes unevaluated, not expressions")
