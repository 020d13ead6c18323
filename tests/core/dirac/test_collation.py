"""TaskQueueDB's names as MariaDB holds and compares them (utf8mb4, utf8mb4_general_ci).

DIRAC 9.1.22 creates TaskQueueDB's tables with ``DEFAULT CHARSET=utf8mb4``; MariaDB 10.11's
collation for it is ``utf8mb4_general_ci``. Expected values are MariaDB's weights
(``WEIGHT_STRING(name COLLATE utf8mb4_general_ci)`` on MariaDB 10.11): letters weigh as
their capital without accents (é, è, ê, ë: E; ö: O; å, ä: A; ü: U; ÿ: Y), ß as S, Æ, Ø, Þ
and Đ as their capital (0xC6, 0xD8, 0xDE, 0x110), Cyrillic й as Й (0x419, not И), µ as the
Greek capital Μ (0x39C), the lunate sigma ϲ as Σ, and every character beyond U+FFFF
(emoji) as U+FFFD.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.dirac.collation import folded, folded_set, unstorable


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        pytest.param("alice", "ALICE", True, id="case"),
        pytest.param("José", "JOSE", True, id="acute-is-base-letter"),
        pytest.param("Çà", "ca", True, id="cedilla-grave"),
        pytest.param("Müller", "MULLER", True, id="u-umlaut-is-u"),
        pytest.param("jörg", "jorg", True, id="o-umlaut-is-o"),
        pytest.param("Åsa", "asa", True, id="a-ring-is-a"),
        pytest.param("Æ", "ae", False, id="ae-is-its-own-letter"),
        pytest.param("ø", "Ø", True, id="o-slash-case"),
        pytest.param("ø", "o", False, id="o-slash-is-not-o"),
        pytest.param("ß", "s", True, id="sharp-s-is-s"),
        pytest.param("ß", "ss", False, id="sharp-s-is-one-s"),
        pytest.param("ÿ", "Y", True, id="y-diaeresis-is-y"),
        pytest.param("Š", "s", True, id="caron-is-base-letter"),
        pytest.param("Ğ", "g", True, id="breve-is-base-letter"),
        pytest.param("Ł", "ł", True, id="l-stroke-case"),
        pytest.param("Ł", "L", False, id="l-stroke-is-its-own-letter"),
        pytest.param("й", "Й", True, id="short-i-case"),
        pytest.param("й", "и", False, id="short-i-is-not-i"),
        pytest.param("ё", "Е", True, id="io-is-ie"),
        pytest.param("ά", "Α", True, id="greek-tonos-dropped"),
        pytest.param("µ", "Μ", True, id="micro-is-greek-mu"),
        pytest.param("李", "李", True, id="cjk-itself"),
        pytest.param("😀", "🚀", True, id="beyond-bmp-all-one"),
        pytest.param("€", "E", False, id="euro-is-itself"),
        pytest.param("أ", "ا", False, id="arabic-hamza-is-its-own-letter"),
        pytest.param("क़", "क", False, id="devanagari-nukta-is-its-own-letter"),
        pytest.param("ა", "Ა", False, id="georgian-mtavruli-is-its-own-letter"),
        pytest.param("Ⴀ", "ⴀ", False, id="georgian-nuskhuri-is-its-own-letter"),
        pytest.param("ꭰ", "Ꭰ", False, id="cherokee-small-is-its-own-letter"),
        pytest.param("ɑ", "Ɑ", False, id="latin-alpha-keeps-its-late-capital-apart"),
        pytest.param("ⅎ", "Ⅎ", False, id="turned-f-keeps-its-capital-apart"),
        pytest.param("↚", "←", False, id="arrow-with-stroke-is-itself"),
        pytest.param("ⅰ", "Ⅰ", True, id="roman-numeral-case"),
        pytest.param("ⓐ", "Ⓐ", True, id="circled-letter-case"),
        pytest.param("ａ", "Ａ", True, id="fullwidth-case"),
        pytest.param("ὰ", "α", True, id="greek-extended-is-base-letter"),
    ],
)
def test_utf8mb4_general_ci_equality(a: str, b: str, equal: bool) -> None:
    assert (folded(a) == folded(b)) is equal


def test_collation_order_puts_accented_letters_with_their_base() -> None:
    """Å, Ä weigh as A and Ö as O, before Z: MariaDB sorts 'Åsa' and 'Ärla' before 'Olof'
    and 'Östen' next to it ('OLOF' < 'OSTEN'), 'zeta' last."""
    names = ["Östen", "zeta", "Åsa", "Ärla", "Olof"]
    assert sorted(names, key=folded) == ["Ärla", "Åsa", "Olof", "Östen", "zeta"]


@pytest.mark.parametrize(
    ("name", "char"),
    [
        pytest.param("jörg", None, id="accented"),
        pytest.param("李", None, id="cjk"),
        pytest.param("ok😀", None, id="emoji"),
        pytest.param("Ğ", None, id="latin-extended"),
        pytest.param("a\ud800", "\ud800", id="lone-surrogate"),
    ],
)
def test_unstorable(name: str, char: str | None) -> None:
    assert unstorable(name) == char


def test_folded_set_merges_equal_names() -> None:
    assert folded_set(("LCG.Zürich.ch", "lcg.zurich.CH", "X")) == ("LCG.ZURICH.CH", "X")


#: SHA-256 of the 2-byte weights of every BMP code point but the surrogates, in code point
#: order, as MariaDB 10.11.19 gives them: ``SELECT HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING
#: utf32) USING utf8mb4) COLLATE utf8mb4_general_ci)) FROM seq_0_to_65535 WHERE seq < 55296
#: OR seq > 57343`` (63488 rows, each weight read as a big-endian 2-byte number). A bulk
#: equality test on the same server (each character ``=`` the character of its weight,
#: space aside) agreed on all 63487.
MARIADB_BMP_WEIGHTS_SHA256 = "32feec741656ddac4291499154362c932f97505616b93914057912929c6547af"


def test_every_bmp_character_weighs_as_in_mariadb() -> None:
    """Each character's weight is the code point of the one character ``folded`` gives
    it: equal to MariaDB's for all 63488 (outside the blocks MariaDB folds, U+0000 to
    U+05FF, U+1E00 to U+1FFF, U+2100 to U+21FF, U+2400 to U+24FF and U+FF00 to U+FFFF,
    every character is its own weight, so Arabic, Indic, Georgian, Cherokee and the late
    Latin capitals of U+2C00 to U+2CFF and U+A700 to U+A7FF are not folded)."""
    digest = hashlib.sha256()
    for code in (*range(0xD800), *range(0xE000, 0x10000)):
        weight = folded(chr(code))
        assert len(weight) == 1
        digest.update(ord(weight).to_bytes(2, "big"))
    assert digest.hexdigest() == MARIADB_BMP_WEIGHTS_SHA256


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))
def test_folding_keeps_the_length(name: str) -> None:
    assert len(folded(name)) == len(name)
