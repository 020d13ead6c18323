"""Bad Slurm dumps: exit 2, one line naming the file and line, nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-22.05"
JOBS = (FIXTURES / "ft1_running" / "scontrol_show_jobs.txt").read_bytes()
ASSOC = (FIXTURES / "ft1_running" / "scontrol_assoc_mgr.txt").read_bytes()
CONFIG = """[pool]
defaults = "current"
[accounts.b]
users = { u1 = 1 }
"""


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        pytest.param(
            "sacctmgr",
            b"Cluster|Account|Bogus\noracle|a|1\n",
            'f:1: unknown sacctmgr field "Bogus"',
            id="unknown-field",
        ),
        pytest.param(
            "sacctmgr",
            b"Cluster|Account|User|Share|ParentName\noracle|a||40|root\noracle|b||1\n",
            "f:3: expected 5 fields separated by |",
            id="field-count",
        ),
        pytest.param(
            "sacctmgr",
            b"   Name   Priority\n---------- ----------\n normal 0\n    low  25  extra stuff\n",
            "f:4: the row is wider than the table's header",
            id="table-row-too-wide",
        ),
        pytest.param("sacctmgr", b"\x7fELF\x02\x01\x00\x00", "f:1: binary data", id="binary"),
        pytest.param(
            "slurm-conf",
            b"ClusterName=x\nPriorityWeightAge=lots\n",
            "f:2: PriorityWeightAge",
            id="conf-value",
        ),
        pytest.param("slurm-conf", b"NodeName=n[1-\n", "f:1: NodeName: unbalanced", id="range"),
        pytest.param(
            "slurm-conf",
            b"ClusterName=x\nInclude missing.conf\n",
            "f:2: included file",
            id="include",
        ),
        pytest.param("squeue", b'{"jobs": [{"job_id": 1,\n', "f:2: not valid JSON", id="json"),
        pytest.param("squeue", JOBS[:400] + b"\xff\xfe\n", "f:10: not UTF-8", id="junk"),
        pytest.param(
            "squeue",
            JOBS.replace(b"NumCPUs=8", b"NumCPUs=eight", 1),
            "f:16: NumCPUs",
            id="cpus",
        ),
        pytest.param(
            "sshare",
            b"Account|User|RawUsage|Bogus\nroot|||1\n",
            'f:1: unknown sshare field "Bogus"',
            id="sshare-field",
        ),
        pytest.param(
            "sshare",
            b"Account|User|RawUsage\n b|u1|12|9\n",
            "f:2: expected 3 fields",
            id="sshare-count",
        ),
        pytest.param(
            "sshare",
            b"Account|User|RawUsage\n b|u1|lots\n",
            "f:2: RawUsage",
            id="sshare-usage",
        ),
        pytest.param(
            "scontrol-assoc", b"hello\n", "f:1: expected scontrol show assoc_mgr", id="text"
        ),
        pytest.param(
            "scontrol-assoc",
            ASSOC.replace(b"UsageRaw/Norm/Efctv=1731.96", b"UsageRaw/Norm/Efctv=lots", 1),
            "f:36: UsageRaw",
            id="usage",
        ),
    ],
)
def test_bad_dump(
    tmp_path: Path, run: Callable[..., Any], kind: str, data: bytes, message: str
) -> None:
    dump = tmp_path / "f"
    dump.write_bytes(data)
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG)
    state = tmp_path / "state.json"
    args = ["import", kind, "f"]
    if kind in ("sacctmgr", "slurm-conf", "sshare"):
        args += ["--into", str(cfg)]
    if kind not in ("sacctmgr", "slurm-conf"):
        args += ["--config", str(cfg), "--state", str(state)]
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = run(*args)
    finally:
        os.chdir(here)
    assert res.exit_code == 2
    assert res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1
    assert message in res.stderr
    assert cfg.read_text() == CONFIG
    assert not state.exists()
