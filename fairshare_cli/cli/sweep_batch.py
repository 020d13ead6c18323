"""``fs sweep --engine htcondor|slurm``: the submit files, and submitting them.

HTCondor: ``DIR/sweep.sub`` queues one job per point (``queue point from (...)``), each
running ``fs sweep run-point DIR $(point)``; ``DIR/collect.sub`` runs ``fs sweep collect
DIR``; ``DIR/sweep.dag`` runs the points, then the collect as its FINAL node (it runs even
when a point failed, and shows what is there). ``--submit`` submits the DAG through the
``htcondor2`` bindings. Slurm: ``DIR/sweep.sbatch`` is a job array over the points
(``SLURM_ARRAY_TASK_ID`` is the point) and ``DIR/collect.sbatch`` the collect job;
``--submit`` runs ``sbatch`` for the array and then for the collect with
``--dependency=afterany:`` the array. Every job runs in DIR (``initialdir``,
``--chdir``). The files assume DIR on a file system the execute nodes share (no file
transfer) and this Python installed there too.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path

from fairshare_cli.errors import InputError, RuntimeFailure
from fairshare_cli.io.atomic import atomic_write_text
from fairshare_cli.io.sweep_dir import SweepDir


def _args(words: Sequence[str]) -> str:
    """An HTCondor ``arguments`` value in the new syntax (double quotes around, single
    quotes around each word)."""
    quoted = ["'" + w.replace("'", "''").replace('"', '""') + "'" for w in words]
    return '"' + " ".join(quoted) + '"'


def _collect_words(folder: Path, page: str) -> list[str]:
    return ["sweep", "collect", str(folder), "--html", page, "--output", "json"]


def check_batch_folder(folder: Path, engine: str) -> None:
    """The batch files can name ``folder``: they are read a line at a time, so not a path
    with a line break (or another control character) in it. HTCondor's too: DAGMan reads
    a path between double quotes (``next_possibly_quoted_token`` in ``parse.cpp``), so
    not one that holds one; condor_submit_dag (and ``htcondor2.Submit.from_dag``) writes
    the DAG's path as it is into the DAGMan job's submit description, whose macros
    condor_submit expands, so not one with ``$(...)`` (or ``$ENV(...)``, ...) in it; a
    submit file's value ends trimmed of blanks, and a line ending in a backslash goes on
    to the next (``initialdir``), so not a path ending in either. Nor, for HTCondor's,
    a ``PYTHONPATH`` (the submit files' ``environment`` line) with a line break in it.

    Raises:
        InputError: naming what the path holds.
    """
    where, shown = str(folder.resolve()), str(folder)
    python_path = os.environ.get("PYTHONPATH", "") if engine == "htcondor" else ""
    if _control(python_path):  # (the submit files' environment line: one line too)
        raise InputError(
            f"PYTHONPATH {python_path!r}: the htcondor batch files cannot name a path with a"
            " line break or another control character in it"
        )
    if _control(where):
        why, shown = "a line break or another control character in it", repr(shown)
    elif engine != "htcondor":
        return
    elif '"' in where:
        why = "a double quote in it"
    elif re.search(r"\$+[A-Za-z_]*\(", where):
        why = "a macro ($(NAME), $ENV(NAME), ...) in it, which condor_submit_dag leaves as it is"
    elif where[-1].isspace() or where.endswith("\\"):
        why = "a blank or a backslash at its end"
    else:
        return
    raise InputError(f"--out {shown}: the {engine} batch files cannot name a path with {why}")


def _control(text: str) -> bool:
    """``text`` holds a line break or another control character."""
    return any(ord(c) < 32 or ord(c) == 127 for c in text)


def _literal(text: str) -> str:
    """``text`` as a submit file's value that condor_submit leaves as it is: ``$`` is
    ``$(DOLLAR)`` (``$(HOME)`` in a path would be expanded), and ``$$`` is
    ``$$(DOLLARDOLLAR)``, which the schedd turns back into ``$$`` when it expands a
    matched job's ``$$(...)`` (``qmgmt.cpp``)."""
    return re.sub(r"\$\$|\$", lambda m: "$$(DOLLARDOLLAR)" if m[0] == "$$" else "$(DOLLAR)", text)


def _environment() -> str:
    """The submit files' ``environment`` line: ``PYTHONPATH`` as fs runs with it (each
    folder made absolute: the jobs run in DIR), so that the jobs import this fs, as a
    Slurm job (which gets the submitter's environment) does; an HTCondor job gets none of
    it. Nothing without one. The value in the new syntax (``Env::MergeFromV2Raw``: the
    ``arguments`` quoting)."""
    path = os.environ.get("PYTHONPATH")
    if not path:
        return ""
    folders = os.pathsep.join(os.path.abspath(f) for f in path.split(os.pathsep) if f)
    return f"environment = {_args(['PYTHONPATH=' + _literal(folders)])}\n"


def _dag_path(path: Path) -> str:
    """A path as a DAG's JOB line names it: between double quotes when it has a blank."""
    text = str(path)
    return f'"{text}"' if any(c.isspace() for c in text) else text


def _sbatch_path(text: str) -> str:
    """A path as an ``#SBATCH`` line names it, quoted as sbatch's ``get_argument`` reads
    it (quotes group blanks and ``#``; a backslash escapes, inside quotes too)."""
    return shlex.quote(text.replace("\\", "\\\\"))


def write_htcondor(
    folder: SweepDir, todo: Sequence[int], page: str, fs: Sequence[str], memory: int | None
) -> Path:
    """Write ``sweep.sub``, ``collect.sub`` and ``sweep.dag``; return the DAG's path. A
    point's job asks for ``memory`` MB (None: 1 GB)."""
    where = folder.path.resolve()
    items = "\n".join(str(i) for i in todo)
    words = [_literal(w) for w in [*fs[1:], "sweep", "run-point", str(where)]]
    point_args = _args([*words, "$(point)"])
    sub = f"""# fs sweep: one job per point, each writes {where}/points/NNNNNN.json
universe = vanilla
executable = {_literal(fs[0])}
arguments = {point_args}
initialdir = {_literal(str(where))}
{_environment()}should_transfer_files = NO
output = logs/point-$(point).out
error = logs/point-$(point).err
log = logs/sweep.log
request_cpus = 1
request_memory = {"1GB" if memory is None else memory}
queue point from (
{items}
)
"""
    collect = f"""# fs sweep: the table of every point (results.json) and the page
universe = vanilla
executable = {_literal(fs[0])}
arguments = {_args([_literal(w) for w in [*fs[1:], *_collect_words(where, page)]])}
initialdir = {_literal(str(where))}
{_environment()}should_transfer_files = NO
output = results.json
error = logs/collect.err
log = logs/sweep.log
request_cpus = 1
request_memory = 1GB
queue
"""
    dag = f"""# fs sweep: the points, then the collect (FINAL: it runs whatever happened)
JOB points {_dag_path(where / "sweep.sub")}
FINAL collect {_dag_path(where / "collect.sub")}
"""
    atomic_write_text(where / "sweep.sub", sub, "submit file", 0o644)
    atomic_write_text(where / "collect.sub", collect, "submit file", 0o644)
    atomic_write_text(where / "sweep.dag", dag, "DAG file", 0o644)
    return where / "sweep.dag"


def submit_dag(dag: Path) -> int:
    """Submit the DAG to the local schedd (``htcondor2``); its cluster id.

    Raises:
        RuntimeFailure: the bindings or the schedd refused.
    """
    import htcondor2

    try:
        description = htcondor2.Submit.from_dag(str(dag), {"force": True})
        return int(htcondor2.Schedd().submit(description).cluster())
    except (htcondor2.HTCondorException, RuntimeError, OSError, ValueError) as exc:
        raise RuntimeFailure(f"cannot submit {dag}: {exc}") from None


#: The array tasks a sweep asks for at most: Slurm's default MaxArraySize (1001) refuses
#: a task id above 1000; a larger sweep's tasks run several points each.
MAX_ARRAY_TASKS = 1000


def write_slurm(
    folder: SweepDir, todo: Sequence[int], page: str, fs: Sequence[str], memory: int | None
) -> tuple[Path, Path]:
    """Write ``sweep.sbatch`` (the array) and ``collect.sbatch``; return both paths. Task
    ``k`` of the array runs the points ``todo[k]``, ``todo[k + tasks]``, ... (one each for
    up to :data:`MAX_ARRAY_TASKS` points): each of them whatever the others did, as each
    task runs whatever the other tasks did; the task fails (the last failed point's exit
    status) when one of its points failed. A task asks for ``memory`` MB (None: the
    partition's default)."""
    where = folder.path.resolve()
    command = " ".join(shlex.quote(w) for w in [*fs, "sweep", "run-point", str(where)])
    tasks = min(len(todo), MAX_ARRAY_TASKS)
    mem = "" if memory is None else f"#SBATCH --mem={memory}\n"
    script = f"""#!/bin/bash
# fs sweep: array task K runs points[K], points[K + {tasks}], ...; each writes
# {where}/points/NNNNNN.json
#SBATCH --job-name=fs-sweep
#SBATCH --array=0-{tasks - 1}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
{mem}#SBATCH --chdir={_sbatch_path(str(where))}
#SBATCH --output=logs/task-%a.out
set -eu
points=({" ".join(map(str, todo))})
status=0
for ((i = SLURM_ARRAY_TASK_ID; i < ${{#points[@]}}; i += {tasks})); do
  {command} "${{points[i]}}" || status=$?
done
exit "$status"
"""
    collect_cmd = " ".join(shlex.quote(w) for w in [*fs, *_collect_words(where, page)])
    collect = f"""#!/bin/bash
# fs sweep: the table of every point (results.json) and the page
#SBATCH --job-name=fs-sweep-collect
#SBATCH --ntasks=1
#SBATCH --chdir={_sbatch_path(str(where))}
#SBATCH --output=logs/collect.out
set -eu
exec {collect_cmd} > {shlex.quote(str(where / "results.json"))}
"""
    atomic_write_text(where / "sweep.sbatch", script, "batch script", 0o755)
    atomic_write_text(where / "collect.sbatch", collect, "batch script", 0o755)
    return where / "sweep.sbatch", where / "collect.sbatch"


def submit_sbatch(script: Path, collect: Path) -> str:
    """``sbatch`` the array, then the collect after it; the array's job id.

    Raises:
        RuntimeFailure: sbatch is missing or refused.
    """
    array = _sbatch(["--parsable", str(script)])
    _sbatch(["--parsable", f"--dependency=afterany:{array}", str(collect)])
    return array


def _sbatch(args: list[str]) -> str:
    try:
        done = subprocess.run(["sbatch", *args], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RuntimeFailure(f"cannot run sbatch: {exc.strerror}") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise RuntimeFailure(f"sbatch {' '.join(args)}: {lines[-1]}")
    return done.stdout.strip().split(";")[0]
