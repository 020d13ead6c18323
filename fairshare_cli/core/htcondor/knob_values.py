"""How HTCondor reads a knob's text as a number or a boolean (``condor_config.cpp``).

``param_integer``, ``param_double`` and ``param_boolean`` first try the text as a plain
literal (``strtoll`` in base 10, ``strtod``, or ``true``/``false``/``1``/``0`` in any
case), trailing blanks allowed. Any other text is parsed as a ClassAd expression,
assigned to the knob's name in an ad of its own, and evaluated there
(``string_is_long_param``, ``string_is_double_param``, ``string_is_boolean_param``):
``NEGOTIATOR_INTERVAL = 5 * 60`` is 300, ``PRIORITY_HALFLIFE = 86400 * 7`` is 604800. A
result may be an integer, a real or a boolean (``Value::IsNumber``: a real read as an
integer is truncated toward zero; ``IsBooleanValueEquiv``: a number is true when it is not
0). An expression that does not parse, or whose result is another type (a string,
``undefined`` for a name: the ad holds no other knob), makes the daemon stop
(``EXCEPT``): refused here. So is an integer beyond a C ``int`` ("out of bounds").

The accountant reads ``DEFAULT_PRIO_FACTOR``, ``NICE_USER_PRIO_FACTOR`` and
``REMOTE_PRIO_FACTOR`` with ``atof`` instead (``Accountant::Initialize``): the leading
number and nothing more, so ``10 * 100`` is 10. :func:`atof_whole` takes only a text that
is a number throughout and names what ``atof`` would take otherwise.

Two deviations, both refusals: an infinite or not-a-number value (HTCondor stops on
``1e400`` as "too high" and would take a NaN), and an expression that calls ``time()`` or
``random()`` (its value is the daemon's clock or a die at each reconfiguration; fs reads no
clock). ``classad2`` is imported only for a text that is not a literal.
"""

from __future__ import annotations

import math
import re
from enum import Enum

from fairshare_cli.core.htcondor.classad_text import check_expression_size
from fairshare_cli.core.limits import INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN
from fairshare_cli.core.names import c_number_text, shown
from fairshare_cli.errors import InputError

#: What ``strtoll(text, &end, 10)`` reads to the end (the text comes trimmed).
_STRTOLL = re.compile(r"[+-]?[0-9]+")
#: What ``strtod`` reads: a decimal, a hexadecimal (C99) number, an infinity or a NaN.
_DECIMAL = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_HEX = r"0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
_SPECIAL = r"(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)"
_STRTOD = re.compile(rf"\s*([+-]?)({_HEX}|{_DECIMAL}|{_SPECIAL})")
#: ``string_is_boolean_param``'s literals: a case-blind prefix, then only blanks.
_BOOLEAN = re.compile(r"(?i:(true|1|false|0))\s*")
#: Calls whose value is not a function of the text: the clock and a die.
_IMPURE = re.compile(r"\b(?i:time|random)\s*\(")
#: A ClassAd attribute name (the ad's one attribute is the knob, as in HTCondor).
_ATTRIBUTE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def param_integer(text: str, knob: str, where: str) -> int:
    """The knob's value as ``param_integer`` reads it (within a C ``int``).

    Raises:
        InputError: ``text`` is no integer, or no expression evaluating to a number, or
            the value is beyond a C ``int``.
    """
    value = param_long(text, knob, where)
    if not INT32_MIN <= value <= INT32_MAX:
        raise InputError(
            f"{where}: '{shown(text.strip())}' is out of bounds for an integer (HTCondor "
            f"reads a C int and stops on it); expected {INT32_MIN} to {INT32_MAX}"
        )
    return value


def param_long(text: str, knob: str, where: str) -> int:
    """The whole number ``string_is_long_param`` reads from ``text``, before any bound
    but ``strtoll``'s own (a literal beyond 64 bits reads as the nearest of them).

    Raises:
        InputError: ``text`` is no integer, nor an expression evaluating to a finite
            number.
    """
    text = text.strip()
    if _STRTOLL.fullmatch(text) and c_number_text(text):
        # strtoll saturates (ERANGE, unchecked): beyond 64 bits, the bound; and int()
        # refuses more than 4,300 digits
        if len(text.lstrip("+-").lstrip("0")) > 19:
            return INT64_MIN if text.startswith("-") else INT64_MAX
        return min(max(int(text), INT64_MIN), INT64_MAX)
    result = _evaluate(text, knob, where, "an integer")
    if isinstance(result, float):  # (long long) realValue: toward zero
        _finite(result, text, where)
    return int(result)


def param_double(text: str, knob: str, where: str) -> float:
    """The knob's value as ``param_double`` reads it (finite).

    Raises:
        InputError: ``text`` is no number, or no expression evaluating to one, or the
            value is infinite or not a number.
    """
    text = text.strip()
    literal = _strtod(text)
    if literal is not None and literal[1] == len(text):
        value = literal[0]
    else:
        value = float(_evaluate(text, knob, where, "a number"))
    return _finite(value, text, where)


def param_boolean(text: str, knob: str, where: str) -> bool:
    """The knob's value as ``param_boolean`` reads it.

    Raises:
        InputError: ``text`` is no boolean literal, nor an expression evaluating to a
            boolean or a number (``yes``, ``t``: names, undefined in the knob's ad).
    """
    text = text.strip()
    literal = _BOOLEAN.fullmatch(text)
    if literal is not None:
        return literal.group(1).lower() in ("true", "1")
    return bool(_evaluate(text, knob, where, "True or False"))


def atof_whole(text: str, where: str) -> float:
    """The knob's value as ``atof`` reads it, when ``text`` is a number throughout.

    Raises:
        InputError: ``text`` holds more than a number (``atof`` would take its leading
            number, or 0, and drop the rest), or the number is infinite or not a number.
    """
    text = text.strip()
    literal = _strtod(text)
    if literal is not None and literal[1] == len(text):
        return _finite(literal[0], text, where)
    taken = literal[0] if literal is not None else 0.0
    raise InputError(
        f"{where}: HTCondor reads this knob with atof, which takes '{shown(text)}' as "
        f"{taken:g} (the leading number only, no expression); write the number itself"
    )


def _strtod(text: str) -> tuple[float, int] | None:
    """``strtod``'s value of ``text``'s leading number and where it ends, or None."""
    found = _STRTOD.match(text)
    if found is None or not c_number_text(found.group(0)):
        return None
    sign, body = found.group(1), found.group(2)
    if body[:2].lower() == "0x":
        if "p" not in body.lower():
            body += "p0"
        value = float.fromhex(body)
    elif body[:3].lower() == "nan":
        value = math.nan
    else:
        value = float(body)
    return (-value if sign == "-" else value), found.end()


def _finite(value: float, text: str, where: str) -> float:
    if not math.isfinite(value):
        raise InputError(f"{where}: expected a finite number, got '{shown(text)}'")
    return value


def _evaluate(text: str, knob: str, where: str, wanted: str) -> int | float | bool:
    """``text`` evaluated as a ClassAd expression in an ad whose one attribute is it.

    Raises:
        InputError: the text does not parse, calls ``time()``/``random()``, is longer or
            holds more operators than any expression fs reads
            (:func:`~.classad_text.check_expression_size`), or evaluates to something that is
            not a number or a boolean.
    """
    if _IMPURE.search(text):
        raise InputError(
            f"{where}: '{shown(text)}' calls time() or random(): HTCondor evaluates it anew "
            "at each reconfiguration; write the value itself"
        )
    check_expression_size(text, f"{where}: '{shown(text)}'")  # (classad2 crashes on a huge one)
    from classad2 import ClassAd, ExprTree

    attribute = knob if _ATTRIBUTE.fullmatch(knob) else "CondorValue"
    try:
        ad = ClassAd()
        ad[attribute] = ExprTree(text)
        result = ad.eval(attribute)
    except Exception:  # classad2 raises its own ClassAdException
        raise InputError(
            f"{where}: expected {wanted} or a ClassAd expression (such as 5 * 60), got "
            f"'{shown(text)}': HTCondor stops on it"
        ) from None
    # (classad2.Value, Undefined and Error, is an IntEnum: not a number)
    if isinstance(result, (bool, int, float)) and not isinstance(result, Enum):
        return result
    if isinstance(result, Enum):
        got = result.name.lower()
    elif isinstance(result, str):
        got = f'the string "{result}"'
    else:
        got = "a list" if isinstance(result, list) else "a ClassAd"
    hint = "; a name here is no knob (write $(NAME) for one)" if got == "undefined" else ""
    raise InputError(
        f"{where}: expected {wanted}, got '{shown(text)}', which evaluates to {shown(got)}: "
        f"HTCondor stops on it{hint}"
    )
