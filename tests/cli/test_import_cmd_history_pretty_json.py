"""``fs import history`` of a JSON document printed over several lines (``squeue --json``,
a record pretty-printed): the file is named with what a history is, not its first line
called "not valid JSON", which the document is."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

SQUEUE = REPO / "tests" / "fixtures" / "slurm-26.05-local" / "ft1_running" / "squeue_json.txt"
CONFIG = REPO / "sample_configs" / "pool.toml"
NOW = "2026-12-02T13:16:23Z"


def test_squeue_json_is_named_as_no_history(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import history squeue.json said 'squeue.json:1: not valid JSON: Expecting property
    name enclosed in double quotes; it looks like squeue --json output: ...'."""
    dump = tmp_path / "squeue.json"
    dump.write_text(SQUEUE.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    state = tmp_path / "s.json"
    args = ["--config", str(CONFIG), "--state", str(state), "--now", NOW]
    result = run("import", "history", str(dump), *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {dump}: expected a usage history in JSON lines (one record per line), "
        "not one JSON object over several lines; it looks like squeue --json output: fs "
        "import squeue reads it\n"
    )
    assert not state.exists()
    pretty = tmp_path / "h.jsonl"
    pretty.write_text('{\n  "owner": "alice", "start": 1796217000, "end": 1796217100\n}\n')
    again = run("import", "history", str(pretty), *args)
    assert again.exit_code == 2
    assert again.stderr == (
        f"fs: error: {pretty}: expected a usage history in JSON lines (one record per line), "
        "not one JSON object over several lines\n"
    )
