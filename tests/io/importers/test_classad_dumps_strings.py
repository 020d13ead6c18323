"""Strings in ``-long`` output read as HTCondor's old ClassAd syntax reads them
(io/importers/classad_dumps.py).

Each expected value below is derived by hand from ``Lexer::tokenizeStringOld`` in
HTCondor 25.0's ``src/classad/lexer.cpp``: the lexer reads up to the next quote; a quote
after a backslash is a quote inside the string when any character follows it on the line
(the backslash is dropped), and closes the string when it is the line's last character
(the backslash stays); no other backslash is special. Each is then checked against the
``classad2`` module's own old-syntax parser on the same line.
"""

from __future__ import annotations

from typing import Any

import classad2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.io.importers.classad_dumps import (
    Expr,
    UnclosedString,
    iter_long_ads,
    new_syntax,
    parse_long_value,
)


def old_parse(value: str) -> Any:
    """What ``classad2.parseAds(..., ParserType.Old)`` makes of ``A = value``: the string,
    or None where it refuses the line."""
    ads = list(classad2.parseAds(f"A = {value}\n", classad2.ParserType.Old))
    return ads[0].eval("A") if ads and "A" in ads[0] else None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(r'"AD\\ann"', "AD\\\\ann", id="two-backslashes-stay-two"),
        pytest.param(r'"AD\ann"', "AD\\ann", id="one-backslash-stays"),
        pytest.param(r'"a\nb\tc"', "a\\nb\\tc", id="no-letter-escapes"),
        pytest.param(r'"\101\x41"', "\\101\\x41", id="no-number-escapes"),
        pytest.param(r'"say \"hi\" now"', 'say "hi" now', id="escaped-quotes"),
        pytest.param(r'"C:\temp\"', "C:\\temp\\", id="trailing-backslash"),
        pytest.param(r'"\"', "\\", id="only-a-backslash"),
        pytest.param(r'"a\\"', "a\\\\", id="two-trailing-backslashes"),
        pytest.param(r'"a\""', 'a"', id="trailing-quote"),
        pytest.param(r'"a\"\"b"', 'a""b', id="two-quotes"),
        pytest.param(r'"a\\\"b"', 'a\\\\"b', id="backslashes-then-quote"),
        pytest.param('"jürgen\\"', "jürgen\\", id="non-ascii"),
        pytest.param('"plain"', "plain", id="plain"),
        pytest.param('""', "", id="empty"),
    ],
)
def test_a_string_is_read_as_the_old_syntax_reads_it(value: str, expected: str) -> None:
    assert parse_long_value(value) == expected
    assert old_parse(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param('"abc', id="no-closing-quote"),
        pytest.param('"a\\" ', id="blank-after-backslash-quote"),
        pytest.param('"a\\"b', id="escaped-quote-then-end"),
        pytest.param('strcat("a", "b)', id="in-an-expression"),
    ],
)
def test_a_string_with_no_closing_quote_is_refused(value: str) -> None:
    """A blank after a closing ``\\"`` is more text: the quote is inside the string, which
    then never closes; HTCondor refuses the line too."""
    with pytest.raises(UnclosedString):
        parse_long_value(value)
    assert old_parse(value) is None


@pytest.mark.parametrize(
    ("value", "new"),
    [
        pytest.param(
            r'regexp("^a\.b$", TARGET.Machine)',
            r'regexp("^a\\.b$", TARGET.Machine)',
            id="regexp-pattern",
        ),
        pytest.param(r'Owner == "AD\\ann"', r'Owner == "AD\\\\ann"', id="comparison"),
        pytest.param(r'strcat("say \"", X)', r'strcat("say \"", X)', id="quote"),
        pytest.param("Cpus * 2", "Cpus * 2", id="no-string"),
    ],
)
def test_an_expression_comes_back_in_the_new_syntax(value: str, new: str) -> None:
    """The text ``classad2`` evaluates (the new syntax) holds the strings the old syntax
    read: both evaluate alike in an ad."""
    result = parse_long_value(value)
    assert result == Expr(new)
    ad = classad2.ClassAd({"Machine": "a.b", "Owner": "AD\\\\ann", "X": "x", "Cpus": 4})
    old = next(iter(classad2.parseAds(f"A = {value}\n", classad2.ParserType.Old)))
    ad["A"] = classad2.ExprTree(new)
    old.update({k: v for k, v in ad.items() if k != "A"})
    assert ad.eval("A") == old.eval("A")


def test_text_without_a_backslash_is_kept_as_it_is() -> None:
    assert new_syntax("a == \"x\" && b == 'y'") == "a == \"x\" && b == 'y'"


def test_an_unclosed_string_names_its_line() -> None:
    lines = ['MyType = "Accounting"\n', 'Name = "a\\" \n']
    with pytest.raises(Exception, match=r"^dump:2: Name: a string with no closing quote"):
        list(iter_long_ads(lines, "dump"))


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20))
def test_what_the_old_unparser_prints_reads_back(value: str) -> None:
    """``ClassAdUnParser`` in old syntax (``condor_userprio -l``, ``condor_q -long``) puts
    a backslash before each quote and nothing else: that line reads back as the value."""
    line = '"' + value.replace('"', '\\"') + '"'
    assert parse_long_value(line) == value
    assert old_parse(line) == value
