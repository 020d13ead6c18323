"""``fs userprio -constraint EXPR``, as HTCondor 25.0's ``user_prio.cpp`` applies it.

condor_userprio 25.0 gathers its ``-constraint`` expressions as ``GenericQuery`` custom ANDs
and uses them in ``PrintModularAds`` only: with ``-long -modular`` (and ``-af``) an ad is
printed when the and of them is true in it (``EvalExprBool``: true or a non-zero number).
The table and the single ``-long`` ad ignore them without a word; fs refuses them there.

The pool is the real 25.0 capture (``tests/fixtures/htcondor-25.0/flat_users``); the ads
kept are read off its ``condor_userprio.long_allusers.txt`` by hand: ``ResourcesUsed`` is 4
for ``group_ops.ops``, 5 for dan, 4 for cat, 1 for ann, 2 for ben, 1 for zed, 1 for eve, and
14 and 4 for the groups ``<none>`` and ``group_ops``; the submitters' ads come in the
capture's order: eve, ann, zed, cat, group_ops.ops, dan, ben.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_condor_fixtures import CAPTURE, import_pool

GROUPS = ["<none>", "group_ops"]


def _names(text: str) -> list[str]:
    return [line.split(" = ")[1].strip('"') for line in text.splitlines() if line[:7] == "Name = "]


@pytest.mark.parametrize(
    ("constraints", "names"),
    [
        pytest.param(
            ["ResourcesUsed >= 4 && !IsAccountingGroup"],
            ["cat@htc.test", "group_ops.ops@htc.test", "dan@htc.test"],
            id="submitters-using-4-or-more",
        ),
        pytest.param(
            ["IsAccountingGroup", "Priority > 1"], ["<none>", "group_ops"], id="two-are-anded"
        ),
        pytest.param(
            ["ResourcesUsed - 1"],
            [*GROUPS, "cat@htc.test", "group_ops.ops@htc.test", "dan@htc.test", "ben@htc.test"],
            id="non-zero-number-is-true",
        ),
        pytest.param(['Name == "nobody"'], [], id="none-kept"),
        pytest.param(["NoSuchAttribute"], [], id="undefined-drops-the-ad"),
    ],
)
def test_constraint_keeps_the_modular_ads_it_is_true_in(
    tmp_path: Path, run: Callable[..., Any], constraints: list[str], names: list[str]
) -> None:
    args = import_pool(tmp_path, run)
    every = run("userprio", "-l", "-allusers", "-modular", *args, "--now", CAPTURE).stdout
    pairs = [a for c in constraints for a in ("-constraint", c)]
    result = run("userprio", "-l", "-allusers", "-mod", *pairs, *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    assert _names(result.stdout) == names
    ads = ["\n" + ad.rstrip("\n") + "\n" for ad in every[1:].split("\n\n")]  # each after ""
    assert result.stdout == "".join(ad for ad in ads if _names(ad)[0] in names)


def test_constraint_filters_the_collectors_ads_too(tmp_path: Path, run: Callable[..., Any]) -> None:
    args = import_pool(tmp_path, run)
    result = run("userprio", "--long", "--modular", "--constraint", "ResourcesUsed == 1",
                 *args, "--now", CAPTURE)  # fmt: skip
    # the collector has ads for the submitters with jobs queued: ann and eve, not zed
    assert sorted(_names(result.stdout)) == ["ann@htc.test", "nice-user.eve@htc.test"]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param([], id="table"),
        pytest.param(["-l"], id="legacy-long"),
    ],
)
def test_constraint_where_condor_ignores_it_is_ignored(
    tmp_path: Path, run: Callable[..., Any], options: list[str]
) -> None:
    """``main`` of ``user_prio.cpp`` passes the constraint to ``PrintModularAds`` alone
    (``-long -modular``, ``-af``): the table and the legacy ``-l`` ad print as without it,
    even one that does not parse. fs refused it (exit 2, nothing printed)."""
    args = [*import_pool(tmp_path, run), "--now", CAPTURE]
    for expr in ("Priority > 1", "Priority >"):
        result = run("userprio", *options, "-constraint", expr, *args)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == run("userprio", *options, *args).stdout != ""
        assert result.stderr.splitlines(keepends=True)[0] == (
            "fs: note: -constraint is ignored here, as condor_userprio 25.0 ignores it: it "
            "filters only -long -modular and -af output; name the submitters to narrow the "
            "table\n"
        )


def test_constraint_with_json_is_refused(run: Callable[..., Any]) -> None:
    result = run("userprio", "-l", "-modular", "--json", "-constraint", "Priority > 1")
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: --constraint (-constraint) filters only")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_a_constraint_that_does_not_parse_is_one_line(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = import_pool(tmp_path, run)
    result = run("userprio", "-l", "-mod", "-c", "Priority >", *args, "--now", CAPTURE)
    assert result.exit_code == 2
    assert result.stderr == "fs: error: -constraint (Priority >): cannot parse ClassAd " \
        "expression '(Priority >)'\n"  # fmt: skip
