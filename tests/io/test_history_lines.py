"""``fs import history``: a record after ``--now`` named by its line, as the file's other
errors are (io/history_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
ENDS = "ends after --now (give a later --now, or end = null for work still running)"
HEADER = "owner,start,end\n"


def _import(tmp_path: Path, text: str, *more: str) -> tuple[int, str, str]:
    """``fs import history - --config sample_configs/pool.toml --state S --now NOW``."""
    args = ["import", "history", "-", *more, "--config", str(REPO / "sample_configs" / "pool.toml")]
    args += ["--state", str(tmp_path / "state.json"), "--now", NOW]
    result = CliRunner().invoke(cli, args, input=text)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("text", "more", "said"),
    [
        # line 1 the header, line 2 the first record (before: "-: record 1: ends after")
        pytest.param(
            HEADER + "alice,2026-11-21T00:00:00Z,2026-11-21T14:00:00Z\n",
            (),
            f"-:2: {ENDS}",
            id="csv-ends",
        ),
        pytest.param(
            HEADER + "alice,2026-11-22T00:00:00Z,\n", (), "-:2: starts after --now", id="csv-starts"
        ),
        # a blank line (line 3) the CSV reader skips: the second record is on line 4
        pytest.param(
            HEADER + "alice,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z\n\n"
            "bob,2026-11-21T00:00:00Z,2026-11-21T14:00:00Z\n",
            (),
            f"-:4: {ENDS}",
            id="csv-after-a-blank-line",
        ),
        # JSON lines: a blank line (2) and a comment (3) hold no record; the second is on 4
        pytest.param(
            '{"owner": "a", "start": "2026-11-21T00:00:00Z", "end": "2026-11-21T04:00:00Z"}\n'
            "\n# a comment\n"
            '{"owner": "a", "start": "2026-11-21T00:00:00Z", "end": "2026-11-21T14:00:00Z"}\n',
            ("--format", "jsonl"),
            f"-:4: {ENDS}",
            id="jsonl-after-a-comment",
        ),
    ],
)
def test_a_record_after_now_is_named_by_its_line(
    tmp_path: Path, text: str, more: tuple[str, ...], said: str
) -> None:
    """As ``-:2: end is before start`` is: one line, exit 2, no state written."""
    assert _import(tmp_path, text, *more) == (2, "", f"fs: error: {said}\n")
    assert not (tmp_path / "state.json").exists()


def test_an_earlier_records_refusal_still_wins(tmp_path: Path) -> None:
    """The records before the one after ``--now`` are charged first: line 2's unknown QOS
    (a refusal the Slurm model makes, by record) is said, not line 3's end."""
    text = (
        "owner,start,end,qos\nalice,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z,nosuch\n"
        "alice,2026-11-21T00:00:00Z,2026-11-21T14:00:00Z,\n"
    )
    code, _, err = _import(tmp_path, text)
    assert (code, err) == (2, 'fs: error: -:2: unknown QOS "nosuch"\n')


def test_a_model_refusal_names_the_line_not_the_place_in_start_order(tmp_path: Path) -> None:
    """Records out of start order are charged sorted: bob's record on line 4 (the header is
    line 1) starts first (08:00, before 09:00 and 10:00), so the Slurm model met it first
    and said ``-: record 1: unknown QOS``, a number no line of the file bears; now its
    line, as the reader names its own errors."""
    text = (
        "owner,start,end,qos\n"
        "alice,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,\n"
        "alice,2026-11-21T09:00:00Z,2026-11-21T10:00:00Z,\n"
        "bob,2026-11-21T08:00:00Z,2026-11-21T09:00:00Z,nosuch\n"
    )
    assert _import(tmp_path, text) == (2, "", 'fs: error: -:4: unknown QOS "nosuch"\n')
    assert not (tmp_path / "state.json").exists()


def test_a_start_before_the_last_update_names_its_line(tmp_path: Path) -> None:
    """A first import at --now 02:00 brings alice's record up to 02:00 (its last update);
    a second import's line 3 starts at 01:30, before it (line 2, 03:00, after): the
    accountant refuses it, named by its line (it was ``record 1``, the first in start
    order), and the state stays as the first import wrote it."""
    first = HEADER + "alice,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z\n"
    args = ["import", "history", "-", "--config", str(REPO / "sample_configs" / "pool.toml")]
    args += ["--state", str(tmp_path / "state.json"), "--now", "2026-11-21T02:00:00Z"]
    assert CliRunner().invoke(cli, args, input=first).exit_code == 0
    before = (tmp_path / "state.json").read_bytes()
    second = (
        HEADER + "alice,2026-11-21T03:00:00Z,2026-11-21T04:00:00Z\n"
        "alice,2026-11-21T01:30:00Z,2026-11-21T01:40:00Z\n"
    )
    assert _import(tmp_path, second) == (
        2,
        "",
        "fs: error: -:3: starts before alice@example.org's last update; the accountant"
        " already counts that time (use --rebuild to replay the whole history afresh)\n",
    )
    assert (tmp_path / "state.json").read_bytes() == before
