"""``fs import condor-q`` takes only condor_q output (io/importers/condor_q.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


def test_an_empty_file_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-q empty.txt`` once said "Imported 0 jobs" and rewrote the state."""
    pool = write_pool(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    before = pool["state"].read_bytes()
    result = run(
        "import",
        "condor-q",
        str(tmp_path / "empty.txt"),
        "--config",
        str(pool["config"]),
        "--state",
        str(pool["state"]),
        "--now",
        NOW,
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.txt'}: no job ads; expected condor_q -json or "
        "-long output\n"
    )
    assert pool["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("\n\n", "no job ads", id="blank"),
        pytest.param("[\n]\n", "no job ads", id="empty-json-array"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(  # (fs import condor-q of condor_status output named no import)
            OTHER_DUMPS["condor_status -json"],
            ":2: expected a job ad with ClusterId and ProcId; this is a slot ad: "
            "condor_status output is read by fs import condor-status",
            id="condor_status",
        ),
        pytest.param(
            OTHER_DUMPS["condor_userprio -l"],
            ":1: expected a job ad with ClusterId and ProcId; this is an accountant's ad: "
            "condor_userprio -l output is read by fs import condor-userprio",
            id="condor_userprio",
        ),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected 'Attr = value'", id="slurm.conf"),
    ],
)
def test_what_is_not_condor_q_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-q", content, expected)
