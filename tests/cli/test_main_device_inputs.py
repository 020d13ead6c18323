"""Devices given as input files: ``/dev/zero`` or ``/dev/urandom`` never end, and read
whole they would fill the memory until the kernel killed fs (exit 137, no message). They
are refused with one line and exit 2 before anything is read; ``/dev/null`` reads as an
empty file and a named pipe (``<(condor_q -json)``) as any file, as before."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused
from tests.conftest import REPO

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
        (["submit", "--file", "/dev/zero"], "cannot read /dev/zero"),
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


def test_dev_null_reads_as_empty(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs import history /dev/null``: refused as an empty file is."""
    result = run("import", "history", "/dev/null", *common(env), "--dry-run")
    refused(result, "/dev/null: empty; expected a usage history")


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


def _waits_for_a_writer(pid: int) -> bool:
    """Whether the process ``pid`` sleeps in the kernel's open of a named pipe (Linux names
    the wait ``wait_for_partner``, older kernels ``fifo_open``), for up to 30 seconds."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            wchan = Path(f"/proc/{pid}/wchan").read_text(encoding="utf-8")
        except OSError:
            return False
        if wchan in ("wait_for_partner", "fifo_open"):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="no /proc wchan")
@pytest.mark.parametrize(
    ("signal_number", "code", "line"),
    [
        (signal.SIGINT, 130, b"fs: error: interrupted (Ctrl-C)\n"),
        (signal.SIGTERM, 143, b"fs: error: terminated (SIGTERM)\n"),
    ],
)
def test_a_named_pipe_with_no_writer_waits_as_cat_does_and_stops_at_ctrl_c(
    env: dict[str, Path], tmp_path: Path, signal_number: int, code: int, line: bytes
) -> None:
    """``fs simulate --workload FIFO`` with no writer yet waits for one, as ``cat FIFO``
    and ``jq . FIFO`` do: an input may be a pipe a slower program fills (``mkfifo w;
    make-workload > w &``). It is not the state or the config, which are refused at once.
    Ctrl-C or SIGTERM while it waits end it with its one line and code, nothing written."""
    pipe = tmp_path / "workload.pipe"
    os.mkfifo(pipe)
    before = env["state"].read_bytes()
    args = ["simulate", "--workload", str(pipe), "--until", "600", *common(env)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *args],
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        if not _waits_for_a_writer(proc.pid):
            pytest.skip("the kernel does not show where the process waits")
        proc.send_signal(signal_number)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, out, err) == (code, b"", line)
    assert env["state"].read_bytes() == before


class _Writer(threading.Thread):
    """Writes ``text`` into the named pipe, then opens it again for each reader that opens
    it after that (for up to a few seconds), closing it at once: a reader that reopens the
    pipe reads nothing instead of waiting for ever, and ``reopened`` counts those opens."""

    def __init__(self, pipe: Path, text: str) -> None:
        super().__init__()
        self.pipe, self.text, self.reopened = pipe, text, 0
        self.done = threading.Event()

    def run(self) -> None:
        self.pipe.write_text(self.text, encoding="utf-8")
        while not self.done.wait(0.05):
            try:
                fd = os.open(self.pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # (no reader waits: ENXIO)
                continue
            self.reopened += 1
            os.close(fd)


SLURM_CONF = "ClusterName=c\nPriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
SHOW_CONFIG = (
    "Configuration data as of 2026-11-21T12:00:00\nPriorityWeightAge       = 1000\n"
    "PriorityType            = priority/multifactor\n"
)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize(
    ("line", "text", "code", "says"),
    [
        # records out of start order are read again, sorted: the second reading found
        # nothing, and fs imported 0 records with exit 0
        (
            ["import", "history", "{pipe}", "--dry-run"],
            "owner,account,start,end\nalice,hep,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z\n"
            "bob,hep,2026-11-21T09:00:00Z,2026-11-21T11:00:00Z\n",
            0,
            "Imported 2 usage records from",
        ),
        # the fast reader refused, the exact one opened the pipe again: a wrong message
        (
            ["sprio", "--jobs-file", "{pipe}"],
            '[{"id": "1", "owner": "alice"}, {"id": "1", "owner": "alice"}]',
            2,
            "job 1 is given twice (job objects 1 and 2, counting from 1)",
        ),
        (
            ["negotiate", "--dry-run", "--jobs-file", "{pipe}"],
            '[{"id": "1", "owner": "alice", "submit_time": NaN}]',
            2,
            "submit_time",
        ),
        # its first line (scontrol show config?) read, then the file opened again
        (["import", "slurm-conf", "{pipe}"], SLURM_CONF, 0, ": 3 knobs"),
        (["import", "slurm-conf", "{pipe}"], SHOW_CONFIG, 0, ": 2 knobs"),
    ],
)
def test_a_named_pipe_is_read_once(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
    text: str,
    code: int,
    says: str,
) -> None:
    """``fs LINE`` with FILE a named pipe gives what the same text in a file gives: each
    reader that read an input twice reads a pipe's text once."""
    pipe = tmp_path / "input.pipe"
    os.mkfifo(pipe)
    writer = _Writer(pipe, text)
    writer.start()
    args = [a.replace("{pipe}", str(pipe)) for a in line]
    if "slurm-conf" not in line:
        args += common(env)
    before = env["state"].read_bytes()
    try:
        result = run(*args)
    finally:
        writer.done.set()
        writer.join(timeout=10)
    assert writer.reopened == 0
    assert result.exit_code == code, result.stderr
    assert says in result.stdout + result.stderr
    if code:
        refused(result, says)
    assert env["state"].read_bytes() == before


def test_scontrol_show_config_on_stdin_is_read_as_such(run: Callable[..., Any]) -> None:
    """``scontrol show config | fs import slurm-conf -`` (was: ``-:1: expected Key=Value``)."""
    result = run("import", "slurm-conf", "-", input=SHOW_CONFIG)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("-: 2 knobs, 0 nodes, 0 partitions"), result.stderr
    assert "[priority.weights]\nage = 1000" in result.stdout


class _Rescuer(threading.Thread):
    """Unblocks a reader that opened the named pipe and waits for a writer (what fs did
    with a pipe as its state or config): after ``patience`` seconds it opens the pipe for
    writing and closes it, so the reader reads an end of file and the test fails instead
    of hanging; ``rescued`` says whether a reader was found waiting."""

    def __init__(self, pipe: Path, patience: float = 20.0) -> None:
        super().__init__()
        self.pipe, self.patience, self.rescued = pipe, patience, False
        self.done = threading.Event()

    def run(self) -> None:
        if self.done.wait(self.patience):
            return
        while not self.done.wait(0.05):
            try:
                fd = os.open(self.pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # (no reader waits: ENXIO)
                continue
            self.rescued = True
            os.close(fd)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("option", ["--state", "--config"])
@pytest.mark.parametrize("linked", [False, True], ids=["pipe", "link-to-pipe"])
@pytest.mark.parametrize(
    "line",
    [
        ["userprio"],
        ["sprio"],
        ["sshare"],
        ["quota"],
        ["negotiate", "--dry-run"],
        ["taskqueues"],
        ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"],
        ["setfactor", "alice@example.org", "2", "--create"],
        ["submit", "--owner", "alice"],
    ],
    ids=lambda line: "-".join(line[:2]) if isinstance(line, list) else line,
)
def test_a_named_pipe_as_state_or_config_is_refused_at_once(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
    option: str,
    linked: bool,
) -> None:
    """``fs userprio --state FIFO`` (or ``--config FIFO``, any view or edit) waited for
    ever for a writer: the state and the config are files fs reads on every run, so a
    named pipe (or a link to one) is refused without opening it for a wait, one line and
    exit 2, nothing written."""
    pipe = tmp_path / "named.pipe"
    os.mkfifo(pipe)
    given = pipe
    if linked:
        given = tmp_path / ("state.link" if option == "--state" else "pool.link")
        given.symlink_to(pipe)
    args = common(env)
    args[args.index(option) + 1] = str(given)
    before = env["state"].read_bytes()
    rescuer = _Rescuer(pipe)
    rescuer.start()
    try:
        result = run(*line, *args)
    finally:
        rescuer.done.set()
        rescuer.join(timeout=10)
    assert not rescuer.rescued
    what = "state file" if option == "--state" else "config file"
    named = pipe if option == "--state" else given  # (a state link is the file it names)
    says = f"{what} {named} cannot be read: a named pipe, not a file"
    if option == "--state" and line[0] in ("setfactor", "submit"):
        says = f"cannot write state file {named}: not a regular file"  # (before its lock)
    refused(result, says)
    assert env["state"].read_bytes() == before
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_config_check_refuses_a_named_pipe(run: Callable[..., Any], tmp_path: Path) -> None:
    """``fs config check --config FIFO`` waited for a writer like the views."""
    pipe = tmp_path / "pool.toml"
    os.mkfifo(pipe)
    rescuer = _Rescuer(pipe)
    rescuer.start()
    try:
        result = run("config", "check", "--config", str(pipe))
    finally:
        rescuer.done.set()
        rescuer.join(timeout=10)
    assert not rescuer.rescued
    refused(result, f"config file {pipe} cannot be read: a named pipe, not a file")


@pytest.mark.parametrize("option", ["--state", "--config"])
def test_dev_null_as_state_or_config_is_refused(
    env: dict[str, Path], run: Callable[..., Any], option: str
) -> None:
    """``fs sshare --config /dev/null`` read an empty config (the state: 'is empty'): a
    device is no config or state, ``/dev/null`` included (an input file may still be it)."""
    args = common(env)
    args[args.index(option) + 1] = os.devnull
    what = "state file" if option == "--state" else "config file"
    refused(run("sshare", *args), f"{what} {os.devnull} cannot be read: {DEVICE}")


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (["userprio", "--state", "{zeros}"], "state file {zeros} cannot be read"),
        (["sshare", "--config", "{zeros}"], "config file {zeros} cannot be read"),
        (["sprio", "--jobs-file", "{zeros}"], "cannot read {zeros}"),
        (["taskqueues", "--jobs-file", "{zeros}"], "cannot read {zeros}"),
        (["submit", "--file", "{zeros}"], "cannot read {zeros}"),
        (["simulate", "--workload", "{zeros}", "--until", "1:00:00"], "cannot read {zeros}"),
        (["import", "history", "{zeros}"], "cannot read {zeros}"),
        (["import", "condor-q", "{zeros}"], "cannot read {zeros}"),
        (["import", "sacct", "{zeros}"], "cannot read {zeros}"),
        (["import", "squeue", "{zeros}"], "cannot read {zeros}"),
        (["import", "sacctmgr", "{zeros}", "--into", "{config}"], "cannot read {zeros}"),
        (["import", "dirac-cfg", "{zeros}", "--into", "{config}"], "cannot read {zeros}"),
        (["import", "condor-config", "{zeros}", "--into", "{config}"], "cannot read {zeros}"),
    ],
    ids=lambda value: "-".join(value[:2]) if isinstance(value, list) else None,
)
def test_a_sparse_file_is_refused_before_it_is_read(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str], names: str
) -> None:
    """``fs LINE`` with a 2 GB sparse file (``truncate -s 2G``; zero bytes, as a file a
    crash left unwritten reads): each reader read it whole, a 2 GB line of NULs, before it
    could call it binary: MemoryError tracebacks under a memory limit, else seconds and
    gigabytes. Now its first block is looked at: one line, exit 2, nothing written."""
    zeros = tmp_path / "zeros.bin"
    with zeros.open("wb") as fh:
        fh.truncate(2 << 30)  # (sparse: no block of it is on the disk)
    before = (env["state"].read_bytes(), env["config"].read_bytes())
    args = [a.format(zeros=zeros, config=env["config"]) for a in line]
    pool = [] if "--into" in args else common(env)  # (config fragments: no state, no time)
    for option in ("--config", "--state"):
        if option in args:
            at = pool.index(option)
            del pool[at : at + 2]
    result = run(*args, *pool)
    refused(result, names.format(zeros=zeros), "it starts with zero bytes only (a sparse")
    assert (env["state"].read_bytes(), env["config"].read_bytes()) == before


def _memory_limit() -> None:
    """At most 3 GB of address space for the fs a test starts."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (["import", "condor-q", "-"], "cannot read -: {fault} (fs import condor-q reads"),
        (["import", "history", "-"], "cannot read -: {fault} (fs import history reads"),
        (["submit", "--file", "-"], "cannot read -: {fault}"),
        (["sprio", "--jobs-file", "-"], "cannot read -: {fault}"),
    ],
)
@pytest.mark.parametrize(
    ("source", "fault"),
    [
        ("/dev/zero", "a device, not a file"),
        ("/dev/urandom", "a device, not a file"),
        ("big.sparse", "it starts with zero bytes only (a sparse or unwritten file)"),
    ],
)
def test_standard_input_from_a_device_or_a_sparse_file_is_refused(
    env: dict[str, Path], tmp_path: Path, line: list[str], says: str, source: str, fault: str
) -> None:
    """``fs import condor-q - < /dev/zero`` (and ``fs submit --file - < /dev/zero``) read
    the endless zeros until the memory ran out: killed by the kernel, exit 137 and no line
    (``out of memory``, exit 1, under a memory limit), where ``fs import condor-q /dev/zero``
    is refused at once. ``fs import history - < big.sparse`` (``truncate -s 2G``) copied
    the 2 GB into a temporary file before refusing it by that file's name
    (``cannot read /tmp/tmpc1plt4lf.input: it starts with zero bytes only ...``). Standard
    input is now looked at as the named file is: refused at once, named ``-``."""
    if source == "big.sparse":
        source = str(tmp_path / source)
        with open(source, "wb") as handle:
            handle.truncate(2 << 30)
    before = env["state"].read_bytes()
    args = [sys.executable, "-m", "fairshare_cli", *line, *common(env)]
    with open(source, "rb") as stdin:
        proc = subprocess.run(
            args, stdin=stdin, capture_output=True, timeout=120, check=False,
            env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)},
            preexec_fn=_memory_limit,  # (were it read again: "out of memory", not the machine's)
        )  # fmt: skip
    err = proc.stderr.decode()
    assert (proc.returncode, proc.stdout) == (2, b""), err
    assert err.startswith(f"fs: error: {says.format(fault=fault)}") and err.count("\n") == 1, err
    assert env["state"].read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("tmp")] == []
