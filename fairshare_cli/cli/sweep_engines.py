"""Who runs ``fs sweep``'s points: a local process pool, dask, an HTCondor DAG, a Slurm array.

Every engine runs :func:`~fairshare_cli.cli.sweep_point.run_point` on the manifest in
``DIR/sweep.json`` and leaves one result file per point (``DIR/points/``), written whole;
``fs sweep collect DIR`` reads them the same way whoever wrote them. The local pool and
dask run only the points without a result (a killed sweep resumes). The batch engines
write files that run ``fs sweep run-point DIR INDEX`` per point and ``fs sweep collect``
once all are done (a DAG's final node, a Slurm job that depends on the array).
"""

from __future__ import annotations

import logging
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.errors import InputError, RuntimeFailure
from fairshare_cli.io.sweep_dir import SweepDir

if TYPE_CHECKING:
    from fairshare_cli.core.sweep.spec import SweepSpec


def prepare(spec_path: Path, out: Path, restart: bool = False) -> SweepDir:
    """Check the spec whole and write (or find again) the manifest in ``out``.

    A folder that holds another sweep's manifest is refused, naming ``--restart``; the
    same sweep is resumed (a spec without ``now`` keeps the time the folder's first run
    read). With ``restart`` the folder's point results are removed first and the manifest
    written anew: the sweep starts afresh there (a spec mended after a failed point, an
    input changed in place).

    Raises:
        FairshareError: a bad spec, or ``out`` holds another sweep (without ``restart``).
    """
    from fairshare_cli.cli.resolve import resolve_now
    from fairshare_cli.cli.sweep_point import make_manifest
    from fairshare_cli.core.sweep.spec import spec_from_toml
    from fairshare_cli.errors import ConfigError
    from fairshare_cli.io.config import read_toml
    from fairshare_cli.io.importers.sniff import SPEC_POOL_CONFIG, SWEEP_SPEC, other_file_refusals

    with other_file_refusals(str(spec_path), SWEEP_SPEC, InputError, SPEC_POOL_CONFIG):
        try:  # (a pool config or a jobs file given as SPEC is told where it goes)
            data = read_toml(spec_path, "sweep spec")
        except ConfigError as exc:
            raise InputError(str(exc)) from None
        spec = spec_from_toml(data, str(spec_path))
    _refuse_bare_knobs(spec, str(spec_path))
    _refuse_one_key_twice(spec, str(spec_path))
    _refuse_state_axis(spec, str(spec_path))
    folder = SweepDir(out)
    old = folder.read_manifest()
    resumed = old is not None and spec.now is None and not restart
    clock = float(old["spec"]["now"]) if resumed and old is not None else resolve_now(None)
    manifest = make_manifest(spec_path, spec, clock)
    manifest["base_index"] = len(manifest["points"])
    manifest["points"].append({})  # the base: the config as it is
    wanted = (manifest["spec"], manifest["points"])
    if old is not None and restart:
        folder.remove_results()  # (first: a kill before the manifest leaves no result)
    elif old is not None and (old["spec"], old["points"]) != wanted:
        done, total = len(folder.done(old["points"])), len(old["points"])
        raise InputError(
            f"{out} holds another sweep (its manifest differs from {spec_path}; {done} of "
            f"{total} points done there): give --restart to start afresh in it (its "
            "results are removed), or another --out"
        )
    if old is None or restart:
        folder.write_manifest(manifest)
    return folder


def _refuse_bare_knobs(spec: SweepSpec, label: str) -> None:
    """An axis ``key`` that is a real knob name alone (``PRIORITY_HALFLIFE``) names no
    table, as for ``fs whatif --set``: refused with the keys to write.

    Raises:
        InputError: naming the axis and the dotted keys the knob stands for.
    """
    from fairshare_cli.io.config import TOP_KEYS
    from fairshare_cli.io.knob_aliases import bare_knob_keys

    for k, axis in enumerate(spec.axes, start=1):
        keys = bare_knob_keys(axis.key, TOP_KEYS)
        if keys:
            spelt = " or ".join(f'key = "{key}"' for key in keys)
            raise InputError(
                f"{label}: axis {k} ({axis.key}): {axis.key} alone names no table (keys are "
                f"dotted config keys); write {spelt}"
            )


def _refuse_one_key_twice(spec: SweepSpec, label: str) -> None:
    """Two axes whose keys are spelt apart but name one config key (a knob name and its
    key, ``accountant.PRIORITY_HALFLIFE`` beside ``accountant.priority_halflife``; a name
    quoted and not): each point would run the second axis's value, shown beside a first
    that changed nothing.

    Raises:
        InputError: naming both axes and the key.
    """
    from fairshare_cli.io.config import canonical_key, same_key_twice

    pair = same_key_twice([axis.key for axis in spec.axes])
    if pair is not None:
        before, after = (spec.axes[k].key for k in pair)
        raise InputError(
            f"{label}: axes {pair[0] + 1} ({before}) and {pair[1] + 1} ({after}) both set "
            f"{canonical_key(before)}: give one axis"
        )


def _refuse_state_axis(spec: SweepSpec, label: str) -> None:
    """An axis on ``pool.state``: every point starts from the one state the manifest names
    (the spec's ``state``, else the base config's), so each point ran the same and was
    ranked as if another state had been tried. An axis on ``pool.name`` likewise: the name
    only labels the state (the other-pool warning), no number reads it.

    Raises:
        InputError: naming the axis and the spec's key to use instead.
    """
    from fairshare_cli.io.config import canonical_key, split_dotted

    for k, axis in enumerate(spec.axes, start=1):
        key = split_dotted(canonical_key(axis.key))
        if key == ["pool", "state"]:
            raise InputError(
                f"{label}: axis {k} ({axis.key}): every point starts from the sweep's one"
                " state (the spec's state, else the config's [pool] state); give the spec's"
                " state = FILE, a sweep for each state"
            )
        if key == ["pool", "name"]:
            raise InputError(
                f"{label}: axis {k} ({axis.key}): the pool's name labels its state and"
                " changes no number, so every point would run the same; give an axis on a"
                " knob"
            )


def _progress(total: int, done: int) -> Callable[[int], None]:
    """A one-line count of finished points on stderr (on a terminal)."""
    if not sys.stderr.isatty():
        return lambda _n: None

    from fairshare_cli.render.progress import progress_line

    def show(finished: int) -> None:
        progress_line(f"sweep: {finished}/{total} points done", finished >= total)

    show(done)
    return show


def _collect_results(
    folder: SweepDir, manifest: dict[str, Any], results: Iterable[dict[str, Any]], done: int
) -> None:
    """Write each result as it arrives; stop at the first point that failed (why is
    written beside the results).

    Raises:
        FairshareError: a point failed (its message, naming the point).
    """
    from fairshare_cli.cli.sweep_point import SAID, point_failed

    progress = _progress(len(manifest["points"]), done)
    said: dict[str, None] = {}  # (each line once, in the order said)
    for result in results:
        for line in result.pop(SAID, ()):
            said.setdefault(line)
        if "error" in result:
            code = int(result.get("exit_code", 2))
            raise point_failed(folder, manifest, int(result["index"]), result["error"], code)
        folder.write_point(int(result["index"]), result)
        done += 1
        progress(done)
    say_once(said)


#: A line a point says of itself: ``fs: note: point 3: TEXT``.
_OF_A_POINT = re.compile(r"(fs: \w+: )point (\d+): (.*)")


def say_once(said: Iterable[str]) -> None:
    """Each line the points said on stderr (``said``) once, and a line of each point's own
    (``fs: note: point 3: TEXT``) once for all of them (``fs: note: points 0, 1, 2, 3, 4
    and 593 more: TEXT``): 598 points had said it 598 times."""
    from fairshare_cli.core.names import first_five

    merged: dict[tuple[str, str], list[int]] = {}
    for line in said:
        of_point = _OF_A_POINT.fullmatch(line)
        if of_point is None:
            merged.setdefault((line, ""), [])
        else:
            head, point, text = of_point.groups()
            merged.setdefault((head, text), []).append(int(point))
    for (head, text), points in merged.items():
        if not text:
            click.echo(head, err=True)
        elif len(points) == 1:
            click.echo(f"{head}point {points[0]}: {text}", err=True)
        else:
            listed = first_five([str(p) for p in sorted(points)])
            click.echo(f"{head}points {listed}: {text}", err=True)


def run_local(folder: SweepDir, jobs: int | None) -> None:
    """The points without a result, on a process pool of ``jobs`` processes (default: the
    CPUs); one process when one is enough.

    Raises:
        FairshareError: a point failed.
    """
    import os

    from fairshare_cli.cli.sweep_point import run_point_safely

    manifest = folder.manifest()
    total = len(manifest["points"])
    todo = [i for i in range(total) if folder.read_point(i) is None]
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        results = (run_point_safely(manifest, i, capture=True) for i in todo)
        _collect_results(folder, manifest, results, total - len(todo))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(run_point_safely, manifest, i, True) for i in todo]
        try:
            _collect_results(
                folder, manifest, (f.result() for f in as_completed(futures)), total - len(todo)
            )
        except BaseException as exc:
            for future in futures:
                future.cancel()
            if isinstance(exc, KeyboardInterrupt):  # (Ctrl-C, or SIGTERM to fs alone)
                _stop_workers(pool)
            raise


def _stop_workers(pool: Any) -> None:
    """End the points running in ``pool``'s processes now: a SIGTERM reaches fs alone, and
    leaving the pool waited for each running point to finish (a minute of a long run)."""
    stop = getattr(pool, "terminate_workers", None)  # (Python 3.14)
    if stop is not None:
        stop()
        return
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()


def run_dask(folder: SweepDir, address: str) -> None:
    """The points without a result, on the dask cluster at ``address`` (``dask.distributed``;
    dask-jobqueue's HTCondorCluster and SLURMCluster serve one too).

    Raises:
        FairshareError: dask is not installed, the address is malformed, the scheduler
            cannot be reached or was lost, a point failed (its workers died running it too).
    """
    import importlib

    try:  # untyped: dask's Client and as_completed are called as Any
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise InputError(
            "--engine dask needs dask.distributed: pip install 'fairshare-cli[dask]'"
        ) from None
    from fairshare_cli.cli.sweep_point import run_point_safely

    manifest = folder.manifest()
    total = len(manifest["points"])
    todo = [i for i in range(total) if folder.read_point(i) is None]
    try:
        client = distributed.Client(address, timeout="30s")
    except ValueError as exc:  # (no port, an unknown scheme: distributed's own words)
        raise InputError(f"--dask-scheduler {address}: {exc}") from None
    except OSError as exc:
        raise RuntimeFailure(f"dask scheduler {address}: {exc}") from None
    with client:
        # The manifest once, as a task's result that each worker fetches once: passed to
        # every point it would be sent once per point (10,000 points of a 700 KB manifest:
        # 7 GB). Not client.scatter, which needs workers now (an adaptive cluster has none).
        shared = client.submit(dict, manifest, pure=False)
        futures = client.map(run_point_safely, [shared] * len(todo), todo, pure=False)
        results = _dask_results(distributed, dict(zip(futures, todo, strict=True)), address)
        _collect_results(folder, manifest, results, total - len(todo))


def _dask_results(
    distributed: Any, points: dict[Any, int], address: str
) -> Iterator[dict[str, Any]]:
    """The points' results as dask finishes them (``points``: future -> point). A point
    whose workers all died running it (``KilledWorker``: a worker killed for its memory,
    as often as ``distributed.scheduler.allowed-failures`` lets the scheduler retry) is a
    failed point, a runtime failure.

    Raises:
        RuntimeFailure: the scheduler was lost, or cancelled a point.
    """
    for future in distributed.as_completed(list(points)):
        try:
            yield future.result()
        except distributed.KilledWorker:
            cause = (
                "every dask worker that ran it died (as often as the scheduler's "
                "distributed.scheduler.allowed-failures allows): the workers' logs say why, "
                "often a memory limit"
            )
            yield {"index": points[future], "error": cause, "exit_code": 1}
        except CancelledError as exc:  # (FutureCancelledError: the connection lost)
            why = getattr(exc, "reason", None) or "cancelled"
            # Closing the client cancels its attempts to reconnect, which distributed logs
            # as an error with a traceback: the line below says what happened.
            logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
            raise RuntimeFailure(
                f"dask scheduler {address}: point {points[future]} was not run ({why}); "
                "the points done are kept: run the same command to resume"
            ) from None


def fs_command() -> list[str]:
    """How a batch job runs this ``fs``: this Python, ``-m fairshare_cli``."""
    return [sys.executable, "-m", "fairshare_cli"]


def write_batch_files(
    folder: SweepDir, engine: str, submit: bool, html: str | None, memory: int | None
) -> None:
    """Write (and with ``submit``, submit) the HTCondor or Slurm files of the sweep, each
    point's job asking for ``memory`` MB (None: the engine's default).

    Raises:
        FairshareError: submitting failed.
    """
    (folder.path / "logs").mkdir(exist_ok=True)
    total = len(folder.manifest()["points"])
    todo = [i for i in range(total) if folder.read_point(i) is None]
    page = str(Path(html).resolve()) if html else str(folder.path.resolve() / "sweep.html")
    if not todo:  # an empty queue ... from () or --array= would be refused by the scheduler
        where = shlex.quote(str(folder.path))
        click.echo(
            f"Every point of {where} has its result: nothing to submit; "
            f"fs sweep collect {where} shows them",
            err=True,
        )
        return
    if engine == "htcondor":
        from fairshare_cli.cli.sweep_batch import submit_dag, write_htcondor

        dag = write_htcondor(folder, todo, page, fs_command(), memory)
        click.echo(f"Wrote {dag} ({_points(todo)})", err=True)
        if submit:
            click.echo(f"Submitted DAG as cluster {submit_dag(dag)}", err=True)
        else:
            click.echo(f"Submit it with: condor_submit_dag {shlex.quote(str(dag))}", err=True)
        return
    from fairshare_cli.cli.sweep_batch import submit_sbatch, write_slurm

    script, collect = write_slurm(folder, todo, page, fs_command(), memory)
    click.echo(f"Wrote {script} and {collect} ({_points(todo)})", err=True)
    if submit:
        click.echo(f"Submitted job {submit_sbatch(script, collect)}", err=True)
    else:
        click.echo(
            f"Submit it with: sbatch {shlex.quote(str(script))}, then sbatch "
            f"--dependency=afterany:JOBID {shlex.quote(str(collect))}",
            err=True,
        )


def _points(todo: list[int]) -> str:
    """``1 point``, ``3 points``."""
    return f"{len(todo)} point{'' if len(todo) == 1 else 's'}"
