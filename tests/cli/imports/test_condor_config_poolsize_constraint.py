"""``fs import condor-config`` takes ``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT`` as
``[negotiator] slot_poolsize_constraint``, and its older name ``GROUP_DYNAMIC_MACH_CONSTRAINT``
when the new one is unset or blank: 25.0's ``Matchmaker::negotiationTime`` reads
``param("NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT")`` (nothing for a blank value) and only then
the older name. fs warned about both as knobs it did not model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param(["NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT = Cpus >= 4"], "Cpus >= 4", id="new"),
        pytest.param(["GROUP_DYNAMIC_MACH_CONSTRAINT = Cpus >= 4"], "Cpus >= 4", id="old"),
        pytest.param(
            ["NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT =", "GROUP_DYNAMIC_MACH_CONSTRAINT = Cpus >= 4"],
            "Cpus >= 4",
            id="new-blank",
        ),
        pytest.param(
            [
                "GROUP_DYNAMIC_MACH_CONSTRAINT = Cpus >= 4",
                "NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT = SlotID == 1",
            ],
            "SlotID == 1",
            id="new-wins",
        ),
    ],
)
def test_the_constraint_is_imported_without_a_warning(
    tmp_path: Path, run: Callable[..., Any], lines: list[str], expected: str
) -> None:
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = 3600\n" + "\n".join(lines) + "\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f'slot_poolsize_constraint = "{expected}"' in result.stdout.splitlines()
    assert "warning" not in result.stderr


def test_unset_and_blank_import_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A dump lists the knob blank (its default): no key, every slot counts."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        "PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT =\n", encoding="utf-8"
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "slot_poolsize_constraint" not in result.stdout


def test_an_expression_that_does_not_parse_names_its_line(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """One line, exit 2, the file's line and the knob named (25.0 would log it and count
    every slot; fs does not guess)."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        "PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT = (Cpus >=\n",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"fs: error: {conf}:2: NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT: ")
