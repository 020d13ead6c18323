"""``fs import history`` of a file whose header spells a field in other case (``OWNER``)
names the field to write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_a_header_in_capitals_names_the_field(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs import history h.csv of a header 'OWNER,start,end' said "unknown usage history
    field 'OWNER'" with no hint (difflib counts case against a match); it names 'owner'."""
    config = write_config('[pool]\ndefaults = "current"\n')
    history = tmp_path / "h.csv"
    history.write_text(
        "OWNER,start,end\nalice,2026-11-29T00:00:00Z,2026-11-29T01:00:00Z\n", encoding="utf-8"
    )
    state = tmp_path / "state.json"
    result = run(
        "import", "history", str(history), "--config", str(config), "--state", str(state),
        "--now", "2026-11-30T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {history}:1: unknown usage history field 'OWNER' (did you mean 'owner'?)\n"
    )
    assert not state.exists()
