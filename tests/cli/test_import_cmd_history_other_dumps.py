"""``fs import history`` handed another tool's dump names the dump and the import that
reads it. ``fs import history jobs.txt`` of ``sacct`` output (a usage import too: "fs import
sacct FILE ... produce the same records") said "unknown usage history field 'JobID JobName
User ...'" (the whole header line as one field); ``condor_history -long`` output said
"unknown usage history field 'AccountingGroup = "ann"' (did you mean 'accounting_group'?)",
a hint to rename a column of a file that has none."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

SLURM = FIXTURES / "slurm-22.05"
HTCONDOR = FIXTURES / "htcondor-25.0" / "flat_users"
EXPECTED = "expected a usage history (CSV with a header line, or JSON lines)"


def _dump(capture: Path, tmp_path: Path, parsable: bool = False) -> Path:
    """The capture as the tool wrote it: without the '$ command' line fs's fixtures add;
    ``parsable``: sacct's table with its columns joined by '|' (sacct -P's header)."""
    lines = capture.read_text(encoding="utf-8").splitlines(keepends=True)
    body = "".join(lines[1:] if lines[0].startswith("$ ") else lines)
    if parsable:
        body = "\n".join("|".join(line.split()) for line in body.splitlines()) + "\n"
    path = tmp_path / "dump.txt"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("capture", "parsable", "what"),
    [
        pytest.param(
            SLURM / "sacct_jobs_1_13.txt", False, "sacct output, which fs import sacct charges",
            id="sacct-table",
        ),
        pytest.param(
            SLURM / "sacct_jobs_1_13.txt", True, "sacct output, which fs import sacct charges",
            id="sacct-P",
        ),
        pytest.param(
            SLURM / "cl1_idle" / "scontrol_show_jobs.txt", False,
            "scontrol show jobs output, which fs import squeue reads", id="scontrol-jobs",
        ),
        pytest.param(
            SLURM / "cl1_idle" / "sshare_a_l_P.txt", False,
            "sshare output, which fs import sshare reads", id="sshare-P",
        ),
        pytest.param(
            SLURM / "cl1_idle" / "sshare_a_l.txt", False,
            "sshare output, which fs import sshare reads", id="sshare-table",
        ),
        pytest.param(
            HTCONDOR / "condor_q.long.txt", False,
            "HTCondor's -long output (Attr = value lines): condor_history's is charged by fs "
            "import condor-history",
            id="classad-long",
        ),
    ],
)  # fmt: skip
def test_another_tools_dump_is_named_with_its_import(
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    tmp_path: Path,
    capture: Path,
    parsable: bool,
    what: str,
) -> None:
    config = write_config('[pool]\ndefaults = "current"\n')
    dump = _dump(capture, tmp_path, parsable)
    state = tmp_path / "state.json"
    result = run(
        "import", "history", str(dump), "--config", str(config), "--state", str(state),
        "--now", "2026-11-30T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"fs: error: {dump}:1: this is {what}; {EXPECTED}\n"
    assert not state.exists()


def test_a_history_whose_first_column_is_unknown_still_names_it(
    write_config: Callable[[str], Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """A header of fs's own kind with a column it lacks is named as before."""
    config = write_config('[pool]\ndefaults = "current"\n')
    history = tmp_path / "h.csv"
    history.write_text("JobID,owner,start\n1,alice,2026-11-29T00:00:00Z\n", encoding="utf-8")
    result = run(
        "import", "history", str(history), "--config", str(config),
        "--state", str(tmp_path / "s.json"), "--now", "2026-11-30T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "unknown usage history field 'JobID'" in result.stderr
