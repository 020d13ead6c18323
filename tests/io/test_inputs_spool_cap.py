"""A pipe that a reader copies to a temporary file first (stdin of ``fs import history -``,
``fs import condor-history -``, ``fs import slurm-conf -``, a jobs file ``--jobs-file -``)
was copied whole: a pipe that never sends a newline (``yes | tr -d '\\n'``) filled the
temporary folder. The copy is now held to ``core/limits.MAX_LINE`` (64 MiB) as the readers
are, in their one wording: one line, exit 2, the temporary folder left empty. A JSON
document (a jobs file, ``condor_history -json``) is not held to it: its lines are its
writer's choice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from fairshare_cli.core.limits import MAX_LINE

REPO = Path(__file__).resolve().parents[2]
STATE = "--config sample_configs/pool.toml --state {state} --now 2026-11-21T12:00:00Z"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"import history - {STATE}", "a usage history: CSV with a header line, or JSON lines"),
        (f"import condor-history - {STATE}", "condor_history -json or -long output"),
        ("import slurm-conf -", "slurm.conf text"),
        (f"sprio --jobs-file - {STATE}", "a list of job objects"),
        (f"taskqueues --jobs-file - {STATE}", "a list of job objects"),
    ],
)
def test_a_pipe_without_newlines_is_refused_while_copied(
    tmp_path: Path, command: str, expected: str
) -> None:
    """``yes | tr -d '\\n' | fs COMMAND``: exit 2 and ``-:1: a line longer than 64 MiB``
    (64 MiB = 2**26 = 67,108,864 bytes; ``yes`` never stops, so the run ending at all shows
    the copy stopped); before, ``fs import history -`` copied what came (150 MB of it given
    ``head -c 150000000``) and then said ``not valid CSV: field larger than field limit``."""
    assert MAX_LINE == 2**26 == 67_108_864
    spool = tmp_path / "tmp"
    spool.mkdir()
    state = tmp_path / "s.json"
    line = f"{sys.executable} -m fairshare_cli {command.format(state=state)}"
    result = subprocess.run(
        f"yes | tr -d '\\n' | {line}", shell=True, capture_output=True, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": str(spool)},
        cwd=REPO, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        "fs: error: -:1: a line longer than 64 MiB (no newline in 67,108,864 characters); "
        f"expected {expected}\n"
    )
    assert not state.exists()
    assert list(spool.iterdir()) == []


def test_the_line_number_counts_the_lines_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import slurm-conf -`` given two short lines, then one longer than the cap (made
    16 bytes here): the refusal names line 3, the first line with no end in 16 bytes."""
    monkeypatch.setattr("fairshare_cli.io.inputs.MAX_LINE", 16)
    text = "ClusterName=a\nPriorityType=priority/basic\n" + "x" * (1 << 21)
    result = CliRunner().invoke(cli, ["import", "slurm-conf", "-"], input=text)
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: -:3: a line longer than ")
    assert result.stderr.endswith("; expected slurm.conf text\n")


def test_a_json_document_on_one_line_is_copied_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs sprio --jobs-file -`` given a jobs file written on one line (json.dumps's
    way), longer than the cap (made 16 bytes here) and than a block of the copy (1 MiB):
    read as a JSON document, its two jobs listed, as from a file."""
    monkeypatch.setattr("fairshare_cli.io.inputs.MAX_LINE", 16)
    pad = " " * (1 << 21)  # (blanks inside the list: still one line)
    text = (
        '  [{"id": "1.0", "owner": "alice", "account": "hep", "partition": "batch"},' + pad
        + '{"id": "2.0", "owner": "alice", "account": "hep", "partition": "batch"}]'
    )  # fmt: skip
    args = ["sprio", "--config", "sample_configs/pool.toml", "--state", str(tmp_path / "s"),
            "--now", "2026-11-21T12:00:00Z", "-h", "-o", "%i"]  # fmt: skip
    monkeypatch.chdir(REPO)
    piped = CliRunner().invoke(cli, [*args, "--jobs-file", "-"], input=text)
    (tmp_path / "jobs.json").write_text(text)
    direct = CliRunner().invoke(cli, [*args, "--jobs-file", str(tmp_path / "jobs.json")])
    assert (piped.exit_code, direct.exit_code) == (0, 0), piped.output
    assert piped.stdout == direct.stdout
    assert piped.stdout.split() == ["1.0", "2.0"]
