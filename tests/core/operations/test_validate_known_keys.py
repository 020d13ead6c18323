"""The static table of section keys is what each section's encoder writes."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations import validate


@pytest.mark.parametrize("name", ["accountant", "negotiator", "slurm", "dirac", "jobs", "x"])
def test_known_keys_are_the_encoders_keys(name: str) -> None:
    """Derived the old way, by encoding an empty decoded section (None when free-form)."""
    codec = validate._codec(name)
    want = None if codec is None else frozenset(codec[1](codec[0](None)))
    assert validate.known_keys(name) == want
