"""``if`` conditions and blocks as HTCondor 25.0.13 reads them
(io/importers/condor_config_if.py; config.cpp's ``Test_config_if_expression`` and
``ConfigIfStack``), derived by hand from that source."""

from __future__ import annotations

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.condor_config_if import IfStack, condition_holds

SET = {"X": True, "EMPTY": False}


def is_set(name: str) -> bool | None:
    return SET.get(name.upper())


@pytest.mark.parametrize(
    ("text", "had_macros", "value"),
    [
        pytest.param("1", False, True, id="one"),
        pytest.param("0.0", False, False, id="zero-real"),  # atof: 0
        pytest.param("-2", False, True, id="negative"),
        pytest.param("TRUE", False, True, id="true"),
        pytest.param("no", False, False, id="crufty-no"),
        pytest.param("! t", False, False, id="not-crufty-t"),
        pytest.param("", True, False, id="macro-expanded-to-nothing"),
        pytest.param("!", True, True, id="not-nothing"),
        # 25.0.13 against the literal; a missing subminor is the running one's (13)
        pytest.param("version >= 9.0", False, True, id="version-ge"),
        pytest.param("version < 25.0.14", False, True, id="version-lt"),
        pytest.param("version == 25.0", False, True, id="version-eq-no-subminor"),
        pytest.param("version != 25.0.13", False, False, id="version-ne"),
        pytest.param("version > 25.1", False, False, id="version-gt"),
        pytest.param("defined X", False, True, id="defined"),
        pytest.param("defined EMPTY", False, False, id="defined-as-nothing"),
        pytest.param("defined 3", False, True, id="defined-number"),
        pytest.param("defined", False, False, id="defined-nothing"),
        # no value at all (not in the files, no built-in default): lookup_macro gives NULL;
        # then a boolean word is defined (is_crufty_bool), another name is not
        pytest.param("defined SPOOLS", False, False, id="defined-no-value"),
        pytest.param("defined yes", False, True, id="defined-crufty-word"),
        # defined use: the category (any case) is HTCondor 25.0's, and the template if named
        pytest.param("defined use ROLE:Execute", False, True, id="defined-use-template"),
        pytest.param("defined use role", False, True, id="defined-use-category"),
        pytest.param("defined use ROLE:", False, True, id="defined-use-colon"),
        pytest.param("defined use ROLE:Worker", False, False, id="defined-use-no-template"),
        pytest.param("defined use ROLES:Execute", False, False, id="defined-use-no-category"),
    ],
)
def test_conditions_hold(text: str, had_macros: bool, value: bool) -> None:
    assert condition_holds(text, had_macros, is_set, "cc:1") is value


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        pytest.param("2 == 2", "is not a valid if condition", id="complex"),
        pytest.param("Memory > 1", "is not a valid if condition", id="expression"),
        pytest.param("version >= 5.0", "the version literal is invalid", id="version-below-6"),
        pytest.param("version >= 9", "the version literal is invalid", id="version-no-minor"),
        pytest.param("defined use ROLE: Execute", "a blank inside it never", id="use-blank"),
        pytest.param("defined a:b", "is not read", id="defined-colon"),
    ],
)
def test_conditions_htcondor_stops_on_or_fs_cannot_decide(text: str, needle: str) -> None:
    with pytest.raises(InputError) as info:
        condition_holds(text, False, is_set, "cc:1")
    assert str(info.value).startswith("cc:1: ")
    assert needle in str(info.value)


def test_blocks_take_the_first_branch_that_holds() -> None:
    """if false / elif true / elif true / else: only the first elif is on; the block's
    else after a taken branch is off; a nested block in a branch not taken is off and
    its condition is not tested."""
    tested: list[str] = []

    def holds(condition: str, where: str) -> bool:
        tested.append(condition)
        return condition == "true"

    ifs = IfStack()
    states = []
    for keyword, condition in [
        ("if", "false"),
        ("elif", "true"),
        ("elif", "true"),
        ("if", "nested"),
        ("endif", ""),
        ("else", ""),
        ("endif", ""),
    ]:
        ifs.line(keyword, condition, "cc:1", holds)
        states.append(ifs.enabled())
    assert states == [False, True, False, False, False, False, True]
    assert tested == ["false", "true"]
    ifs.close("cc")


@pytest.mark.parametrize(
    ("lines", "needle"),
    [
        pytest.param([("else", "")], "else without matching if", id="else"),
        pytest.param([("endif", "")], "endif without matching if", id="endif"),
        pytest.param([("if", "t"), ("else", ""), ("else", "")], "else is not allowed after else"),
        pytest.param([("if", "t"), ("else", ""), ("elif", "t")], "elif is not allowed after else"),
    ],
)
def test_unmatched_blocks_are_refused(lines: list[tuple[str, str]], needle: str) -> None:
    ifs = IfStack()
    for keyword, condition in lines[:-1]:
        ifs.line(keyword, condition, "cc:1", lambda c, w: True)
    with pytest.raises(InputError, match=needle):
        ifs.line(*lines[-1], "cc:1", lambda c, w: True)
