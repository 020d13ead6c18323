"""``fs import condor-config`` takes ``NEGOTIATOR_JOB_CONSTRAINT`` as ``[negotiator]
job_constraint`` (25.0's ``Matchmaker::reinitialize`` reads it with ``param``: a blank value is
none); fs warned about it as a knob it did not model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_the_constraint_is_imported_without_a_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "condor_config"
    conf.write_text(
        'PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_JOB_CONSTRAINT = Owner != "bob"\n', encoding="utf-8"
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert 'job_constraint = "Owner != \\"bob\\""' in result.stdout.splitlines()
    assert "warning" not in result.stderr


def test_blank_imports_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A dump lists the knob blank (its default): no key, every job offered."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_JOB_CONSTRAINT =\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "job_constraint" not in result.stdout
    assert "warning" not in result.stderr
