"""``fs sprio`` of a job of several partitions whose priority an admin set, under Slurm
22.05's rules (``priority.output_compat = "22.05"``).

Derived from Slurm 22.05's ``priority_multifactor.c``: at each decay pass
``_get_priority_internal`` clears (``memset``) the factors of a job whose priority an admin
set (``direct_set_prio``), and ``_filter_job`` gives such a job of one partition its
``direct_prio``, but one of several partitions none: it copies the zeroed factors and sets
each partition's weighted factor (``norm_priority * PriorityWeightPartition``). sprio's
``print.c`` then adds them up (``get_priority_from_factors``: ``0 - NICE_OFFSET`` site less
``0 - NICE_OFFSET`` nice, the partition's factor, at least 1) and prints site and nice as
``(int64_t)0 - NICE_OFFSET``: -2147483648, which ``%.10S`` cuts to ``-214748364``. Here
batch's factor is 1/4 (PriorityJobFactor 1 of the largest, 4) times 1000 = 250, express's
1000. Today's ``_create_prio_list_qos`` gives every row the ``direct_prio``. fs printed
the admin's 100000 and zeros on both rows under 22.05 too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool

Run = Callable[..., Any]

CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 4
slots = 1
attributes = { Cpus = 8, Memory = 8000 }
partitions = ["batch", "express"]
[priority]
output_compat = "%s"
[priority.weights]
age = 1000
fairshare = 10000
jobsize = 1000
partition = 1000
[partitions.batch]
default = true
priority_job_factor = 1
[partitions.express]
priority_job_factor = 4
[qos.normal]
priority = 0
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""
HEADER = (
    "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE"
    "    JOBSIZE  PARTITION        QOS        NICE                 TRES"
)


def _run(tmp_path: Path, run: Run, compat: str, *args: str) -> Any:
    env = write_pool(tmp_path, CONFIG % compat)
    jobs = tmp_path / "jobs.json"
    base = {"account": "a", "submit_time": "2026-11-21T10:00:00Z", "request_cpus": 2}
    objs = [
        {"id": "5", "owner": "u1", "partition": "batch,express", "nice": 10, **base},
        {"id": "6", "owner": "u2", "partition": "express", **base},
    ]
    jobs.write_text(json.dumps([{**o, "admin_priority": 100000} for o in objs]), "utf-8")
    state = env["state"].read_bytes()
    res = run("sprio", *args, "--jobs-file", str(jobs), *common(env))
    assert env["state"].read_bytes() == state
    return res


def test_22_05_lists_the_zeroed_factors_and_each_partitions_own(tmp_path: Path, run: Run) -> None:
    res = _run(tmp_path, run, "22.05", "-l")
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines() == [
        HEADER,
        "              5 batch           u1        250 -214748364          0          0"
        "          0          0        250          0 -2147483648                     ",
        "              5 express         u1       1000 -214748364          0          0"
        "          0          0       1000          0 -2147483648                     ",
        "              6 express         u2     100000          0          0          0"
        "          0          0          0          0           0                     ",
    ]


def test_22_05_normalised_priority_is_the_partitions_over_2_to_32(tmp_path: Path, run: Run) -> None:
    """``%y``: 250 / (2^32 - 1) as ``%16.14f``, 0.00000005820766, cut to 10."""
    res = _run(tmp_path, run, "22.05", "-n", "-o", "%.4i %9r %10y %10p")
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1:] == [
        "   5 batch     0.00000005 0.2500000 ",
        "   5 express   0.00000023 1.0000000 ",
        "   6 express   100000.000 0.0000000 ",
    ]


def test_today_every_row_prints_the_admins_priority(tmp_path: Path, run: Run) -> None:
    res = _run(tmp_path, run, "current", "-o", "%.4i %9r %.10Y %.10S %.10P %.11N")
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1:] == [
        "   5 batch         100000          0          0           0",
        "   5 express       100000          0          0           0",
        "   6 express       100000          0          0           0",
    ]
