"""``fs import condor-status`` takes only condor_status output (cli/imports/condor_status.py,
io/importers/condor_status.py): a dump without a slot ad is refused, nothing written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, refused, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


def test_an_empty_file_keeps_every_machine(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-status empty.txt --into p.toml --replace`` once deleted every
    ``[[machines]]`` entry; now it names the file and what was expected."""
    pool = write_pool(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    before = (pool["config"].read_bytes(), pool["state"].read_bytes())
    result = run(
        "import",
        "condor-status",
        str(tmp_path / "empty.txt"),
        "--into",
        str(pool["config"]),
        "--replace",
        "--state",
        str(pool["state"]),
        "--now",
        NOW,
    )
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.txt'}: no slot ads; expected condor_status -json or "
        "-long output\n"
    )
    assert result.exit_code == 2
    assert (pool["config"].read_bytes(), pool["state"].read_bytes()) == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no slot ads; expected condor_status -json or -long", id="empty"),
        pytest.param("\n  \n", "no slot ads", id="blank-lines"),
        pytest.param("[]\n", "no slot ads", id="empty-json-array"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(
            OTHER_DUMPS["condor_userprio -l"],
            ':1: expected a slot ad with Name = "slotN@machine"',
            id="condor_userprio",
        ),
        pytest.param(
            OTHER_DUMPS["condor_q -json"], ":2: expected a slot ad with Name", id="condor_q"
        ),
        pytest.param(OTHER_DUMPS["condor_config"], ":1: expected 'Attr = value'", id="config"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected 'Attr = value'", id="slurm.conf"),
    ],
)
def test_what_is_not_condor_status_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-status", content, expected, into=True)


@pytest.mark.parametrize(
    ("ad", "expected"),
    [
        pytest.param(
            {"Name": "slot1@", "Cpus": 1},
            "Machine: expected a name, got an empty one",
            id="no-host",
        ),
        pytest.param(
            {"Name": "slot1@m\u001b[31mred", "Machine": "m", "Cpus": 1},
            "Name: expected a name without blanks or control characters",
            id="escape",
        ),
        pytest.param(
            {"Name": "slot1@m", "Machine": "m\u0000", "Cpus": 1},
            "Machine: expected a name without blanks",
            id="nul",
        ),
        pytest.param(
            {"Name": "slot1@m", "Cpus": 1, " ": 1},
            "an attribute name: expected a name without blanks",
            id="blank-attribute",
        ),
        pytest.param(
            {"Name": "slot1@m", "Cpus": 1, "": 1},
            "an attribute name: expected a name, got an empty one",
            id="empty-attribute",
        ),
    ],
)
def test_names_are_names(refuse_dump: Refuse, ad: dict[str, Any], expected: str) -> None:
    """A machine, slot or attribute name that is blank or holds control characters would
    reach the config; it is refused where the dump is read."""
    refuse_dump("condor-status", json.dumps([ad]), ":1: " + expected, into=True)


def test_a_slot_ad_without_my_type_needs_a_slot_attribute(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """An ad with a ``user@domain`` Name and no slot attribute is no slot; one with
    ``MyType = "Machine"`` or a slot attribute is."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "st.json"
    dump.write_text('[{"Name": "alice@example.org", "Priority": 0.5}]')
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    refused(result, f"{dump}:1: expected a slot ad")
    dump.write_text('[{"Name": "slot1@m1", "MyType": "Machine"}]')
    result = run("import", "condor-status", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    assert 'hosts = ["m1"]' in result.stdout
