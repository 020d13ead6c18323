"""A usage history store (``<state>.history.sqlite``) that is no file: a named pipe, a
folder, a link to a device. fs whatif waited for ever on a pipe (SQLite opens it read
only: the open waits for a writer); the writers said 'disk I/O error' (exit 1) or, on
/dev/zero, 'the disk failed to write ... free some space'. Each is now one line, exit 2,
saying what the path is, the state byte for byte as it was."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused, write_pool

HISTORY = "owner,account,start,end\nalice,hep,2026-11-21T08:00:00Z,2026-11-21T10:00:00Z\n"


def _store(path: Path, kind: str) -> None:
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(os.devnull)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("kind", ["pipe", "folder", "device"])
@pytest.mark.parametrize(
    "line",
    [
        ["whatif", "--set", "accountant.priority_halflife=7200", "userprio"],
        ["import", "history", "{history}"],
        ["import", "history", "{history}", "--rebuild"],
    ],
)
def test_a_store_that_is_no_file_is_refused(
    kind: str, line: list[str], tmp_path: Path, run: Callable[..., Any]
) -> None:
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    store = tmp_path / "state.history.sqlite"
    _store(store, kind)
    before = env["state"].read_bytes()
    result = run(*[w.format(history=history) for w in line], *common(env))
    refused(result, f"usage history {store} is not a regular file (a pipe, a device or a")
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    "line",
    [
        ["whatif", "--set", "accountant.priority_halflife=7200", "userprio"],
        ["import", "history", "{history}"],
        ["import", "history", "{history}", "--rebuild"],
    ],
)
def test_a_store_that_is_a_loop_of_links_is_refused(
    line: list[str], tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A store that is a loop of symbolic links: fs whatif crashed (``RuntimeError: Symlink
    loop`` from resolving its path, a traceback); the imports took it for no store and
    renamed a new one over the link."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    store = tmp_path / "state.history.sqlite"
    store.symlink_to(tmp_path / "loop")
    (tmp_path / "loop").symlink_to(store)
    before = env["state"].read_bytes()
    result = run(*[w.format(history=history) for w in line], *common(env))
    refused(result, f"usage history {store} cannot be read: Too many levels of symbolic links")
    assert env["state"].read_bytes() == before
    assert store.is_symlink() and (tmp_path / "loop").is_symlink()


@pytest.mark.parametrize(
    "line",
    [
        ["negotiate"],
        ["whatif", "--set", "accountant.priority_halflife=7200", "userprio"],
        ["import", "sacct", "{sacct}"],
        ["import", "history", "{history}"],
    ],
)
def test_a_store_that_is_a_link_to_nothing_is_refused_by_readers_and_writers(
    line: list[str], tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A store that is a symbolic link to a file not there (a disk not mounted): fs
    negotiate, committing alice's match, said 'unable to open database file' (exit 1) and
    left a ``.kept`` link; fs whatif replayed no history; the imports renamed a new store
    over the link. All four now refuse it, the link and the state as they were."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    sacct = tmp_path / "sacct.txt"
    sacct.write_text("JobID|User|Account|Partition|QOS|Start|End|AllocCPUS|State\n")
    store = tmp_path / "state.history.sqlite"
    store.symlink_to(tmp_path / "gone" / "history.sqlite")
    before = env["state"].read_bytes()
    words = [w.format(history=history, sacct=sacct) for w in line]
    result = run(*words, *common(env))
    refused(result, f"usage history {store} is a symbolic link to nothing ({tmp_path}/gone/")
    assert env["state"].read_bytes() == before
    assert store.is_symlink() and sorted(
        p.name for p in tmp_path.iterdir() if "sqlite" in p.name
    ) == ["state.history.sqlite"]


def test_a_store_that_is_a_link_to_a_file_stays_a_link_when_rebuilt(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import history h.csv --rebuild`` with the store a symbolic link to
    ``disk/h.sqlite``: the new store was renamed over the link, which became a file of its
    own (the file it named kept the old rows, and fs whatif no longer read it). Now the
    new store replaces the file the link names, and the link stays, as a state's does."""
    env = write_pool(tmp_path)
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    (tmp_path / "disk").mkdir()
    first = run("import", "history", str(history), *common(env))
    assert first.exit_code == 0, first.stderr
    store = tmp_path / "state.history.sqlite"
    store.rename(tmp_path / "disk" / "h.sqlite")
    store.symlink_to(tmp_path / "disk" / "h.sqlite")
    again = run("import", "history", str(history), "--rebuild", *common(env))
    assert again.exit_code == 0, again.stderr
    assert store.is_symlink() and store.resolve() == tmp_path / "disk" / "h.sqlite"
    assert sorted(p.name for p in (tmp_path / "disk").iterdir()) == ["h.sqlite"]
    whatif = ["whatif", "--set", "accountant.priority_halflife=7200", "userprio"]
    compared = run(*whatif, *common(env))
    assert compared.exit_code == 0, compared.stderr
    assert "no usage history is kept" not in compared.stdout + compared.stderr
