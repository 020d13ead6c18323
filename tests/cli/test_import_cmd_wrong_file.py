"""An import handed the wrong file says, in its one line, which input it expected.

A new admin's second step is often the wrong file: ``fs import condor-config slots.json``,
``fs import sacct /var/log`` (a folder), ``fs import history dump.bin``. Each is refused
(exit 2, one ``fs: error:`` line, no traceback, nothing written), and the line names what
that kind reads. Before, ``fs import sacct adir`` said only ``cannot read adir: Is a
directory``, ``fs import slurm-conf slots.json`` said ``expected Key=Value, got "["`` and
``fs import history dirac.cfg`` said ``unknown field 'DIRAC'``: true, but not which input
was wanted; so did ``fs import dirac-cfg fairshare.toml`` (fs's own config: ``...:115:
expected a name before '{' or '='``). An empty file is refused by every kind (the usage
kinds, ``history``, ``sacct`` and ``condor-history``, took it as no records; a quiet
hour's export has its header line).
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused
from tests.conftest import FIXTURES, REPO

HTCONDOR = FIXTURES / "htcondor-25.0" / "flat_users"
SLURM = FIXTURES / "slurm-22.05"
NOW = "2026-11-23T18:25:33Z"

#: Each kind, and the words of its refusals that say what it reads (any one of them).
READS: dict[str, tuple[str, ...]] = {
    "condor-config": ("condor_config",),
    "condor-history": ("condor_history", "a job ad"),
    "condor-q": ("condor_q", "a job ad"),
    "condor-status": ("condor_status", "a slot ad"),
    "condor-userprio": ("condor_userprio",),
    "dirac-cfg": ("DIRAC",),
    "history": ("usage history",),
    "sacct": ("sacct -P",),
    "sacctmgr": ("sacctmgr",),
    "scontrol-assoc": ("scontrol show assoc_mgr",),
    "slurm-conf": ("slurm.conf",),
    "squeue": ("squeue --json",),
    "sshare": ("sshare",),
}
#: The kinds that write the state (the others print a config fragment).
STATE_KINDS = {"condor-history", "condor-q", "condor-status", "condor-userprio", "history"}
STATE_KINDS |= {"sacct", "scontrol-assoc", "squeue", "sshare"}

#: The files handed over, by the name the command line gives them.
FILES: dict[str, Path | bytes | None] = {
    "slots.json": HTCONDOR / "condor_status.json",
    "dirac.cfg": FIXTURES / "dirac-cfg" / "dirac.cfg",
    "shares.txt": SLURM / "ft1_running" / "sshare_a_l_P.txt",
    "squeue.txt": SLURM / "cl1_idle" / "squeue.txt",  # squeue's table, not --json
    "slurm.conf": SLURM / "config" / "slurm.conf.classic",
    "fairshare.toml": REPO / "sample_configs" / "pool.toml",  # fs's own config
    "junk.bin": b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4,
    "empty.txt": b"",
    "adir": None,  # a folder
}
#: The capture of each kind's own dump (not handed to it as a wrong file).
OWN = {"condor-status": "slots.json", "dirac-cfg": "dirac.cfg", "sshare": "shares.txt"}
OWN |= {"slurm-conf": "slurm.conf"}

LINES = [f"fs import {kind} {name}" for kind in READS for name in FILES if OWN.get(kind) != name]


@pytest.mark.parametrize("line", LINES)
def test_a_wrong_file_is_refused_naming_what_the_import_reads(
    line: str, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, content in FILES.items():
        if content is None:
            (tmp_path / name).mkdir()
        elif isinstance(content, bytes):
            (tmp_path / name).write_bytes(content)
        else:
            shutil.copy(content, tmp_path / name)
    argv = shlex.split(line)[1:]
    kind, name = argv[1], argv[2]
    if kind in STATE_KINDS:
        config = tmp_path / "pool.toml"
        config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
        argv += ["--config", str(config), "--state", "state.json", "--now", NOW]
    result = run(*argv)
    refused(result, name)
    assert result.stdout == ""
    said = result.stderr.replace(str(tmp_path), "")
    assert any(word in said.split(name, 1)[1] for word in READS[kind]), said
    assert not (tmp_path / "state.json").exists()
