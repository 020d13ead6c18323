"""The usage history's index thread and the signals that stop an import."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.io.test_usage_store import _UNSORTED, _imported_once


def test_the_index_thread_leaves_ctrl_c_and_sigterm_to_the_main_thread(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel gives a process's signal to any of its threads that does not block it;
    Python runs the handler in the main thread, but a system call the signal lands in on
    the thread that builds the history's indexes is broken off (SQLite would report a disk
    error rather than the interrupt). That thread runs with SIGINT and SIGTERM blocked, so
    they land on the main thread, which stops the import; the main thread's own mask is
    as it was."""
    masks: list[set[int]] = []

    class Watched(threading.Thread):
        def run(self) -> None:
            masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
            super().run()

    _, args, _ = _imported_once(tmp_path, run)
    (tmp_path / "more.csv").write_text(_UNSORTED)
    before = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))
    monkeypatch.setattr(threading, "Thread", Watched)
    result = run("import", "history", str(tmp_path / "more.csv"), "--rebuild", *args)
    assert result.exit_code == 0, result.stderr
    assert len(masks) == 1
    assert {signal.SIGINT, signal.SIGTERM} <= masks[0]
    assert set(signal.pthread_sigmask(signal.SIG_BLOCK, [])) == before
