"""``fs whatif`` replay: the state rebuilt from the usage history under the changed config.

(And ``--rederive-factors``: the stored factors the current config derives forgotten.)

A half-life, a slot weight, a Slurm decay or usage factor changes how the recorded past is
valued, but the state keeps usage already valued (decayed to its last update): changing
the key and reading the same state would show no difference. So for such keys the
"after" side replays the kept usage history (the store beside the state, or
``--history FILE``) into a fresh copy of the state's models, under the changed config.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import UsageRecord

#: Keys whose change revalues recorded usage (the "after" side replays the history), with
#: the state section (model) each revalues: only those models are rebuilt.
REPLAY_KEYS = (
    (r"accountant\.priority_halflife", "accountant"),
    (r"negotiator\.(use_slot_weights|slot_weight)", "accountant"),
    (r"priority\.(decay_halflife|calc_period|usage_reset_\w+|enforce_limits)", "slurm"),
    (r'qos\.("[^"]*"|[^.]+)\.usage_factor', "slurm"),
    (r'partitions\.("[^"]*"|[^.]+)\.billing_weights', "slurm"),
)
_REPLAY = [(re.compile(k), section) for k, section in REPLAY_KEYS]


def needs_replay(overrides: Mapping[str, Any]) -> list[str]:
    """The changed keys that revalue the recorded past."""
    return [k for k in overrides if any(r.fullmatch(_plain(k)) for r, _ in _REPLAY)]


def replayed_sections(overrides: Mapping[str, Any]) -> frozenset[str]:
    """The models the changed keys revalue (none: every model, as ``--history`` alone)."""
    return frozenset(s for k in overrides for r, s in _REPLAY if r.fullmatch(_plain(k)))


def _plain(key: str) -> str:
    """``key`` as :data:`REPLAY_KEYS` spell it: a knob name as its key, a part quoted only
    when it holds a dot (``"accountant"."priority_halflife"`` and
    ``accountant.PRIORITY_HALFLIFE`` are ``accountant.priority_halflife``: quoted, the
    half-life revalued nothing and the comparison showed no differences)."""
    from fairshare_cli.io.config import canonical_key, split_dotted

    return ".".join(f'"{p}"' if "." in p else p for p in split_dotted(canonical_key(key)))


@dataclass(frozen=True)
class Replay:
    """The replay ``load_env`` applies to the "after" state: the usage history
    ``history_file`` names (``--history``, a sweep spec's ``history``), else the store
    beside the state, rebuilt under the changed config.

    Only the models in ``sections`` are rebuilt (all when empty): a half-life revalues the
    accountant's past, not Slurm's or DIRAC's, whose sections stay as stored. What the
    after side cannot revalue is said in ``notes`` (each once), for the caller to show.
    """

    history_file: str | None
    sections: frozenset[str]
    notes: list[str]

    def __call__(self, config: Config, state: State, now: float, state_path: Path) -> State:
        history_file = self.history_file
        if history_file is not None:
            from fairshare_cli.errors import InputError
            from fairshare_cli.io.history import HISTORY_TEXT, read_records_batched
            from fairshare_cli.io.importers.sniff import HISTORY_FILE, other_file_refusals
            from fairshare_cli.io.spool import spooled

            # (stdin read once: fs whatif keeps its copy for both sides, stdin_kept)
            with (
                other_file_refusals(history_file, HISTORY_FILE, InputError),
                spooled(history_file, HISTORY_TEXT, lazy=True) as path,
            ):
                return _rebuild(
                    config,
                    state,
                    now,
                    lambda: read_records_batched(path, "auto", history_file),
                    history_file,
                    self.sections,
                )
        return _from_store(config, state, now, state_path, self.sections, self.notes)


def make_replay(history_file: str | None, sections: frozenset[str], notes: list[str]) -> Replay:
    """The :class:`Replay` of ``history_file`` (None: the store beside the state)."""
    return Replay(history_file, sections, notes)


def _rebuild(
    config: Config,
    state: State,
    now: float,
    records: Callable[[], Iterable[UsageRecord]],
    label: str,
    sections: frozenset[str],
) -> State:
    from fairshare_cli.core.operations.import_usage import HISTORY_SINKS, import_usage
    from fairshare_cli.core.usage import Batches
    from fairshare_cli.render.progress import counted_batches

    def counted_records() -> Iterable[UsageRecord]:  # progress on a terminal after a second
        label = "whatif: replaying the usage history"
        return Batches(counted_batches(records(), label, "records"))

    sinks = {k: v for k, v in HISTORY_SINKS.items() if not sections or k in sections}
    rebuilt, _ = import_usage(
        config, state, now, counted_records, label=label, rebuild=True, sinks=sinks
    )
    return rebuilt


def _from_store(
    config: Config,
    state: State,
    now: float,
    state_path: Path,
    sections: frozenset[str],
    notes: list[str],
) -> State:
    from fairshare_cli.core.operations.import_usage import HISTORY_SINKS
    from fairshare_cli.io.hot_journal import roll_back
    from fairshare_cli.io.sqlite_errors import refuse_folders
    from fairshare_cli.io.usage_marks import SECTION, marks_of
    from fairshare_cli.io.usage_store import open_store, side_files, store_path

    marks = marks_of(state.section(SECTION))
    path = store_path(state_path)
    refuse_folders(side_files(path))  # (SQLite said "disk I/O error" of a folder there)
    roll_back(state_path, path)  # (a write a process left unfinished: SQLite's next opener's)
    with open_store(path, readonly=True) as store:
        if store is None or marks.records == 0:
            if not any(state.section(name) for name in sections or HISTORY_SINKS):
                return state  # (nothing recorded to revalue: a new pool, a missing state)
            _note(
                notes,
                f"no usage history is kept beside {state_path}, so the after side "
                "revalues no recorded usage: keep one with 'fs import history FILE' (or "
                "sacct, condor-history; --rebuild to rebuild the state from it), or pass "
                "--history FILE",
            )
            return state
        if not store.holds(marks):  # (a --rebuild killed after its rename, before the state)
            _note(
                notes,
                f"the usage history {path} is not this state's (an import put it there and "
                "stopped before it wrote the state), so the after side revalues no recorded "
                "usage: pass --history FILE, or run the import again",
            )
            return state
        if store.marks().records < marks.records:  # (a copy of the state, an emptied file)
            _note(
                notes,
                f"the usage history {path} lacks records the state includes (it is not "
                f"this state's), so the after side revalues no recorded usage: pass "
                "--history FILE, or move it aside and keep a new one with 'fs import "
                "history FILE --rebuild'",
            )
            return state
        first = store.first_start(marks)
        recorded = _first_recorded_use(state)
        if first is not None and recorded is not None and recorded < first:
            from fairshare_cli.render.formats import iso

            last = _recorded_use(state, max)
            if last is not None and last < first:  # (usage that came without its history)
                _note(
                    notes,
                    f"the usage history {path} starts at {iso(first)}, after the last "
                    f"recorded use ({iso(last)}: usage that came without its history, as "
                    "from 'fs import condor-userprio'), so the after side revalues no "
                    "recorded usage: pass --history FILE of that usage",
                )
                return state
            _note(
                notes,
                f"the kept usage history starts at {iso(first)}, after the recorded usage "
                f"(from {iso(recorded)}); older usage is not replayed",
            )
        return _rebuild(config, state, now, lambda: store.records(marks), str(path), sections)


def _note(notes: list[str], text: str) -> None:
    """Keep ``text`` in ``notes`` once (a view may load its state more than once)."""
    if text not in notes:
        notes.append(text)


def _first_recorded_use(state: State) -> float | None:
    return _recorded_use(state, min, "begin_usage_time")


def _recorded_use(
    state: State, pick: Callable[[list[float]], float], field: str = "last_usage_time"
) -> float | None:
    """``pick`` (min, max) of the accountant records' ``field`` times, None without any."""
    records = (state.section("accountant") or {}).get("records", {})
    times = [
        r.get(field, 0.0)
        for r in records.values()
        if isinstance(r, dict) and isinstance(r.get(field), (int, float))
    ]
    times = [t for t in times if t > 0]
    return pick(times) if times else None


def rederive_factors(state: State, current: Config, path: Path) -> State:
    """The state with the factors ``current`` derives forgotten (``whatif`` only)."""
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.factors import forget_derived_factors
    from fairshare_cli.core.state import SectionError
    from fairshare_cli.errors import StateError

    if state.section("accountant") is None:
        return state
    try:
        accountant = acct.accountant_from_json(state.section("accountant"))
    except SectionError as exc:
        raise StateError(f"state file {path}: {exc}") from None
    forgotten = forget_derived_factors(accountant, current)
    return state.with_section("accountant", acct.accountant_to_json(forgotten))


def note_kept_factors(state: State, current: Config, changed: Config, notes: list[str]) -> None:
    """Note the accountant records that keep the factor they store, which the ``--set``
    factor change does not reach (as in HTCondor; ``--rederive-factors`` reaches them)."""
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.factors import kept_factors
    from fairshare_cli.core.state import SectionError

    if state.section("accountant") is None:
        return
    try:
        accountant = acct.accountant_from_json(state.section("accountant"))
    except SectionError:
        return  # (the view names what is wrong with the section)
    kept = kept_factors(accountant, current, changed)
    if kept:
        records = "record keeps" if kept == 1 else "records keep"
        _note(
            notes,
            f"{kept} accountant {records} the priority factor stored when first written, "
            "as HTCondor's accountant does, so the changed factor reaches only records that "
            "store none yet; --rederive-factors reads it as if always in force",
        )
