"""``fs import sacctmgr`` takes only sacctmgr listings (io/importers/sacctmgr.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no association or QOS listing found; expected the output", id="empty"),
        pytest.param("$ sacctmgr show qos\n", "no association or QOS listing", id="prompt"),
        pytest.param(GARBAGE, ":1: expected a sacctmgr header", id="garbage"),
        pytest.param(OTHER_DUMPS["sshare"], ':2: unknown sacctmgr field "RawShares"', id="sshare"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":2: expected a dump line", id="slurm.conf"),
        pytest.param(OTHER_DUMPS["dirac.cfg"], ":1: expected a sacctmgr header", id="dirac.cfg"),
        pytest.param(
            "Cluster|Account|User|Share|ParentName|\nc|hep||1|root|\nc|hep|al\x1bice|1||\n",
            ":3: User: expected a name without blanks or control characters",
            id="escape-in-user",
        ),
    ],
)
def test_what_is_not_a_sacctmgr_listing_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("sacctmgr", content, expected, into=True)
