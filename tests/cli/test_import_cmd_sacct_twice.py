"""``fs import sacct`` on top of usage a dump brought (``fs import scontrol-assoc``,
``squeue``): the jobs that usage holds already are charged again, and a warning names them
(``--rebuild`` replays the file in place of that usage, as docs/slurm.md says)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

CAPTURE = REPO / "tests" / "fixtures" / "slurm-26.05-local"
RUN = CAPTURE / "ft1_running"
NOW, PASS = "1796217383", "1796217382"  # date.txt, last_decay.txt


def _cluster(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The capture's cluster in a new config; its assoc_mgr usage in a new state."""
    config = tmp_path / "fairshare.toml"
    for kind, file in (
        ("slurm-conf", CAPTURE / "config" / "slurm.conf.fairtree"),
        ("sacctmgr", RUN / "sacctmgr_assoc_tree.txt"),
        ("sacctmgr", RUN / "sacctmgr_qos.txt"),
    ):
        assert run("import", kind, str(file), "--into", str(config)).exit_code == 0
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    dump = str(RUN / "scontrol_assoc_mgr.txt")
    assert run("import", "scontrol-assoc", dump, "--last-decay", PASS, *args).exit_code == 0
    return args


def test_jobs_the_dump_counts_are_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import sacct sacct_P.txt after fs import scontrol-assoc scontrol_assoc_mgr.txt:
    root's RawUsage went from 2081 to 4163 (jobs 1 to 4 and 6, running since before the
    pass, charged again) without a word."""
    args = _cluster(tmp_path, run)
    shutil.copy(RUN / "sacct_P.txt", tmp_path / "sacct_P.txt")
    result = run("import", "sacct", str(tmp_path / "sacct_P.txt"), *args)
    assert result.exit_code == 0, result.stderr
    warning = (
        f"fs: warning: Slurm: 5 jobs of {tmp_path / 'sacct_P.txt'} (1, 2, 3, 4, 6) started "
        "before the decay pass of the state's usage, which a dump brought (fs import "
        "scontrol-assoc, sshare or squeue) and which counts them already: their usage now "
        f"counts twice; --rebuild replays {tmp_path / 'sacct_P.txt'} in place of that usage"
    )
    assert warning in result.stderr.splitlines()
    root = run("sshare", *args).stdout.splitlines()[2].split()
    assert root[:3] == ["root", "0.000000", "4163"]


def test_rebuild_warns_of_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """With --rebuild the file replaces that usage: sshare prints the capture's root row."""
    args = _cluster(tmp_path, run)
    result = run("import", "sacct", str(RUN / "sacct_P.txt"), "--rebuild", *args)
    assert result.exit_code == 0, result.stderr
    assert "twice" not in result.stderr
    root = run("sshare", *args).stdout.splitlines()[2].split()
    assert root[:3] == ["root", "0.000000", "2081"]
