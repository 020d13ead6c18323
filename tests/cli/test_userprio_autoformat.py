"""``fs userprio -af[:LETTERS] EXPR...``, as HTCondor 25.0's condor_userprio prints it.

``parse_autoformat_args`` takes the expressions up to the next dash argument and
``PrintModularAds`` prints one line per ad of the ``-long -modular`` list (the negotiator's
one ad split per record with ``-allusers``; ``-constraint`` filters it): ``%v`` of each
value (a string as is, else unparsed: ``true``, ``14``, ``21853460.0``), a space between
(``AttrListPrintMask::SetAutoSep``). The pool is the real 25.0.14 capture; the expected
values are read off its ``condor_userprio.long_allusers.txt``, record by record.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_condor_fixtures import CAPTURE, POOL, import_pool


def _captured() -> list[dict[str, str]]:
    """The capture's numbered ad, one dict of attribute texts per record, in number order."""
    ads: dict[int, dict[str, str]] = {}
    text = (POOL / "condor_userprio.long_allusers.txt").read_text()
    for name, number, value in re.findall(r"^([A-Za-z]+?)(\d+) = (.*)$", text, re.M):
        ads.setdefault(int(number), {})[name] = value
    return [ads[n] for n in sorted(ads)]


def test_af_prints_each_record_of_the_negotiators_ad(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``-allusers -af Name Priority ResourcesUsed IsAccountingGroup``: nine lines in the
    ad's numbers, the name unquoted (``%v``), the rest as the ad prints them. fs refused
    -af."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-allusers", "-af", "Name", "Priority", "ResourcesUsed",
                 "IsAccountingGroup", *args, "--now", CAPTURE)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    keys = ("Priority", "ResourcesUsed", "IsAccountingGroup")
    want = [" ".join([ad["Name"].strip('"'), *(ad[k] for k in keys)]) for ad in _captured()]
    assert result.stdout.splitlines() == want
    assert result.stdout.splitlines()[0] == "<none> 21853460.0 14 true"


@pytest.mark.parametrize(
    ("letters", "line"),
    [
        pytest.param("lV,", 'Name = "ben@htc.test", ResourcesUsed = 2', id="label-quoted-comma"),
        pytest.param("t", "ben@htc.test\t2", id="tab"),
        pytest.param("n", "ben@htc.test\n 2", id="newline-then-the-space"),
        pytest.param("g", "\nben@htc.test2", id="g-newline-before-no-space"),
        pytest.param("gt", "\nben@htc.test\t2", id="t-after-g-puts-the-tab-back"),
        pytest.param("lr", 'Name = "ben@htc.test" ResourcesUsed = 2', id="raw-labelled"),
    ],
)
def test_af_letters(tmp_path: Path, run: Callable[..., Any], letters: str, line: str) -> None:
    """``-af:LETTERS`` of the last record (ben, number 9, ResourcesUsed9 = 2): ``l`` puts
    ``EXPR = `` first, ``V`` and ``r`` quote the string, ``,`` or ``n`` follow each value
    but the last (the space still comes before the next), ``t`` separates with a tab, ``g`` puts a newline before the ad and
    nothing between its values; each ad ends with a newline."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-allusers", f"-af:{letters}", "Name", "ResourcesUsed",
                 "-constraint", 'Name == "ben@htc.test"', *args, "--now", CAPTURE)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == line + "\n"


def test_af_evaluates_expressions(tmp_path: Path, run: Callable[..., Any]) -> None:
    """An expression is evaluated in each ad: ben's ResourcesUsed 2 * 3 = 6; a name the
    ad lacks is ``undefined`` (``-af:r`` too), a division by zero ``error``."""
    args = import_pool(tmp_path, run)
    ben = ["-constraint", 'Name == "ben@htc.test"', *args, "--now", CAPTURE]
    result = run("userprio", "-allusers", "-af", "ResourcesUsed * 3", "NoSuch", "1/0", *ben)
    assert result.stdout == "6 undefined error\n"
    assert run("userprio", "-allusers", "-af:r", "NoSuch", *ben).stdout == "undefined\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param(["-af"], "needs at least one attribute", id="no-expression"),
        pytest.param(["-af:j", "Name"], "job ids (j)", id="job-ids"),
        pytest.param(["-af", "SubmitterLimit"], "fs does not hold SubmitterLimit", id="not-held"),
        pytest.param(["-af", "Name", "--json"], "leave out --json", id="json"),
        pytest.param(["-af:r", "Priority * 2"], "not expressions", id="raw-expression"),
    ],
)
def test_af_refusals(tmp_path: Path, run: Callable[..., Any], args: list[str], needle: str) -> None:
    """Refused in one line, exit 2, nothing on stdout."""
    pool = import_pool(tmp_path, run)
    result = run("userprio", "-allusers", *args, *pool, "--now", CAPTURE)
    assert result.exit_code == 2 and result.stdout == ""
    assert needle in result.stderr
