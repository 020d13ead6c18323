"""Usage history into every model at once (``fs import history``, ``condor-history``, ``sacct``).

One sink per subsystem (the HTCondor accountant, DIRAC's running-jobs history, Slurm's
association usage) charges the same records to its own state section. Sinks first stream
(records in start order, flat memory); when the records turn out not to be in order, they
are made again to buffer and sort, and the records are read once more: ``records`` is a
callable that opens the source afresh each time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from fairshare_cli.core.config import Config
from fairshare_cli.core.dirac.correction import make_dirac_history_sink
from fairshare_cli.core.htcondor.replay import make_accountant_history_sink
from fairshare_cli.core.slurm.model import make_slurm_history_sink
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import HistorySink, SinkFactory, UnsortedHistory, UsageRecord
from fairshare_cli.errors import InputError

#: One sink per subsystem, by state section: each charges records to its own model.
HISTORY_SINKS: dict[str, SinkFactory] = {
    "accountant": make_accountant_history_sink,
    "dirac": make_dirac_history_sink,
    "slurm": make_slurm_history_sink,
}


@dataclass(frozen=True)
class ImportSummary:
    """What an import did.

    Attributes:
        records: how many records were read.
        slurm_unplaced: users whose usage Slurm ignored (no association in the config).
    """

    records: int
    slurm_unplaced: tuple[str, ...] = ()


def _feed(
    config: Config,
    state: State,
    now: float,
    records: Iterable[UsageRecord],
    label: str,
    rebuild: bool,
    presorted: bool,
    factories: Mapping[str, SinkFactory],
) -> tuple[dict[str, HistorySink], int]:
    """Every record into a fresh sink per section.

    Raises:
        UnsortedHistory: ``presorted`` and a record starts before the one before it.
        InputError: a record a sink refuses (named, with ``label``).
        SectionError: a malformed state section.
    """
    sinks = {
        name: make(config, state.section(name), now, rebuild, presorted=presorted)
        for name, make in factories.items()
    }
    count = 0
    for record in records:
        count += 1
        try:
            for sink in sinks.values():
                sink.add(record)
        except InputError as exc:  # a sink names the record; add the file
            raise InputError(f"{label}: {exc}") from None
    return sinks, count


def import_usage(
    config: Config,
    state: State,
    now: float,
    records: Callable[[], Iterable[UsageRecord]],
    *,
    label: str,
    rebuild: bool = False,
    sinks: Mapping[str, SinkFactory] = HISTORY_SINKS,
    resort: Callable[[Iterable[UsageRecord]], Iterable[UsageRecord]] | None = None,
) -> tuple[State, ImportSummary]:
    """Charge every usage record to every model; ``rebuild`` forgets recorded usage first.

    Args:
        records: opens the source and yields its records; called a second time when the
            records are not in start order.
        label: names the source in messages.
        sinks: the sink factory of each state section (default :data:`HISTORY_SINKS`;
            ``fs import history --cycle`` replaces the accountant's).
        resort: puts records in start order (the CLI's external merge sort): the second
            reading then streams too, instead of the sinks buffering every record.

    Returns:
        The new state and what was imported.

    Raises:
        InputError: a record a model refuses (starts after ``now``, before a recorded
            update, ...).
        SectionError: a malformed state section.
    """
    try:
        made, count = _feed(config, state, now, records(), label, rebuild, True, sinks)
    except UnsortedHistory:
        if resort is not None:
            made, count = _feed(config, state, now, resort(records()), label, rebuild, True, sinks)
        else:
            made, count = _feed(config, state, now, records(), label, rebuild, False, sinks)
    for name, sink in made.items():
        state = state.with_section(name, sink.finish())
    unplaced = tuple(sorted(getattr(made.get("slurm"), "ignored", ())))
    return state, ImportSummary(count, unplaced)
