"""``fs whatif`` over a usage history whose last write a process left unfinished (a hot
journal beside it: killed mid-commit, or its disk failing as it committed and rolled back):
it exited 1 ("which fs whatif does not roll back") until the next writer rolled it back.
Now it rolls it back as SQLite means the next opener to, under the state lock, and reads
the committed rows; a user who may not write the store is refused in one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import refused
from tests.conftest import REPO, needs_linux_cc

HISTORY = REPO / "sample_configs" / "history.csv"
POOL = REPO / "sample_configs" / "pool.toml"
NOW = "2026-11-21T12:00:00Z"

#: A writer killed mid-transaction: its pages spill to the file, the journal stays hot.
_DIE_MID_WRITE = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 2")
conn.execute("BEGIN")
conn.execute("UPDATE records SET owner = 'half-written'")
os._exit(0)
"""


def _imported(tmp_path: Path, run: Callable[..., Any]) -> tuple[list[str], str]:
    """A state and history of the sample history; the whatif line and what it prints."""
    state = tmp_path / "state.json"
    args = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(HISTORY), *args).exit_code == 0
    line = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args]
    shown = run(*line)
    assert shown.exit_code == 0, shown.stderr
    store = tmp_path / "state.history.sqlite"
    subprocess.run([sys.executable, "-c", _DIE_MID_WRITE, str(store)], check=True)
    assert (tmp_path / "state.history.sqlite-journal").stat().st_size > 0
    return line, shown.stdout


def test_whatif_rolls_a_hot_journal_back(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set accountant.priority_halflife=3600 userprio --config pool.toml
    --state state.json --now 2026-11-21T12:00:00Z`` after a writer died mid-write: exit 0,
    the table it printed before the write began (the half-written rows rolled back), and
    no journal left."""
    line, shown = _imported(tmp_path, run)
    result = run(*line)
    assert (result.exit_code, result.stdout) == (0, shown), result.stderr
    assert not (tmp_path / "state.history.sqlite-journal").exists()


@needs_linux_cc
def test_a_reader_who_may_not_write_is_refused_in_one_line(
    readonly_shim: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The same line by a user to whom the folder is read only (``readonly_shim.c``): no
    rollback is possible, so one line, exit 2, naming who can roll it back; the files
    byte for byte."""
    line, _ = _imported(tmp_path, run)
    files = {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    env = {
        "LD_PRELOAD": str(readonly_shim),
        "READONLY_DIR": str(tmp_path),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    result = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", *line],
        env={**os.environ, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip

    class Shown:
        exit_code, stdout, stderr = result.returncode, result.stdout, result.stderr

    refused(Shown, "holds a write a process left unfinished (a hot journal), which this user "
            "may not roll back", "run any fs import as a user who may write it")  # fmt: skip
    assert {p: p.read_bytes() for p in files} == files
