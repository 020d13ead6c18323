"""``fs userprio -af EXPR...`` checks each expression before anything is read or printed,
as condor_userprio's ``parse_autoformat_args`` does while it reads its arguments
(``Error: Invalid expression``): a refused line prints its one error line alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("af", "error"),
    [
        pytest.param(
            ["-af", "<none>"], "<none>: cannot parse ClassAd expression '<none>'", id="parse"
        ),
        pytest.param(
            ["-af:r", "Priority*2"],
            "-af:r Priority*2: fs prints attributes unevaluated, not expressions",
            id="raw-expression",
        ),
    ],
)
def test_a_bad_expression_beside_an_unknown_name_is_the_one_line(
    run: Callable[..., Any], tmp_path: Path, af: list[str], error: str
) -> None:
    """``fs userprio x@y -af '<none>'`` printed 'fs: note: no record x@y' before the error."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "x@y", *af, "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {error}\n"
    assert state.read_bytes() == before


def test_a_list_is_printed_unparsed(run: Callable[..., Any], tmp_path: Path) -> None:
    """``-af '{1,2}'``: the list value is unparsed as ``ClassAdUnParser`` writes one
    (``{ `` its elements, unevaluated, joined by ``,`` then `` }``), as ``%v`` prints any
    value that is no string. fs refused it as it printed ('a list value is not modelled')."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
              "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    result = run("userprio", "-af", "{1,2}", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert set(result.stdout.splitlines()) == {"{ 1,2 }"}
    mixed = run("userprio", "-af:V", '{1+1,"a",Name,{},2.5,undefined}', "Name", *common)
    assert (mixed.exit_code, mixed.stderr) == (0, "")
    first = mixed.stdout.splitlines()[0]
    assert first == '{ 1 + 1,"a",Name,{  },2.5,undefined } "group_chemistry"'
    assert state.read_bytes() == before
