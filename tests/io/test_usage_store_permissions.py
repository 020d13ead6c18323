"""A usage history store that may not be written is refused by ``fs import history
--rebuild`` as a state that may not be written is (io/usage_store.py), not replaced by the
rename of a new file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "sample_configs" / "pool.toml"
HISTORY = REPO / "sample_configs" / "history.csv"
NOW = "2026-11-21T12:00:00Z"


def test_a_rebuild_refuses_a_store_without_write_permission(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``chmod 444 state.history.sqlite; fs import history --rebuild ...``: a state of mode
    0444 is refused (exit 1, nothing written), but the store was replaced by the rename
    of the new one (a folder the user may write lets a rename replace any file in it),
    with the state's mode: a store another user owns was taken over the same way. Now
    refused the state's way before any work: root in the words of a file no one may
    write, another user in those of a file read-only to them; both files unchanged."""
    state = tmp_path / "state.json"
    first = tmp_path / "first.csv"
    first.write_text("".join(HISTORY.read_text().splitlines(True)[:100]))
    common = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(first), *common).exit_code == 0
    store = tmp_path / "state.history.sqlite"
    store.chmod(0o444)
    before = (state.read_bytes(), store.read_bytes())
    result = run("import", "history", "--rebuild", str(HISTORY), *common)
    assert (result.exit_code, result.stdout) == (1, "")
    why = (
        "the file is read-only (mode 0444, root included); make it writable (chmod u+w) to "
        "let fs replace it"
        if os.geteuid() == 0
        else "Permission denied (the file is read-only to this user)"
    )
    assert (
        result.stderr
        == f"fs: error: cannot write usage history {store}: {why}; nothing was written\n"
    )
    assert (state.read_bytes(), store.read_bytes()) == before
    assert store.stat().st_mode & 0o777 == 0o444
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".lock") == [
        "first.csv",
        "state.history.sqlite",
        "state.json",
    ]
