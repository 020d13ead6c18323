"""``fs whatif --set K=V VIEW`` whose replay of the usage history reads a malformed
accountant record the view itself never reads (``sprio``, ``sshare``, ``negotiate``):
a SectionError traceback (exit 1), the state file unnamed. Now one line naming the state
file and the record, exit 2 (cli/context.load_env)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
RECORD = "group_chemistry.lab.grace@example.org"


@pytest.mark.parametrize(
    ("record", "says"),
    [
        pytest.param({RECORD: {"accumulated_usage": "x"}},
                     f"accountant.records.{RECORD}.accumulated_usage: expected a finite number",
                     id="bad-value"),
        pytest.param({"a\ud800@example.org": {}},
                     "accountant.records.a\\ud800@example.org: expected a name of Unicode text",
                     id="bad-name"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("view", [["sprio"], ["sshare", "-a"], ["negotiate"], ["taskqueues"]])
def test_a_bad_record_the_replay_reads_is_one_line(
    tmp_path: Path, run: Callable[..., Any], record: dict[str, Any], says: str, view: list[str]
) -> None:
    state = tmp_path / "state.json"
    doc = json.loads((SAMPLE / "sample-state.json").read_text(encoding="utf-8"))
    records = doc["accountant"]["records"]
    for name, change in record.items():
        records[name] = {**records.get(name, {}), **change}
    state.write_text(json.dumps(doc), encoding="utf-8")
    shutil.copy(SAMPLE / "sample-state.history.sqlite", tmp_path / "state.history.sqlite")
    before = state.read_bytes()
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", *view,
        "--config", str(SAMPLE / "pool.toml"), "--state", str(state),
        "--now", "2026-11-21T13:00:00Z",
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: state file {state}: {says}\n"
    assert state.read_bytes() == before
