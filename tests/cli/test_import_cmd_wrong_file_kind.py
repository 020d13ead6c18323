"""An import handed another tool's dump says which import the file is for.

Every import fed every capture under tests/fixtures that is not its own input is refused in
one line (exit 2, nothing written), and where the file shows whose it is, the line ends by
naming the import that reads it. Before, ``fs import condor-config dirac.cfg`` said only
``dirac.cfg:1: expected NAME = value (a condor_config line), got 'DIRAC'`` and ``fs import
history pool.toml`` ``unknown usage history field '# A realistic sample pool...'``: true,
but the admin was left to work out that the file wanted ``fs import dirac-cfg`` (or
``--config``). Captures fs reads with no import (``sprio``, ``squeue``'s table, logs) name
none. The fixtures begin with the shell line that made them (``$ sshare -a -l -P``); a
file saved from the tool has no such line, and the guess skips it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused
from tests.conftest import FIXTURES, REPO

NOW = "2026-11-23T18:25:33Z"
SAMPLE = REPO / "sample_configs"

#: What each capture is, by its name: the imports that read it (the words the refusal ends
#: with), or what the refusal says instead for fs's own files; None: nothing tells whose
#: it is (fs imports no sprio, no squeue table, no log, no README).
READS: dict[str, tuple[str, ...] | str | None] = {
    "dirac.cfg": ("dirac-cfg",),
    "condor_config": ("condor-config",),
    "condor_config_val.dump.txt": ("condor-config",),
    "condor_q.json": ("condor-q", "condor-history"),
    "condor_q.long.txt": ("condor-q", "condor-history"),
    "condor_status.json": ("condor-status",),
    "condor_status.long.txt": ("condor-status",),
    "condor_userprio.long.txt": ("condor-userprio",),
    "condor_userprio.long_allusers.txt": ("condor-userprio",),
    "condor_userprio.txt": ("condor-userprio",),
    "condor_userprio.allusers_all.txt": ("condor-userprio",),
    "condor_userprio.quotas.txt": ("condor-userprio",),
    "sacctmgr_assoc_tree.txt": ("sacctmgr",),
    "sacctmgr_qos.txt": ("sacctmgr",),
    "scontrol_assoc_mgr.txt": ("scontrol-assoc",),
    "scontrol_show_jobs.txt": ("squeue",),
    "scontrol_show_partition.txt": ("slurm-conf",),
    "scontrol_show_config_prior.txt": ("slurm-conf",),
    "sshare_a_l_P.txt": ("sshare",),
    "sshare_a_l.txt": ("sshare",),
    "sshare_a_P_fields.txt": ("sshare",),
    "sshare_json.txt": ("sshare",),
    "sshare_a_l_json.txt": ("sshare",),
    "sacct_jobs_1_13.txt": ("sacct",),
    "slurm.conf.classic": ("slurm-conf",),
    "slurm.conf.fairtree": ("slurm-conf",),
    "squeue_json.txt": ("squeue",),
    "history.csv": ("history",),
    "pool.toml": "give it as --config",
    "sample-state.json": "give it as --state",
    "jobs.json": "fs submit --file",
}
#: Every capture (the three other Slurm 22.05 clusters' files are cl1_idle's again), and
#: fs's own sample files.
COPIES = {"cl2_idle", "ft1_running", "ft2_idle"}
FILES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.parent.name not in COPIES)
FILES += [SAMPLE / name for name in ("history.csv", "pool.toml", "sample-state.json", "jobs.json")]
KINDS = ["condor-config", "condor-history", "condor-q", "condor-status", "condor-userprio"]
KINDS += ["dirac-cfg", "history", "sacct", "sacctmgr", "scontrol-assoc", "slurm-conf"]
KINDS += ["squeue", "sshare"]
#: The kinds that write the state (the others print a config fragment).
STATE_KINDS = {"condor-history", "condor-q", "condor-status", "condor-userprio", "history"}
STATE_KINDS |= {"sacct", "scontrol-assoc", "squeue", "sshare"}


def _lines() -> list[Any]:
    out = []
    for path in FILES:
        reads = READS.get(path.name)
        for kind in KINDS:
            if isinstance(reads, tuple) and kind in reads:
                continue
            name = f"{path.parent.name}/{path.name}"
            out.append(pytest.param(kind, path, reads, id=f"fs import {kind} {name}"))
    return out


@pytest.mark.parametrize(("kind", "path", "reads"), _lines())
def test_a_dump_for_another_import_is_refused_naming_that_import(
    kind: str,
    path: Path,
    reads: tuple[str, ...] | str | None,
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    argv = ["import", kind, str(path)]
    if kind in STATE_KINDS:
        config = tmp_path / "pool.toml"
        config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
        argv += ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]
    result = run(*argv)
    refused(result, path.name)
    assert result.stdout == ""
    said = result.stderr
    if isinstance(reads, tuple):
        assert any(f"fs import {k}" in said for k in reads), said
    elif isinstance(reads, str):
        assert reads in said, said
    else:
        assert "it looks like" not in said, said
    assert not (tmp_path / "state.json").exists()


def test_the_exact_line_of_a_dirac_cfg_given_to_condor_config(run: Callable[..., Any]) -> None:
    result = run("import", "condor-config", str(FIXTURES / "dirac-cfg" / "dirac.cfg"))
    refused(result, "dirac.cfg")
    assert result.stderr.endswith(
        "dirac.cfg:1: expected NAME = value (a condor_config line), got 'DIRAC'; "
        "it looks like a DIRAC configuration: fs import dirac-cfg reads it\n"
    )
