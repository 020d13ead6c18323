"""The state document: a schema version and one JSON section per subsystem.

Sections: ``accountant`` (HTCondor user priorities), ``jobs`` (the queue), ``slurm``
(association usage), ``dirac`` (running-jobs history), ``negotiator`` (claims). Each
subsystem decodes and encodes its own section; this module only holds them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1
FORMAT_MARK = "fairshare-cli state"


class SectionError(ValueError):
    """A state section that does not decode; the message names the key.

    Section decoders raise it; the command line adds the state file's name.
    """


_UNDECODED: Any = object()


class LazySection:
    """A section kept as its JSON text until it is first read: a view that reads it
    straight into its own records (``fs sprio``'s queue of 100,000 jobs) never makes its
    dicts. ``decode`` turns the text into the section's raw JSON (or raises what reading
    the state raises); it runs once."""

    __slots__ = ("_decode", "_value", "text")

    def __init__(self, text: Any, decode: Callable[[Any], Any]) -> None:
        self.text = text
        self._decode = decode
        self._value = _UNDECODED

    def value(self) -> Any:
        """The section's raw JSON, decoded on the first call."""
        if self._value is _UNDECODED:
            self._value = self._decode(self.text)
        return self._value


@dataclass(frozen=True)
class State:
    """Raw JSON sections by name (absent = empty); a section may be a
    :class:`LazySection`, which :meth:`section` decodes."""

    sections: Mapping[str, Any] = field(default_factory=dict)

    def section(self, name: str) -> Any:
        """The raw JSON of a section, or None."""
        value = self.sections.get(name)
        return value.value() if isinstance(value, LazySection) else value

    def section_values(self) -> dict[str, Any]:
        """Every section's raw JSON, by name (each :class:`LazySection` decoded)."""
        return {name: self.section(name) for name in self.sections}

    def section_text(self, name: str) -> Any:
        """The JSON text of a section kept as text (a :class:`LazySection`), else None."""
        value = self.sections.get(name)
        return value.text if isinstance(value, LazySection) else None

    def with_section(self, name: str, value: Any) -> State:
        """A copy with one section replaced."""
        return State(sections={**self.sections, name: value})


def state_to_json(state: State) -> dict[str, Any]:
    """The whole document, with the format mark and schema version."""
    return {"format": FORMAT_MARK, "schema_version": SCHEMA_VERSION, **state.section_values()}
