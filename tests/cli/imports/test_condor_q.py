"""``fs import condor-q`` takes only condor_q output (io/importers/condor_q.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.conftest import FIXTURES


def test_an_empty_file_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-q empty.txt`` once said "Imported 0 jobs" and rewrote the state."""
    pool = write_pool(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    before = pool["state"].read_bytes()
    result = run(
        "import",
        "condor-q",
        str(tmp_path / "empty.txt"),
        "--config",
        str(pool["config"]),
        "--state",
        str(pool["state"]),
        "--now",
        NOW,
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.txt'}: no job ads; expected condor_q -json or "
        "-long output (an empty queue prints nothing: then there is no job to import)\n"
    )
    assert pool["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("\n\n", "no job ads", id="blank"),
        pytest.param("[\n]\n", "no job ads", id="empty-json-array"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(  # (fs import condor-q of condor_status output named no import)
            OTHER_DUMPS["condor_status -json"],
            ":2: expected a job ad with ClusterId and ProcId; this is a slot ad: "
            "condor_status output is read by fs import condor-status",
            id="condor_status",
        ),
        pytest.param(
            OTHER_DUMPS["condor_userprio -l"],
            ":1: expected a job ad with ClusterId and ProcId; this is an accountant's ad: "
            "condor_userprio -l output is read by fs import condor-userprio",
            id="condor_userprio",
        ),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected 'Attr = value'", id="slurm.conf"),
    ],
)
def test_what_is_not_condor_q_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-q", content, expected)


def test_completed_jobs_left_in_the_queue_are_named_and_not_imported(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A queue that keeps completed jobs (``leave_in_queue``): the HTCondor 25.0 capture's
    queue with jobs 1.4, 2.6 and 2.8 completed (JobStatus 4). The negotiator never matches
    them and the accountant charged them when their claims closed, so they are neither
    queue nor claims: skipped and named, the 12 running ones claimed once each (on the
    slots condor_status shows claimed); their usage comes in with ``fs import
    condor-history`` once they leave the queue (which refuses this dump)."""
    pool, at = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    common = ["--state", str(state), "--now", at]
    dump = str(pool / "condor_config_val.dump.txt")
    assert run("import", "condor-config", dump, "--into", str(cfg)).exit_code == 0
    dump = str(pool / "condor_status.json")
    assert run("import", "condor-status", dump, "--into", str(cfg), *common).exit_code == 0
    ads = json.loads((pool / "condor_q.json").read_text(encoding="utf-8"))
    for ad in [ad for ad in ads if ad["JobStatus"] == 2][:3]:
        ad.update(JobStatus=4, CompletionDate=ad["JobCurrentStartDate"] + 30)
    (tmp_path / "q.json").write_text(json.dumps(ads, indent=1), encoding="utf-8")
    result = run("import", "condor-q", str(tmp_path / "q.json"), "--config", str(cfg), *common)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Imported 50 jobs from {tmp_path / 'q.json'} (38 idle, 12 running, 0 held) into "
        f"{state}; 0 new claim(s); ignored 3 removed/completed: 1.4, 2.6, 2.8\n"
    )
    jobs = json.loads(state.read_text(encoding="utf-8"))["jobs"]
    assert len(jobs) == 50 and {"1.4", "2.6", "2.8"}.isdisjoint(job["id"] for job in jobs)
