"""``fs import condor-config`` takes ``NEGOTIATOR_SUBMITTER_CONSTRAINT`` as ``[negotiator]
submitter_constraint`` (25.0's ``Matchmaker::reinitialize`` reads it with ``param``: a blank
value is none, and ``obtainAdsFromCollector`` adds it to its query only when set); fs warned
about it as a knob it did not model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_the_constraint_is_imported_without_a_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "condor_config"
    conf.write_text(
        'PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SUBMITTER_CONSTRAINT = Name != "bob"\n',
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert 'submitter_constraint = "Name != \\"bob\\""' in result.stdout.splitlines()
    assert "warning" not in result.stderr


def test_blank_imports_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A dump lists the knob blank (its default): no key, every submitter negotiates."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_SUBMITTER_CONSTRAINT =\n", "utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "submitter_constraint" not in result.stdout
    assert "warning" not in result.stderr
