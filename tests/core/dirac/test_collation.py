"""TaskQueueDB's names as MariaDB holds and compares them (latin1, latin1_swedish_ci).

Expected values are read by hand off MariaDB's ``strings/ctype-latin1.c``: ``cs_to_uni``
(latin1 is cp1252, its five undefined bytes the C1 controls U+0081, U+008D, U+008F, U+0090,
U+009D) and ``sort_order_latin1``, the weights of ``latin1_swedish_ci`` (collation 8): a-z
weigh as A-Z (65-90); 0xC0-0xC3 and 0xE0-0xE3 (À-Ã, à-ã) 65; 0xC4/0xC6 (Ä, Æ) 92, the
weight of ``\\``; 0xC5 (Å) 91, ``[``; 0xC7 (Ç) 67; 0xC8-0xCB (È-Ë) 69; 0xCC-0xCF (Ì-Ï) 73;
0xD0 (Ð) 68; 0xD1 (Ñ) 78; 0xD2-0xD5 (Ò-Õ) 79; 0xD6 (Ö) 93, ``]``; 0xD8 and 0xF8 (Ø, ø) 216;
0xD9-0xDB (Ù-Û) 85; 0xDC/0xDD (Ü, Ý) 89; 0xDF (ß) 223; 0xFF (ÿ) 255; 0x80-0xBF themselves.
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
        pytest.param("Müller", "MYLLER", True, id="u-umlaut-is-y"),
        pytest.param("Ýves", "yves", True, id="y-acute-is-y"),
        pytest.param("jörg", "JÖRG", True, id="o-umlaut-case"),
        pytest.param("jörg", "jorg", False, id="o-umlaut-is-its-own-letter"),
        pytest.param("Ö", "]", True, id="o-umlaut-weighs-as-bracket"),
        pytest.param("Å", "[", True, id="a-ring-weighs-as-bracket"),
        pytest.param("Æ", "ä", True, id="ae-is-a-umlaut"),
        pytest.param("ä", "\\", True, id="a-umlaut-weighs-as-backslash"),
        pytest.param("ø", "Ø", True, id="o-slash-case"),
        pytest.param("ø", "ö", False, id="o-slash-is-not-o-umlaut"),
        pytest.param("ß", "ss", False, id="sharp-s-is-itself"),
        pytest.param("ÿ", "y", False, id="y-diaeresis-is-itself"),
        pytest.param("Š", "š", False, id="cp1252-letters-keep-case"),
        pytest.param("€", "E", False, id="euro-is-itself"),
    ],
)
def test_latin1_swedish_ci_equality(a: str, b: str, equal: bool) -> None:
    assert (folded(a) == folded(b)) is equal


def test_collation_order_puts_swedish_letters_after_z() -> None:
    """Å, Ä, Ö weigh 91-93, after Z (90): MariaDB sorts 'zeta' before 'Åsa' and 'Östen'."""
    names = ["Östen", "zeta", "Åsa", "Ärla", "Olof"]
    assert sorted(names, key=folded) == ["Olof", "zeta", "Åsa", "Ärla", "Östen"]


@pytest.mark.parametrize(
    ("name", "char"),
    [
        pytest.param("jörg", None, id="latin1"),
        pytest.param("€uro", None, id="cp1252-euro"),
        pytest.param("Œuvre", None, id="cp1252-oe"),
        pytest.param("\x81", None, id="undefined-cp1252-byte"),
        pytest.param("李", "李", id="cjk"),
        pytest.param("ok😀", "😀", id="emoji"),
        pytest.param("Ğ", "Ğ", id="latin-extended"),
        pytest.param("\x80", "\x80", id="c1-control-cp1252-replaced"),
    ],
)
def test_unstorable(name: str, char: str | None) -> None:
    assert unstorable(name) == char


def test_folded_set_merges_equal_names() -> None:
    assert folded_set(("LCG.Zürich.ch", "lcg.zyrich.CH", "X")) == ("LCG.ZYRICH.CH", "X")


@given(st.text(st.characters(codec="cp1252"), max_size=12))
def test_folding_is_idempotent_and_keeps_the_length(name: str) -> None:
    once = folded(name)
    assert len(once) == len(name)
    assert folded(once) == once
