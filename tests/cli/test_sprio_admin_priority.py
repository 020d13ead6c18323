"""A job's Slurm admin priority is held to what ``scontrol update job priority=`` takes.

``parse_uint32`` (src/common/proc_args.c) refuses NO_VAL (0xfffffffe) and above, so the
largest admin priority is 4294967293 (docs/jobs.md). ``fs prio --slurm`` and ``fs submit``
refused more, but a jobs file and a workload took any 64-bit number: ``fs sprio`` printed
a priority of 9999999999, which no Slurm job can have.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, refused

Run = Callable[..., Any]


def _jobs(tmp_path: Path, priority: int, **more: Any) -> str:
    path = tmp_path / "jobs.json"
    job = {"id": "1", "owner": "alice", "account": "hep", "admin_priority": priority, **more}
    path.write_text(json.dumps([job]), encoding="utf-8")
    return str(path)


def test_the_largest_admin_priority_is_printed(
    env: dict[str, Path], tmp_path: Path, run: Run
) -> None:
    res = run("sprio", "--jobs-file", _jobs(tmp_path, 4294967293), "-o", "%.4i %.10Y", *common(env))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[1].split() == ["1", "4294967293"]


def test_a_larger_one_is_refused_in_a_jobs_file(
    env: dict[str, Path], tmp_path: Path, run: Run
) -> None:
    res = run("sprio", "--jobs-file", _jobs(tmp_path, 4294967294), *common(env))
    refused(res, "job 1: admin_priority: expected 0 to 4294967293", "got 4294967294")
    assert res.stdout == ""


def test_a_larger_one_is_refused_in_a_workload(
    env: dict[str, Path], tmp_path: Path, run: Run
) -> None:
    work = _jobs(tmp_path, 9999999999, run_time=60)
    res = run("simulate", "--workload", work, "--scheduler", "slurm", "--until", "60", *common(env))
    refused(res, "job 1: admin_priority: expected 0 to 4294967293", "got 9999999999")


def test_normalised_factors_of_an_admin_priority_as_each_release_prints_them(
    tmp_path: Path, run: Run
) -> None:
    """``sprio -n`` of a job whose priority an admin set: today's print.c prints each
    factor as ``_print_int(0)``, "0" (its ``direct_prio`` case); Slurm 22.05's had no such
    case and printed the factor slurmctld sent, zeroed (``_get_priority_internal`` clears
    ``prio_factors`` of a ``direct_set_prio`` job), through ``_print_norm``: "0.0000000";
    ``%.3q`` cuts it to "0.0". Before: "0" with ``output_compat = "22.05"`` too."""
    from tests.cli.conftest import CONFIG, write_pool

    spec = "%.4i %a %f %.3q|"
    for compat, want in (("current", "   1 0 0   0|"), ("22.05", "   1 0.0000000 0.0000000 0.0|")):
        env = write_pool(tmp_path, CONFIG + f'[priority]\noutput_compat = "{compat}"\n')
        res = run("sprio", "-n", "-o", spec, "--jobs-file", _jobs(tmp_path, 100000), *common(env))
        assert (res.exit_code, res.stderr) == (0, ""), compat
        assert res.stdout.splitlines()[1] == want, compat
