"""A knob's text read as HTCondor 25.0's ``param_integer``, ``param_double``,
``param_boolean`` and the accountant's ``atof`` read it (core/htcondor/knob_values.py).

Every expected value is derived by hand from condor_config.cpp (v25.0.13): a plain
literal first (``strtoll`` base 10 / ``strtod`` / a case-blind ``true``, ``false``,
``1``, ``0`` prefix followed by blanks only), else the text as a ClassAd expression
evaluated in an ad of its own, whose result must be a number or a boolean
(``Value::IsNumber``: a real read as an integer is cast toward zero, a boolean is 1 or 0;
``IsBooleanValueEquiv``: a number is true unless 0). ClassAd's ``/`` of two integers is
integer division.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.knob_values import (
    atof_whole,
    param_boolean,
    param_double,
    param_integer,
)
from fairshare_cli.errors import InputError


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("300", 300, id="literal"),
        pytest.param(" -12 ", -12, id="literal-blanks"),
        pytest.param("5 * 60", 300, id="product"),
        pytest.param("86400 * 7", 604800, id="week"),
        pytest.param("5.5", 5, id="real-toward-zero"),  # strtoll stops at '.'; (long long)5.5
        pytest.param("-7.9", -7, id="negative-real-toward-zero"),
        pytest.param("1e3", 1000, id="exponent"),  # strtoll stops at 'e'; the real 1000.0
        pytest.param("7 / 2", 3, id="integer-division"),
        pytest.param("true", 1, id="boolean-is-one"),
        pytest.param("ifThenElse(2 > 1, 60, 120)", 60, id="function"),
        pytest.param("2147483647", 2147483647, id="int-max"),
    ],
)
def test_param_integer_reads_literals_and_expressions(text: str, value: int) -> None:
    assert param_integer(text, "NEGOTIATOR_INTERVAL", "cc:1") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("86400", 86400.0, id="literal"),
        pytest.param("86400 * 7", 604800.0, id="week"),
        pytest.param("10 / 4", 2.0, id="integer-division"),  # strtod stops at ' /'; 10/4 = 2
        pytest.param("10.0 / 4", 2.5, id="real-division"),
        pytest.param("0x1p4", 16.0, id="hex-float"),  # strtod reads C99 hexadecimal floats
        pytest.param("1e-3", 0.001, id="exponent"),
        pytest.param("false", 0.0, id="boolean-is-zero"),
    ],
)
def test_param_double_reads_literals_and_expressions(text: str, value: float) -> None:
    assert param_double(text, "PRIORITY_HALFLIFE", "cc:1") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("True", True, id="literal"),
        pytest.param("FALSE  ", False, id="literal-case-blanks"),
        pytest.param("1", True, id="one"),
        pytest.param("10", True, id="ten-is-an-expression"),  # '1' then '0': not a literal
        pytest.param("0.0", False, id="zero-real"),
        pytest.param("2 > 1", True, id="comparison"),
        pytest.param("true && false", False, id="and"),
    ],
)
def test_param_boolean_reads_literals_and_expressions(text: str, value: bool) -> None:
    assert param_boolean(text, "NEGOTIATOR_USE_SLOT_WEIGHTS", "cc:1") is value


@pytest.mark.parametrize(
    ("read", "text", "needle"),
    [
        # a name is undefined in the knob's own ad: HTCondor's EXCEPT "Invalid result"
        pytest.param(param_boolean, "yes", "which evaluates to undefined", id="yes"),
        pytest.param(param_boolean, "t", "which evaluates to undefined", id="t"),
        pytest.param(param_boolean, "truex", "which evaluates to undefined", id="truex"),
        pytest.param(param_integer, "FOO * 2", "write $(NAME) for one", id="name"),
        pytest.param(param_integer, '"300"', 'evaluates to the string "300"', id="string"),
        pytest.param(param_double, "1/0", "which evaluates to error", id="error"),
        pytest.param(param_integer, "{1, 2}", "which evaluates to a list", id="list"),
        # no trailing comments in condor_config: the text does not parse ("Invalid
        # expression")
        pytest.param(param_integer, "300 # five minutes", "or a ClassAd expression", id="comment"),
        pytest.param(param_double, "1_000", "or a ClassAd expression", id="underscore"),
        pytest.param(param_integer, "2147483648", "out of bounds for an integer", id="int-max+1"),
        pytest.param(param_integer, "3e9", "out of bounds for an integer", id="real-beyond-int"),
        pytest.param(param_double, "1e400", "expected a finite number", id="infinity"),
        pytest.param(param_double, "nan", "expected a finite number", id="nan"),
        pytest.param(param_integer, "time() % 60", "calls time() or random()", id="clock"),
    ],
)
def test_what_htcondor_stops_on_is_refused(read: object, text: str, needle: str) -> None:
    with pytest.raises(InputError) as info:
        read(text, "KNOB", "cc:1")  # type: ignore[operator]
    assert str(info.value).startswith("cc:1: ")
    assert needle in str(info.value)


def test_atof_takes_a_whole_number_only() -> None:
    """``DEFAULT_PRIO_FACTOR = 10 * 100``: atof reads 10 and drops the rest, where the
    admin meant 1000; refused, naming what HTCondor takes."""
    assert atof_whole(" 1e3 ", "cc:1") == 1000.0
    assert atof_whole("-2.5", "cc:1") == -2.5
    with pytest.raises(InputError) as info:
        atof_whole("10 * 100", "cc:1: DEFAULT_PRIO_FACTOR")
    assert str(info.value) == (
        "cc:1: DEFAULT_PRIO_FACTOR: HTCondor reads this knob with atof, which takes "
        "'10 * 100' as 10 (the leading number only, no expression); write the number itself"
    )
    with pytest.raises(InputError, match="takes 'high' as 0 "):
        atof_whole("high", "cc:1")
