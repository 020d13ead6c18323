"""The JSON numbers no tool writes, and where they are (io/json_numbers.py)."""

from __future__ import annotations

import json

import pytest

from fairshare_cli.io.json_numbers import FINITE, NonFiniteNumber, line_of, shown_number


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_the_hooks_refuse_each(text: str) -> None:
    with pytest.raises(NonFiniteNumber) as caught:
        json.loads(f'{{"a": [1, {text}]}}', **FINITE)
    assert caught.value.text == text


def test_the_hooks_keep_finite_numbers_and_negative_zero() -> None:
    assert json.loads("[1.5, -0.0, 1e308, -0]", **FINITE) == [1.5, -0.0, 1e308, 0]


def test_the_line_skips_strings_and_longer_numbers() -> None:
    text = '{\n "NaN": "a NaN",\n "b": 1e4000,\n "c": 1e400\n}'
    assert line_of(text, "1e400") == 4
    assert line_of(text, "NaN") == 1  # (none outside strings)
    assert line_of(text, "1e400", text.index('"b"'), 3) == 4


def test_a_long_number_is_shown_by_its_head_and_length() -> None:
    assert shown_number("9" * 30) == "999999999999... (30 characters)"
    assert shown_number("1e400") == "1e400"
