"""A history import whose state write fails leaves the usage history as the state counts
it: ``fs import history``, ``condor-history`` and ``sacct`` committed their records to
``state.history.sqlite`` before the state was written, so a full disk for the state left
them there past the state's marks (never read, dropped by the next writer). Now the records
are committed once the new state is on the disk, just before its rename, and a rename that
fails after the commit drops them again."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.usage_store import store_path

CONFIG = """
[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 2
slots = 2
attributes = { Cpus = 1 }
partitions = ["batch"]
[partitions.batch]
default = true
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
"""


def _ads(owner: str, starts: list[int]) -> str:
    """``condor_history -json`` of completed one-CPU jobs of an hour from ``starts``."""
    ads = [
        {"Owner": owner, "JobStatus": 4, "RequestCpus": 1, "JobCurrentStartDate": start,
         "CompletionDate": start + 3600}
        for start in starts
    ]  # fmt: skip
    return json.dumps(ads)


#: Two batches of work, each an input of every history import: alice on the 20th, bob on
#: the 21st (the second starts after the first's last update).
INPUTS = {
    "history": (
        "h.csv",
        "owner,account,start,end\nalice,hep,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n",
        "owner,account,start,end\nbob,hep,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z\n"
        "bob,hep,2026-11-21T02:00:00Z,2026-11-21T03:00:00Z\n",
    ),
    "condor-history": (
        "h.json",
        _ads("alice", [1795132800]),
        _ads("bob", [1795219200, 1795226400]),
    ),
    "sacct": (
        "h.txt",
        "JobID|User|Account|Partition|AllocCPUS|Start|End\n"
        "1|alice|hep|batch|1|2026-11-20T00:00:00|2026-11-20T01:00:00\n",
        "JobID|User|Account|Partition|AllocCPUS|Start|End\n"
        "2|bob|hep|batch|1|2026-11-21T00:00:00|2026-11-21T01:00:00\n"
        "3|bob|hep|batch|1|2026-11-21T02:00:00|2026-11-21T03:00:00\n",
    ),
}
FIRST_NOW, NOW = "2026-11-20T12:00:00Z", "2026-11-21T12:00:00Z"


def _imported_once(tmp_path: Path, run: Callable[..., Any], kind: str) -> list[str]:
    """A state and store holding the first batch; the second import's command line."""
    name, first, second = INPUTS[kind]
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    config.write_text(CONFIG, encoding="utf-8")
    (tmp_path / name).write_text(first, encoding="utf-8")
    args = ["--config", str(config), "--state", str(state)]
    result = run("import", kind, str(tmp_path / name), *args, "--now", FIRST_NOW)
    assert result.exit_code == 0, result.stderr
    (tmp_path / name).write_text(second, encoding="utf-8")
    return ["import", kind, str(tmp_path / name), *args, "--now", NOW]


def _ids(state: Path) -> tuple[int, int]:
    """The last row ids of the store's two tables."""
    conn = sqlite3.connect(store_path(state))
    try:
        return tuple(  # type: ignore[return-value]
            conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {t}").fetchone()[0]
            for t in ("records", "ends")
        )
    finally:
        conn.close()


def _marks(state: Path) -> tuple[int, int]:
    marks = json.loads(state.read_text(encoding="utf-8"))["usage_history"]
    return marks["records"], marks["ends"]


@pytest.mark.parametrize("kind", list(INPUTS))
def test_a_full_disk_for_the_state_leaves_no_history_row_past_its_marks(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """``fs import KIND FILE --now 2026-11-21T12:00:00Z`` of two records onto a state that
    holds one, the disk full as the state is written: the store held 3 records beside
    marks of 1. Now: exit 1, one line, the state byte for byte and the store's rows the
    marks' (1 record)."""
    from fairshare_cli.io import atomic

    line = _imported_once(tmp_path, run, kind)
    state = tmp_path / "state.json"
    before = state.read_bytes()

    def disk_full(fd: int, text: object) -> None:
        os.close(fd)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write", disk_full)
    result = run(*line)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"fs: error: cannot write state file {state}: No space left on device\n"
    assert state.read_bytes() == before
    assert _ids(state) == _marks(state) == (1, 0)


@pytest.mark.parametrize("kind", list(INPUTS))
def test_a_state_rename_that_fails_after_the_commit_drops_the_rows_again(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The fault at the last step: the store committed, then the state's rename fails
    (here an I/O error). The committed rows are dropped again (the state's marks still say
    1 record), ``fs whatif`` replays the one record, and the same import then runs."""
    from fairshare_cli.io import atomic

    line = _imported_once(tmp_path, run, kind)
    state = tmp_path / "state.json"
    before = state.read_bytes()
    replace = os.replace

    def rename_fails(src: Any, dst: Any) -> None:
        if Path(dst) == state:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        replace(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "replace", rename_fails)
        result = run(*line)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"fs: error: cannot write state file {state}: Input/output error\n"
    assert state.read_bytes() == before
    assert _ids(state) == _marks(state) == (1, 0)
    whatif = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio",
                 *line[3:7], "--now", NOW)  # fmt: skip
    assert whatif.exit_code == 0, whatif.stderr
    again = run(*line)
    assert again.exit_code == 0, again.stderr
    assert _ids(state) == _marks(state) == (3, 0)


def test_a_full_disk_for_the_state_keeps_a_rebuilt_history_out(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import history --rebuild`` writes a new store beside the old one; with the disk
    full for the state, the new one is never put in place and the old one stays byte for
    byte, with no file left beside it."""
    from fairshare_cli.io import atomic

    line = _imported_once(tmp_path, run, "history")
    state = tmp_path / "state.json"
    before = (state.read_bytes(), store_path(state).read_bytes())

    def disk_full(fd: int, text: object) -> None:
        os.close(fd)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write", disk_full)
    result = run(*line, "--rebuild")
    assert result.exit_code == 1
    assert (state.read_bytes(), store_path(state).read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "h.csv", "pool.toml", "state.history.sqlite", "state.json", "state.json.lock"
    ]  # fmt: skip
