"""DIRAC share correction from the running-jobs history (the WMSHistory corrector).

Mirrors DIRAC's ``WorkloadManagementSystem/private/SharesCorrector.py`` and
``correctors/BaseHistoryCorrector.py``/``WMSHistoryCorrector.py``: corrector instances
between groups (no ``Group``) or between the owners of one group, time slices with a
weight and a maximum correction, a global clamp, and the rule for entities absent from
the history. The history is the running jobs per entity over time, kept in the state's
``dirac`` section as step functions; a slice reads it as DIRAC's accounting report does
(:mod:`~fairshare_cli.core.dirac.history_report`). Pure.
"""

from __future__ import annotations

import bisect
import contextlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from fairshare_cli.core.config import (
    Config,
    DiracCorrectionConfig,
    DiracCorrectionInstance,
    DiracSlice,
)
from fairshare_cli.core.dirac.history_report import (
    SHORTEST_REPORT,
    Entity,
    bucket_length,
    slice_history,
)
from fairshare_cli.core.dirac.taskqueues import CorrectionFails
from fairshare_cli.core.state import SectionError
from fairshare_cli.core.usage import UsageRecord, record_end

CORRECTOR_TYPES = ("WMSHistory", "MonitoringHistory")
"""The ``<Type>Corrector`` classes DIRAC ships (both read the same options; ``fs`` feeds
both from the running-jobs history)."""

AbsentRule = Literal["max_correction", "weighted"]
"""Correction of an entity missing from a slice's history.

``"max_correction"`` is DIRAC's code: the slice's MaxCorrection, not multiplied by its
weight. ``"weighted"`` is the documented formula: MaxCorrection × weight, like any slice.
"""

# --- running-jobs history -------------------------------------------------------------------


@dataclass
class RunningHistory:
    """Running jobs over time per (group, owner), as step functions.

    Each entity keeps sorted ``[time, delta]`` events: the number of running jobs changes by
    ``delta`` at ``time``. An interval still running has no closing event.
    """

    events: dict[tuple[str, str], list[tuple[float, float]]] = field(default_factory=dict)

    def add(self, group: str, owner: str, start: float, end: float | None, jobs: float) -> None:
        """Record ``jobs`` running from ``start`` to ``end`` (None: still running)."""
        if jobs == 0 or (end is not None and end <= start):
            return
        steps = self.events.setdefault((group, owner), [])
        _add_delta(steps, start, jobs)
        if end is not None:
            _add_delta(steps, end, -jobs)


def _add_delta(steps: list[tuple[float, float]], time: float, delta: float) -> None:
    """Insert one change, merging with an existing change at the same time."""
    i = bisect.bisect_left(steps, (time, -math.inf))
    if i < len(steps) and steps[i][0] == time:
        merged = steps[i][1] + delta
        if merged == 0:
            del steps[i]
        else:
            steps[i] = (time, merged)
    else:
        steps.insert(i, (time, delta))


def history_to_json(history: RunningHistory) -> dict[str, Any]:
    """The ``dirac`` state section: ``{"running_jobs": {group: {owner: [[t, delta], ...]}}}``."""
    running: dict[str, dict[str, list[list[float]]]] = {}
    for (group, owner), steps in sorted(history.events.items()):
        if steps:
            running.setdefault(group, {})[owner] = [[t, d] for t, d in steps]
    return {"running_jobs": running}


_NUMBERS = (int, float)


#: A list of ``[time, delta]`` steps as msgspec reads it: pairs of numbers (``int`` or
#: ``float``, not ``bool``), checked and made tuples in C (a state of ``benchmarks/run.py
#: --rows import`` holds some 460,000 steps, read again by the check of the state written).
_STEPS = list[tuple[int | float, int | float]]
_LIST = frozenset([list])


def history_from_json(raw: object) -> RunningHistory:
    """Read the ``dirac`` state section written by :func:`history_to_json` (None: empty).

    Raises:
        SectionError: the section is not of that shape.
    """
    history = RunningHistory()
    if raw is None:
        return history
    if not isinstance(raw, dict):
        raise SectionError("state section 'dirac' must be an object")
    running = raw.get("running_jobs", {})
    if not isinstance(running, dict):
        raise SectionError("state section 'dirac': running_jobs must be an object of groups")
    for group, owners in running.items():
        if not isinstance(owners, dict):
            raise SectionError(f"state section 'dirac': running_jobs.{group} must be an object")
        for owner, steps in owners.items():
            parsed = None
            if type(steps) is list and set(map(type, steps)) <= _LIST:  # (not tuples)
                # (a lone surrogate, "\udcff", is refused with a UnicodeEncodeError)
                with contextlib.suppress(msgspec.ValidationError, UnicodeEncodeError):
                    parsed = msgspec.convert(steps, _STEPS, strict=True)
            if parsed is None:
                parsed = _steps_one_by_one(group, owner, steps)
            parsed.sort()
            history.events[(group, owner)] = parsed
    return history


def _steps_one_by_one(group: str, owner: str, steps: object) -> list[tuple[Any, Any]]:
    """The steps msgspec did not take as pairs of numbers, each checked in turn: the
    first that is not ``[time, delta]`` named (an integer past 64 bits is a number too).

    Raises:
        SectionError: naming the step.
    """
    parsed = []
    for k, step in enumerate(steps if isinstance(steps, list) else [None]):
        if not (
            isinstance(step, list)
            and len(step) == 2
            and type(step[0]) in _NUMBERS
            and type(step[1]) in _NUMBERS
        ):
            raise SectionError(
                f"state section 'dirac': running_jobs.{group}.{owner}[{k}] must be [time, delta]"
            )
        parsed.append((step[0], step[1]))
    return parsed


def record_cycle(
    section: Any,
    started: Iterable[tuple[str, str]],
    stopped: Iterable[tuple[str, str]],
    now: float,
) -> dict[str, Any]:
    """The ``dirac`` section after a committed negotiation cycle.

    Each (group, owner) in ``started`` has one more job running from ``now`` on; each in
    ``stopped`` (a preempted job) one fewer.

    Raises:
        SectionError: the section given is malformed.
    """
    history = history_from_json(section)
    for group, owner in started:
        history.add(group, owner, now, None, 1)
    for group, owner in stopped:
        history.add(group, owner, now, None, -1)
    return history_to_json(history)


class DiracHistorySink:
    """Collects usage records into the running-jobs history (``fs import history``)."""

    def __init__(self, section: object, rebuild: bool, cutoff: float | None = None) -> None:
        """Start from the existing section, or from nothing when rebuilding.

        Work before ``cutoff`` can never fall in a slice: it is folded into the running
        count at ``cutoff`` (and a record that ended before it is dropped), so the history
        stays as long as the longest slice, not as long as the file.
        """
        self._history = RunningHistory() if rebuild else history_from_json(section)
        self._batch: dict[tuple[str, str], dict[float, float]] = {}
        self._cutoff = -math.inf if cutoff is None else cutoff

    def add(self, record: UsageRecord) -> None:
        """Charge one record to its (group, owner); records without a DIRAC group are skipped."""
        if record.dirac_group is None or record.slots == 0:
            return
        if record.end is not None and record.end <= record.start:
            return
        if record.end is not None and record.end <= self._cutoff:
            return
        start = max(record.start, self._cutoff)
        changes = self._batch.setdefault((record.dirac_group, record.owner), {})
        changes[start] = changes.get(start, 0) + record.slots
        if record.end is not None:
            changes[record.end] = changes.get(record.end, 0) - record.slots

    def add_batch(self, records: list[UsageRecord]) -> None:
        """:meth:`add` for each record, in order (``benchmarks/run.py --rows import``)."""
        batch, cutoff = self._batch, self._cutoff
        ends = list(map(record_end, records))
        if ends and all(ends) and max(ends) <= cutoff:  # (all: no None, a truth test)
            return  # all ended before the cutoff (most of a long history): each is skipped
        for owner, start, end, _, _, _, _, _, group, slots, _, _, _ in records:
            if group is None or slots == 0:
                continue
            if end is not None and (end <= start or end <= cutoff):
                continue
            if start < cutoff:
                start = cutoff
            changes = batch.get((group, owner))
            if changes is None:
                changes = batch[(group, owner)] = {}
            changes[start] = changes.get(start, 0) + slots
            if end is not None:
                changes[end] = changes.get(end, 0) - slots

    def finish(self) -> dict[str, Any]:
        """Fold the batch into the history and return the new section JSON."""
        batch, self._batch = self._batch, {}
        events = self._history.events
        # The steps of a key the history lacks are written as they are made: none is
        # before the cutoff (add starts a record there at the latest, and drops one ended
        # by then), so folding leaves them as they are. Each key's changes freed once
        # sorted: a 1M-record import holds some 458,000 (benchmarks/run.py --rows import).
        made: dict[tuple[str, str], list[list[float]]] = {}
        for key in list(batch):
            changes = batch.pop(key)
            old = events.get(key)
            if old:  # (the last of an old time given twice; a sum either way round)
                for time, delta in dict(old).items():
                    changes[time] = changes.get(time, 0) + delta
                events[key] = [(time, delta) for time, delta in _steps(changes)]
            else:
                made[key] = _steps(changes)
        if math.isfinite(self._cutoff):
            fold_before(self._history, self._cutoff)
        # history_to_json, each key's steps freed once written (the section is the
        # largest of a big import's state)
        running: dict[str, dict[str, list[list[float]]]] = {}
        for key in sorted(events.keys() | made.keys()):
            kept = events.pop(key, None)
            steps = made.pop(key, None) or list(map(list, kept or ()))
            if steps:
                running.setdefault(key[0], {})[key[1]] = steps
        return {"running_jobs": running}


def _steps(changes: dict[float, float]) -> list[list[float]]:
    """The changes by time as the section's ``[time, delta]`` steps, in time order, those
    of 0 left out: the times (each once: the keys) sorted as numbers, not the pairs as
    tuples (``benchmarks/run.py --rows import`` sorts some 458,000: a third of the time)."""
    return [[time, delta] for time in sorted(changes) if (delta := changes[time])]


def fold_before(history: RunningHistory, cutoff: float) -> None:
    """Replace every event before ``cutoff`` by one event at ``cutoff`` (their sum).

    Averages over any window that starts at or after ``cutoff`` are unchanged.
    """
    for key, steps in list(history.events.items()):
        split = bisect.bisect_left(steps, (cutoff, -math.inf))  # (steps are sorted)
        if not split:
            continue
        early = [d for _, d in steps[:split]]
        late = steps[split:]
        total = sum(early)
        if late and late[0][0] == cutoff:
            total += late.pop(0)[1]
        folded = ([(cutoff, total)] if total != 0 else []) + late
        if folded:
            history.events[key] = folded
        else:
            del history.events[key]


def history_retention(config: Config) -> float:
    """How far back a slice can look: the longest configured time span (a week at least),
    and the accounting bucket it starts in."""
    spans = [s.time_span for inst in config.dirac.correction.instances for s in inst.slices]
    longest = max([DEFAULT_RETENTION, *spans])
    return longest + bucket_length(0, -int(longest))


DEFAULT_RETENTION = 604800.0  # DIRAC's default slice: one week


# --- the corrector --------------------------------------------------------------------------


def apply_correction(
    shares: Mapping[str, float],
    instance: DiracCorrectionInstance,
    histories: Sequence[Mapping[Entity, float]],
    absent_entities: AbsentRule = "max_correction",
) -> tuple[dict[str, float], dict[str, float]]:
    """Correct entity shares from their running-jobs history.

    Mirrors ``BaseHistoryCorrector.applyCorrection``. With s_e the entity's share over the
    sum of shares, for each slice with usage T > 0 over the given entities: a present
    entity gets ``clamp(s_e / (h_e / T), 1/Max, Max) · weight`` (weight over the sum of all
    weights), an absent one ``Max`` (code) or ``Max · weight`` (docs); the sum of an entity's
    slice factors is clamped to ``[1/G, G]`` (G = max_global_correction) and multiplies its
    share. No history at all (any slice without data): nothing changes. Shares summing to
    0 raise :class:`~fairshare_cli.core.dirac.taskqueues.CorrectionFails` (DIRAC divides),
    as do, once there is history, a MaxGlobalCorrection of 0 and a MaxCorrection of 0 in a
    slice whose entities ran (DIRAC divides 1 by each). Weights and maxima below 1 are
    taken as DIRAC takes them: a negative weight (over a sum that may be negative too), a
    negative maximum (``min`` then ``max`` with its reciprocal: every present entity gets
    the reciprocal), with DIRAC's arithmetic.

    Args:
        shares: entity -> share, in DIRAC's iteration order.
        instance: the corrector instance.
        histories: per slice (same order as ``instance.slices``), entity -> average running.
        absent_entities: see :data:`AbsentRule`.

    Returns:
        (corrected shares, correction factors), factors 1.0 where nothing applied.
    """
    ones = dict.fromkeys(shares, 1.0)
    total_share = 0.0
    for entity in shares:
        total_share += shares[entity]
    if total_share == 0 and shares:  # (before the history: DIRAC normalises first)
        raise CorrectionFails("the shares it corrects sum to 0")
    if not instance.slices or any(not h for h in histories):
        return dict(shares), ones
    normalized = {e: shares[e] / total_share for e in shares}
    weight_sum = 0
    for piece in instance.slices:
        weight_sum += piece.weight
    entries: dict[str, list[float]] = {e: [] for e in shares}
    for piece, history in zip(instance.slices, histories, strict=True):
        weight = piece.weight / float(weight_sum)
        _slice_factors(piece, history, normalized, weight, entries, absent_entities)
    corrected: dict[str, float] = {}
    factors: dict[str, float] = {}
    top_global = instance.max_global_correction
    if top_global == 0:
        raise CorrectionFails("1 over its MaxGlobalCorrection 0")
    bottom_global = 1.0 / top_global
    for entity, pieces in entries.items():
        if not pieces:
            corrected[entity] = shares[entity]
            factors[entity] = 1.0
            continue
        total = 0.0
        for piece_factor in pieces:
            total += piece_factor
        total = min(total, top_global)
        total = max(total, bottom_global)
        corrected[entity] = shares[entity] * total
        factors[entity] = total
    return corrected, factors


def _slice_factors(
    piece: DiracSlice,
    history: Mapping[Entity, float],
    normalized: Mapping[str, float],
    weight: float,
    entries: dict[str, list[float]],
    absent_entities: AbsentRule,
) -> None:
    """Append each entity's weighted factor for one slice (none if the slice saw no usage).

    ``normalized`` is in DIRAC's iteration order; the slice total sums in that order.
    """
    slice_total = 0.0
    for entity in normalized:
        if entity in history:
            slice_total += history[entity]
    if slice_total == 0.0:
        return
    top = piece.max_correction
    if top == 0:
        raise CorrectionFails("1 over a slice's MaxCorrection 0")
    bottom = 1.0 / top
    for entity in normalized:
        if entity in history:
            factor = normalized[entity] / (history[entity] / slice_total)
            factor = min(factor, top)
            factor = max(factor, bottom)
            factor *= weight
        elif absent_entities == "weighted":
            factor = top * weight
        else:
            factor = top
        entries[entity].append(factor)


def started_instances(
    instances: Sequence[DiracCorrectionInstance],
) -> list[DiracCorrectionInstance]:
    """The instances DIRAC's ``SharesCorrector`` runs once the TaskQueuesAgent has started
    them: within each corrector type, those before the first whose slice weights sum to 0.
    ``_fillSlices`` divides each weight by their sum in ``initialize``: the exception ends
    that agent cycle, and the type, already registered, is never instantiated again, so
    neither that instance nor the type's later ones ever start."""
    failed: set[str] = set()
    out = []
    for instance in instances:
        if instance.corrector in failed:
            continue
        if instance.slices and sum(piece.weight for piece in instance.slices) == 0:
            failed.add(instance.corrector)
            continue
        out.append(instance)
    return out


@dataclass(frozen=True)
class HistoryCorrector:
    """``SharesCorrector.correctShares`` bound to a history and a time (a ShareCorrector)."""

    settings: DiracCorrectionConfig
    history: RunningHistory
    now: float

    def __call__(
        self, shares: dict[str, float], group: str | None
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Correct ``shares`` between groups (``group`` None) or between owners of ``group``.

        Every corrector type has at most one instance for a key; the instances for this key
        apply in the order of their types (``ShareCorrectorsToStart``: the order in which the
        types first come in the instances), each to the shares the one before corrected, and
        the factors multiply.
        """
        key = group or ""
        types = list(dict.fromkeys(instance.corrector for instance in self.settings.instances))
        factors = dict.fromkeys(shares, 1.0)
        shares = dict(shares)
        started = started_instances(self.settings.instances)
        for instance in sorted(started, key=lambda i: types.index(i.corrector)):
            if instance.group != key:
                continue
            shares, more = self._one(instance, shares)
            factors = {entity: factors[entity] * more[entity] for entity in factors}
        return shares, factors

    @property
    def may_fail(self) -> bool:
        """Whether an instance has a maximum correction of 0, which DIRAC divides 1 by once
        it has history (:class:`~fairshare_cli.core.dirac.taskqueues.CorrectionFails`)."""
        return any(
            instance.max_global_correction == 0
            or any(piece.max_correction == 0 for piece in instance.slices)
            for instance in started_instances(self.settings.instances)
        )

    def _one(
        self, instance: DiracCorrectionInstance, shares: dict[str, float]
    ) -> tuple[dict[str, float], dict[str, float]]:
        """One instance's correction of ``shares`` (``BaseHistoryCorrector.applyCorrection``);
        a slice shorter than :data:`SHORTEST_REPORT` leaves the instance without history."""
        settings = self.settings
        report = settings.history_report
        if report == "accounting" and instance.corrector == "MonitoringHistory":
            report = "monitoring"  # (the code's report of that type: OpenSearch's)
        histories = [
            slice_history(
                self.history.events,
                instance.group,
                piece.time_span,
                self.now,
                settings.in_group_history,  # type: ignore[arg-type]
                report,  # type: ignore[arg-type]
            )
            if all(p.time_span >= SHORTEST_REPORT for p in instance.slices)
            else {}
            for piece in instance.slices
        ]
        absent = self.settings.absent_entities
        return apply_correction(shares, instance, histories, absent)  # type: ignore[arg-type]


def make_dirac_history_sink(
    config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
) -> DiracHistorySink:
    """The DIRAC running-jobs history's sink for ``fs import history`` (any record order).

    History older than the longest slice (:func:`history_retention`) is folded away.
    """
    return DiracHistorySink(section, rebuild, cutoff=now - history_retention(config))
