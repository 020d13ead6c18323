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
    """Ctrl-C some 40 ms into ``fs import history`` now and then reached the thread that
    builds the history's indexes, where it broke off SQLite's writes: the import ended
    with exit 1 and "the disk failed to write (an I/O error)" instead of the interrupt's
    one line and 130. The thread now runs with SIGINT and SIGTERM blocked (the kernel
    then gives them to the main thread, which stops the import), and the main thread's
    own mask is as it was."""
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
