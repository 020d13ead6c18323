"""Usage a history import charges on top of Slurm usage that holds it already.

A dump (``fs import scontrol-assoc``, ``sshare``, ``squeue``) brings an association's raw
usage as slurmctld last decayed it, every job that ran before that pass included; a history
(``fs import sacct``, ``fs import history``) of those jobs charged on top counts them twice.
Only such usage can: the accountant refuses a record that starts before its submitter's
last update, which every import of usage moves on. ``--rebuild`` replays the file in place
of that usage, and warns of nothing.
"""

from __future__ import annotations

from typing import Any

import click

from fairshare_cli.core.operations.import_usage import HISTORY_SINKS
from fairshare_cli.core.usage import HistorySink, SinkFactory, UsageRecord, batch_adder


def _dumped(section: Any) -> tuple[float, set[tuple[str, str]]] | None:
    """The state's Slurm usage's last decay pass and the associations ``(account, user)``
    it holds usage of, or None when it holds none a dump brought."""
    from fairshare_cli.core.slurm.usage import usage_from_json

    state = usage_from_json(section)
    used = {key for key, value in state.usage.items() if value > 0}
    if state.last_decay_ran is None or not used:
        return None
    return state.last_decay_ran, used


def counted_already(
    section: Any, records: list[UsageRecord], on_line: list[int], ids: dict[int, str]
) -> list[str]:
    """The records (by job id in ``ids``, by record index; else ``line N``) that started
    before the decay pass of ``section``'s usage, of an association it has usage of."""
    found = _dumped(section)
    if found is None:
        return []
    return [ids.get(k, f"line {on_line[k]}") for k, r in enumerate(records) if _held(r, *found)]


def _held(record: UsageRecord, since: float, used: set[tuple[str, str]]) -> bool:
    """Whether the dump's usage holds ``record`` already: it started before the dump's
    pass, in an association the dump gives usage."""
    return record.start < since and (record.account, record.owner) in used


def counting_slurm_sink(counted: list[int]) -> SinkFactory:
    """The Slurm sink, counting into ``counted[0]`` (afresh at each reading) the records it
    is given that the state's usage holds already; a ``--rebuild`` counts none."""

    def factory(
        config: Any, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> HistorySink:
        sink = HISTORY_SINKS["slurm"](config, section, now, rebuild, presorted)
        counted[:] = [0]
        found = None if rebuild else _dumped(section)
        return sink if found is None else _Counting(sink, *found, counted)

    return factory


class _Counting:
    """A sink that counts the records starting before ``since`` of an association of
    ``used``, and hands every record on to ``sink``."""

    __slots__ = ("add_records", "counted", "since", "sink", "used")

    def __init__(
        self, sink: HistorySink, since: float, used: set[tuple[str, str]], counted: list[int]
    ) -> None:
        self.sink, self.since, self.used, self.counted = sink, since, used, counted
        self.add_records = batch_adder(sink)

    def add_batch(self, batch: list[UsageRecord]) -> None:
        since, used = self.since, self.used
        self.counted[0] += sum(_held(r, since, used) for r in batch)
        self.add_records(batch)

    def add(self, record: UsageRecord) -> None:
        self.add_batch([record])

    def finish(self) -> Any:
        return self.sink.finish()

    def __getattr__(self, name: str) -> Any:
        """The Slurm sink's own (``ignored``, ``unknown_accounts``: what the import
        summary reads off it)."""
        return getattr(self.sink, name)


def warn_counted_twice(file: str, count: int, names: list[str], what: str = "job") -> None:
    """Say on stderr that ``count`` records of ``file`` (``names``, when known) were
    charged on top of usage holding them."""
    from fairshare_cli.cli.imports._slurm_state import plural
    from fairshare_cli.io.importers.common import summary_names

    one = count == 1
    named = f" ({summary_names(names)})" if names else ""
    click.echo(
        f"fs: warning: Slurm: {plural(count, what)} of {file}{named} started before the decay "
        "pass of the state's usage, which a dump brought (fs import scontrol-assoc, sshare or "
        f"squeue) and which counts {'it' if one else 'them'} already: "
        f"{'its' if one else 'their'} usage now counts twice; --rebuild replays {file} in "
        "place of that usage",
        err=True,
    )
