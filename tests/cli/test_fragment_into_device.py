"""``--into CONFIG`` where CONFIG links to a device, with a state to write
(``fs import condor-status`` and ``fs import sshare``, cli/fragment.merged_last): the
copy kept to put the config back read ``/dev/zero`` until the memory ran out (24 GB, the
kernel killed fs) and waited for ever on a named pipe. Now one line, exit 2: refused as
``--into`` refuses the device itself, before any work. Run in a process with a memory
limit and a timeout, so that a regression fails, not the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO

#: How an output file that is (or links to) a device or a pipe is refused.
REFUSED = "not a regular file (a device, a pipe or a folder), which fs would replace; name a file"

DUMPS = {
    "condor-status": FIXTURES / "htcondor-25.0" / "flat_users" / "condor_status.json",
    "sshare": FIXTURES / "slurm-22.05" / "ft1_running" / "sshare_a_l_P.txt",
}


def _limited() -> None:  # (in the child: 1 GB of address space)
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("kind", sorted(DUMPS))
def test_into_a_link_to_a_device_is_refused(tmp_path: Path, kind: str) -> None:
    config = tmp_path / "pool.toml"
    config.symlink_to(os.devnull.replace("null", "zero"))
    line = [
        sys.executable, "-m", "fairshare_cli", "import", kind, str(DUMPS[kind]),
        "--into", str(config), "--config", str(config), "--state", str(tmp_path / "s.json"),
        "--now", "2026-11-23T18:25:33Z",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        line, capture_output=True, timeout=60, env=env, preexec_fn=_limited, check=False
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == f"fs: error: cannot write config file {config}: {REFUSED}\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_into_a_link_to_a_named_pipe_is_refused(tmp_path: Path) -> None:
    """``fs import sacctmgr QOS --into LINK`` with LINK a link to a named pipe passed the
    check for a pipe (it looked at the link) and waited for ever for a writer."""
    os.mkfifo(tmp_path / "pipe")
    config = tmp_path / "pool.toml"
    config.symlink_to(tmp_path / "pipe")
    qos = FIXTURES / "slurm-22.05" / "ft1_running" / "sacctmgr_qos.txt"
    line = [sys.executable, "-m", "fairshare_cli", "import", "sacctmgr", str(qos)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [*line, "--into", str(config)], capture_output=True, timeout=60, env=env, check=False
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == f"fs: error: cannot write config file {config}: {REFUSED}\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe", "pool.toml"]
