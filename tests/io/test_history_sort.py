"""The external merge sort of usage records (io/history_sort.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.io.history_sort import RUN_SIZE, sorted_by_start
from tests.cli.conftest import common, refused, write_pool


@given(st.lists(st.integers(0, 20), max_size=60), st.integers(1, 7))
def test_a_stable_sort_by_start_whatever_the_run_size(starts: list[int], run: int) -> None:
    records = [UsageRecord(owner=f"u{i}", start=float(s)) for i, s in enumerate(starts)]
    assert list(sorted_by_start(records, run_size=run)) == sorted(records, key=lambda r: r.start)


def test_every_field_survives_the_spill() -> None:
    rec = UsageRecord("a", 2.0, None, "g.a", True, "acc", "batch", "normal", "dg", 3, 4)
    out = list(sorted_by_start([rec, UsageRecord("b", 1.0, 5.0)], run_size=1))
    assert out == [UsageRecord("b", 1.0, 5.0), rec]


def test_a_full_temporary_folder_is_named(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import history`` of a history not in start order, with ``TMPDIR`` full, said
    ``fs: error: writing the output: No space left on device``: the output was fine, the
    sort's temporary file was not. It names the temporary folder now (exit 1, nothing
    written); /dev/full stands for the full folder."""
    env = write_pool(tmp_path)
    before = env["state"].read_bytes()
    lines = [f"alice,{1795000000 + i},{1795000600 + i},1" for i in range(RUN_SIZE, -1, -1)]
    history = tmp_path / "newest-first.csv"
    history.write_text("owner,start,end,slots\n" + "\n".join(lines) + "\n")
    monkeypatch.setattr(
        "fairshare_cli.io.history_sort.tempfile.TemporaryFile",
        lambda: open("/dev/full", "w+b"),  # noqa: SIM115 - closed by the sort
    )
    result = run("import", "history", str(history), *common(env))
    refused(result, "cannot sort the usage records by start in a temporary file in ", code=1)
    assert "No space left on device; free some space there, or set TMPDIR" in result.stderr
    assert env["state"].read_bytes() == before
    assert not (tmp_path / "state.history.sqlite").exists()
