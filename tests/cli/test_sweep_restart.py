"""``fs sweep SPEC --restart``: a sweep folder started afresh.

A point that failed on a bad history line past what the check before the run reads (the
first 1,024 records) left a folder whose manifest refused the rerun of the mended spec as
"another sweep", naming no way on but removing the folder. Now the refusal counts the
points done there and names ``--restart``, which removes the folder's point results (and
nothing else) and runs the spec afresh; a resumed sweep still keeps its results.

A failed point is also kept as failed (``points/NNNNNN.error``): ``fs sweep run-point DIR N``
said only the cause, without the ``point N:`` the local engine puts first, and
``fs sweep collect`` of a folder whose points had failed printed an empty table, "3 of 3
points have no result yet" and exit 0. Now collect names each failed point and its cause,
prints the points done, and exits with the first failed point's code (2: bad input,
docs/exit-codes.md), as the sweep that ran them did.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import CONFIG  # (the tiny pool: 6 slots, groups a and b)

WORKLOAD = [
    {"id": "1.0", "count": 12, "owner": "alice", "accounting_group": "group_a.alice", "run_time": 1200},
    {"id": "2.0", "count": 12, "owner": "bob", "accounting_group": "group_b.bob", "run_time": 600},
]  # fmt: skip

SPEC = """\
config = "pool.toml"
workload = "work.json"
history = "{history}"
now = "2026-11-20T00:00:00Z"
until = "1:00:00"
cycle = "600"

[[axis]]
key = "accountant.priority_halflife"
values = [600, 3600]
"""

#: Past the first batch of 1,024 records, which the check before the run reads.
LINES = 1100


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """A spec whose history's last line holds ``slots = eight``; ``good.csv`` beside it
    is the same history mended."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    rows = [
        f"alice,group_a.alice,2026-11-19T{k // 60 % 24:02d}:{k % 60:02d}:00Z,"
        f"2026-11-19T{k // 60 % 24:02d}:{k % 60:02d}:30Z,1"
        for k in range(LINES - 2)
    ]
    header = "owner,accounting_group,start,end,slots"
    last = "bob,group_b.bob,2026-11-19T23:00:00Z,2026-11-19T23:30:00Z,"
    text = "\n".join([header, *rows, last + "eight"]) + "\n"
    (tmp_path / "bad.csv").write_text(text, encoding="utf-8")
    (tmp_path / "good.csv").write_text(text.replace(last + "eight", last + "8"), encoding="utf-8")
    path = tmp_path / "sweep.toml"
    path.write_text(SPEC.format(history="bad.csv"), encoding="utf-8")
    return path


def test_a_failed_point_then_the_mended_spec_is_refused_naming_restart_which_runs_it(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / "runs"
    failed = run("sweep", str(spec), "--out", str(out), "--jobs", "1")
    assert (failed.exit_code, failed.stdout) == (2, "")
    assert failed.stderr == (
        f"fs: error: point 0: {tmp_path / 'bad.csv'}:{LINES}: slots: expected a whole "
        "number, got 'eight'\n"
    )
    spec.write_text(SPEC.format(history="good.csv"), encoding="utf-8")
    refused = run("sweep", str(spec), "--out", str(out), "--jobs", "1")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"fs: error: {out} holds another sweep (its manifest differs from {spec}; 0 of 3 "
        "points done there): give --restart to start afresh in it (its results are "
        "removed), or another --out\n"
    )
    done = run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--restart", "--json")
    assert done.exit_code == 0, done.stderr
    assert sorted(p["index"] for p in json.loads(done.stdout)) == [0, 1, 2]
    manifest = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert manifest["spec"]["history"] == str(tmp_path / "good.csv")


def test_restart_reruns_every_point_where_a_rerun_keeps_the_results(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    spec.write_text(SPEC.format(history="good.csv"), encoding="utf-8")
    out = tmp_path / "runs"
    first = run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--json")
    assert first.exit_code == 0, first.stderr
    kept = out / "points" / "000000.json"
    result = json.loads(kept.read_text(encoding="utf-8"))
    result["jobs_finished"] = 999  # (a result of an input since changed in place)
    kept.write_text(json.dumps(result), encoding="utf-8")
    (out / "logs").mkdir()
    (out / "logs" / "point.out").write_text("log", encoding="utf-8")
    resumed = run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--json")
    assert {p["index"]: p["jobs_finished"] for p in json.loads(resumed.stdout)}[0] == 999
    again = run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--json", "--restart")
    assert again.exit_code == 0, again.stderr
    assert sorted(json.loads(again.stdout), key=lambda p: p["index"]) == sorted(
        json.loads(first.stdout), key=lambda p: p["index"]
    )
    assert (out / "logs" / "point.out").read_text(encoding="utf-8") == "log"


def test_another_sweep_with_results_counts_them_in_the_refusal(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    spec.write_text(SPEC.format(history="good.csv"), encoding="utf-8")
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--jobs", "1").exit_code == 0
    spec.write_text(
        SPEC.format(history="good.csv").replace("[600, 3600]", "[600, 7200]"), encoding="utf-8"
    )
    refused = run("sweep", str(spec), "--out", str(out), "--engine", "slurm")
    assert refused.exit_code == 2
    assert "(its manifest differs from" in refused.stderr
    assert "; 3 of 3 points done there): give --restart" in refused.stderr
    assert sorted(p.name for p in (out / "points").iterdir()) == [
        "000000.json",
        "000001.json",
        "000002.json",
    ]
    written = run("sweep", str(spec), "--out", str(out), "--engine", "slurm", "--restart")
    assert written.exit_code == 0, written.stderr
    assert list((out / "points").iterdir()) == []
    assert "(3 points)" in written.stderr


def test_run_point_names_the_point_and_collect_names_the_failed_points(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    cause = f"{tmp_path / 'bad.csv'}:{LINES}: slots: expected a whole number, got 'eight'"
    for index in (0, 1):  # (the base, point 2, replays no history: it runs)
        failed = run("sweep", "run-point", str(out), str(index))
        assert (failed.exit_code, failed.stdout) == (2, "")
        assert failed.stderr == f"fs: error: point {index}: {cause}\n"
    collected = run("sweep", "collect", str(out), "--json")
    assert (collected.exit_code, collected.stdout) == (2, "[]\n")
    assert collected.stderr == (
        "1 of 3 points have no result yet\n"
        f"fs: note: point 0 failed: {cause}\n"
        f"fs: note: point 1 failed: {cause}\n"
        f"fs: error: 2 of 3 points failed (point 0 first); mend the cause and run them "
        f"again: 'fs sweep run-point {out} INDEX', or the sweep\n"
    )
    assert run("sweep", "run-point", str(out), "2").exit_code == 0
    (tmp_path / "bad.csv").write_text(  # (mended in place: the same spec)
        (tmp_path / "good.csv").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert run("sweep", "run-point", str(out), "0").exit_code == 0
    collected = run("sweep", "collect", str(out), "--json")
    assert collected.exit_code == 2
    assert [p["index"] for p in json.loads(collected.stdout)] == [0, 2]
    assert collected.stderr.startswith(f"fs: note: point 1 failed: {cause}\n")
    assert "1 of 3 points failed (point 1 first)" in collected.stderr
    assert run("sweep", "run-point", str(out), "1").exit_code == 0
    collected = run("sweep", "collect", str(out), "--json")
    assert (collected.exit_code, collected.stderr) == (0, "")
    assert sorted(p.name for p in (out / "points").iterdir()) == [
        "000000.json",
        "000001.json",
        "000002.json",
    ]


def test_collect_after_a_local_sweep_stopped_names_its_failed_point_and_restart_forgets_it(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--jobs", "1").exit_code == 2
    collected = run("sweep", "collect", str(out))
    assert collected.exit_code == 2
    assert collected.stderr.splitlines()[:2] == [
        "2 of 3 points have no result yet",
        f"fs: note: point 0 failed: {tmp_path / 'bad.csv'}:{LINES}: slots: expected a "
        "whole number, got 'eight'",
    ]
    assert collected.stdout.splitlines()[0].startswith("Index")
    spec.write_text(SPEC.format(history="good.csv"), encoding="utf-8")
    assert (
        run("sweep", str(spec), "--out", str(out), "--engine", "slurm", "--restart").exit_code == 0
    )
    assert list((out / "points").iterdir()) == []
    collected = run("sweep", "collect", str(out))
    assert (collected.exit_code, collected.stderr) == (0, "3 of 3 points have no result yet\n")


def test_collect_read_by_head_still_exits_with_the_failed_points_code(
    spec: Path, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs sweep collect DIR | head -1`` with a failed point: a reader that leaves while
    the table is written (forced here: the sample table fits a pipe) ends a view with 0,
    and so it would have hidden the failed point; the exit stays the point's 2."""
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    assert run("sweep", "run-point", str(out), "0").exit_code == 2
    assert run("sweep", "run-point", str(out), "2").exit_code == 0

    def closed(*_args: Any, **_kwargs: Any) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("fairshare_cli.render.sweep.show_points", closed)
    collected = run("sweep", "collect", str(out))
    assert collected.exit_code == 2
    assert "1 of 3 points failed (point 0 first)" in collected.stderr
    assert run("sweep", "run-point", str(out), "0").exit_code == 2  # (still failing)
    (out / "points" / "000000.error").unlink()
    assert run("sweep", "collect", str(out)).exit_code == 0  # (no failed point: the reader's 0)
