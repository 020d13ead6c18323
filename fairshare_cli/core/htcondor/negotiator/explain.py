"""The story of one job through a cycle (``fs negotiate --explain``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fairshare_cli.core.htcondor.negotiator.queue import Submitter


class Explainer:
    """Records the events of one job's cycle, in order, as plain dicts.

    Attributes:
        job_id: the job explained (None: nothing is recorded).
        events: ``{"event": ..., ...}`` in the order they happened.
        submitter: the submitter holding the job, once found.
        matching: unclaimed slots the last matched autocluster matches.
        done: the job was matched: its story ends there (its submitter's later turns, and
            its group's later rounds, are not its own).
    """

    __slots__ = ("done", "events", "job_id", "matching", "submitter")

    def __init__(self, job_id: str | None) -> None:
        self.job_id = job_id
        self.events: list[dict[str, Any]] = []
        self.submitter: Submitter | None = None
        self.matching = 0
        self.done = False

    def note(self, event: str, **data: Any) -> None:
        """Record one event (none after the match)."""
        if not self.done:
            self.events.append({"event": event, **data})
            self.done = event == "matched"

    def holds(self, sub: Submitter) -> bool:
        """Whether ``sub``'s idle jobs include the explained one."""
        return self.job_id is not None and any(r.holds(self.job_id) for r in sub.runs)

    def find_submitter(self, subs: Iterable[Submitter]) -> None:
        """Note the submitter that holds the job (before any negotiation)."""
        if self.job_id is None:
            return
        for sub in subs:
            if self.holds(sub):
                self.submitter = sub
                self.note(
                    "submitter",
                    submitter=sub.name,
                    group=sub.group,
                    effective_priority=sub.eup,
                )
