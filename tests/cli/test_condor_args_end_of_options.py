"""``fs userprio -- ARG...``: after ``--`` every argument is a name as typed, not one of
condor_userprio's options translated to fs's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def test_a_dash_name_after_the_double_dash_is_refused_as_typed(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs userprio -- -allusers`` was refused naming ``'--allusers'``, which was not typed
    (``-allusers`` was translated to ``--allusers`` and then read as a name)."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run("userprio", "--config", str(REPO / "sample_configs" / "pool.toml"),
                 "--state", str(state), "--now", "2026-11-21T12:00:00Z", "--", "-allusers")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: NAME '-allusers': condor_userprio reads a name that starts with a letter "
        "(a user, user@domain or an accounting group), or <none>\n"
    )
    assert state.read_bytes() == before
