"""``fs import condor-userprio`` takes only condor_userprio -l output
(io/importers/condor_userprio.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no LastUpdate; expected condor_userprio -l", id="empty"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(OTHER_DUMPS["condor_status -json"], "no LastUpdate", id="condor_status"),
        pytest.param(OTHER_DUMPS["condor_q -json"], "no LastUpdate", id="condor_q"),
        pytest.param(OTHER_DUMPS["condor_config"], ":1: expected 'Attr = value'", id="config"),
        pytest.param(
            'LastUpdate = 5\nName1 = "a\x1b[31m@d"\nPriority1 = 1.0\n',
            ":1: Name1: expected a name without blanks or control characters",
            id="escape-in-name",
        ),
        pytest.param(
            'LastUpdate = 5\nName1 = " "\nPriority1 = 1.0\n',
            ":1: Name1: expected a name without blanks",
            id="blank-name",
        ),
    ],
)
def test_what_is_not_condor_userprio_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-userprio", content, expected)
