"""The name rule's blank check: ``isprintable`` and no space is every ``isspace`` blank."""

from __future__ import annotations

import sys

from fairshare_cli.core.names import name_problem


def test_every_blank_but_the_space_is_unprintable() -> None:
    """``name_problem`` looks for ``" "`` only; every other ``str.isspace`` character
    (tab, NBSP, the em space, the line separator ...) fails ``isprintable``."""
    blanks = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert len(blanks) > 20
    assert [b for b in blanks if b.isprintable()] == [" "]
    for blank in blanks:
        assert name_problem(f"a{blank}b") is not None, repr(blank)


def test_good_names_pass() -> None:
    assert name_problem("alice") is None
    assert name_problem("alice@example.org", submitter=True) is None
    assert name_problem("ünïcødé-ok_1.2") is None
