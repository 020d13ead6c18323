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
from fairshare_cli.core.usage import (
    HistorySink,
    SinkFactory,
    UnsortedHistory,
    UsageRecord,
    batch_adder,
    batches_of,
)
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
        slurm_unknown_accounts: accounts records charged that the config does not have.
    """

    records: int
    slurm_unplaced: tuple[str, ...] = ()
    slurm_unknown_accounts: tuple[str, ...] = ()


def _sinks(
    config: Config,
    state: State,
    now: float,
    rebuild: bool,
    presorted: bool,
    factories: Mapping[str, SinkFactory],
) -> Callable[[], dict[str, HistorySink]]:
    """Makes a fresh sink per section.

    Raises (when called):
        SectionError: a malformed state section.
    """
    return lambda: {
        name: make(config, state.section(name), now, rebuild, presorted=presorted)
        for name, make in factories.items()
    }


def _slurm_ended_at_limits(config: Config, state: State, now: float) -> State:
    """The state with its Slurm usage brought to ``now`` as slurmctld would have, the
    queue's running jobs ended at their time limits (:mod:`~.slurm.limit_ends`), before
    the Slurm sink brings it there (which then finds nothing to do); the state itself
    when no charge of the queue's running jobs ends so.

    Raises:
        SectionError: a malformed ``slurm`` section.
        InputError: a malformed job in the queue.
    """
    raw = state.section("slurm")
    running = raw.get("running") if isinstance(raw, Mapping) else None
    if not isinstance(running, list) or not any(
        isinstance(item, Mapping) and item.get("job") is not None for item in running
    ):
        return state
    from fairshare_cli.core.slurm import usage as su
    from fairshare_cli.core.slurm.limit_ends import (
        charged_ids,
        charged_queue,
        ended_at_limits,
        fold_ended,
    )
    from fairshare_cli.core.slurm.tree_usage import decay_params

    slurm = su.usage_from_json(raw)
    queue = charged_queue(charged_ids(slurm), state.section("jobs"), "the state's jobs")
    limited = ended_at_limits(slurm, queue, config)
    if limited is slurm:
        return state
    advanced = fold_ended(slurm, limited, now, decay_params(config))
    return state.with_section("slurm", su.usage_to_json(advanced))


def _feed(
    sinks: dict[str, HistorySink], records: Iterable[UsageRecord], label: str, batched: bool
) -> int:
    """Every record into every sink (a batch at a time when ``batched``); how many.

    A reader's error (a bad line) comes once every record before it is charged, as it
    would record by record: it is raised as it is, ``batched`` too.

    Raises:
        UnsortedHistory: a presorted sink met a record that starts before the one before.
        InputError: a record the reader refuses; :class:`RefusedRecord`: one a sink
            refuses (named, with ``label``).
        _Refused: a record a sink refuses, ``batched``.
    """
    count = 0
    if batched:
        adders = [batch_adder(sink) for sink in sinks.values()]
        for batch in batches_of(records):
            count += len(batch)
            try:
                for add in adders:
                    add(batch)
            except InputError:
                raise _Refused() from None
        return count
    for record in records:
        count += 1
        try:
            for sink in sinks.values():
                sink.add(record)
        except InputError as exc:  # a sink names the record; add the file
            raise RefusedRecord(label, record, count, str(exc)) from None
    return count


class RefusedRecord(InputError):
    """A record a model refuses, named by its place in the replay (``label: record N:
    ...``, start order) until the reader of its file names its line (:attr:`problem`:
    the refusal without its place).

    Attributes:
        record: the record refused; problem: what is wrong with it.
    """

    def __init__(self, label: str, record: UsageRecord, count: int, message: str) -> None:
        super().__init__(f"{label}: {message}")
        self.record = record
        place = f"record {count}: "
        self.problem = message[len(place) :] if message.startswith(place) else message


class _Refused(Exception):
    """A sink refused a record of a batch: the feed starts again record by record, to name
    the first record refused and the sink's words."""


def _feed_in_order(
    make: Callable[[], dict[str, HistorySink]],
    records: Callable[[], Iterable[UsageRecord]],
    label: str,
) -> tuple[dict[str, HistorySink], int]:
    """Fresh sinks fed a batch at a time (each sink takes a whole batch); when a sink
    refuses a record, again record by record, so that what is reported is what each record
    meets first, in record order and sink order (a reader's error, a sink's, an unsorted
    record).

    Raises:
        UnsortedHistory: a presorted sink met a record that starts before the one before.
        InputError: a record the reader or a sink refuses.
        SectionError: a malformed state section.
    """
    sinks = make()
    try:
        return sinks, _feed(sinks, records(), label, batched=True)
    except (_Refused, UnsortedHistory):
        pass
    sinks = make()
    return sinks, _feed(sinks, records(), label, batched=False)


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
    if not rebuild and "slurm" in sinks:
        state = _slurm_ended_at_limits(config, state, now)
    streaming = _sinks(config, state, now, rebuild, True, sinks)
    try:
        made, count = _feed_in_order(streaming, records, label)
    except UnsortedHistory:
        if resort is not None:
            made, count = _feed_in_order(streaming, lambda: resort(records()), label)
        else:
            buffering = _sinks(config, state, now, rebuild, False, sinks)
            made, count = _feed_in_order(buffering, records, label)
    for name, sink in made.items():
        state = state.with_section(name, sink.finish())
    slurm = made.get("slurm")
    unplaced = tuple(sorted(getattr(slurm, "ignored", ())))
    unknown = tuple(sorted(getattr(slurm, "unknown_accounts", ())))
    return state, ImportSummary(count, unplaced, unknown)
