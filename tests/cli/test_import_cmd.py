"""``fs import history`` and ``condor-history`` charge the models and write the usage
history store in one process, in one transaction: each record stored once, in file order,
however often it is read; any failure leaves the store, its folder and the state as they
were, with one line and its exit code."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.usage_store import store_path

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T18:00:00Z"  # (records appended after the sample's: up to then)
_REPO = Path(__file__).resolve().parents[2]
_SORTED = (_REPO / "sample_configs" / "history.csv").read_text(encoding="utf-8")
#: after the sample's records, out of start order (the import reads it twice), one still
#: running, one without account
_UNSORTED = (
    "owner,accounting_group,account,start,end,slots\n"
    "bob,group_physics.hep.bob,hep,2026-11-21T15:00:00Z,2026-11-21T16:00:00Z,2\n"
    "carol,group_chemistry.carol,chemistry,2026-11-21T13:00:00Z,,1\n"
    "zed,,,2026-11-21T14:00:00Z,2026-11-21T14:30:00Z,4\n"
)
_ADS = json.dumps(
    [
        {"Owner": "a", "JobStatus": 4, "JobCurrentStartDate": 1795176000,
         "CompletionDate": 1795219200, "RequestCpus": 2},
        {"Owner": "b", "AccountingGroup": "group_physics.b", "JobStatus": 3,
         "JobCurrentStartDate": 1795240800, "CompletionDate": 0,
         "EnteredCurrentStatus": 1795244400},
        {"Owner": "c", "JobStatus": 3, "EnteredCurrentStatus": 1795244400},
    ]
)  # fmt: skip


def _folder(tmp_path: Path) -> tuple[Path, list[str]]:
    folder = tmp_path / "f"
    folder.mkdir()
    config = (_REPO / "sample_configs" / "pool.toml").read_text(encoding="utf-8")
    (folder / "pool.toml").write_text(config, encoding="utf-8")
    state = folder / "state.json"
    return folder, ["--config", str(folder / "pool.toml"), "--state", str(state), "--now", NOW]


def _kept(folder: Path) -> tuple[bytes, list[Any], list[Any]]:
    """The state's bytes, the store's rows and its schema (indexes included)."""
    conn = sqlite3.connect(store_path(folder / "state.json"))
    try:
        rows = conn.execute("SELECT * FROM records ORDER BY id").fetchall()
        rows += conn.execute("SELECT * FROM ends ORDER BY id").fetchall()
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()
    return (folder / "state.json").read_bytes(), rows, schema


def test_each_record_is_stored_once_in_file_order(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A sorted CSV, then an unsorted one appended (read twice: its rows stored once, in
    file order, after the first import's), then condor_history ads with --rebuild (the
    store started afresh: only the two ads that ran)."""
    folder, args = _folder(tmp_path)
    (folder / "sorted.csv").write_text(_SORTED, encoding="utf-8")
    (folder / "unsorted.csv").write_text(_UNSORTED, encoding="utf-8")
    (folder / "ads.json").write_text(_ADS, encoding="utf-8")
    first = run("import", "history", str(folder / "sorted.csv"), *args)
    assert first.exit_code == 0, first.stderr
    count = len(_kept(folder)[1])
    said = f"Imported {count} usage records from {folder / 'sorted.csv'} into {folder}"
    assert first.stdout == f"{said}/state.json\n"
    more = run("import", "history", str(folder / "unsorted.csv"), *args, "--now", LATER)
    assert more.exit_code == 0, more.stderr
    rows = _kept(folder)[1]
    assert [r[0] for r in rows] == list(range(1, count + 4))
    assert [(r[3], r[1], r[10]) for r in rows[count:]] == [
        ("bob", 1795273200.0, 2),
        ("carol", 1795266000.0, 1),
        ("zed", 1795269600.0, 4),
    ]
    ads = run(
        "import", "condor-history", str(folder / "ads.json"), "--rebuild", *args, "--now", LATER
    )
    assert ads.exit_code == 0, ads.stderr
    assert [(r[0], r[3], r[11]) for r in _kept(folder)[1]] == [(1, "a", 2), (2, "b", 1)]


def test_a_refused_record_leaves_the_store_as_it_was(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A record refused after good ones (appending, or writing the store anew): exit 2,
    one line naming the file; the store, its folder and the state as they were."""
    folder, args = _folder(tmp_path)
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    before, listing = _kept(folder), sorted(os.listdir(folder))
    bad = _SORTED + "dave,,,,,,2026-11-20T04:00:00Z,2026-11-20T03:00:00Z,1,1,false\n"
    (folder / "bad.csv").write_text(bad, encoding="utf-8")
    for extra in ((), ("--rebuild",)):
        failed = run("import", "history", str(folder / "bad.csv"), *extra, *args)
        assert failed.exit_code == 2
        assert failed.stderr.startswith(f"fs: error: {folder / 'bad.csv'}")
        assert failed.stderr.count("\n") == 1
    assert _kept(folder) == before
    assert sorted(os.listdir(folder)) == sorted([*listing, "bad.csv"])


@pytest.mark.parametrize("rebuild", [False, True])
def test_an_interrupt_after_the_records_keeps_the_store(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, rebuild: bool
) -> None:
    """A Ctrl-C once every record is charged and stored, before the commit (appending, or
    writing the store anew): the rows are rolled back; the store, the folder and the state
    are as they were."""
    from fairshare_cli.cli import running

    folder, args = _folder(tmp_path)
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    (folder / "more.csv").write_text(_UNSORTED, encoding="utf-8")
    before, listing = _kept(folder), sorted(os.listdir(folder))

    def interrupted(*_: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(running, "hold_history_running", interrupted)
    flags = ["--rebuild"] if rebuild else []
    aborted = run("import", "history", str(folder / "more.csv"), *flags, *args, "--now", LATER)
    assert (aborted.exit_code, aborted.stderr) == (130, "fs: error: interrupted (Ctrl-C)\n")
    assert _kept(folder) == before
    assert sorted(os.listdir(folder)) == listing


@pytest.mark.parametrize("name", ["missing.csv", "folder"])
def test_an_unreadable_input_leaves_the_store_byte_for_byte(
    tmp_path: Path, run: Callable[..., Any], name: str
) -> None:
    """``fs import history MISSING`` (or a folder) beside a store whose state records no
    job end: exit 2, and the store's bytes as they were (before, emptying the empty
    ``ends`` table bumped SQLite's change counter in the file's header)."""
    folder, args = _folder(tmp_path)
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    (folder / "folder").mkdir()
    store = store_path(folder / "state.json")
    before = (store.read_bytes(), (folder / "state.json").read_bytes())
    failed = run("import", "history", str(folder / name), *args)
    assert failed.exit_code == 2, failed.stderr
    said = "does not exist." if name == "missing.csv" else "is a directory. (fs import history"
    assert failed.stderr.startswith(f"fs: error: File '{folder / name}' {said}")
    assert (store.read_bytes(), (folder / "state.json").read_bytes()) == before


def test_an_import_whose_state_write_fails_says_nothing_was_imported(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store is committed, then the state cannot be written (a full disk): one error
    line, exit 1, no "Imported N usage records" on stdout (it was printed before the write
    failed), and the state byte for byte."""
    folder, common = _folder(tmp_path)
    assert run("import", "history", "-", *common, input=_SORTED).exit_code == 0
    before = (folder / "state.json").read_bytes()
    later = _UNSORTED
    from fairshare_cli.io import state as state_io

    def disk_full(path: Path, state: Any, before_rename: Any = None, **_: Any) -> None:
        raise state_io.RuntimeFailure(f"cannot write state file {path}: No space left on device")

    monkeypatch.setattr(state_io, "save_state", disk_full)
    result = run("import", "history", "-", *common[:-1], LATER, input=later)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert (folder / "state.json").read_bytes() == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "owner,start,owner\nalice,2026-11-20T00:00:00Z,bob\n",
            ":1: field 'owner' is in the header twice",
            id="field-twice",
        ),
        pytest.param(
            "\ufeffowner,start,end\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n",
            ":1: the file starts with a byte-order mark (U+FEFF); save it as UTF-8 without one",
            id="byte-order-mark",
        ),
    ],
)
def test_a_csv_header_naming_a_field_twice_or_starting_with_a_bom_is_refused(
    text: str, message: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import history h.csv`` of ``owner,start,owner``: the record was bob's (the
    second value replaced the first) and nothing said so; a spreadsheet's UTF-8 CSV with a
    byte-order mark was "unknown field '\\ufeffowner' (did you mean 'owner'?)". Now one
    line each, exit 2, nothing written."""
    history = tmp_path / "h.csv"
    history.write_text(text, encoding="utf-8")
    state = tmp_path / "state.json"
    pool = str(_REPO / "sample_configs" / "pool.toml")
    result = run("import", "history", str(history), "--config", pool, "--state", str(state),
                 "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {history}{message}\n"
    assert not state.exists()


def test_an_fs_jobs_file_is_not_imported_as_condor_history(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-history sample_configs/jobs.json`` (fs's own job objects) said
    "Imported 0 usage records" with exit 0 and wrote a state and a store. Now the first
    object is refused as no job ad of condor_history (its ``owner`` is no ClassAd's
    ``Owner``), exit 2, nothing written."""
    state = tmp_path / "state.json"
    jobs = str(_REPO / "sample_configs" / "jobs.json")
    pool = str(_REPO / "sample_configs" / "pool.toml")
    result = run("import", "condor-history", jobs, "--config", pool, "--state", str(state),
                 "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}:2: expected a job ad (with Owner or User); is this "
        "condor_history -json or -long output?; it looks like a jobs file: give it to fs "
        "submit --file, or as --jobs-file or --workload\n"
    )
    assert not state.exists()
    assert not store_path(state).exists()


def test_sacct_lines_of_no_usage_are_counted(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sacct`` of the Slurm 22.05 capture's 13 jobs said "Imported 4" and
    nothing of the other 9 (cancelled while pending: ``Start`` None). They are counted on
    stderr now, with what such lines are."""
    state = tmp_path / "state.json"
    capture = str(_REPO / "tests" / "fixtures" / "slurm-22.05" / "sacct_jobs_1_13.txt")
    pool = str(_REPO / "sample_configs" / "pool.toml")
    result = run("import", "sacct", capture, "--config", pool, "--state", str(state),
                 "--now", "2026-11-21T23:30:00Z")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Imported 4 usage records from {capture} into {state}\n"
    assert result.stderr.endswith(  # (a note, as docs/exit-codes.md says notes begin)
        "fs: note: skipped 9 lines of no usage: job steps, jobs that never started (or "
        "start after --now), jobs with no CPUs\n"
    )


@pytest.mark.parametrize(("dump", "line"), [("condor_q.json", 2), ("condor_q.long.txt", 1)])
def test_a_condor_q_dump_is_not_imported_as_condor_history(
    tmp_path: Path, run: Callable[..., Any], dump: str, line: int
) -> None:
    """``fs import condor-history condor_q.json`` (the HTCondor 25.0 capture's queue: 38
    idle, 15 running) charged the 15 running jobs as open usage, and a later
    ``fs import condor-q`` of the same queue claimed their slots again: ``fs quota`` showed
    27 in use for 15 running. A history holds only jobs that left the queue, completed (4)
    or removed (3) (``DestroyProc`` in the schedd's qmgmt.cpp refuses any other
    ``JobStatus``; the startd's ``Starter.cpp`` writes one of the two). The first ad still
    in the queue is refused, naming its line and the command for it; nothing written."""
    state = tmp_path / "state.json"
    capture = str(_REPO / "tests" / "fixtures" / "htcondor-25.0" / "flat_users" / dump)
    pool = str(_REPO / "sample_configs" / "pool.toml")
    result = run("import", "condor-history", capture, "--config", pool, "--state", str(state),
                 "--now", "2026-11-23T18:25:33Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {capture}:{line}: job 1.0 is still in the queue (JobStatus 1, idle); a "
        "history holds only jobs that left it, completed (4) or removed (3); is this "
        "condor_q output? use fs import condor-q for the queue\n"
    )
    assert not state.exists()
    assert not store_path(state).exists()


def test_a_queue_holding_completed_jobs_is_not_history(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A ``condor_q -json`` dump whose queue keeps completed jobs (``leave_in_queue``):
    the capture's queue with jobs 1.4, 2.6 and 2.8 completed (JobStatus 4) beside 12
    running and 38 idle. ``fs import condor-history`` took it as a history (one ad had
    left the queue) and charged the 12 running jobs as open usage, which
    ``fs import condor-q`` of the same dump claimed again. Refused now at the first ad
    still in the queue; the completed ones come in once they reach the history."""
    folder, args = _folder(tmp_path)
    ads = json.loads((_REPO / "tests" / "fixtures" / "htcondor-25.0" / "flat_users" /
                      "condor_q.json").read_text(encoding="utf-8"))  # fmt: skip
    running = [ad for ad in ads if ad["JobStatus"] == 2]
    for ad in running[:3]:
        ad.update(JobStatus=4, CompletionDate=ad["JobCurrentStartDate"] + 30)
    ads.sort(key=lambda ad: -ad["JobStatus"])  # (the completed ones first)
    text = json.dumps(ads, indent=1)
    (folder / "q.json").write_text(text, encoding="utf-8")
    result = run("import", "condor-history", str(folder / "q.json"), *args,
                 "--now", "2026-11-23T18:25:33Z")  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    line = [n for n, ad in enumerate(text.splitlines(), 1) if ad == " {"][3]  # (the 4th ad)
    assert result.stderr == (
        f"fs: error: {folder / 'q.json'}:{line}: job {ads[3]['ClusterId']}.{ads[3]['ProcId']} "
        "is still in the queue (JobStatus 2, running); a history holds only jobs that left "
        "it, completed (4) or removed (3); is this condor_q output? use fs import condor-q "
        "for the queue\n"
    )
    assert sorted(os.listdir(folder)) == ["pool.toml", "q.json", "state.json.lock"]


@pytest.mark.parametrize("status", [[1], {"a": 1}])
def test_a_job_status_that_is_no_number_is_no_queue_status(
    tmp_path: Path, run: Callable[..., Any], status: Any
) -> None:
    """A ``JobStatus`` that is a list or a table tells nothing of the queue: the ad is
    read as before (one usage record), no traceback."""
    folder, args = _folder(tmp_path)
    ad = {"Owner": "a", "JobStatus": status, "JobCurrentStartDate": 1795176000,
          "CompletionDate": 1795179600}  # fmt: skip
    (folder / "ads.json").write_text(json.dumps([ad]), encoding="utf-8")
    result = run("import", "condor-history", str(folder / "ads.json"), *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Imported 1 usage record ")


@pytest.mark.parametrize(
    ("kind", "name", "text", "said"),
    [
        pytest.param(
            "history", "h.csv",
            "owner,start,end,slots\nalice,2026-11-21T09:00:00Z,2026-11-21T10:00:00Z,1\n"
            "bob,2026-11-21T09:00:00Z,2026-11-21T10:00:00Z,x\n",
            ":3: slots: expected a whole number, got 'x'", id="history",
        ),
        pytest.param(
            "sacct", "jobs.txt",
            "JobID|User|Account|Partition|QOS|AllocCPUS|Start|End\n"
            "8|alice|hep|batch|normal|x|2026-11-21T09:00:00|2026-11-21T10:00:00\n",
            ":2: alloccpus", id="sacct",
        ),
        pytest.param(
            "sshare", "shares.txt",
            "Account|User|RawShares|NormShares|RawUsage\nhep|alice|1|0.5|x\n",
            ":2:", id="sshare",
        ),
    ],
)  # fmt: skip
def test_every_import_names_a_bad_line_as_file_colon_line(
    kind: str, name: str, text: str, said: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import history h.csv said 'h.csv line 3: slots: ...' and fs import sacct
    'jobs.txt: line 2: alloccpus ...', where every other import (sshare, condor-q,
    condor-userprio, slurm-conf ...) says 'FILE:LINE: ...': all say FILE:LINE now."""
    dump = tmp_path / name
    dump.write_text(text, encoding="utf-8")
    state = tmp_path / "state.json"
    pool = str(_REPO / "sample_configs" / "pool.toml")
    result = run("import", kind, str(dump), "--config", pool, "--state", str(state),
                 "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {dump}{said}"), result.stderr
    assert result.stderr.count("\n") == 1 and not state.exists()
