"""``fs userprio judy,ops``: a NAME with no ``@`` is a list of short names.

condor_userprio (``main`` of ``user_prio.cpp``) joins the names without ``@`` into one
list and asks for the ads of ``StringListMember(splitusername(Name)[0], "judy,ops")``,
which splits that list at commas and blanks; a ``user@domain`` name is matched whole.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

TABLE = (
    "Last Priority Update: 11/21 12:00\n"
    "                    Effective     Real   Priority \n"
    "User Name            Priority   Priority  Factor  \n"
    "------------------ ------------ -------- ---------\n"
    "judy@example.org           0.61     0.61      1.00\n"
    "ops@example.org            0.63     0.63      1.00\n"
    "------------------ ------------ -------- ---------\n"
    "Number of users: 2                                \n"
)


@pytest.mark.parametrize("names", [["judy,ops"], ["judy, ops"], ["judy,", "ops"]])
def test_a_short_name_list_names_each_user(
    run: Callable[..., Any], tmp_path: Path, names: list[str]
) -> None:
    """fs listed nothing and noted 'no record judy,ops@example.org' (exit 0)."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "-prio", *names, "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == TABLE
    assert state.read_bytes() == before


def test_a_full_name_is_matched_whole(run: Callable[..., Any], tmp_path: Path) -> None:
    """``judy@example.org,ops`` is one ``Name =?= "..."``: no record has that name."""
    result = run("userprio", "-prio", "judy@example.org,ops",
                 "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(REPO / "sample_configs" / "sample-state.json"),
                 "--now", "2026-11-21T12:00:00Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (  # (the record the name starts with is named: a typo's hint)
        "fs: note: no record judy@example.org,ops (did you mean 'judy@example.org'?)\n"
    )
