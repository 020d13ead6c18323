"""Input files that start with 16 MB of whitespace (a jobs file or a dump of nothing but
spaces, one huge blank line): read whole they cost twice their size in memory (2.1 GB of
resident memory for a 1 GB file, measured with ``/usr/bin/time -v``) before the reader's
one-line error. They are refused from their first 16 MB, in one line, exit 2, as a file
that cannot be read; a shorter blank file keeps its reader's own message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.inputs import BLANK_LIMIT
from tests.cli.conftest import common, refused

BLANK = "it starts with 16 MB of whitespace only (no JSON value or record)"


def _blank(path: Path, size: int, unit: bytes = b" ") -> Path:
    """``path`` with ``size`` bytes of ``unit`` repeated (and nothing else)."""
    block = unit * (1024 * 1024 // len(unit))
    with path.open("wb") as fh:
        while size > 0:
            fh.write(block[:size])
            size -= len(block)
    return path


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (["sprio", "-l", "--jobs-file", "{f}"], "cannot read {f}: "),
        (["negotiate", "--dry-run", "--jobs-file", "{f}"], "cannot read {f}: "),
        (["simulate", "--workload", "{f}", "--until", "1:00:00"], "cannot read {f}: "),
        (["submit", "--file", "{f}"], "cannot read {f}: "),
        (["import", "condor-q", "{f}"], "cannot read {f}: "),
        (["import", "squeue", "{f}"], "cannot read {f}: "),
        (["import", "history", "{f}"], "cannot read {f}: "),
        (["import", "sacct", "{f}"], "cannot read {f}: "),
        (["import", "condor-history", "{f}"], "cannot read {f}: "),
    ],
)
def test_a_file_of_blank_space_is_refused_from_its_start(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
    names: str,
) -> None:
    """``fs LINE --config POOL --state STATE --now NOW`` with FILE 17 MB of spaces:
    one line naming the file, exit 2, the state as it was (sacct and condor-history
    imported 0 records from it, exit 0)."""
    blank = str(_blank(tmp_path / "blank.json", BLANK_LIMIT + 1024 * 1024))
    before = env["state"].read_bytes()
    result = run(*[a.replace("{f}", blank) for a in line], *common(env))
    refused(result, names.replace("{f}", blank) + BLANK)
    assert env["state"].read_bytes() == before


def test_blank_lines_are_whitespace_too(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs taskqueues --jobs-file FILE`` with FILE 16 MB of blank lines (tabs, CR LF)."""
    blank = str(_blank(tmp_path / "blank.json", BLANK_LIMIT, b" \t\r\n"))
    refused(run("taskqueues", "--jobs-file", blank, *common(env)), f"cannot read {blank}: {BLANK}")


def test_a_shorter_blank_file_keeps_its_readers_message(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sprio -l --jobs-file FILE`` with FILE one byte short of 16 MB of spaces: the
    message of a jobs file holding nothing, as of an empty one."""
    blank = str(_blank(tmp_path / "blank.json", BLANK_LIMIT - 1))
    result = run("sprio", "-l", "--jobs-file", blank, *common(env))
    refused(result, f"{blank}: empty; expected a list of job objects")


def test_a_document_after_a_little_blank_space_still_reads(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sprio -l --jobs-file FILE``: a jobs file whose list follows a MB of spaces
    reads as the list alone."""
    jobs = '[{"id": "1", "owner": "alice", "account": "hep", "submit_time": 1795258800}]'
    plain = tmp_path / "plain.json"
    plain.write_text(jobs)
    padded = _blank(tmp_path / "padded.json", 1024 * 1024)
    with padded.open("a") as fh:
        fh.write(jobs)
    first = run("sprio", "-l", "--jobs-file", str(plain), *common(env))
    second = run("sprio", "-l", "--jobs-file", str(padded), *common(env))
    assert first.exit_code == second.exit_code == 0, second.stderr
    assert first.stdout == second.stdout


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (["import", "condor-q", "-"], "cannot read -: "),
        (["import", "squeue", "-"], "cannot read -: "),
        (["sprio", "-l", "--jobs-file", "-"], "cannot read -: "),
        (["submit", "--file", "-"], "cannot read -: "),
    ],
)
def test_standard_input_of_blank_space_is_refused_too(
    env: dict[str, Path], tmp_path: Path, line: list[str], names: str
) -> None:
    """``fs LINE ... < FILE`` with FILE 17 MB of spaces: the same line, naming ``-``."""
    _on_stdin(env, tmp_path, line, names, "redirected")


def _on_stdin(env: dict[str, Path], tmp_path: Path, line: list[str], names: str, how: str) -> None:
    """``fs LINE`` with 17 MB of spaces on its standard input, ``how``: redirected from
    the file, or piped; refused naming ``-``."""
    import os
    import subprocess
    import sys

    blank = _blank(tmp_path / "blank.json", BLANK_LIMIT + 1024 * 1024)
    before = env["state"].read_bytes()
    command = [sys.executable, "-m", "fairshare_cli", *line, *common(env)]
    with blank.open("rb") as fh:
        given: dict[str, Any] = {"stdin": fh} if how == "redirected" else {"input": fh.read()}
        proc = subprocess.run(
            command, capture_output=True, env={**os.environ, "TZ": "UTC"}, **given
        )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode().startswith(f"fs: error: {names}{BLANK}"), proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert env["state"].read_bytes() == before


def test_a_piped_blank_jobs_file_is_named_as_given(env: dict[str, Path], tmp_path: Path) -> None:
    """``cat FILE | fs sprio -l --jobs-file - ...``: the pipe is read through a copy, and
    the line names ``-``, not the copy."""
    _on_stdin(env, tmp_path, ["sprio", "-l", "--jobs-file", "-"], "cannot read -: ", "piped")
