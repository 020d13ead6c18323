"""A usage history store whose rows another program changed to values of types fs never
writes (io/usage_rows.py): ``fs whatif`` replaying it crashed (a TypeError traceback);
now one line naming the store, the row and the column, exit 2."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        ("UPDATE records SET start = 'nan' WHERE id = 1", "record 1: start"),
        ("UPDATE records SET slots = 'many' WHERE id = 3", "record 3: slots"),
        ("UPDATE records SET owner = X'FFFE' WHERE id = 8", "record 8: owner"),
        ("UPDATE records SET end = 'soon' WHERE id = 9", "record 9: end"),
        ("INSERT INTO ends (job, end) VALUES ('x', 'soon')", "end row 1: end"),
    ],
)
@pytest.mark.parametrize("view", [["userprio"], ["sshare", "-a"]])
def test_a_row_of_a_type_fs_never_writes_is_refused(
    tmp_path: Path, run: Callable[..., Any], sql: str, says: str, view: list[str]
) -> None:
    state = tmp_path / "state.json"
    store = tmp_path / "state.history.sqlite"
    shutil.copy(SAMPLE / "sample-state.json", state)
    shutil.copy(SAMPLE / "sample-state.history.sqlite", store)
    with sqlite3.connect(store) as conn:
        conn.execute(sql)
    conn.close()
    if "ends" in sql:  # (the state's marks count the new end row)
        text = state.read_text(encoding="utf-8").replace('"ends": 0', '"ends": 1')
        state.write_text(text, encoding="utf-8")
    before = (state.read_bytes(), store.read_bytes())
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", *view,
        "--config", str(SAMPLE / "pool.toml"), "--state", str(state),
        "--now", "2026-11-21T13:00:00Z",
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: usage history {store}: {says} holds a value of a type fs never writes "
        "(another program changed the file); move it aside to start a new history\n"
    )
    assert (state.read_bytes(), store.read_bytes()) == before
