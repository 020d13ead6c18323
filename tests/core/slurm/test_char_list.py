"""``slurm_addto_char_list`` and the hostlists it expands, each case derived by hand from
``src/common/slurm_protocol_defs.c`` and ``src/common/hostlist.c`` (22.05 and 26.05)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.slurm.char_list import char_list, hostlist_names
from fairshare_cli.errors import InputError


@pytest.mark.parametrize(
    ("texts", "names"),
    [
        (["hep[1-3]"], ["hep1", "hep2", "hep3"]),
        (["x,P[1-2],p1"], ["x", "p2", "p1"]),  # (the last of equal ones kept)
        (["p[1-2][3]"], ["p1", "p2", "3"]),  # (the name ends at the first ])
        (["p[x]a[b[1-2]"], ["p[x]a[b1", "p[x]a[b2"]),  # (a refused name is read on)
        (["p[x]q[1-2]"], ["p[x]q[1-2]"]),  # (its range again refused, in the prefix)
        (["a[1-2"], ["a[1-2"]),
        (["a]"], ["a]"]),
        (["'a,b'c,d"], ["a", "b"]),
        ([""], [""]),
        (["a", "a,,"], ["a", ""]),  # (the call added no name: its last empty one is added)
        (["p[1-2]", "p[1-2]"], ["p1", "p2", ""]),
        ([" p[1-2] "], ["p1", "p2", ""]),  # (" " trimmed)
    ],
)
def test_addto_char_list(texts: list[str], names: list[str]) -> None:
    assert char_list(texts, "current", []) == names


def test_addto_char_list_2205_trims_nothing() -> None:
    assert char_list([" p[1-2] "], "22.05", []) == ["p1", "p2", " "]
    assert char_list(["É,A"], "current", []) == ["É", "a"]  # (tolower: ASCII alone)


@pytest.mark.parametrize(
    ("text", "today", "old"),
    [
        ("p[01-03]", ["p01", "p02", "p03"], ["p01", "p02", "p03"]),
        ("p[1,3]", ["p1", "p3"], ["p1", "p3"]),
        ("p[ 1-2]", ["p01", "p02"], ["p01", "p02"]),  # (strtoul's width: the text's)
        ("p[1a-3]", ["p01", "p02", "p03"], ["p01", "p02", "p03"]),  # (lo's tail unchecked)
        ("p[1-]", ["p1"], ["p1"]),
        ("p[8-9,10-11]", ["p8", "p9", "p10", "p11"], ["p8", "p9", "p10", "p11"]),
        ("p[1-2][3]", ["p13", "p23"], ["p13", "p23"]),
        ("p[1-2]x", ["p1x", "p2x"], None),  # (a suffix: today's)
        ("a]b[c d]", None, ["a]b]", "d]"]),  # (no ]: 22.05 adds one to the prefix)
        ("x\ny[1]", ["x", "y1"], ["x\ny1"]),  # (newline: a separator today only)
        ("p[0-18446744073709551615]", [], []),  # (2**64 hosts counted as 0)
        (
            "p[18446744073709551614-18446744073709551615]",  # (hi ULONG_MAX: shifted once)
            ["p18446744073709551614"],
            ["p18446744073709551614"],
        ),
    ],
)
def test_hostlist_names(text: str, today: list[str] | None, old: list[str] | None) -> None:
    assert hostlist_names(text, "current", []) == today
    assert hostlist_names(text, "22.05", []) == old


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("p[x]", "Invalid range: `x'"),
        ("p[3-1]", "Invalid range: `3-1'"),
        ("a[1-2,]", "Invalid range: `'"),
        ("p[1--2]", "Invalid range: `1--2'"),
        ("p[0-65536]", "Too many hosts in range `0-65536'"),
    ],
)
def test_hostlist_refused_ranges(text: str, said: str) -> None:
    errors: list[str] = []
    assert hostlist_names(text, "current", errors) is None
    assert errors == [said]


def test_hostlist_endless_loop_refused() -> None:
    with pytest.raises(InputError, match="largest unsigned long"):
        hostlist_names("p[18446744073709551615]x", "current", [])
