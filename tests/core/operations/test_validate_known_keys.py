"""The static table of section keys is what each section's encoder writes."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations import validate

#: keys an encoder writes only when the section holds them: a body carrying each
_OPTIONAL = {
    "negotiator": {
        "group_quotas": {"group_a": 2.0},
        "limits_seen": ["db"],
        "jobless_matches": [
            {"slot": "slot1@s", "submitter": "a@x", "start_time": 0, "weight": 1.0}
        ],
    }
}


@pytest.mark.parametrize("name", ["accountant", "negotiator", "slurm", "dirac", "jobs", "x"])
def test_known_keys_are_the_encoders_keys(name: str) -> None:
    """Derived the old way, by encoding an empty decoded section (None when free-form),
    and a section holding the keys written only when set."""
    codec = validate._codec(name)
    want = None if codec is None else frozenset(codec[1](codec[0](None)))
    optional = _OPTIONAL.get(name)
    if codec is not None and optional is not None:
        assert want is not None
        want |= frozenset(codec[1](codec[0](optional)))
    assert validate.known_keys(name) == want
