"""A cycle's notes (core/htcondor/negotiator/notes.py): the first of each kind, counted."""

from __future__ import annotations

from fairshare_cli.core.htcondor.negotiator.notes import CountedNotes


def test_the_first_note_of_a_kind_stands_for_the_rest() -> None:
    notes = CountedNotes()
    assert notes.lines() == []
    notes.add("reoffer", "first")
    notes.add("other", "another kind")
    notes.add("reoffer", "second")
    notes.add("reoffer", "third")
    assert notes.lines() == ["first (2 more this cycle)", "another kind"]
