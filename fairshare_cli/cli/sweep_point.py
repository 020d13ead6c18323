"""One point of ``fs sweep``: ``fs whatif --set K=V ... simulate``'s after side, measured.

A point runs exactly as ``fs whatif`` runs its "after" simulation: the point's keys are
``fs whatif --set`` overrides on :class:`~fairshare_cli.cli.context.GlobalOptions` (the
one config-override path, :func:`~fairshare_cli.cli.context.load_env`), with the usage
history (the spec's ``history``, else the store beside the state) replayed for the keys
that revalue it, or for every key when the spec names a history (``whatif --history``),
then ``fs simulate``'s own
:func:`~fairshare_cli.cli.simulate.simulation`. The manifest (``DIR/sweep.json``) carries
everything a point needs, so any engine, on any machine that sees the files, runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from fairshare_cli.core.sweep.spec import SweepSpec
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.sweep_dir import SweepDir


def make_manifest(spec_path: Path, spec: SweepSpec, clock: float) -> dict[str, Any]:
    """The manifest of a spec: paths absolute (relative ones are the spec's folder's),
    ``now`` in epoch seconds (``clock`` when the spec gives none), every point's overrides.
    Everything is checked before anything runs.

    Raises:
        FairshareError: a bad duration, time, config key or value (naming the point), or
            an unreadable workload.
    """
    from fairshare_cli.cli.simulate import run_window
    from fairshare_cli.core.epoch import parse_time
    from fairshare_cli.core.sweep.spec import points
    from fairshare_cli.errors import InputError

    base = spec_path.parent

    def resolve(path: str) -> str:
        return str((base / Path(path).expanduser()).resolve())

    label = str(spec_path)
    now = clock if spec.now is None else parse_time(spec.now, f"{label}: now")
    if spec.cycle is not None:  # (else each point's pool's, checked with its config)
        run_window(spec.until, spec.cycle, now, label)
    if spec.backfill and spec.scheduler != "slurm":
        raise InputError(f'{label}: backfill needs scheduler = "slurm"')
    manifest: dict[str, Any] = {
        "spec": {
            "config": resolve(spec.config),
            "state": None if spec.state is None else resolve(spec.state),
            "history": None if spec.history is None else resolve(spec.history),
            "workload": None if spec.workload is None else resolve(spec.workload),
            "now": now,
            "until": spec.until,
            "cycle": spec.cycle,
            "scheduler": spec.scheduler,
            "backfill": spec.backfill,
            "mode": spec.mode,
            "axes": [{"key": a.key, "values": list(a.values)} for a in spec.axes],
        },
        "points": points(spec),
    }
    _check_points(manifest, label)
    return manifest


def _check_points(manifest: dict[str, Any], label: str) -> None:
    """Every point's config loads (and, without a spec's ``cycle``, its pool's cycle
    fits ``until``); the workload reads (without one, the state's queue holds jobs); the
    state reads, and so does the history's first part: a point that failed on them left a
    folder whose manifest a rerun of the mended spec refused as another sweep's. The
    state's path, found here as every command finds it, is written into the manifest: a
    point run by a batch job or a dask worker (another user, home or environment) would
    find another user state.

    Raises:
        FairshareError: the first that does not.
    """
    from fairshare_cli.cli.simulate import pool_cycle, run_window
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.config import build_overridden, load_config, read_toml
    from fairshare_cli.io.jobs import load_job_batches

    spec = manifest["spec"]
    if spec["workload"] is not None:
        load_job_batches(spec["workload"], label=spec["workload"])
    spec["state"] = str(_check_state(spec, label))
    if spec["history"] is not None:
        from fairshare_cli.errors import InputError
        from fairshare_cli.io.history import read_record_batches
        from fairshare_cli.io.importers.sniff import HISTORY_FILE, other_file_refusals

        batches = read_record_batches(spec["history"])
        try:
            with other_file_refusals(spec["history"], HISTORY_FILE, InputError):
                next(batches, None)
        finally:
            batches.close()
    cpath = Path(spec["config"])
    load_config(cpath)  # (the file's own faults name the file, before any point's)
    raw = read_toml(cpath)
    for index, overrides in enumerate(manifest["points"]):
        try:  # (a key an axis sets that the config refuses names the axis, not the file)
            config = build_overridden(raw, overrides, str(cpath), "[[axis]]")
            if spec["cycle"] is None:
                run_window(spec["until"], pool_cycle(config, spec["scheduler"]), spec["now"], "")
        except FairshareError as exc:
            from fairshare_cli.io.toml_values import toml_text

            keys = ", ".join(f"{k}={toml_text(v)}" for k, v in overrides.items())
            raise type(exc)(f"{label}: point {index} ({keys}): {exc}") from None
    _warn_added_tables(raw, spec["axes"], label)


def _warn_added_tables(raw: dict[str, Any], axes: list[dict[str, Any]], label: str) -> None:
    """On stderr, once, each axis whose key adds a named table the config does not have
    (``groups.group_cmss.dynamic_quota``): every point adds it, an empty new group where a
    typo meant another (:func:`~fairshare_cli.io.config.added_tables`); the points say
    nothing of it (``GlobalOptions.added_told``)."""
    from fairshare_cli.io.config import added_tables

    for index, axis in enumerate(axes, 1):
        for _, table, hint in added_tables(raw, {axis["key"]: None}):
            click.echo(
                f"fs: warning: {label}: axis {index} ({axis['key']}): the config has no"
                f" {table}, so each point adds it{hint}",
                err=True,
            )


def _check_state(spec: dict[str, Any], label: str) -> Path:
    """The state the points start from reads (its path returned); without a workload,
    its queue has jobs.

    Raises:
        FairshareError: an unreadable state, or (without a workload) an empty queue.
    """
    from fairshare_cli.cli.context import GlobalOptions, load_env
    from fairshare_cli.errors import InputError

    opts = GlobalOptions(spec["config"], spec["state"], repr(float(spec["now"])))
    env = load_env(opts)
    if spec["workload"] is None and not env.state.section("jobs"):
        raise InputError(
            f"{label}: no workload, and the queue of state file {env.state_path} is empty: "
            "nothing to simulate; name a workload (docs/sweep.md)"
        )
    return env.state_path


#: The key of a result that holds what its point says on stderr (not written): its notes,
#: for the sweep to say once for all points (:func:`~fairshare_cli.cli.sweep_engines.say_once`).
SAID = "fs.said"


def run_point(manifest: dict[str, Any], index: int) -> dict[str, Any]:
    """Point ``index`` run and measured: its result object (docs/sweep.md).

    Raises:
        FairshareError: bad config, state or workload.
    """
    from fairshare_cli.cli.context import GlobalOptions
    from fairshare_cli.cli.simulate import simulation
    from fairshare_cli.cli.whatif_replay import make_replay, needs_replay, replayed_sections

    spec = manifest["spec"]
    overrides = dict(manifest["points"][index])
    history = spec["history"]
    replay = None
    notes: list[str] = []  # what the point's replay could not revalue, said once
    if overrides and (history is not None or needs_replay(overrides)):  # as fs whatif's after
        replay = make_replay(history, replayed_sections(overrides), notes)
    opts = GlobalOptions(
        config_path=spec["config"],
        state_path=spec["state"],
        now=repr(float(spec["now"])),
        overrides=overrides,
        replay=replay,
        state_found=True,
        added_told=True,  # (the spec's check said it, once: _warn_added_tables)
    )
    env, result = simulation(
        opts,
        spec["workload"],
        spec["until"],
        spec["cycle"],
        spec["scheduler"],
        bool(spec["backfill"]),
        progress=False,
    )
    said = []
    for text in notes:  # (a spec names its history file by its key, not by an option)
        for option, key in _SPEC_HISTORY:
            text = text.replace(option, key)
        said.append(f"fs: note: point {index}: {text}")
    from fairshare_cli.cli.sweep_result import point_result

    return {**point_result(env, result, spec["scheduler"], index, overrides), SAID: said}


#: What a replay's note tells ``fs whatif`` to pass, and what a sweep's spec names instead.
_SPEC_HISTORY = (
    ("pass --history FILE of that usage", 'name its history in the spec (history = "FILE")'),
    ("pass --history FILE", 'name a history in the spec (history = "FILE")'),
    ("so the after side revalues", "so the point revalues"),
)


def run_point_safely(manifest: dict[str, Any], index: int, capture: bool = False) -> dict[str, Any]:
    """:func:`run_point` for a process pool or a dask worker: an expected failure comes
    back as ``{"index", "error"}`` (its one line), not as a pickled exception. With
    ``capture`` (a process that runs one point at a time: not a dask worker's threads),
    all the point says on stderr comes back too, before its notes, in :data:`SAID`."""
    import contextlib
    import io

    from fairshare_cli.errors import FairshareError

    said = io.StringIO()
    with contextlib.redirect_stderr(said) if capture else contextlib.nullcontext():
        try:
            result = run_point(manifest, index)
        except FairshareError as exc:
            result = {"index": index, "error": str(exc), "exit_code": exc.exit_code}
    if capture:
        result[SAID] = [*said.getvalue().splitlines(), *result.get(SAID, ())]
    return result


def point_failed(
    folder: SweepDir, manifest: dict[str, Any], index: int, error: str, code: int
) -> FairshareError:
    """Point ``index`` failed with ``error`` (exit ``code``): why is written in ``folder``
    for ``fs sweep collect``, and the error to stop with is returned (``point N: ...``),
    whichever engine ran it."""
    from fairshare_cli.errors import FairshareError

    folder.write_failure(index, manifest["points"][index], error, code)
    stop = FairshareError(f"point {index}: {error}")
    stop.exit_code = code
    return stop
