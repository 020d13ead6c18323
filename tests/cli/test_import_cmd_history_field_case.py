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


def test_a_user_column_names_owner(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs import history h.csv of a header 'user,account,start,end' (sacct's and HTCondor's
    name for the owner) offered 'nice_user' (difflib's closest); it names 'owner'. So does
    a JSON line's "user" and a header's 'end_time' (the job object's name) 'end'."""
    config = write_config('[pool]\ndefaults = "current"\n')
    state = tmp_path / "state.json"
    cases = (
        ("h.csv", "user,account,start,end\nann,physics,2026-11-30T00:00:00Z,2026-11-30T12:00:00Z\n",
         "h.csv:1: unknown usage history field 'user' (did you mean 'owner'?)"),
        ("h.jsonl", '{"user": "ann", "start": "2026-11-30T00:00:00Z"}\n',
         "h.jsonl:1: unknown usage history field 'user' (did you mean 'owner'?)"),
        ("h.csv", "owner,start,end_time\nann,2026-11-30T00:00:00Z,2026-11-30T12:00:00Z\n",
         "h.csv:1: unknown usage history field 'end_time' (did you mean 'end'?)"),
    )  # fmt: skip
    for name, text, message in cases:
        history = tmp_path / name
        history.write_text(text, encoding="utf-8")
        result = run(
            "import", "history", str(history), "--config", str(config), "--state", str(state),
            "--now", "2026-12-01T12:00:00Z",
        )  # fmt: skip
        assert result.exit_code == 2
        assert result.stderr == f"fs: error: {tmp_path}/{message}\n"
    assert not state.exists()
