"""``fs whatif ... sprio`` of a job naming no partition where one side's config has no
default partition: that side leaves the job out and says so in a note, for the other side
may place it, and that is the change to compare.

``fs sprio`` refuses such a job, as sbatch does, and its message advises "set default =
true on one"; ``fs whatif --set partitions.batch.default=true sprio``, the way to try that
advice, was refused on its "before" side with the same message (exit 2).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, sprio_files
from tests.cli.test_sprio_default_partition import JOB, POOL, REFUSAL

Run = Callable[..., Any]
#: the partition batch made the default, on the line or in the config
DEFAULT = "partitions.batch.default=true"


def test_whatif_compares_a_job_the_current_config_refuses(tmp_path: Path, run: Run) -> None:
    """Before, the job is left out (noted); after, it is batch's: PRIORITY 500, by hand
    the PARTITION factor alone, batch's PriorityJobFactor 1 of the largest 2 (short's) ×
    weight 1000 (``_get_priority_internal``; the pool weighs nothing else)."""
    files = sprio_files(tmp_path, [JOB], POOL)
    refused(run("sprio", *files), f"jobs.json: {REFUSAL}")
    res = run("whatif", "--set", DEFAULT, "sprio", *files)
    assert res.exit_code == 0, res.stderr
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert lines[3].split() == ["1/batch", "│", "new", "(1)", "│", "-", "->", "500"]
    assert lines[4:] == [
        "0 rows changed, 0 moved, 1 appeared, 0 left (2 changes)",
        f"Note: before: left out {REFUSAL}",
    ]
    doc = json.loads(run("whatif", "--set", DEFAULT, "sprio", "--json", *files).stdout)
    assert doc["before"] == [] and [r["priority"] for r in doc["after"]] == [500]
    assert doc["notes"] == [f"before: left out {REFUSAL}"]


def test_whatif_leaves_out_on_the_after_side_a_job_the_change_refuses(
    tmp_path: Path, run: Run
) -> None:
    """``--set partitions.batch.default=false`` where batch was the default: the job of
    the state's queue goes (500 -> -), noted on the after side."""
    config = POOL.replace("[partitions.batch]\n", "[partitions.batch]\ndefault = true\n")
    files = sprio_files(tmp_path, [], config)[:4]
    res = run("submit", "--owner", "alice", "--account", "hep", *files, "--now", NOW)
    assert res.exit_code == 0, res.stderr
    res = run("whatif", "--set", "partitions.batch.default=false", "sprio", *files, "--now", NOW)
    assert res.exit_code == 0, res.stderr
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert lines[3].split() == ["1/batch", "│", "gone", "(was", "1)", "│", "500", "->", "-"]
    assert lines[-1] == f"Note: after: left out {REFUSAL}"
