"""``fs import scontrol-assoc`` takes only scontrol show assoc_mgr output
(io/importers/scontrol_assoc.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no association records (expected 'scontrol show assoc_mgr')", id="empty"),
        pytest.param(
            "$ scontrol show assoc_mgr flags=assoc\nCurrent Association Manager state\n\n"
            "Association Records\n\n",
            "no association records",
            id="no-records",
        ),
        pytest.param(GARBAGE, ":1: expected scontrol show assoc_mgr output", id="garbage"),
        pytest.param(OTHER_DUMPS["sshare"], ":2: expected scontrol show assoc_mgr", id="sshare"),
        pytest.param(OTHER_DUMPS["condor_q -json"], ":1: expected scontrol show", id="json"),
        pytest.param(
            "ClusterName=c Account=hep UserName=al\x1b[2Jice(1001) Partition= ID=2\n"
            "    UsageRaw/Norm/Efctv=1.00/0.10/0.10\n",
            ":1: UserName: expected a name without blanks or control characters",
            id="escape-in-user",
        ),
    ],
)
def test_what_is_not_assoc_mgr_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("scontrol-assoc", content, expected)
