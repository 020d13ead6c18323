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
    assert (code, err) == (2, 'fs: error: -: record 1: unknown QOS "nosuch"\n')
