"""``fs whatif ... taskqueues`` matches each task queue with the same queue on the other side.

TQIds only count queues in creation order: with other CPU segments, queues merge and the
ids after them shift, and a comparison by TQId compared one owner's queue with another's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-30T06:00:00Z"
CONFIG = """\
[dirac]
vo = "lhcb"

[dirac.groups.lhcb_user]
job_share = 1000

[dirac.groups.lhcb_prod]
job_share = 300
job_sharing = true
"""


def _jobs(tmp_path: Path) -> Path:
    """alice 1000 s (segment 1800, TQ 1), alice 200000 s (259200, TQ 2), bob 1000 s (TQ 3)."""
    jobs = [
        {"id": "1", "owner": "alice", "dirac_group": "lhcb_user",
         "dirac_requirements": {"cpu_time": 1000}},
        {"id": "2", "owner": "alice", "dirac_group": "lhcb_user",
         "dirac_requirements": {"cpu_time": 200000}},
        {"id": "3", "owner": "bob", "dirac_group": "lhcb_prod",
         "dirac_requirements": {"cpu_time": 1000}},
    ]  # fmt: skip
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    return path


def test_merged_queues_leave_and_the_others_keep_their_figures(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs whatif --set 'dirac.cpu_segments=[360, 500000]' taskqueues`` said bob's lhcb_prod
    queue went from 500 to 300 and that bob's queue left: TQ 2 (alice's 259200 s queue)
    was compared with the after side's TQ 2 (bob's). Under [360, 500000] both of alice's
    jobs fall in one 500000 s queue (TQ 1) and bob's queue becomes TQ 2.

    By hand (TaskQueueDB.calculate_priority, no correction): before, alice's entity share
    1000 is split over her two queues of equal weight, 500 each; bob's group lhcb_prod
    (JobSharing) has 300. After, alice's one queue has 1000, bob's still 300. So alice's
    TQ 1 goes 500 -> 1000, her TQ 2 left, bob's queue keeps 300 and moves from 3rd to 2nd.
    """
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    line = [
        "whatif", "--set", "dirac.cpu_segments=[360, 500000]", "taskqueues",
        "--jobs-file", str(_jobs(tmp_path)), "--config", str(config), "--now", NOW,
    ]  # fmt: skip
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    rows = [x.split("│") for x in result.stdout.splitlines()[3:6]]
    cells = [[c.strip() for c in r] for r in rows]
    assert cells[0][:5] == ["1", "alice", "lhcb_user", "1", "500.0000 -> 1000.0000"]
    assert cells[1][:5] == ["2", "bob", "lhcb_prod", "3 -> 2 (+1)", "300.0000"]
    assert cells[2][:5] == ["2", "alice", "lhcb_user", "gone (was 2)", "500.0000 -> -"]
    assert "1 moved, 0 appeared, 1 left" in result.stdout

    doc = json.loads(run(*line, "--json").stdout)
    priority = {
        c["key"]: (c["before"], c["after"]) for c in doc["changes"] if c["field"] == "priority"
    }
    assert priority == {
        "alice/lhcb_user/1.1": (500.0, 1000.0),
        "alice/lhcb_user/1.2": (500.0, None),
    }


def test_unchanged_queues_are_no_differences(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Queues with the same jobs and segments on both sides compare as the same rows (the
    default segments put 1000 s in 1800 and 200000 s in 259200, as these do)."""
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run(
        "whatif", "--set", "dirac.cpu_segments=[360, 1800, 3600, 259200]", "taskqueues",
        "--jobs-file", str(_jobs(tmp_path)), "--config", str(config), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip().endswith("no differences")


def test_a_changed_cpu_segment_is_a_difference(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set dirac.job_description.default_cpu_time=3000 taskqueues`` said "no
    differences" while ``fs taskqueues`` under that config puts alice's job (no CPU time
    given, so DefaultCPUTime) in the 3600 s segment instead of 86400 s: only the priorities
    were compared. Now the CPU segment is compared too (``CPUTime``,
    ``requirements.cpu_time`` in --json); her priority stays 1000 (her entity's only queue),
    bob's 1000 s job stays in 1800 (DIRAC's default segments 360, 1800, 3600, ...).
    """
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps([
            {"id": "1", "owner": "alice", "dirac_group": "lhcb_user"},
            {"id": "2", "owner": "bob", "dirac_group": "lhcb_prod",
             "dirac_requirements": {"cpu_time": 1000}},
        ]),
        encoding="utf-8",
    )  # fmt: skip
    line = [
        "whatif", "--set", "dirac.job_description.default_cpu_time=3000", "taskqueues",
        "--jobs-file", str(jobs), "--config", str(config), "--now", NOW,
    ]  # fmt: skip
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split()[-1] == "CPUTime"
    cells = [c.strip() for c in lines[3].split("│")]
    assert cells == ["1", "alice", "lhcb_user", "1", "86400 -> 3600"]
    assert [c.strip() for c in lines[4].split("│")][-1] == "1800"
    assert lines[-1] == "1 row changed, 0 moved, 0 appeared, 0 left (1 change)"
    doc = json.loads(run(*line, "--json").stdout)
    assert doc["changes"] == [
        {"key": "alice/lhcb_user/1.1", "field": "requirements.cpu_time",
         "before": 86400, "after": 3600},
    ]  # fmt: skip


def test_a_pilot_note_is_said_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Both sides read the same ``--pilot``: the note that its ``NumberOfProcessors=2.0`` gives
    no processor tag (DIRAC's matcher reads it with ``int()``) is one ``Note:`` of the
    comparison, not a line on stderr per side. Without tags the pilot takes all three
    (untagged) queues, bob's going from 300 to 600."""
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run(
        "whatif", "--set", "dirac.groups.lhcb_prod.job_share=600", "taskqueues",
        "--jobs-file", str(_jobs(tmp_path)), "--config", str(config), "--now", NOW,
        "--pilot", "CPUTime=500000", "--pilot", "Site=LCG.CERN.cern",
        "--pilot", "NumberOfProcessors=2.0", "--pilot", "ReleaseVersion=v9.1.22",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "300.0000 -> 600.0000" in result.stdout
    notes = [line for line in result.stdout.splitlines() if line.startswith("Note:")]
    assert notes == [
        "Note: --pilot NumberOfProcessors=2.0 is not a whole number as DIRAC's matcher reads "
        "it (Python's int()), so it gives the pilot no processor tags (no <N>Processors, no "
        "MultiProcessor)"
    ]


def test_an_empty_owner_note_is_said_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``--pilot Owner=`` (no owner) is one ``Note:`` of the comparison, as an empty
    ``OwnerGroup``'s is: DIRAC's matcher asks ``tq.Owner = ''`` of lhcb_user (no queue has
    it) and takes lhcb_prod's queues whatever their owner (JobSharing), so the generic pilot
    keeps bob's queue alone (TQ 3), 300 -> 600."""
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run(
        "whatif", "--set", "dirac.groups.lhcb_prod.job_share=600", "taskqueues",
        "--jobs-file", str(_jobs(tmp_path)), "--config", str(config), "--now", NOW,
        "--pilot", "CPUTime=500000", "--pilot", "Site=LCG.CERN.cern", "--pilot", "Owner=",
        "--pilot", "ReleaseVersion=v9.1.22",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "300.0000 -> 600.0000" in result.stdout
    assert "alice" not in result.stdout
    notes = [line for line in result.stdout.splitlines() if line.startswith("Note:")]
    assert notes == [
        "Note: --pilot Owner= names no owner: DIRAC's matcher then selects the task queues "
        "whose owner is that empty name (tq.Owner = ''), and no task queue has one, so the "
        "pilot matches none but those of a JobSharing group among its groups (whose queues "
        "match whatever their owner)"
    ]


def test_an_emptied_queue_is_gone_on_both_sides(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif ... taskqueues`` shows the queues as ``fs taskqueues`` does once a queue's
    last job has left (``fs rm``): as DIRAC holds them after ``cleanOrphanedTaskQueues`` and
    a TaskQueuesAgent cycle, on either side (docs/dirac.md says what DIRAC shows before).

    By hand (``recalculateTQSharesForEntity``, no correction): bob's queue gone, alice and
    carol split lhcb_user's 1000, 500 each, on both sides; ops' JobSharing lhcb_prod has its
    share, 300 before and 600 after.
    """
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG, encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    for owner, group in [("alice", "lhcb_user"), ("bob", "lhcb_user"), ("carol", "lhcb_user")]:
        assert run("submit", *common, "--owner", owner, "--dirac-group", group).exit_code == 0
    assert run("submit", *common, "--owner", "ops", "--dirac-group", "lhcb_prod").exit_code == 0
    assert run("rm", *common, "2").exit_code == 0
    result = run(
        "whatif", "--set", "dirac.groups.lhcb_prod.job_share=600", "taskqueues", *common,
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    sides = json.loads(result.stdout)
    assert [(r["owner"], r["priority"]) for r in sides["before"]] == [
        ("alice", 500.0), ("carol", 500.0), ("ops", 300.0),
    ]  # fmt: skip
    assert [(r["owner"], r["priority"]) for r in sides["after"]] == [
        ("alice", 500.0), ("carol", 500.0), ("ops", 600.0),
    ]  # fmt: skip
