"""``fs userprio -l -modular -constraint EXPR`` (and ``-af``) parses the constraints before
any ad is read, as ``PrintModularAds`` does before it prints (``Error:  could not parse
constraint``, whatever ads there are)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("shown", [["-l", "-modular"], ["-af", "Name"]], ids=["modular", "af"])
def test_a_constraint_that_does_not_parse_is_refused_with_no_ad_to_test(
    run: Callable[..., Any], tmp_path: Path, shown: list[str]
) -> None:
    """``fs userprio x@y -l -modular -constraint 'Priority >'`` noted 'no record x@y' and
    exited 0 (no ad was tested, so the constraint was never parsed)."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "x@y", *shown, "-constraint", "Priority >", "-constraint",
                 "IsAccountingGroup", "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: -constraint (Priority >) && (IsAccountingGroup): cannot parse ClassAd "
        "expression '(Priority >) && (IsAccountingGroup)'\n"
    )
    assert state.read_bytes() == before
