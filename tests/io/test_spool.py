"""A pipe's copy filled as it is read: a bad line refused before the rest of the pipe is
read (io/spool.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
#: What the endless writer gives up after: the old copy read the whole pipe first.
CAP = 256 << 20


def _endless(line: bytes, tmp_path: Path, *command: str) -> tuple[int, str, int]:
    """``yes LINE | fs COMMAND ...``, the writer stopped at :data:`CAP` bytes; the exit
    code, stderr and how many bytes the writer could hand over before fs left the pipe.
    TMPDIR is a folder of the test's, to see what fs leaves in it."""
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONDONTWRITEBYTECODE": "1"}
    common = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    common += ["--state", str(tmp_path / "state.json"), "--now", NOW]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *command, *common],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    sent = 0
    block = line * ((1 << 16) // len(line))

    def write() -> None:
        nonlocal sent
        try:
            while sent < CAP:
                proc.stdin.write(block)  # type: ignore[union-attr]
                sent += len(block)
            proc.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError):
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    _, err = proc.communicate(timeout=120)
    writer.join(timeout=30)
    return proc.returncode, err.decode(), sent


@pytest.mark.parametrize(
    ("line", "command", "said"),
    [
        # `yes`: a CSV header of one field, y, which no usage history has
        pytest.param(
            b"y\n",
            ("import", "history", "-"),
            "fs: error: -:1: unknown usage history field 'y'",
            id="history",
        ),
        pytest.param(
            b"y\n",
            ("import", "condor-history", "-"),
            "fs: error: -:1: expected 'Attr = value', got 'y'; give condor_history -json or"
            " -long output",
            id="condor-history",
        ),
        *(
            pytest.param(
                b"y\n",
                (*command, "--jobs-file", "-"),
                "fs: error: -: not valid JSON (line 1, column 1: Expecting value); expected a "
                "list of job objects",
                id=f"{command[0]}-jobs-file",
            )
            for command in (("sprio", "-l"), ("negotiate", "--dry-run"), ("taskqueues",))
        ),
        pytest.param(
            b"\0",
            ("taskqueues", "--jobs-file", "-"),
            "fs: error: cannot read -: binary data (a NUL byte at byte 0), not text; fs "
            "stopped reading standard input there",
            id="taskqueues-zero-jobs-file",
        ),
    ],
)
def test_an_endless_pipe_is_refused_at_its_first_line(
    tmp_path: Path, line: bytes, command: tuple[str, ...], said: str
) -> None:
    """``yes | fs import history -``: its first line is no header, refused as soon as it
    is read; the copy fs makes of a pipe (read again to sort, or to find a line) was made
    whole first, so the refusal came once TMPDIR was full. Now fs leaves the pipe after
    its first blocks (far below the 256 MiB the writer would give), and no file behind."""
    code, err, sent = _endless(line, tmp_path, *command)
    assert (code, err.splitlines()[0]) == (2, said)
    assert len(err.splitlines()) == 1
    assert sent < CAP // 4
    assert list((tmp_path / "tmp").iterdir()) == []
    assert not (tmp_path / "state.json").exists()


def test_a_later_line_is_refused_as_it_comes(tmp_path: Path) -> None:
    """Ten good records (lines 2 to 11), then a line starting after --now (line 12), then
    good records without end: refused by its line (the copy read again only as far as
    that line), the pipe left unread."""
    good = b"alice,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z\n"
    head = b"owner,start,end\n" + good * 10 + b"bob,2026-11-22T00:00:00Z,\n"
    script = f"import sys; w = sys.stdout.buffer; w.write({head!r})\n"
    script += f"while True: w.write({good!r} * 4096)"
    feeder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert feeder.stdout is not None
    common = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    common += ["--state", str(tmp_path / "state.json"), "--now", NOW]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "fairshare_cli", "import", "history", "-", *common],
            stdin=feeder.stdout,
            capture_output=True,
            timeout=120,
            check=False,
        )
    finally:
        feeder.kill()
        feeder.wait()
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "fs: error: -:12: starts after --now\n",
    )


def test_stdin_kept_gives_every_reading_one_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within stdin_kept, a second spooled('-') reads the first one's copy (whole, however
    little of it the first reading read, lazily or not); outside it, stdin is read once."""
    import io

    from fairshare_cli.io import spool
    from fairshare_cli.io.inputs import open_input

    class Stdin:
        buffer = io.BufferedReader(io.BytesIO(b"a,b\n1,2\n" * 10000))

    monkeypatch.setattr(sys, "stdin", Stdin())
    with spool.stdin_kept():
        with spool.spooled("-", "text", lazy=True) as first, open_input(first) as fh:
            assert fh.readline() == "a,b\n"  # (the rest is copied on leaving)
        with spool.spooled("-", "text") as second, open(second, "rb") as copy:
            assert copy.read() == b"a,b\n1,2\n" * 10000
        assert second == first
    assert not Path(first).exists()


@pytest.mark.parametrize("command", [("sprio", "-l"), ("negotiate", "--dry-run"), ("taskqueues",)])
def test_endless_blank_lines_are_refused_at_the_blank_limit(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """``yes '' | fs COMMAND --jobs-file -``: copied for ever (no JSON value ever came);
    now refused once 16 MB of it are blank, as a file of them is, and no file left behind.
    (The timeout only guards against a hang.)"""
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONDONTWRITEBYTECODE": "1"}
    line = [sys.executable, "-m", "fairshare_cli", *command, "--jobs-file", "-"]
    line += ["--config", str(REPO / "sample_configs" / "pool.toml")]
    line += ["--state", str(tmp_path / "state.json"), "--now", NOW]
    proc = subprocess.run(
        "yes '' | " + " ".join(line), shell=True, capture_output=True, text=True, env=env,
        timeout=120, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "fs: error: cannot read -: it starts with 16 MB of whitespace only (no JSON value or "
        "record)\n"
    )
    assert list((tmp_path / "tmp").iterdir()) == []
