"""``fs whatif``: what moved between a view under the current config and under a changed one.

A view's rows (its ``--json`` objects) are matched by the view's key; for each row the
view's main figures are compared before and after, and its rank (position in the view)
too. Rows only before have left, rows only after have appeared.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairshare_cli.core.names import job_sort_key

Row = Mapping[str, Any]


#: Floats this close (relative) are the same figure: a history replayed sums the same
#: charges in another order than the stored usage was summed (the sample state's Slurm
#: usage and its history replayed differ by 4e-15), which no view prints.
SAME_FLOAT = 1e-12
#: The same for the views of HTCondor's accountant: a replayed side holds priorities as
#: the accountant stores them, with six decimals (``customer_record.as_stored``), where
#: the state's side brings them to ``--now`` from its own six-decimal record; the two
#: roundings differ by at most 1e-6 (``0.736746 -> 0.736745``), and a priority is at
#: least 0.5, so by at most 2e-6 of it, which condor_userprio (two decimals) never prints.
ACCOUNTANT_SAME = 2e-6


@dataclass(frozen=True)
class ViewSpec:
    """How to compare one view: its key fields, its main figures, where its rows are."""

    key: tuple[str, ...]
    figures: tuple[str, ...]
    rows_field: str | None = None  # the list inside a one-object view (negotiate)
    #: the view's matches (negotiate), compared by job: their slot and the job preempted
    matches_field: str | None = None
    #: how close (relative) two floats of the view are the same figure
    same_within: float = SAME_FLOAT


VIEWS: dict[str, ViewSpec] = {
    "userprio": ViewSpec(
        ("name",),
        ("effective_priority", "real_priority", "priority_factor", "weighted_resources_in_use"),
        same_within=ACCOUNTANT_SAME,
    ),
    "sprio": ViewSpec(("job_id", "partition"), ("priority",)),
    "sshare": ViewSpec(
        ("account", "user"),
        ("raw_shares", "norm_shares", "raw_usage", "effective_usage", "fairshare"),
    ),
    "quota": ViewSpec(
        ("group",),
        (
            *("subtree_quota", "quota", "limit", "in_use", "demand"),
            *("static_quota", "dynamic_quota", "accept_surplus"),  # (the config's, printed)
        ),
    ),
    "taskqueues": ViewSpec(
        ("tq_id",), ("priority", "share", "correction", "p_first", "requirements.cpu_time")
    ),
    "negotiate": ViewSpec(
        ("name",),
        ("effective_priority", "share", "limit", "matched"),
        rows_field="submitters",
        matches_field="matches",
        same_within=ACCOUNTANT_SAME,
    ),
}


@dataclass(frozen=True)
class Change:
    """One figure of one row that differs (``field`` "rank": the row moved, appeared, left)."""

    key: str
    field: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "field": self.field, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Compared:
    """One row on both sides (None where it is absent)."""

    key: str
    rank_before: int | None
    rank_after: int | None
    before: Row | None
    after: Row | None
    changed: frozenset[str]

    @property
    def rank_move(self) -> int | None:
        """Places gained (+) or lost (-); None when the row is on one side only."""
        if self.rank_before is None or self.rank_after is None:
            return None
        return self.rank_before - self.rank_after


@dataclass(frozen=True)
class WhatifDiff:
    """The whole comparison."""

    view: str
    figures: tuple[str, ...]
    rows: list[Compared]
    changes: list[Change]

    @property
    def no_differences(self) -> bool:
        return not self.changes

    def matches_differ(self) -> int:
        """How many matches (negotiate's, by job) differ."""
        return len({c.key for c in self.changes if c.field in MATCH_FIELDS})

    def counts(self) -> dict[str, int]:
        """Rows whose figures changed, rows that moved, appeared and left."""
        return {
            "changed": sum(
                1
                for r in self.rows
                if r.before is not None and r.after is not None and r.changed - {"rank"}
            ),
            "moved": sum(1 for r in self.rows if r.rank_move),
            "appeared": sum(1 for r in self.rows if r.before is None),
            "left": sum(1 for r in self.rows if r.after is None),
        }


def rows_of(view: str, document: Any) -> list[Row]:
    """The comparable rows of a view's ``--json`` document."""
    spec = VIEWS[view]
    if spec.rows_field is not None:
        return list(document.get(spec.rows_field, [])) if isinstance(document, dict) else []
    return list(document) if isinstance(document, list) else []


#: What a match of ``fs negotiate`` is compared by: where its job runs, whom it preempts.
MATCH_FIELDS = ("slot", "preempted_job")


def match_changes(view: str, before: Any, after: Any) -> list[Change]:
    """The matches (a view's ``matches_field``) that differ, by job id: its slot or the
    job it preempts, None on the side where the job is not matched; in job order."""
    field = VIEWS[view].matches_field
    if field is None or not isinstance(before, dict) or not isinstance(after, dict):
        return []
    old = {m["job_id"]: m for m in before.get(field, [])}
    new = {m["job_id"]: m for m in after.get(field, [])}
    out: list[Change] = []
    for job in sorted(old.keys() | new.keys(), key=job_sort_key):
        b, a = old.get(job), new.get(job)
        for name in MATCH_FIELDS:
            vb = None if b is None else b.get(name)
            va = None if a is None else a.get(name)
            if vb != va and (name == "slot" or (b is not None and a is not None)):
                out.append(Change(job, name, vb, va))
    return out


def row_key(spec: ViewSpec, row: Row) -> str:
    """A row's key as text: key fields joined by ``/``, absent parts left out."""
    return "/".join(str(row[k]) for k in spec.key if row.get(k) is not None)


def figure_of(row: Row | None, name: str) -> Any:
    """A row's figure; a dotted name reads inside an object (``requirements.cpu_time``)."""
    value: Any = row
    for part in name.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def row_keys(view: str, rows: Sequence[Row]) -> list[str]:
    """Each row's key (:func:`row_key`); task queues by what they hold, not by TQId.

    A task queue's id only counts queues in creation order, so a changed CPU segment list
    (queues merged or split) gives other queues the same ids. A queue is keyed instead by
    its owner and group, the place of its other requirements (all but ``cpu_time``) among
    that owner's and group's queues, and its place among queues of those same requirements,
    each in creation order: ``alice/lhcb_user/1.2`` is alice's second queue in
    ``lhcb_user`` of her first requirements. Queues that merge keep the first one's key.
    """
    spec = VIEWS[view]
    if view != "taskqueues":
        return [row_key(spec, r) for r in rows]
    places: dict[tuple[str, str], dict[str, int]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    keys: list[str] = []
    for row in rows:
        entity = (str(row.get("owner")), str(row.get("group")))
        other = {k: v for k, v in (row.get("requirements") or {}).items() if k != "cpu_time"}
        text = json.dumps(other, sort_keys=True)
        by_text = places.setdefault(entity, {})
        place = by_text.setdefault(text, len(by_text) + 1)
        same = (entity[0], entity[1], text)
        nth = seen[same] = seen.get(same, 0) + 1
        keys.append(f"{entity[0]}/{entity[1]}/{place}.{nth}")
    return keys


def same(a: Any, b: Any, within: float = SAME_FLOAT) -> bool:
    """Equal figures: floats equal to ``within`` relative (NaN equal to NaN), anything else
    by ``==``."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return a == b or math.isclose(a, b, rel_tol=within)
    return bool(a == b)


def compare(
    view: str, before: Sequence[Row], after: Sequence[Row], matches: Sequence[Change] = ()
) -> WhatifDiff:
    """Match rows by key and list every figure and rank that differs, then ``matches``
    (:func:`match_changes`).

    Rows come in the after view's order, then rows that left in the before view's order.
    """
    spec = VIEWS[view]
    keys_before, keys_after = row_keys(view, before), row_keys(view, after)
    rank_before = {k: i + 1 for i, k in enumerate(keys_before)}
    rank_after = {k: i + 1 for i, k in enumerate(keys_after)}
    by_before = dict(zip(keys_before, before, strict=True))
    by_after = dict(zip(keys_after, after, strict=True))
    order = list(by_after) + [k for k in by_before if k not in by_after]
    rows: list[Compared] = []
    changes: list[Change] = []
    for key in order:
        b, a = by_before.get(key), by_after.get(key)
        rb, ra = rank_before.get(key), rank_after.get(key)
        changed: set[str] = set()
        if rb != ra:
            changed.add("rank")
            changes.append(Change(key, "rank", rb, ra))
        for name in spec.figures:
            vb, va = figure_of(b, name), figure_of(a, name)
            if not same(vb, va, spec.same_within):
                changed.add(name)
                changes.append(Change(key, name, vb, va))
        rows.append(Compared(key, rb, ra, b, a, frozenset(changed)))
    return WhatifDiff(view, spec.figures, rows, [*changes, *matches])


def diff_json(
    diff: WhatifDiff, before: Any, after: Any, notes: Sequence[str] = ()
) -> dict[str, Any]:
    """``{"before": [...], "after": [...], "changes": [...], "notes": [...]}`` for
    ``--json`` (``notes``: what the after side could not revalue, as the table's footer)."""
    return {
        "before": before,
        "after": after,
        "changes": [c.to_json() for c in diff.changes],
        "notes": list(notes),
    }


#: The config tables each scheduler's views read, by whose knobs they hold.
_OWNERS = {
    "accountant": "HTCondor",
    "groups": "HTCondor",
    "negotiator": "HTCondor",
    "priority": "Slurm",
    "partitions": "Slurm",
    "qos": "Slurm",
    "accounts": "Slurm",
    "dirac": "DIRAC",
}
#: The views that read each scheduler's tables.
_READERS = {
    "HTCondor": "fs userprio, fs quota and fs negotiate",
    "Slurm": "fs sshare and fs sprio",
    "DIRAC": "fs taskqueues",
}
#: The schedulers whose tables a view never reads (fs negotiate and fs simulate read all).
_UNREAD = {
    "userprio": ("Slurm", "DIRAC"),
    "quota": ("Slurm", "DIRAC"),
    "sshare": ("HTCondor", "DIRAC"),
    "sprio": ("HTCondor", "DIRAC"),
    "taskqueues": ("HTCondor", "Slurm"),
}


def unread_note(view: str, tables: Sequence[str]) -> str | None:
    """What to say when every changed key (its table given) is another scheduler's, one the
    view never reads, so that its "no differences" is no finding; None when one is read."""
    owners = [_OWNERS.get(t) for t in tables]
    unread = _UNREAD.get(view, ())
    if not tables or not all(o in unread for o in owners):
        return None
    named = " or ".join(
        dict.fromkeys(f"[{t}] ({o}'s)" for t, o in zip(tables, owners, strict=True))
    )
    first = owners[0]
    assert first is not None  # (an unread owner)
    readers = _READERS[first]
    verb = "do" if " and " in readers else "does"
    return f"fs {view} reads no key of {named}, so nothing can differ; {readers} {verb}"
