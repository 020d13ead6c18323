"""``fs import condor-config`` takes ``NEGOTIATOR_SLOT_CONSTRAINT`` as ``[negotiator]
slot_constraint`` (25.0's ``Matchmaker::reinitialize`` reads it with ``param``, and
``obtainAdsFromCollector`` adds it to its query only when it is not blank); fs warned about
it as a knob it did not model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_the_constraint_is_imported_without_a_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "condor_config"
    conf.write_text(
        'PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SLOT_CONSTRAINT = Arch == "X86_64"\n',
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert 'slot_constraint = "Arch == \\"X86_64\\""' in result.stdout.splitlines()
    assert "warning" not in result.stderr


def test_the_negotiators_own_setting_wins(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``NEGOTIATOR.NEGOTIATOR_SLOT_CONSTRAINT`` over the plain knob, for the negotiator."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        'PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SLOT_CONSTRAINT = Arch == "X86_64"\n'
        "NEGOTIATOR.NEGOTIATOR_SLOT_CONSTRAINT = SlotID == 1\n",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert 'slot_constraint = "SlotID == 1"' in result.stdout.splitlines()
    assert "warning" not in result.stderr


def test_blank_imports_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A dump lists the knob blank (its default): no key, every slot fetched."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SLOT_CONSTRAINT =\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "slot_constraint" not in result.stdout
    assert "warning" not in result.stderr
