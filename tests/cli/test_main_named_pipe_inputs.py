"""A named pipe given as an input path (``fs import squeue <(yes '')``, a FIFO) is judged
as standard input is: a pipe whose first 16 MB are blank, or that holds a NUL byte, is
refused at once in ``-``'s words with the pipe's name, exit 2, nothing written. Before,
only ``-`` was judged: a path that was a pipe was read to its end, which never came
(``yes '' | fs import squeue -`` ended at once; ``fs import squeue <(yes '')`` never did).

Each pipe is a real FIFO with a writer thread that writes without end, giving up after
:data:`CAP` bytes or :data:`PATIENCE` seconds: a reader that reads on fails the test
instead of hanging it."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused
from tests.cli.test_sweep import write_spec
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")

#: What the writer gives up after: 4 times the 16 MB of blank space that is refused.
CAP = 64 << 20
#: How long the writer waits for a reader, or writes, at most.
PATIENCE = 60.0

BLANK = "it starts with 16 MB of whitespace only (no JSON value or record)"

#: What each import reads, as its refusal of an unreadable input names it (cli/import_cmd
#: and the kinds' commands: "(fs import KIND reads ...)").
READS = {
    "squeue": "squeue --json or scontrol show jobs output",
    "sshare": "sshare -a -l -P output",
    "sacct": "sacct -P output",
    "sacctmgr": "sacctmgr -P show assoc, sacctmgr show qos or sacctmgr dump output",
    "scontrol-assoc": "scontrol show assoc_mgr output",
    "slurm-conf": "a slurm.conf",
    "condor-q": "condor_q -json or -long output",
    "condor-status": "condor_status -json or -long output",
    "condor-userprio": "condor_userprio -l output",
    "condor-history": "condor_history -json or -long output",
    "history": "a usage history: CSV with a header line, or JSON lines",
    "condor-config": "a condor_config file or condor_config_val -dump output",
    "dirac-cfg": "a DIRAC configuration, .cfg text",
}
#: The imports that write a config fragment, not the state (no --config, --state, --now).
FRAGMENTS = ("sacctmgr", "slurm-conf", "condor-config", "dirac-cfg")
#: The options that read a jobs file or a usage history, on the command lines they take.
OPTIONS = [
    ["sprio", "--jobs-file", "{pipe}"],
    ["negotiate", "--dry-run", "--jobs-file", "{pipe}"],
    ["quota", "--jobs-file", "{pipe}"],
    ["taskqueues", "--jobs-file", "{pipe}"],
    ["simulate", "--workload", "{pipe}", "--until", "1:00:00"],
    ["submit", "--file", "{pipe}"],
    ["whatif", "--history", "{pipe}", "--set", "accountant.priority_halflife=3600", "userprio"],
]


class _Endless(threading.Thread):
    """Writes ``head``, then ``block`` again and again into the named pipe once a reader
    opens it, until the reader closes it or the test ends (``sent``: the bytes written),
    :data:`CAP` bytes or :data:`PATIENCE` seconds."""

    def __init__(self, pipe: Path, block: bytes, head: bytes = b"") -> None:
        super().__init__(daemon=True)
        self.pipe, self.block, self.head, self.sent = pipe, block, head, 0
        self.done = threading.Event()

    def run(self) -> None:
        end = time.monotonic() + PATIENCE
        fd = -1
        while fd < 0 and not self.done.is_set() and time.monotonic() < end:
            try:  # (without waiting: a command refused before it opens the pipe ends it)
                fd = os.open(self.pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # (no reader yet: ENXIO)
                time.sleep(0.01)
        if fd < 0:
            return
        try:
            self._write(fd, self.head, end)
            while self.sent < CAP and self._write(fd, self.block, end):
                self.sent += len(self.block)
        except BrokenPipeError:  # (the reader left: what is wanted)
            pass
        finally:
            os.close(fd)

    def _write(self, fd: int, data: bytes, end: float) -> bool:
        """Write all of ``data`` (False: the test is over, or out of patience first); a
        full pipe is waited on, not blocked in (a reader that refused the input may keep
        it open, unread, until it is collected)."""
        view = memoryview(data)
        while view:
            if self.done.is_set() or time.monotonic() > end:
                return False
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                time.sleep(0.005)
        return True


def _through_pipe(
    run: Callable[..., Any], tmp_path: Path, line: list[str], block: bytes, head: bytes = b""
) -> tuple[Any, str, int]:
    """``fs LINE`` with ``{pipe}`` a FIFO fed ``head`` then ``block`` without end: the
    result, the pipe's path and how many bytes the writer handed over."""
    pipe = tmp_path / "input.pipe"
    os.mkfifo(pipe)
    writer = _Endless(pipe, block, head)
    writer.start()
    try:
        result = run(*[a.replace("{pipe}", str(pipe)) for a in line])
    finally:
        writer.done.set()
        writer.join(timeout=PATIENCE)
    return result, str(pipe), writer.sent


def _line(kind: str, env: dict[str, Path]) -> list[str]:
    """``import KIND {pipe}``, with the pool's options where the import takes them."""
    return ["import", kind, "{pipe}", *([] if kind in FRAGMENTS else common(env))]


@pytest.mark.parametrize("kind", list(READS))
def test_fs_import_of_a_pipe_of_blank_lines_is_refused_as_stdin_is(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, kind: str
) -> None:
    """``fs import KIND <(yes '')``: what ``yes '' | fs import KIND -`` says (see
    tests/cli/imports/test_common_endless_pipes.py), naming the pipe; 16 MB read, no
    more than a block past them, the state as it was."""
    before = env["state"].read_bytes()
    result, pipe, sent = _through_pipe(run, tmp_path, _line(kind, env), b"\n" * 65536)
    refused(result)
    reads = f"(fs import {kind} reads {READS[kind]})"
    assert result.stderr == f"fs: error: cannot read {pipe}: {BLANK} {reads}\n"
    assert sent < CAP // 2
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize("line", OPTIONS, ids=lambda line: line[0])
def test_an_option_naming_a_pipe_of_blank_lines_is_refused_as_stdin_is(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str]
) -> None:
    """``fs sprio --jobs-file <(yes '')`` (``--workload``, ``--history``, ``--file``):
    what ``yes '' | fs sprio --jobs-file -`` says, naming the pipe."""
    before = env["state"].read_bytes()
    result, pipe, sent = _through_pipe(run, tmp_path, [*line, *common(env)], b"\n" * 65536)
    refused(result)
    assert result.stderr == f"fs: error: cannot read {pipe}: {BLANK}\n"
    assert sent < CAP // 2
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    "line",
    [["import", "squeue", "{pipe}"], ["import", "dirac-cfg", "{pipe}"], *OPTIONS],
    ids=lambda line: "-".join(line[:2]),
)
def test_a_pipe_of_zero_bytes_is_refused_at_its_first(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str]
) -> None:
    """``fs import squeue <(cat /dev/zero)``: refused at byte 0 as ``cat /dev/zero | fs
    import squeue -`` is (fs's entry point reads a piped stdin so), naming the pipe (not
    standard input). dirac-cfg and sacct read it for ever, the others into a line of
    64 MiB."""
    args = line if "dirac-cfg" in line else [*line, *common(env)]
    result, pipe, sent = _through_pipe(run, tmp_path, args, bytes(65536))
    refused(result)
    first = result.stderr.split(" (fs import ")[0]
    assert first == (
        f"fs: error: cannot read {pipe}: binary data (a NUL byte at byte 0), not text; fs "
        "stopped reading the pipe there"
    ) + ("" if line[0] == "import" else "\n")
    assert sent < CAP // 2


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (["import", "squeue", "{pipe}"], '{pipe}:1: expected "JobId=..." (scontrol show jobs) '
         "or squeue --json output"),
        (["import", "sshare", "{pipe}"], "{pipe}:1: expected sshare's header (with -P, or a "
         "table)"),
        (["sprio", "--jobs-file", "{pipe}"], "{pipe}: not valid JSON (line 1, column 1: "
         "Expecting value); expected a list of job objects"),
        # (fs submit --file read it whole, as yes | fs submit --file - did: for ever)
        (["submit", "--file", "{pipe}"], "{pipe}: not valid JSON (line 1, column 1: "
         "Expecting value); expected a list of job objects"),
    ],
)  # fmt: skip
def test_a_pipe_of_endless_lines_is_refused_at_its_first(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str], says: str
) -> None:
    """``fs import sshare <(yes)``: ``yes | fs import sshare -``'s words (its first line
    judged before the rest is read), naming the pipe."""
    result, pipe, sent = _through_pipe(run, tmp_path, [*line, *common(env)], b"y\n" * 32768)
    refused(result)
    assert result.stderr == f"fs: error: {says.replace('{pipe}', pipe)}\n"
    assert sent < CAP // 2


def test_a_pipe_whose_blank_start_is_short_of_the_limit_reads_as_the_file(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """A blank start read to judge the pipe is put back: ``fs import slurm-conf FIFO`` of
    256 KiB of blank lines (several reads of a pipe), then a real slurm.conf, prints
    what the same bytes in a file give."""
    conf = (REPO / "tests/fixtures/slurm-22.05/config/slurm.conf.fairtree").read_bytes()
    text = b"\n" * (256 << 10) + conf
    (tmp_path / "slurm.conf").write_bytes(text)
    as_file = run("import", "slurm-conf", str(tmp_path / "slurm.conf"))
    assert as_file.exit_code == 0, as_file.stderr
    pipe = tmp_path / "slurm.pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_bytes, args=(text,), daemon=True)
    writer.start()
    try:
        result = run("import", "slurm-conf", str(pipe))
    finally:
        writer.join(timeout=PATIENCE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == as_file.stdout
    assert result.stderr == as_file.stderr.replace(str(tmp_path / "slurm.conf"), str(pipe))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("kind", list(READS))
def test_fs_import_of_dev_zero_is_refused_before_it_is_read(
    env: dict[str, Path], run: Callable[..., Any], kind: str
) -> None:
    """``fs import KIND /dev/zero``: a device, refused as ``fs import KIND - < /dev/zero``
    is (io/input_heads.refuse_blank_stdin: a device other than /dev/null or a terminal)."""
    line = [a.replace("{pipe}", "/dev/zero") for a in _line(kind, env)]
    result = run(*line)
    refused(result)
    reads = f"(fs import {kind} reads {READS[kind]})"
    assert result.stderr == f"fs: error: cannot read /dev/zero: a device, not a file {reads}\n"


def test_a_sweep_spec_that_never_ends_is_refused_after_64_mib(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs sweep run <(yes) --out runs``: a spec is TOML, read whole before it is parsed;
    read as it came, the pipe filled the memory. Now 64 MiB of it are read (the longest
    line a dump may hold, core/limits.MAX_LINE), no more, and it is refused: exit 2,
    nothing written. The writer may send 80 MiB here, so that the refusal is fs's."""
    monkeypatch.setitem(globals(), "CAP", 80 << 20)
    out = tmp_path / "runs"
    line = ["sweep", "run", "{pipe}", "--out", str(out), "--engine", "slurm"]
    result, pipe, sent = _through_pipe(run, tmp_path, line, b"y\n" * 32768)
    refused(result)
    assert result.stderr == (
        f"fs: error: sweep spec {pipe} is longer than 64 MiB; expected a TOML file\n"
    )
    assert (64 << 20) <= sent < (80 << 20)
    assert not out.exists()


def test_a_sweep_spec_through_a_pipe_runs_as_the_file(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sweep run SPEC --json`` with the spec a FIFO: the points the file gives (its
    files named in it found beside the pipe, as beside the file)."""
    spec = write_spec(tmp_path)
    as_file = run("sweep", "run", str(spec), "--json")
    assert as_file.exit_code == 0, as_file.stderr
    pipe = tmp_path / "spec.pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_bytes, args=(spec.read_bytes(),), daemon=True)
    writer.start()
    try:
        result = run("sweep", "run", str(pipe), "--json", "--out", str(tmp_path / "piped"))
    finally:
        writer.join(timeout=PATIENCE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == as_file.stdout


def test_a_sweep_spec_on_standard_input_needs_out(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs sweep run - < SPEC`` would name its folder ``-.sweep`` (which ``rm -r`` takes
    for an option): it asks for ``--out`` (usage, exit 2); with it, the points the file
    gives (its files found in the folder fs runs in)."""
    spec = write_spec(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run("sweep", "run", "-", input=spec.read_text(encoding="utf-8"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: a spec read from standard input (-) needs --out DIR "
        "(see 'cli sweep run --help')\n"
    )
    as_file = run("sweep", "run", str(spec), "--json")
    assert as_file.exit_code == 0, as_file.stderr
    piped = run("sweep", "run", "-", "--out", str(tmp_path / "in"), "--json",
                input=spec.read_text(encoding="utf-8"))  # fmt: skip
    assert piped.exit_code == 0, piped.stderr
    assert piped.stdout == as_file.stdout
