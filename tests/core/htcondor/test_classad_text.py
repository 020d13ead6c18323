"""ClassAd expression text as tokens: top-level conjuncts and one relational comparison."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.classad_text import split_comparison, split_conjuncts


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        pytest.param("a > 1 && b < 2", ["a > 1", "b < 2"], id="two"),
        pytest.param("a && (b || c) && d", ["a", "(b || c)", "d"], id="parenthesised-or"),
        pytest.param("a && b || c", ["a && b || c"], id="top-level-or"),
        pytest.param("a && b ? c : d", ["a && b ? c : d"], id="ternary"),
        pytest.param('x == "a && b" && y', ['x == "a && b"', "y"], id="string"),
        pytest.param("false", ["false"], id="single"),
    ],
)
def test_split_conjuncts(text: str, parts: list[str]) -> None:
    assert split_conjuncts(text) == parts


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        pytest.param(
            "RemoteUserPrio > SubmitterUserPrio * 1.2",
            ("RemoteUserPrio", ">", "SubmitterUserPrio * 1.2"),
            id="gt",
        ),
        pytest.param("a>=b", ("a", ">=", "b"), id="ge-no-spaces"),
        pytest.param("a < -3", ("a", "<", "-3"), id="negative"),
        pytest.param("f(a, b) <= (c > d)", ("f(a, b)", "<=", "(c > d)"), id="nested"),
        pytest.param('x > "a < b"', ("x", ">", '"a < b"'), id="string"),
        pytest.param("a == b", None, id="equality"),
        pytest.param("a =?= b", None, id="meta-equality"),
        pytest.param("a > b > c", None, id="two"),
        pytest.param("a < b || c", None, id="or"),
        pytest.param("a > b ? 1 : 2", None, id="ternary"),
        pytest.param("x isnt undefined", None, id="isnt"),
    ],
)
def test_split_comparison(text: str, parts: tuple[str, str, str] | None) -> None:
    assert split_comparison(text) == parts
