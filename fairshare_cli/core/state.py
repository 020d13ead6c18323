"""The state document: a schema version and one JSON section per subsystem.

Sections: ``accountant`` (HTCondor user priorities), ``jobs`` (the queue), ``slurm``
(association usage), ``dirac`` (running-jobs history), ``negotiator`` (claims). Each
subsystem decodes and encodes its own section; this module only holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1
FORMAT_MARK = "fairshare-cli state"


class SectionError(ValueError):
    """A state section that does not decode; the message names the key.

    Section decoders raise it; the command line adds the state file's name.
    """


@dataclass(frozen=True)
class State:
    """Raw JSON sections by name (absent = empty)."""

    sections: Mapping[str, Any] = field(default_factory=dict)

    def section(self, name: str) -> Any:
        """The raw JSON of a section, or None."""
        return self.sections.get(name)

    def section_values(self) -> dict[str, Any]:
        """Every section's raw JSON, by name."""
        return dict(self.sections)

    def with_section(self, name: str, value: Any) -> State:
        """A copy with one section replaced."""
        return State(sections={**self.sections, name: value})


def state_to_json(state: State) -> dict[str, Any]:
    """The whole document, with the format mark and schema version."""
    return {"format": FORMAT_MARK, "schema_version": SCHEMA_VERSION, **state.section_values()}
