"""Devices given as input files: ``/dev/zero`` or ``/dev/urandom`` never end, and read
whole they would fill the memory until the kernel killed fs (exit 137, no message). They
are refused with one line and exit 2 before anything is read; ``/dev/null`` reads as an
empty file and a named pipe (``<(condor_q -json)``) as any file, as before."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")

DEVICE = "a device, not a file"


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (["userprio", "--state", "/dev/zero"], "state file /dev/zero cannot be read"),
        (["sshare", "--config", "/dev/zero"], "config file /dev/zero cannot be read"),
        (["sprio", "-l", "--jobs-file", "/dev/zero"], "cannot read /dev/zero"),
        (["negotiate", "--dry-run", "--jobs-file", "/dev/zero"], "cannot read /dev/zero"),
        (["taskqueues", "--jobs-file", "/dev/zero"], "cannot read /dev/zero"),
        (["import", "history", "/dev/urandom"], "cannot read /dev/urandom"),
        (["import", "squeue", "/dev/zero"], "cannot read /dev/zero"),
        (["import", "condor-q", "/dev/zero"], "cannot read /dev/zero"),
        (["simulate", "--workload", "/dev/zero", "--until", "1:00:00"], "cannot read /dev/zero"),
        (["submit", "--file", "/dev/zero"], "jobs file /dev/zero cannot be read"),
    ],
)
def test_an_endless_device_is_refused(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], names: str
) -> None:
    """``fs LINE --config POOL --state STATE --now NOW`` (but the line's own ``--config``
    or ``--state``)."""
    before = env["state"].read_bytes()
    pool = common(env)
    for option in ("--config", "--state"):
        if option in line:
            at = pool.index(option)
            del pool[at : at + 2]
    refused(run(*line, *pool), names, DEVICE)
    assert env["state"].read_bytes() == before


def test_dev_null_still_reads_as_empty(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs import history /dev/null``: no records, as an empty file gives."""
    result = run("import", "history", "/dev/null", *common(env), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "Imported 0 usage records from /dev/null" in result.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_still_reads(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sprio --jobs-file PIPE`` reads the jobs a writer puts into the pipe."""
    pipe = tmp_path / "jobs.pipe"
    os.mkfifo(pipe)
    jobs = '[{"id": "7", "owner": "alice", "account": "hep", "submit_time": 1795000000}]'
    writer = threading.Thread(target=pipe.write_text, args=(jobs,))
    writer.start()
    try:
        result = run("sprio", "--jobs-file", str(pipe), *common(env))
    finally:
        writer.join(timeout=10)
    assert result.exit_code == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["JOBID", "7"]
