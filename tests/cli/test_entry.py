"""``fs`` as a program (``fairshare_cli.cli.entry.main``): the command's output whole, its
exit code, and a closed pipe ending it with 0 and nothing on stderr."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.entry import exit_code
from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]


def _fs(
    args: list[str], extra: dict[str, str] | None = None, **kwargs: object
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120", **(extra or {})}
    return subprocess.Popen(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-m", "fairshare_cli", *args], env=env, cwd=REPO, **kwargs
    )


@pytest.mark.parametrize(
    ("code", "status", "printed"),
    [(None, 0, ""), (0, 0, ""), (2, 2, ""), (True, 1, ""), ("bad things", 1, "bad things\n")],
)
def test_exit_code_is_pythons(
    code: object, status: int, printed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """SystemExit's code as Python's own exit reads it: None is 0, an integer itself (a
    bool is one), anything else printed on stderr and 1."""
    assert exit_code(code) == status
    assert capsys.readouterr().err == printed


@pytest.mark.parametrize("args", [["userprio", "--allusers"], ["sshare", "-a", "-l"]])
def test_the_program_writes_what_the_command_writes(args: list[str]) -> None:
    """Every byte the command writes reaches the pipe before the process ends."""
    proc = _fs([*args, *SAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    expected = CliRunner().invoke(cli, [*args, *SAMPLE], env={"COLUMNS": "120"})
    assert (proc.returncode, err) == (0, b"")
    assert expected.exit_code == 0
    assert out.decode() == expected.stdout
    assert out.count(b"\n") > 5


def test_the_program_exits_with_the_commands_code() -> None:
    """A bad option: exit 2 and the one-line error, as the command gives them."""
    proc = _fs(["userprio", "--bogus"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert out == b""
    assert err.decode().startswith("fs: error: No such option '--bogus'.")
    assert err.count(b"\n") == 1


def test_a_closed_pipe_ends_it_with_0_quietly() -> None:
    """The reader is gone before fs writes (``fs userprio | true``): exit 0, the view's
    code whether or not its table fitted the pipe (it was 1, and 0 when the reader left
    after the table fitted: a race), no traceback nor "Exception ignored" on stderr."""
    proc = _fs(["userprio", "--allusers", *SAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # (long before the interpreter has started)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert err == b""


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_reader_leaving_during_a_large_table_ends_it_with_0_quietly(
    tmp_path: Path, unbuffered: str
) -> None:
    """``fs taskqueues --jobs-file many.json ... | head -1``: a table of megabytes, written
    in one piece, that the reader leaves after its first line. With ``PYTHONUNBUFFERED=1``
    (as containers often set it) the part the pipe took was counted as the whole; the rest
    now meets the closed pipe, and fs ends with 0, quietly, as on any closed pipe, buffered
    or not."""
    jobs = [
        {"id": f"{i}.0", "owner": "alice", "dirac_group": "lhcb_user",
         "dirac_requirements": {"sites": [f"LCG.S{i}.x"]}}
        for i in range(20000)
    ]  # fmt: skip
    many = tmp_path / "many.json"
    many.write_text(json.dumps(jobs), encoding="utf-8")
    state = ["--state", str(tmp_path / "state.json"), "--jobs-file", str(many)]
    proc = _fs(
        ["taskqueues", *state, *SAMPLE],
        {"PYTHONUNBUFFERED": unbuffered},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(b" TQId  Owner")
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, b"")


PREVIEWS = [
    ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"],
    ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", "--json"],
    ["simulate", "--workload", "sample_configs/workload.json", "--until", "6:00:00", "--json"],
    ["simulate", "--workload", "sample_configs/workload.json", "--until", "6:00:00", "--series"],
]


@pytest.mark.parametrize("args", PREVIEWS, ids=[" ".join(a) for a in PREVIEWS])
def test_a_preview_read_by_head_or_a_json_reader_ends_quietly(args: list[str]) -> None:
    """``fs whatif ... | head -3`` and ``fs simulate ... --json | head -3``: the reader
    leaves after three lines, and fs ends with 0 without a traceback, whether it had
    written everything or not; read whole, ``--json`` is one JSON document."""
    proc = _fs([*args, *SAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    head = [proc.stdout.readline() for _ in range(3)]
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert all(head) and proc.returncode == 0
    assert err == b""
    if "--json" in args:
        whole = _fs([*args, *SAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = whole.communicate(timeout=120)
        assert (whole.returncode, err) == (0, b"")
        assert json.loads(out)


@pytest.mark.parametrize(("args", "code"), [(["--help"], 0), (["--bogus"], 2)])
@pytest.mark.parametrize("closed", [1, 2])
def test_a_stream_closed_from_the_start_changes_nothing(
    args: list[str], code: int, closed: int
) -> None:
    """Started with stdout or stderr closed (``fs --help >&-``), Python has no stream
    there: fs exits as it would with one, no traceback."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    shell = f'exec "{sys.executable}" -m fairshare_cli {" ".join(args)} {closed}>&-'
    kept = subprocess.PIPE
    if closed == 1:
        proc = subprocess.run(["sh", "-c", shell], env=env, cwd=REPO, stderr=kept)
        out = proc.stderr
    else:
        proc = subprocess.run(["sh", "-c", shell], env=env, cwd=REPO, stdout=kept)
        out = proc.stdout
    assert proc.returncode == code
    assert b"Traceback" not in out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["userprio", "--allusers"], ["userprio", "--json"]])
def test_a_full_output_device_is_one_line(args: list[str]) -> None:
    """Output to a full device (``fs userprio > /dev/full``): one line naming what failed,
    exit 1, no traceback."""
    with open("/dev/full", "wb") as full:
        proc = _fs([*args, *SAMPLE], stdout=full, stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert err == b"fs: error: writing the output: No space left on device\n"


@pytest.mark.parametrize(
    ("args", "closed"),
    [
        (["negotiate"], 1),  # (its table asked whether a closed stdout is a terminal)
        (["negotiate"], 2),
        (["import", "history", str(REPO / "sample_configs" / "history.csv")], 2),
    ],
)
def test_a_write_with_a_stream_closed_from_the_start_still_writes(
    args: list[str], closed: int, tmp_path: Path
) -> None:
    """A command that writes the state, started with stdout or stderr closed
    (``fs negotiate >&-``): what would go there is dropped, the state is written, exit 0
    (it was a traceback with stdout closed, and a silent exit 1 with nothing written with
    stderr closed: ``sys.stderr.isatty()`` on None)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    state = tmp_path / "state.json"
    words = " ".join([*args, *SAMPLE, "--state", str(state)])
    shell = f'exec "{sys.executable}" -m fairshare_cli {words} {closed}>&-'
    kept = {"stderr" if closed == 1 else "stdout": subprocess.PIPE}
    proc = subprocess.run(["sh", "-c", shell], env=env, cwd=REPO, **kept)  # type: ignore[call-overload]
    assert proc.returncode == 0
    assert b"Traceback" not in (proc.stderr if closed == 1 else proc.stdout)
    assert state.exists()


def _long_history(folder: Path) -> Path:
    """A history whose import runs some seconds: 300,000 one-minute records, a second
    apart, every one ended before NOW. (They ran past NOW from record 262,342 on: a
    signal that came late, the test's process stopped a moment on a loaded machine, found
    the import refused, "ends after --now", exit 2; the flake that was.)"""
    history = folder / "history.csv"
    rows = ["owner,start,end,slots"]
    rows += [f"alice,{1794900000 + i},{1794900060 + i},1" for i in range(300_000)]
    history.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return history


def _signal_an_import(
    folder: Path, signum: int, rebuild: bool, settle: float
) -> tuple[int, bytes, bytes] | None:
    """``fs import history`` of :func:`_long_history` into ``folder`` (its state and store
    as the caller left them), sent ``signum`` once the new store is being written and
    ``settle`` seconds more: its exit code, stdout and stderr; None when the import ended
    before the signal could come (a loaded machine: try again)."""
    state = folder / "state.json"
    args = ["import", "history", str(_long_history(folder)), *SAMPLE, "--state", str(state)]
    proc = _fs(args + ["--rebuild"] * rebuild, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    new = folder / "state.history.sqlite.new"
    deadline = time.monotonic() + 30
    while not new.exists() and time.monotonic() < deadline:  # (the store is being written)
        time.sleep(0.01)
    time.sleep(settle)
    if proc.poll() is None:
        proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 0:  # (done before the signal: a valid history imports whole)
        return None
    return proc.returncode, out, err


def test_ctrl_c_during_an_import_is_one_line_and_130(tmp_path: Path) -> None:
    """SIGINT while an import runs (a large history's Ctrl-C): ``fs: error: interrupted
    (Ctrl-C)``, exit 130, nothing written (it was click's blank line and "Aborted!", exit
    1)."""
    for attempt in range(3):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        ended = _signal_an_import(folder, signal.SIGINT, rebuild=False, settle=0.3)
        if ended is not None:
            break
    assert ended == (130, b"", b"fs: error: interrupted (Ctrl-C)\n")
    assert sorted(p.name for p in folder.iterdir()) == ["history.csv", "state.json.lock"]


@pytest.mark.parametrize("rebuild", [False, True], ids=["first-import", "rebuild"])
def test_sigterm_during_an_import_is_one_line_and_143_and_leaves_nothing(
    tmp_path: Path, rebuild: bool
) -> None:
    """SIGTERM (``kill``, a batch system preempting) while an import runs killed the
    process where it stood: ``state.history.sqlite.new`` and its journal (and, for a
    --rebuild, the old store's ``.kept`` link) stayed behind. Now it stops as Ctrl-C does:
    ``fs: error: terminated (SIGTERM)``, exit 143, every file as it was."""
    for attempt in range(3):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        files = ["history.csv", "state.json.lock"]
        if rebuild:
            state = REPO / "sample_configs" / "sample-state.json"
            (folder / "state.json").write_bytes(state.read_bytes())
            store = REPO / "sample_configs" / "sample-state.history.sqlite"
            (folder / "state.history.sqlite").write_bytes(store.read_bytes())
            files = sorted([*files, "state.json", "state.history.sqlite"])
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        ended = _signal_an_import(folder, signal.SIGTERM, rebuild, settle=0.0)
        if ended is not None:
            break
    assert ended == (143, b"", b"fs: error: terminated (SIGTERM)\n")
    assert sorted(p.name for p in folder.iterdir()) == files
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in before} == before


def test_sigterm_stops_a_local_sweep_and_its_workers_at_once(tmp_path: Path) -> None:
    """SIGTERM reaches fs alone, not the processes running the points: ``fs sweep SPEC
    --jobs 2`` waited for each running point to end (67 s of this sweep) before it
    stopped. Now the workers are ended with it: exit 143 within seconds, one line."""
    from tests.cli.test_sweep import CONFIG, WORKLOAD

    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        'config = "pool.toml"\nworkload = "work.json"\nnow = "2026-11-20T00:00:00Z"\n'
        'until = "60-0"\ncycle = "60"\n[[axis]]\nkey = "accountant.priority_halflife"\n'
        "values = [600, 3600]\n",
        encoding="utf-8",
    )
    proc = _fs(["sweep", str(spec), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)  # (the workers started, the points running)
    proc.send_signal(signal.SIGTERM)
    started = time.monotonic()
    _, err = proc.communicate(timeout=90)
    assert (proc.returncode, err) == (143, b"fs: error: terminated (SIGTERM)\n")
    assert time.monotonic() - started < 15


def test_an_argument_byte_that_is_not_utf8_is_printed_as_it_came() -> None:
    """``fs sprio -o $'%.5i\\xff'`` under a strict UTF-8 output (``PYTHONIOENCODING=utf-8``,
    a UTF-8 locale other than C.UTF-8) crashed printing the header (a UnicodeEncodeError
    traceback, exit 1); the byte is written back as it came."""
    jobs = str(REPO / "sample_configs" / "jobs.json")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
    line: list[str | bytes] = [sys.executable, "-m", "fairshare_cli", "sprio", "-o", b"%.5i\xff"]
    done = subprocess.run(
        [*line, "--jobs-file", jobs, *SAMPLE],
        capture_output=True, env=env, cwd=REPO, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.splitlines()[0].endswith(b"\xff")


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["import", "history", "-"], "-"),
        (["import", "condor-q", "-"], "-"),
        (["import", "history", "/dev/stdin"], "/dev/stdin"),
        (["negotiate", "--dry-run", "--jobs-file", "/dev/stdin"], "/dev/stdin"),
    ],
)
def test_an_input_from_a_closed_stdin_is_refused_in_one_line(
    args: list[str], shown: str, tmp_path: Path
) -> None:
    """``fs import condor-q - <&-``: a traceback (AttributeError: sys.stdin is None), or
    for ``fs import condor-q -`` "writing the output: ..." and exit 1; and ``fs import
    history /dev/stdin <&-`` said "Imported 0 usage records" (fd 0 was the next file fs
    opened: it read its own temporary copy). Now: exit 2, one line, nothing written."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    state = tmp_path / "state.json"
    words = " ".join([*args, *SAMPLE, "--state", str(state)])
    shell = f'exec "{sys.executable}" -m fairshare_cli {words} <&-'
    proc = subprocess.run(["sh", "-c", shell], env=env, cwd=REPO, capture_output=True)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr == f"fs: error: cannot read {shown}: standard input is closed\n".encode()
    assert not state.exists()


#: A command whose Ctrl-C (or SIGTERM) comes where CPython treats it apart: inside code run
#: from a text (the methods of a dataclass are made so) or while a class is made (a
#: dataclass field's ``__set_name__``), as when a module the command imports makes its
#: dataclasses. Run as ``python -m`` (the driver below) with the command ``boom``.
_DRIVER = """
import os
import sys
import click
from fairshare_cli.cli import main as group
from fairshare_cli.cli.interrupts import Terminated

INTERRUPT = {"sigint": KeyboardInterrupt, "sigterm": Terminated}[os.environ["SIGNAL"]]

class Arrives:
    def __set_name__(self, owner, name):
        raise INTERRUPT()

@click.command()
def boom():
    if os.environ["WHERE"] == "exec":
        exec("raise INTERRUPT()", {"INTERRUPT": INTERRUPT})
    class Made:  # (Python 3.11: a RuntimeError caused by the interrupt)
        field = Arrives()

if __name__ == "__main__":
    group._COMMANDS["boom"] = "boom_driver:boom"
    sys.argv = ["fs", "boom"]
    from fairshare_cli.cli.entry import main
    main()
"""


@pytest.mark.parametrize("where", ["exec", "set_name"])
@pytest.mark.parametrize(
    ("signal_name", "code", "line"),
    [("sigint", 130, b"fs: error: interrupted (Ctrl-C)\n"),
     ("sigterm", 143, b"fs: error: terminated (SIGTERM)\n")],
)  # fmt: skip
def test_an_interrupt_while_a_module_makes_its_classes_is_one_line(
    tmp_path: Path, where: str, signal_name: str, code: int, line: bytes
) -> None:
    """Ctrl-C some 10 ms after an import took the state's lock landed, now and then, while a
    module the command imports made its dataclasses. Inside the text their methods are run
    from, Python noted the interrupt as uncaught: ``python -m fairshare_cli import history
    ...`` printed its one line, then ended by SIGINT (-2), not 130. While a class was made,
    Python 3.11 wrapped it in a RuntimeError (``Error calling __set_name__``): a traceback
    and exit 1. Now both are the one line and 130 (143 for SIGTERM)."""
    (tmp_path / "boom_driver.py").write_text(_DRIVER, encoding="utf-8")
    path = os.pathsep.join([str(tmp_path), str(REPO)])
    env = {**os.environ, "PYTHONPATH": path, "WHERE": where, "SIGNAL": signal_name}
    proc = subprocess.run(
        [sys.executable, "-m", "boom_driver"],
        env=env, cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, b"", line)


_STARTING = """
import sys
from fairshare_cli.cli.entry import main

class ArrivesWhileImporting:  # (Ctrl-C while the command group's modules are read)
    def find_spec(self, name, path=None, target=None):
        if name == "fairshare_cli.cli.main":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, ArrivesWhileImporting())
sys.argv = ["fs", "userprio"]
main()
"""


def test_ctrl_c_as_fs_starts_is_the_one_line(tmp_path: Path) -> None:
    """Ctrl-C while ``fs`` read its own modules, before the command began (``fs userprio``
    interrupted in its first 50 ms, a third of the time on a busy machine): a
    ``KeyboardInterrupt`` traceback and a death by SIGINT. Now the one line and 130."""
    (tmp_path / "starting.py").write_text(_STARTING, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    proc = subprocess.run(
        [sys.executable, "-m", "starting"],
        env=env, cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout) == (130, b"")
    assert proc.stderr == b"fs: error: interrupted (Ctrl-C)\n"


_AFTER_THE_WRITE = """
import os, signal, sys
import click
from fairshare_cli.cli.entry import main

echo = click.echo
def echo_then_signal(message=None, *args, **kwargs):  # (the line after the state's write)
    echo(message, *args, **kwargs)
    if str(message).startswith("Submitted"):
        os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"]))
click.echo = echo_then_signal
sys.argv = ["fs", "submit", "--owner", "a", "--config", "pool.toml", "--state", "s.json",
            "--now", "2026-11-21T12:00:00Z"]
main()
"""


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_an_interrupt_after_the_state_is_written_keeps_the_commands_exit_code(
    tmp_path: Path, signal_name: str
) -> None:
    """Ctrl-C (or SIGTERM) after ``fs submit`` replaced the state, as it printed its line,
    ended it with ``fs: error: interrupted (Ctrl-C)`` and 130: a script retrying on 130
    submitted the jobs twice. The change is made: the exit code is the command's, 0."""
    (tmp_path / "after_write.py").write_text(_AFTER_THE_WRITE, encoding="utf-8")
    (tmp_path / "pool.toml").write_text('[pool]\nuid_domain = "d"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    proc = subprocess.run(
        [sys.executable, "-m", "after_write"], env={**env, "SIGNAL": signal_name},
        cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout.startswith(b"Submitted 1 job as cluster ")
    assert len(json.loads((tmp_path / "s.json").read_text())["jobs"]) == 1
