"""``fs import squeue`` before any usage is in the state (the docs' imports in another
order): the pending jobs' printed priorities cannot be checked, and the summary says so and
what to import first, instead of losing job 8's site factor without a word."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

CAPTURE = REPO / "tests" / "fixtures" / "slurm-22.05"
RUN = CAPTURE / "ft1_running"
NOW, PASS = "2026-11-21T23:14:06Z", "2026-11-21T23:13:20Z"  # README.md of the capture
JOBS = str(RUN / "scontrol_show_jobs.txt")


def _args(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The capture's cluster, as docs/slurm.md imports it, and a state with no usage."""
    config = tmp_path / "cluster.toml"
    config.write_text('[pool]\ndefaults = "current"\n[priority]\noutput_compat = "22.05"\n')
    for kind, file in (
        ("slurm-conf", CAPTURE / "config" / "slurm.conf.fairtree"),
        ("sacctmgr", RUN / "sacctmgr_assoc_tree.txt"),
        ("sacctmgr", RUN / "sacctmgr_qos.txt"),
    ):
        result = run("import", kind, str(file), "--into", str(config), "--replace")
        assert result.exit_code == 0, result.stderr
    return ["--config", str(config), "--state", str(tmp_path / "cluster.json"), "--now", NOW]


def test_the_queue_before_the_usage_says_its_priorities_go_unchecked(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import squeue scontrol_show_jobs.txt --last-decay ... before fs import
    scontrol-assoc said only '12 jobs (9 pending, 3 running) into cluster.json': job 8's
    printed 5619 (a site factor of 300) went unchecked, and fs sprio -l then printed 5319
    for it with no word anywhere; now the summary says the priorities were not checked and
    what to import first."""
    args = _args(tmp_path, run)
    result = run("import", "squeue", JOBS, "--last-decay", PASS, *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"{JOBS}: 12 jobs (9 pending, 3 running) into {tmp_path / 'cluster.json'}; ignored 1: "
        "printed priorities (not checked, no usage imported yet: import scontrol-assoc "
        "first, then this dump again)\n"
    )
    usage = str(RUN / "scontrol_assoc_mgr.txt")
    assert run("import", "scontrol-assoc", usage, "--last-decay", PASS, *args).exit_code == 0
    again = run("import", "squeue", JOBS, "--last-decay", PASS, *args)
    assert again.exit_code == 0, again.stderr
    assert "not checked" not in again.stderr
    assert "8 (printed 5619, computed 5319)" in again.stderr


def test_asking_for_site_factors_says_it_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    """With --site-factor-from-priority the one ignored entry is the site factors'."""
    args = _args(tmp_path, run)
    result = run(
        "import", "squeue", JOBS, "--site-factor-from-priority", "--last-decay", PASS, *args
    )
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith(
        "; ignored 1: site factors (no usage imported yet: import scontrol-assoc first)\n"
    )
