"""A real tool's output cut short (a full disk, a copy stopped) inside its last line, given
to ``fs import KIND`` (io/importers/common.py's ``cut_capture``): the cut line was read as
it stood, so ``Priority = 860.16`` of ``860.165`` or a RawUsage of 34 of 3463 was imported
with exit 0. The tools end every line with a newline: a last line without one is refused
now, naming it; exit 2, the state and the config unchanged."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool
from tests.cli.imports.conftest import CAPTURED, HTCONDOR, SLURM, Refuse

#: kind: (the capture, the text its cut copy ends with, that text's line).
CUTS = {
    "condor-userprio": (HTCONDOR / "condor_userprio.long.txt", "Priority = 860.16", 17),
    "condor-q": (HTCONDOR / "condor_q.long.txt", 'Args = "36', 3),
    "sshare": (SLURM / "ft1_running" / "sshare_a_l_P.txt", "root|||0.000000|34", 3),
    "scontrol-assoc": (
        SLURM / "ft1_running" / "scontrol_assoc_mgr.txt",
        "ClusterName=oracle Account=a UserName= Partition= Priority=0 ID=",
        20,
    ),
    "sacctmgr": (SLURM / "ft1_running" / "sacctmgr_assoc_tree.txt", "oracle|f|u5|1||1", 0),
    "sacct": (SLURM / "sacct_jobs_1_13.txt", "1                  wrap  ", 4),
    # (job 2 was imported from its first 15 lines: 8 CPUs, may be 80 cut)
    "squeue": (SLURM / "ft1_running" / "scontrol_show_jobs.txt", "   NumNodes=1 NumCPUs=8", 16),
}
#: What each refusal says the capture is of.
WANTED = {
    "condor-userprio": "condor_userprio -l or -l -allusers output",
    "condor-q": "condor_q -json or -long output",
    "sshare": "sshare output",
    "scontrol-assoc": "scontrol show assoc_mgr output",
    "sacctmgr": "sacctmgr output",
    "sacct": "sacct output",
    "squeue": "scontrol show jobs output",
}
#: The kinds that make config fragments, merged here ``--into`` the pool's config.
FRAGMENTS = ("sacctmgr",)


def _cut(path: Path, end: str) -> tuple[bytes, int]:
    """The capture cut just after the first (last: for a line number 0) ``end``; the
    number of the line it ends on."""
    data = path.read_bytes()
    at = data.rfind(end.encode()) if end.endswith("1") else data.find(end.encode())
    text = data[: at + len(end)]
    return text, text.count(b"\n") + 1


@pytest.mark.parametrize("kind", sorted(CUTS))
def test_a_capture_cut_inside_its_last_line_is_refused(refuse_dump: Refuse, kind: str) -> None:
    path, end, line = CUTS[kind]
    text, number = _cut(path, end)
    assert line in (0, number)
    shown = end[:40]
    refuse_dump(
        kind,
        text,
        f":{number}: the file ends inside a line ('{shown}', no newline after it): a cut "
        f"capture of {WANTED[kind]}, whose last value may be cut too; capture it again",
        into=kind in FRAGMENTS,
    )


def test_another_file_without_a_final_newline_is_named_by_its_first_line(
    refuse_dump: Refuse,
) -> None:
    """A file of another kind: refused at its first line where the reader streams it
    (``fs import scontrol-assoc slurm.conf``), else saying what a cut capture is of."""
    text = "PriorityWeightAge=1000"
    refuse_dump("scontrol-assoc", text, ':1: expected scontrol show assoc_mgr output, got "Prio')
    refuse_dump("sshare", text, "a cut capture of sshare output, whose last value may be cut")


def test_the_same_capture_with_its_newline_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-userprio`` of the capture cut after a whole line: read."""
    env = write_pool(tmp_path)
    dump = tmp_path / "dump.txt"
    data = (HTCONDOR / "condor_userprio.long.txt").read_bytes()
    dump.write_bytes(data[: data.index(b"Priority = 860.165\n") + len(b"Priority = 860.165\n")])
    # (--now the capture's time: its records are valid at LastUpdate 2026-11-23T18:25:23Z)
    result = run("import", "condor-userprio", str(dump), *common(env)[:-1], CAPTURED)
    assert result.exit_code == 0, result.stderr


def test_a_slurm_conf_without_a_final_newline_is_read(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """slurm.conf is a file an editor saves, whose last line may have no newline: ``fs
    import slurm-conf`` reads it."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightAge=1000", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert "weights" in result.stdout and "age = 1000" in result.stdout
