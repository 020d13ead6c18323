"""``fs negotiate`` of jobs whose attributes are equal as numbers but of other types
(``1``, ``1.0``, ``true``): the schedd's autocluster signature is each significant
attribute's unparsed text (``autocluster.cpp``: ``key = value`` lines, the value through
the ClassAd unparser), so ``Flag = 1`` and ``Flag = true`` are two autoclusters. The
jobs file's reader and the negotiator's autoclusters kept them as one, and a job of the
second took the first one's value."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 4
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
"""


@pytest.mark.parametrize(("first", "second"), [(1, True), (1, 1.0), (True, 1.0)])
def test_a_job_keeps_the_type_of_its_attribute(
    tmp_path: Path, write_config: Callable[..., Path], run: Any, first: Any, second: Any
) -> None:
    """Two jobs of one cluster asking ``MY.Flag =?= <second>`` (``=?=`` compares types
    too): only the job whose Flag is of that type matches; 1.0 is unmatched."""
    want = json.dumps(second)  # (true, 1.0)
    jobs = [
        {"id": f"1.{i}", "owner": "a", "requirements": f"MY.Flag =?= {want}",
         "attributes": {"Flag": flag}}
        for i, flag in enumerate((first, second))
    ]  # fmt: skip
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    cfg = write_config(POOL)
    result = run(
        "negotiate", "--dry-run", "--json", "--config", str(cfg),
        "--state", str(tmp_path / "state.json"), "--now", "2026-11-21T12:00:00Z",
        "--jobs-file", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.1"]
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [("1.0", "no_matching_slot")]
