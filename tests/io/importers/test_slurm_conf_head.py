"""``fs import slurm-conf FILE`` tells a slurm.conf from ``scontrol show config`` and
``scontrol show partition`` output by its head, and reads a slurm.conf on from there: the
file is opened once (it was read three times, about 6 s per million blank lines), and
what comes out is what it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.importers import common
from fairshare_cli.io.importers.slurm_conf_head import Head, told
from tests.conftest import REPO

FAIRTREE = REPO / "tests/fixtures/slurm-22.05/config/slurm.conf.fairtree"


def test_a_slurm_conf_after_blank_lines_is_opened_once_and_reads_as_itself(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import slurm-conf FILE``, FILE 100,000 blank lines and then the fairtree
    slurm.conf: the fragment the slurm.conf alone gives, its summary naming FILE, from
    one opening of FILE (before: one to look for scontrol show config output, one for
    scontrol show partition output, one to read it)."""
    padded = tmp_path / "slurm.conf"
    padded.write_bytes(b"\n" * 100_000 + FAIRTREE.read_bytes())
    alone = run("import", "slurm-conf", str(FAIRTREE))
    assert alone.exit_code == 0, alone.stderr
    opened: list[str] = []
    real = common.open_bytes

    def counted(path: str) -> Any:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(common, "open_bytes", counted)
    result = run("import", "slurm-conf", str(padded))
    assert result.exit_code == 0, result.stderr
    assert opened == [str(padded)]
    assert result.stdout == alone.stdout
    assert result.stderr == alone.stderr.replace(str(FAIRTREE), str(padded))


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        # parse_config.c: a line ending in one backslash goes on into the next; a blank
        # line ends it, and the blank lines after that are nothing
        ("PriorityWeightAge=1000 \\\n\n\n\nPriorityType=priority/multifactor\n", "2 knobs"),
        ("\n\nPriorityType=priority/multifactor\nPriorityWeightAge=10 \\\n\n\n", "2 knobs"),
        # scontrol show config / show partition output after blank lines: told as such
        ("\n\nConfiguration data as of 2026-11-21T12:00:00\nPriorityWeightAge = 1000\n",
         "1 knob"),
        ("\n\nPartitionName=batch\n   Default=YES\n", "0 knobs, 0 nodes, 1 partition"),
    ],
)  # fmt: skip
def test_blank_lines_end_a_continued_line_and_do_not_hide_the_kind(
    run: Callable[..., Any], tmp_path: Path, text: str, summary: str
) -> None:
    """``fs import slurm-conf FILE`` of each text: its summary line."""
    path = tmp_path / "slurm.conf"
    path.write_text(text, encoding="utf-8")
    result = run("import", "slurm-conf", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(f"{path}: {summary}"), result.stderr


def test_the_head_keeps_a_run_of_blank_lines_as_its_first() -> None:
    """What is read to tell the kind is kept for the reading that goes on, a run of
    blank lines as its first line only (all a slurm.conf reader makes of one)."""
    lines = ["", " ", "A=1 \\", "", "\t", "", "B=2", "", ""]
    head = Head(iter(enumerate(lines, 1)))
    assert told(head) == "conf"
    assert head.kept == [(1, ""), (3, "A=1 \\"), (4, ""), (7, "B=2"), (8, "")]
    assert head.shown == ["A=1 \\", "B=2"]
    assert list(head.read) == []
