"""DIRAC's ``.cfg`` syntax, read as ``diraccfg.CFG.loadFromBuffer`` and ``getOption`` read it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.cfg_syntax import (
    CfgSection,
    cfg_bool,
    cfg_int,
    cfg_list,
    merge_cfg,
    merge_paths,
    parse_cfg,
    refuse_read_through,
)


def parse(text: str) -> CfgSection:
    return parse_cfg(text.splitlines(), "t.cfg")


def test_sections_options_comments_and_appends() -> None:
    root = parse(
        """
        # a comment line
        Registry
        {
          Groups {
            lhcb_user
            {
              Properties = NormalUser
              Properties += JobSharing
              JobShare = 500 # not a comment for DIRAC
              Expr = a = b
              JobShare = 700
            }
          }
        }
        """
    )
    group = root.section("Registry/Groups/lhcb_user")
    assert group is not None
    assert group.text("Properties") == "NormalUser, JobSharing"
    # The last assignment wins and keeps the line that set it.
    assert group.text("JobShare") == "700"
    assert group.line_of("JobShare") == 12
    # Everything after the first '=' is the value.
    assert group.text("Expr") == "a = b"
    assert root.text("Registry/Groups/lhcb_user/Properties") == "NormalUser, JobSharing"
    assert root.sections() == ["Registry"]


def test_name_on_the_line_before_the_brace_keeps_a_trailing_hash() -> None:
    """A ``#`` after a name is part of the name: only a line starting with ``#`` is a comment."""
    root = parse("Groups\n{\n  lhcb_user  # all users\n  {\n    JobShare = 5\n  }\n}\n")
    groups = root.section("Groups")
    assert groups is not None
    assert groups.sections() == ["lhcb_user  # all users"]


def test_path_names_reach_into_existing_sections() -> None:
    root = parse("A\n{\n}\nA/B\n{\n  x = 1\n}\nA/y = 2\n")
    assert root.text("A/B/x") == "1"
    assert root.text("A/y") == "2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("A\n{\n}\n}\n", "t.cfg:4: '}' closes a section that was never opened", id="close"),
        pytest.param("A\n{\n  x = 1\n", "t.cfg:3: the file ends inside section 'A' (opened on line 2)", id="open"),
        pytest.param("A\n{\n}\nA\n{\n}\n", "t.cfg:5: section 'A' is opened again (first on line 2)", id="twice"),
        pytest.param("x += 1\n", "t.cfg:1: 'x += ...' appends to an option not declared before", id="append"),
        pytest.param(" = 1\n", "t.cfg:1: expected a name before '{' or '='", id="noname"),
        pytest.param("{\n}\n", "t.cfg:1: expected a name before '{' or '='", id="nosection"),
        pytest.param("A/B\n{\n}\n", "t.cfg:2: 'A/B' names a section path whose parent", id="path"),
    ],
)  # fmt: skip
def test_what_dirac_refuses(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse(text)
    assert str(err.value).startswith(message)


def test_an_option_under_a_path_dirac_does_not_find_is_dropped_with_a_note() -> None:
    """``CFG.setOption("A/x")`` looks the parent up (``getRecursive(path, -1)``); not found,
    it returns an error that ``loadFromBuffer`` ignores: the option is gone, the rest read.
    The same with an option on the way (``B/c/x/y``: ``__recurse`` needs a section there); an
    option as the parent itself (``B/c/x``) makes ``setOption`` raise. fs refused the file."""
    root = parse("A/x = 1\nB\n{\n  c = 2\n}\nB/c/x/y = 3\nB/y = 4\n/ = 5\n")
    assert root.options() == []
    assert root.text("B/c") == "2"
    assert root.text("B/y") == "4"
    assert root.dropped == [
        f"t.cfg:{n}: '{name}' names a path whose parent section does not exist; DIRAC "
        "drops the option unseen"
        for n, name in ((1, "A/x"), (6, "B/c/x/y"), (8, "/"))
    ]
    with pytest.raises(InputError) as err:
        parse("B\n{\n  c = 2\n}\nB/c/x = 3\n")
    assert str(err.value).startswith("t.cfg:5: 'B/c/x' names a section path whose parent")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(None, 1000, id="absent"),
        pytest.param("250", 250, id="int"),
        pytest.param(" -5 ", -5, id="negative"),
        pytest.param("0", 0, id="zero"),
        pytest.param("+7", 7, id="plus"),
        pytest.param("1_000", 1000, id="underscore"),  # Python's int() accepts it, so DIRAC does
        pytest.param("250.5", 1000, id="float"),
        pytest.param("1e3", 1000, id="exponent"),
        pytest.param("500 # half", 1000, id="comment"),
        pytest.param("abc", 1000, id="text"),
        pytest.param("", 1000, id="empty"),
    ],
)
def test_int_reads_fall_back_to_the_default(text: str | None, expected: int) -> None:
    assert cfg_int(text, 1000) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("yes", True), ("Y", True), ("TRUE", True), ("1", True), ("on", False), ("no", False),
     ("true # comment", False), (None, False)],
)  # fmt: skip
def test_bool_reads(text: str | None, expected: bool) -> None:
    assert cfg_bool(text, False) is expected


def test_list_reads_drop_blanks() -> None:
    assert cfg_list(" NormalUser , ,JobSharing,", []) == ["NormalUser", "JobSharing"]
    assert cfg_list(None, ["x"]) == ["x"]


def test_merge_later_options_win_and_sections_merge() -> None:
    base = parse("a = 1\nb = 2\nS\n{\n  x = 1\n  y = 1\n}\nT\n{\n}\n")
    over = parse("b = 3\nS\n{\n  y = 2\n}\nU\n{\n}\n")
    merged = merge_cfg(base, over)
    assert merged.options() == ["a", "b"]
    assert merged.text("b") == "3"
    assert merged.text("S/x") == "1"
    assert merged.text("S/y") == "2"
    assert merged.sections() == ["S", "T", "U"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "Defaults\n{\n  S\n  {\n  }\n}\nvo\n{\n  S = 1\n}\n",
            "t.cfg:9: /Operations/vo/S is an option but /Operations/Defaults/S a section",
            id="option-over-section",
        ),
        pytest.param(
            "Defaults\n{\n  A\n  {\n    S = 1\n  }\n}\nvo\n{\n  A\n  {\n    S\n    {\n"
            "    }\n  }\n}\n",
            "t.cfg:13: /Operations/vo/A/S is a section but /Operations/Defaults/A/S an option",
            id="section-over-option-below",
        ),
        pytest.param(
            "Defaults\n{\n}\nvo = x\n",
            "t.cfg:4: /Operations/vo is an option, not a section",
            id="path-is-an-option",
        ),
    ],
)
def test_merging_an_option_with_a_section_fails_as_dirac_fails(text: str, message: str) -> None:
    """``CFG.mergeWith`` creates the section after the option of the same name (or the
    other way round) and raises ``KeyError: 'S key already exists'``; ``Operations``
    ``__getCache`` merges a path that is a non-empty option as if it were a section and
    fails on the text. Either way every value the helper reads fails."""
    with pytest.raises(InputError) as caught:
        merge_paths(parse(text), ["Defaults", "vo"], "t.cfg", "Operations")
    assert str(caught.value).startswith(message)


def test_merging_skips_a_missing_path_and_an_empty_option() -> None:
    """``if pathCFG:``: an empty option is no section to merge, and no failure."""
    root = parse("Defaults\n{\n  S\n  {\n    x = 1\n  }\n}\nvo =\n")
    assert merge_paths(root, ["Defaults", "vo", "other"], "t.cfg", "Operations").text("S/x") == "1"


@pytest.mark.parametrize("value", ["off", ""])
def test_an_option_dirac_reads_through_is_refused(value: str) -> None:
    """``CFG.getOption("JobScheduling/EnableSharesCorrection")`` takes the option's text as
    the next level and fails its ``assert isinstance(dataD, CFG)``, an empty text too."""
    root = parse(f"JobScheduling = {value}\nJobDescription\n{{\n}}\n")
    with pytest.raises(InputError) as caught:
        refuse_read_through(root, ["JobDescription", "JobScheduling"], "t.cfg", "Operations")
    assert str(caught.value) == (
        "t.cfg:1: JobScheduling in /Operations is an option, not a section: DIRAC reads "
        "JobScheduling/... through it (CFG.getOption asserts a section there) and fails on "
        "every such value; make it a section"
    )
    refuse_read_through(root, ["JobDescription", "Pilot", "JobDescription/x"], "t.cfg", "O")


names = st.from_regex(r"[A-Za-z][A-Za-z0-9_.]{0,8}", fullmatch=True)
values = st.from_regex(r"[A-Za-z0-9_., -]{0,12}", fullmatch=True).map(str.strip)


@given(st.dictionaries(names, st.dictionaries(names, values, max_size=4), max_size=4))
def test_written_sections_read_back(tree: dict[str, dict[str, str]]) -> None:
    """What a DIRAC-style writer puts out (one statement a line) parses back unchanged."""
    lines: list[str] = []
    for section, options in tree.items():
        lines += [section, "{"]
        lines += [f"  {k} = {v}" for k, v in options.items()]
        lines.append("}")
    root = parse_cfg(lines, "t.cfg")
    assert root.sections() == list(tree)
    for section, options in tree.items():
        for key, value in options.items():
            assert root.text(f"{section}/{key}") == value
