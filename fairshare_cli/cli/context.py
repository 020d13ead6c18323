"""Load what a command needs: config, state and ``now``; and the read-modify-write cycle."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fairshare_cli.cli.resolve import (
    now_source,
    resolve_config_path,
    resolve_now,
    resolve_state_path,
)
from fairshare_cli.errors import InputError, StateError

# The config and state readers load when a command runs, not when its module is imported:
# every command module imports this one, and `fs CMD --help` must stay light.
if TYPE_CHECKING:
    from fairshare_cli.cli.whatif_replay import Replay
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.state import State

T = TypeVar("T")


@dataclass
class Env:
    """What a command works with."""

    config: Config
    state: State
    now: float
    state_path: Path
    #: ``(section, jobs, same)``: the ``jobs`` section the command wrote, the records it
    #: wrote it from (``job_to_json`` of each) and the ids whose object it found equal to
    #: the one the state held, so that the check before saving neither parses every job a
    #: second time nor compares those again; ignored unless ``state``'s ``jobs`` is that
    #: very list.
    written_jobs: tuple[Any, list[Job], Collection[str]] | None = None
    #: What names the jobs the command added in a refusal of one (the dump they came
    #: from); None: the state's queue.
    jobs_source: str | None = None
    #: A write that goes with the state's (an import's usage history): made once the new
    #: state is on the disk, before it replaces the old one (``mutate_state``).
    before_rename: Callable[[], None] | None = None
    #: What :meth:`until_saved` holds open (``mutate_state``'s; None: a read-only command).
    _held: contextlib.ExitStack | None = field(default=None, repr=False)

    def until_saved(self, manager: contextlib.AbstractContextManager[T]) -> T:
        """Enter ``manager`` for as long as the state is being changed and written: it is
        left after the state is saved, or with the exception that ended the command (the
        save's too), so that a transaction it holds can commit in :attr:`before_rename`."""
        assert self._held is not None, "until_saved: only inside mutate_state"
        return self._held.enter_context(manager)

    def decode(self, name: str, decoder: Callable[[Any], T]) -> T:
        """Decode one state section, naming the state file on failure.

        Raises:
            StateError: the section is malformed.
        """
        from fairshare_cli.core.operations.validate import check_known_keys

        with self.section_errors():
            raw = self.state.section(name)
            check_known_keys(name, raw)
            return decoder(raw)

    def queue(self, label: str | None = None) -> list[Job]:
        """The jobs of the state's queue (none without a ``jobs`` section), read as every
        view reads it; ``label`` names it in messages (default: ``STATE: jobs``).

        Raises:
            StateError: the queue holds a malformed job.
        """

        def read(raw: Any) -> list[Job]:
            if raw is None:  # (the job model is not loaded: fs userprio of a small pool)
                return []
            from fairshare_cli.core.jobs import parse_jobs

            return parse_jobs(raw, label or f"{self.state_path}: jobs")

        return self.decode("jobs", read)

    @contextlib.contextmanager
    def section_errors(self) -> Iterator[None]:
        """Turn a malformed state section (``SectionError``) into a ``StateError`` naming
        the state file.

        Raises:
            StateError: the body met a malformed section.
        """
        from fairshare_cli.core.state import SectionError

        try:
            yield
        except SectionError as exc:
            raise StateError(f"state file {self.state_path}: {exc}") from None


#: ``ctx.meta`` key of the config overrides ``fs whatif --set`` hands to the view it runs.
WHATIF_OVERRIDES = "fairshare_cli.whatif_overrides"
#: ``ctx.meta`` key set by ``fs whatif --rederive-factors``: stored factors the unchanged
#: config derives are derived again under the changed one.
WHATIF_REDERIVE = "fairshare_cli.whatif_rederive"
#: ``ctx.meta`` key of the list of notes ``fs whatif`` shows under its comparison.
WHATIF_NOTES = "fairshare_cli.whatif_notes"
#: ``ctx.meta`` key of the tables (as key parts) the data of ``fs whatif``'s before side
#: names that its config lacks: a ``--set`` adding one is meant, not a typo to correct.
WHATIF_NAMED = "fairshare_cli.whatif_named"
#: The note of a ``--set`` that changes nothing: no replay, no factors derived again.
UNCHANGED = "every --set value is the config's own: the after side is the config as it is"
#: ``ctx.meta`` key of ``fs whatif``'s replay: ``(config, state, now, state_path) -> state``
#: rebuilds the "after" state from the usage history under the changed config.
WHATIF_REPLAY = "fairshare_cli.whatif_replay"
#: ``ctx.meta`` key set by ``fs whatif``'s table: the view's rows blank where its table is.
WHATIF_TABLE = "fairshare_cli.whatif_table"
#: ``ctx.meta`` key of the side of ``fs whatif`` the view runs for: "before" or "after".
WHATIF_SIDE = "fairshare_cli.whatif_side"


@dataclass
class GlobalOptions:
    """The options every command shares, gathered on Click's context by their callbacks.

    Attributes:
        config_path: ``--config`` (None: ``./fairshare.toml``, else the user config).
        state_path: ``--state`` (None: ``[pool] state``, else the user state).
        now: ``--now`` as given (None: the clock, read once by :meth:`when`).
        output_choice: ``--output`` (None: not given); ``as_json``: ``--json`` (see
            :attr:`output`).
        overrides: config keys changed by ``fs whatif --set`` (read-only views only).
        rederive: ``fs whatif --rederive-factors`` (with ``overrides``).
        notes: ``fs whatif``'s notes, which the after side's loading adds to.
        table_rows: ``fs whatif``'s table: the rows in any format blank where the table is.
        side: the side of ``fs whatif`` the view runs for ("before", "after"; None: alone).
        named: the tables (key parts: ``("dirac", "groups", "lhcb_nope")``) the view's data
            names that the config lacks, shared by ``fs whatif``'s sides.
        added_told: the tables ``overrides`` add were told of already (``fs sweep``'s spec
            check, once for all points): loading says nothing of them.
        state_found: ``state_path`` is where fs found the state itself (a sweep's
            manifest), not a path typed: a missing folder is an empty state.
    """

    config_path: str | None = None
    state_path: str | None = None
    now: str | None = None
    output_choice: str | None = None
    as_json: bool = False
    overrides: Mapping[str, Any] = field(default_factory=dict)
    rederive: bool = False
    replay: Replay | None = None
    notes: list[str] = field(default_factory=list)
    table_rows: bool = False
    side: str | None = None
    named: set[tuple[str, ...]] = field(default_factory=set)
    added_told: bool = False
    state_found: bool = False
    _when: float | None = field(default=None, repr=False)

    @property
    def output(self) -> str:
        """The format chosen by ``--output`` / ``--json`` (table when neither is given).

        Raises:
            click.UsageError: ``--json`` with an ``--output`` other than json.
        """
        output = self.output_choice
        if self.as_json and output not in (None, "json"):
            raise click.UsageError(f"--json and --output {output} disagree; give one of them")
        return "json" if self.as_json else (output or "table")

    def when(self) -> float:
        """``--now`` as epoch seconds, resolved (and the clock read) once.

        Raises:
            InputError: not epoch seconds or ISO-8601.
        """
        if self._when is None:
            self._when = resolve_now(self.now)
        return self._when


def global_options(ctx: click.Context) -> GlobalOptions:
    """The command's :class:`GlobalOptions`, made on first use (with ``whatif``'s overrides)."""
    found = ctx.find_object(GlobalOptions)
    if found is None:
        found = GlobalOptions(
            overrides=dict(ctx.meta.get(WHATIF_OVERRIDES, {})),
            rederive=bool(ctx.meta.get(WHATIF_REDERIVE)),
            replay=ctx.meta.get(WHATIF_REPLAY),
            notes=ctx.meta.get(WHATIF_NOTES, []),
            table_rows=bool(ctx.meta.get(WHATIF_TABLE)),
            side=ctx.meta.get(WHATIF_SIDE),
            named=ctx.meta.setdefault(WHATIF_NAMED, set()),
        )
        ctx.obj = found
    return found


#: Passes the command's :class:`GlobalOptions` as its first argument.
pass_options = click.make_pass_decorator(GlobalOptions)


def load_env(opts: GlobalOptions, note_missing: bool = False) -> Env:
    """Config, state and ``now`` for a read-only command (``whatif`` overrides applied);
    ``note_missing``: a view of the state alone notes a named state file that is missing.

    Raises:
        FairshareError: any of them is missing or invalid.
    """
    from fairshare_cli.cli.pool_name import warn_other_pool
    from fairshare_cli.cli.resolve import note_missing_state
    from fairshare_cli.io.config import load_config
    from fairshare_cli.io.state import load_state

    overrides = opts.overrides or None
    when = opts.when()
    cpath = resolve_config_path(opts.config_path)
    current = load_config(cpath)  # (the file checked alone first: its errors name it)
    config = (
        _load_overridden(cpath, overrides, current, opts.named, opts.added_told)
        if overrides
        else current
    )
    named = opts.replay is not None and opts.replay.history_file is not None
    if overrides and not named and config == current:  # (a replay would differ by rounding)
        overrides, opts.replay = None, None
        if UNCHANGED not in opts.notes:
            opts.notes.append(UNCHANGED)
    spath = resolve_state_path(opts.state_path, config, opts.state_found)
    state = load_state(spath)
    if note_missing and not opts.state_found and (opts.state_path or config.pool.state):
        note_missing_state(spath)
    warn_other_pool(state, current, spath)
    refuse_going_back(state, when, spath)
    if opts.rederive and overrides:
        from fairshare_cli.cli.whatif_replay import rederive_factors

        state = rederive_factors(state, current, spath)
    elif overrides:
        from fairshare_cli.cli.whatif_replay import note_kept_factors

        note_kept_factors(state, current, config, opts.notes)
    env = Env(config=config, state=state, now=when, state_path=spath)
    _check_loaded(env)  # a section this fs would drop is refused by views too
    if opts.replay is not None:
        with env.section_errors():  # (the replay reads sections the view may not)
            env.state = opts.replay(config, state, when, spath)
    return env


def _load_overridden(
    path: Path,
    overrides: Mapping[str, Any],
    current: Config,
    named: set[tuple[str, ...]],
    told: bool,
) -> Config:
    """The config at ``path`` with ``fs whatif``'s ``--set`` keys applied (the file
    checked on its own first, by the caller), as :func:`~fairshare_cli.io.config.
    build_overridden` applies them; a table they add is warned of (with the name it may
    mean, unless the data ``named`` it; not at all where ``told``: a sweep's spec check
    said so once), and so is a value DIRAC reads otherwise than it says
    (``job_share="abc"``: the default 1000), as ``fs config check`` warns of the file's.

    Raises:
        ConfigError: the file is invalid (naming it), or a ``--set`` key or value is
            (naming it).
    """
    from fairshare_cli.io.config import added_tables, build_overridden, read_toml

    raw = read_toml(path)
    config = build_overridden(raw, overrides, str(path))
    for key, table, hint in [] if told else added_tables(raw, overrides, named):
        click.echo(
            f"fs: warning: --set {key}: the config has no {table}, so the after side adds it{hint}",
            err=True,
        )
    prefix = f"{path}: "
    for note in config.dirac.notes:
        if note not in current.dirac.notes:
            click.echo(f"fs: warning: --set {note.removeprefix(prefix)}", err=True)
    return config


@contextlib.contextmanager
def mutate_state(
    opts: GlobalOptions,
    dry_run: bool = False,
    queue_only: bool = False,
    created: Mapping[str, Any] | None = None,
) -> Iterator[Env]:
    """Lock the state, load it, let the caller replace ``env.state``, then save once.

    Nothing is written when the body raises or when ``dry_run`` is set (a dry run takes no
    lock either: it writes nothing at all, not even the lock file). ``now`` may not be
    before the state's last update unless the edit only touches the job queue
    (``queue_only``: a job may be submitted "in the past" to give it an age). The cyclic
    garbage collector is paused meanwhile: a queue of 100,000 jobs read, changed, checked
    and written is millions of objects and no cycle (``fs submit`` of 100,000 jobs: a
    quarter of its time). ``created`` is the config an import's ``--into`` makes, read
    when the config file is not there yet (a dry run's, or one merged after loading).

    Raises:
        FairshareError: loading failed; the state file is untouched.
    """
    from fairshare_cli.cli.interrupts import change_begun, change_ended, written
    from fairshare_cli.cli.pool_name import stamped, warn_other_pool
    from fairshare_cli.io.config import build_config, load_config
    from fairshare_cli.io.gc_pause import gc_paused
    from fairshare_cli.io.state import load_state, save_state, state_lock
    from fairshare_cli.io.toml_merge import blank_config

    when = opts.when()
    cpath = resolve_config_path(opts.config_path)
    if created is not None and blank_config(cpath):
        config = build_config(created, str(cpath))
    else:
        config = load_config(cpath)
    spath = resolve_state_path(opts.state_path, config)
    # A dry run is a read: it takes no lock (nor makes the lock file), as views do.
    with contextlib.nullcontext() if dry_run else state_lock(spath), gc_paused():
        env = Env(config=config, state=load_state(spath), now=when, state_path=spath)
        if not dry_run:  # (a closed output that stops it before the save: exit 1)
            change_begun()
        if not queue_only:
            refuse_going_back(env.state, when, spath)
        before = env.state
        _check_loaded(env)
        warn_other_pool(before, config, spath)
        # (the usage history as it was unless the state is written: imports and cycles
        # commit it just before the state's rename)
        with (
            contextlib.nullcontext() if dry_run else _history_kept(env),
            contextlib.ExitStack() as env._held,
        ):
            with env.section_errors():
                yield env
            if env.state is not before:
                env.state = stamped(env.state, config)  # (the pool it is written for)
                _check_written(before, env, spath)
                if not dry_run:
                    with _log_usage(before, env) as (env.state, commit):
                        writes = [w for w in (env.before_rename, commit) if w is not None]
                        in_turn = _in_turn(writes)
                        save_state(spath, env.state, in_turn, make_folders=False, hold_stops=True)
                    written()  # (a Ctrl-C from the rename on is dropped: the exit code is 0)
        change_ended()


def _in_turn(writes: list[Callable[[], None]]) -> Callable[[], None] | None:
    """One call making ``writes`` one after the other (None: none)."""
    if len(writes) < 2:
        return writes[0] if writes else None

    def each() -> None:
        for write in writes:
            write()

    return each


def _history_kept(env: Env) -> contextlib.AbstractContextManager[None]:
    from fairshare_cli.io.usage_marks import SECTION
    from fairshare_cli.io.usage_store_kept import store_kept

    return store_kept(env.state_path, env.state.section(SECTION))


def _log_usage(
    before: State, env: Env
) -> contextlib.AbstractContextManager[tuple[State, Callable[[], None] | None]]:
    """The usage the command charged (claims opened and closed) appended to the usage
    history store, in the same locked write as the state (``fs whatif`` replays it): the
    state with its marks, and the store's commit, made once the state is on the disk and
    before it replaces the old one (a state write that fails leaves no row past the marks)."""
    if env.state.section("negotiator") is before.section("negotiator"):
        return contextlib.nullcontext((env.state, None))
    from fairshare_cli.core.operations.usage_log import claim_usage
    from fairshare_cli.io.usage_marks import SECTION
    from fairshare_cli.io.usage_store_kept import log_usage

    # (an import's own records are the history: the history claims it drops end none)
    imported = env.state.section(SECTION) != before.section(SECTION)
    with env.section_errors():
        usage = claim_usage(env.config, before, env.state, env.now, history_ends=not imported)
    return log_usage(env.state_path, env.state, usage)


def _check_loaded(env: Env) -> None:
    """Refuse a section with keys this fs would drop when it writes the state back.

    Raises:
        StateError: naming the state file, the section and the key.
    """
    from fairshare_cli.core.operations.validate import check_known_keys
    from fairshare_cli.core.state import SectionError

    for name, raw in env.state.sections.items():
        try:
            check_known_keys(name, raw)
        except SectionError as exc:
            raise StateError(f"state file {env.state_path}: {exc}") from None


def _check_written(before: State, env: Env, spath: Path) -> None:
    """What is about to be written must be what every view can read (exit 2 if not): the
    sections the command changed, and those it writes back as it found them.

    Raises:
        StateError: a section a view would refuse; InputError: a job a view would refuse.
    """
    from fairshare_cli.core.operations.validate import check_kept, check_state
    from fairshare_cli.core.state import SectionError
    from fairshare_cli.io.usage_marks import check_kept_marks

    source = f"state file {spath}"
    try:
        check_state(before, env.state, env.config, source, env.written_jobs, env.jobs_source)
    except SectionError as exc:
        raise StateError(f"refusing to write {source}: {exc}; nothing was written") from None
    try:  # (written back as found: the state's own fault, worded as a view words it)
        check_kept(before, env.state, source)
        check_kept_marks(before, env.state)
    except (SectionError, StateError) as exc:
        raise StateError(f"{source}: {exc}; fix it or move it aside to start afresh") from None


def refuse_going_back(state: State, now: float, path: Path) -> None:
    """Refuse a ``--now`` earlier than the state's last update (views and edits alike).

    Raises:
        InputError: naming the state file and its last update.
    """
    from fairshare_cli.core.operations.last_update import state_last_update

    last = state_last_update(state)
    if last is not None and now < last:
        from fairshare_cli.core.epoch import utc_text

        source = now_source()
        raise InputError(
            f"{source} {utc_text(now)} is before the last update of state file {path} "
            f"({utc_text(last)}): a view cannot show the past from decayed values and an "
            f"edit cannot go back; give {'--now ' if source == 'the clock' else ''}that time "
            "or a later one"
        )
