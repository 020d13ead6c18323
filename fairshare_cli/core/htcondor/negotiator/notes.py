"""Where a cycle departs from HTCondor in a way fs does not model: one note per kind, with
how many times it happened (``fs negotiate`` prints them on stderr)."""

from __future__ import annotations


class CountedNotes:
    """The first note of each kind, and how often that kind came up in the cycle."""

    __slots__ = ("first", "times")

    def __init__(self) -> None:
        self.first: dict[str, str] = {}
        self.times: dict[str, int] = {}

    def add(self, kind: str, text: str) -> None:
        """Note ``text`` if it is the first of its ``kind``; count it either way."""
        self.first.setdefault(kind, text)
        self.times[kind] = self.times.get(kind, 0) + 1

    def lines(self) -> list[str]:
        """One line per kind, in the order they first came up."""
        out = []
        for kind, text in self.first.items():
            more = self.times[kind] - 1
            out.append(f"{text} ({more} more this cycle)" if more else text)
        return out
