"""``--into CONFIG`` where CONFIG links to a device, with a state to write
(``fs import condor-status`` and ``fs import sshare``, cli/fragment.merged_last): the
copy kept to put the config back read ``/dev/zero`` until the memory ran out (24 GB, the
kernel killed fs) and waited for ever on a named pipe. Now one line, exit 2. Run in a
process with a memory limit and a timeout, so that a regression fails, not the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO

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
    assert (
        done.stderr
        == f"fs: error: config file {config} cannot be read: a device, not a file\n".encode()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]
