"""``fs import history`` on top of Slurm usage a dump brought (cli/imports/_counted_twice.py):
records that usage holds already are charged again, and a warning counts them, as
``fs import sacct``'s names its jobs (tests/cli/test_import_cmd_sacct_twice.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_import_cmd_sacct_twice import _cluster

HEADER = "owner,accounting_group,account,partition,qos,dirac_group,start,end,slots,cpus,nice_user\n"
#: u1's and u2's jobs 1 and 2 of the capture, as history lines: both started before the
#: dump's decay pass (13:16:22), so its usage holds them; a third starts after it.
LINES = (
    "u1,,hep,batch,normal,,2026-12-02T13:15:29Z,2026-12-02T13:16:20Z,1,16,false\n"
    "u2,,hep,batch,high,,2026-12-02T13:15:28Z,2026-12-02T13:16:20Z,1,8,false\n"
    "u2,,hep,batch,high,,2026-12-02T13:16:22.5Z,2026-12-02T13:16:23Z,1,8,false\n"
)


def test_records_the_dump_counts_are_counted(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import history h.csv after fs import scontrol-assoc: two of its records ran
    before the dump's pass and were charged again without a word."""
    args = _cluster(tmp_path, run)
    history = tmp_path / "h.csv"
    history.write_text(HEADER + LINES, encoding="utf-8")
    result = run("import", "history", str(history), *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"fs: warning: Slurm: 2 records of {history} started before the decay pass of the "
        "state's usage, which a dump brought (fs import scontrol-assoc, sshare or squeue) "
        f"and which counts them already: their usage now counts twice; --rebuild replays "
        f"{history} in place of that usage\n"
    )


def test_a_rebuild_or_later_records_warn_of_nothing(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = _cluster(tmp_path, run)
    history = tmp_path / "h.csv"
    history.write_text(HEADER + LINES, encoding="utf-8")
    result = run("import", "history", str(history), "--rebuild", "--dry-run", *args)
    assert result.exit_code == 0, result.stderr
    assert "twice" not in result.stderr
    history.write_text(HEADER + LINES.splitlines(keepends=True)[2], encoding="utf-8")
    result = run("import", "history", str(history), *args)
    assert result.exit_code == 0, result.stderr
    assert "twice" not in result.stderr
