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


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))
def test_folding_keeps_the_length(name: str) -> None:
    assert len(folded(name)) == len(name)
