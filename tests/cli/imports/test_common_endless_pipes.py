"""A pipe that never ends (``yes | fs import sshare -``) was read to its end before its
first line was refused: fs never ended (and held every line). Now each reader judges what
it needs of the head first: the same one-line error as for a short input, exit 2, and the
rest of the pipe left unread. The subprocess timeout is only a guard against a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

#: Long enough for any one run on a loaded machine; a hang is what it guards against.
HANG = 120


def endless(writer: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``WRITER | fs ARGS`` (with --config, --state and --now where fs takes them: not
    for fs import sacctmgr, which writes no state), ``WRITER`` never ending."""
    state = ["--config", "sample_configs/pool.toml", "--state", str(tmp_path / "s.json"),
             "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    configs = ("sacctmgr", "slurm-conf", "condor-config", "dirac-cfg")  # (no state written)
    state = [] if args[0] == "import" and args[1] in configs else state
    line = " ".join([sys.executable, "-m", "fairshare_cli", *args, *state])
    return subprocess.run(
        f"{writer} | {line}", shell=True, capture_output=True, text=True, timeout=HANG,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=REPO, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("writer", "kind", "message"),
    [
        ("yes", "squeue", '-:1: expected "JobId=..." (scontrol show jobs) or squeue --json output'),
        (
            "(echo; echo '$ scontrol show jobs'; yes)",
            "squeue",
            '-:3: expected "JobId=..." (scontrol show jobs) or squeue --json output',
        ),
        ("yes", "condor-config", "-:1: expected NAME = value (a condor_config line), got 'y'"),
        (
            "yes",
            "dirac-cfg",
            "-:1: 65,536 lines with no '=' or '{' from here on (DIRAC would join them into "
            "one name); expected DIRAC's .cfg text ('Name = value' and 'Section {' lines)",
        ),
        (
            "yes",
            "sacct",
            "-: sacct output: expected 'sacct -P' output (a '|'-separated header)"
            " or sacct's table (a header over a line of dashes)",
        ),
        ("yes 'a|b'", "sacct", "-: sacct output has no jobid field (use sacct -P -o ...)"),
        ("yes", "slurm-conf", '-:1: expected Key=Value (a slurm.conf line), got "y"'),
        ("yes", "sshare", "-:1: expected sshare's header (with -P, or a table)"),
        ("yes 'a|b'", "sshare", '-:1: unknown sshare field "a"'),
        (
            "yes",
            "sacctmgr",
            "-:1: expected a sacctmgr header (field names over a ---- line, or separated "
            'by |), got "y"',
        ),
        ("yes 'a|b'", "sacctmgr", '-:1: unknown sacctmgr field "a"'),
    ],
)
def test_an_endless_pipe_is_refused_at_its_first_line(
    tmp_path: Path, writer: str, kind: str, message: str
) -> None:
    """``yes | fs import KIND -``: exit 2, the error a short ``yes | head`` gets, no state."""
    args = ["import", kind, "-"]
    result = endless(writer, args, tmp_path)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == f"fs: error: {message}\n"
    assert not (tmp_path / "s.json").exists()
    short = endless(f"{writer} | head -c 1000000", args, tmp_path)
    assert (short.returncode, short.stderr) == (2, result.stderr)


#: What each import reads, as its refusal of a blank input names it.
_READS = {
    "sacctmgr": "sacctmgr -P show assoc, sacctmgr show qos or sacctmgr dump output",
    "slurm-conf": "a slurm.conf",
    "condor-config": "a condor_config file or condor_config_val -dump output",
    "dirac-cfg": "a DIRAC configuration, .cfg text",
    "squeue": "squeue --json or scontrol show jobs output",
    "sshare": "sshare -a -l -P output",
    "sacct": "sacct -P output",
    "condor-q": "condor_q -json or -long output",
    "condor-status": "condor_status -json or -long output",
    "condor-userprio": "condor_userprio -l output",
    "scontrol-assoc": "scontrol show assoc_mgr output",
    "history": "a usage history: CSV with a header line, or JSON lines",
    "condor-history": "condor_history -json or -long output",
}

_BLANK = "it starts with 16 MB of whitespace only (no JSON value or record)"


@pytest.fixture(scope="module")
def blank_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of 17 MB of empty lines."""
    path = tmp_path_factory.mktemp("blank") / "blank.txt"
    path.write_bytes(b"\n" * (17 << 20))
    return path


@pytest.mark.parametrize("kind", list(_READS))
def test_endless_blank_lines_are_refused_as_a_file_of_them_is(
    tmp_path: Path, blank_file: Path, kind: str
) -> None:
    """``yes '' | fs import KIND -`` was read for ever (no line that is not blank ever
    came; fs import history refused it at line 1 in a short input's words): now refused
    once 16 MB of it are blank, in the words a file of 16 MB of blanks gets, no state."""
    result = endless("yes ''", ["import", kind, "-"], tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    reads = f"(fs import {kind} reads {_READS[kind]})"
    assert result.stderr == f"fs: error: cannot read -: {_BLANK} {reads}\n"
    assert not (tmp_path / "s.json").exists()
    as_file = endless("true", ["import", kind, str(blank_file)], tmp_path)
    assert (as_file.returncode, as_file.stderr) == (
        2,
        result.stderr.replace("cannot read -:", f"cannot read {blank_file}:"),
    )


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("squeue", "-: no job records; expected squeue --json or scontrol show jobs output"),
        ("sshare", "-: empty; expected the output of 'sshare -a -l -P'"),
        ("sacct", "-: empty; expected sacct -P output (a header line, then jobs)"),
        ("history", "-:1: blank; expected the header line (field names)"),
    ],
)
def test_a_blank_pipe_short_of_the_limit_keeps_its_words(
    tmp_path: Path, kind: str, message: str
) -> None:
    """One byte short of 16 MB of blank lines: the reader's own words, as before."""
    writer = f"yes '' | head -c {(16 << 20) - 1}"
    result = endless(writer, ["import", kind, "-"], tmp_path)
    assert (result.returncode, result.stderr) == (2, f"fs: error: {message}\n")
