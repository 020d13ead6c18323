"""``fs import squeue`` of Slurm 22.05's ``scontrol show jobs`` (``TRES=``, where 23.02
and later print ``ReqTRES=``) under a config that prints as today's Slurm notes
``[priority] output_compat = "22.05"``: without it ``fs sprio -l`` has 26.05's columns
(ACCOUNT, QOSNAME), which that cluster's sprio never printed, and nothing said why."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_imports import FIXTURES, _build, _pass_time

NOTE = (
    "fs: note: {file} is Slurm 22.05's scontrol show jobs (TRES=, where 23.02 and later "
    'print ReqTRES=): set [priority] output_compat = "22.05" for fs sprio and fs sshare '
    "to print as that cluster's sprio and sshare do\n"
)


def test_a_22_05_dump_under_the_current_layout_is_noted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import squeue tests/fixtures/slurm-22.05/ft1_running/scontrol_show_jobs.txt with
    a config that sets no output_compat (the pool built from that capture's dumps)."""
    common, _ = _build(tmp_path, run, "ft1_running")
    config = Path(common[1])
    config.write_text(config.read_text().replace('output_compat = "22.05"\n', "", 1))
    assert "output_compat" not in config.read_text()
    dump = FIXTURES / "ft1_running" / "scontrol_show_jobs.txt"
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith(NOTE.format(file=dump))


def test_no_note_under_the_22_05_layout(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The same dump with output_compat = "22.05" in the config: no note."""
    common, _ = _build(tmp_path, run, "ft1_running")
    assert 'output_compat = "22.05"' in Path(common[1]).read_text()
    dump = FIXTURES / "ft1_running" / "scontrol_show_jobs.txt"
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert "is Slurm 22.05's" not in result.stderr


def test_no_note_for_a_dump_of_23_02_on(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The same dump as 23.02 and later print it (ReqTRES=) under the current layout: no
    note."""
    dump = tmp_path / "jobs.txt"
    text = (FIXTURES / "ft1_running" / "scontrol_show_jobs.txt").read_text()
    dump.write_text(text.replace("\n   TRES=", "\n   ReqTRES="))
    assert " TRES=" not in dump.read_text()
    common, _ = _build(tmp_path, run, "ft1_running")
    config = Path(common[1])
    config.write_text(config.read_text().replace('output_compat = "22.05"\n', "", 1))
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert result.exit_code == 0, result.stderr
    assert "is Slurm 22.05's" not in result.stderr
