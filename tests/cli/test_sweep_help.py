"""``fs sweep --help`` says where the options of ``fs sweep SPEC`` are.

The group's help listed only ``--help``, and its spec keys left out ``history``,
``backfill`` and ``mode`` (docs/sweep.md's table has them); ``fs sweep SPEC`` runs the
``run`` subcommand, whose help lists ``--engine``, ``--out``, ``--jobs``, ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def test_the_group_help_names_every_spec_key_and_the_run_options(run: Callable[..., Any]) -> None:
    res = run("sweep", "--help")
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert (
        "names the config, state, workload, history, now, until, cycle, scheduler, "
        "backfill and mode, and [[axis]] tables" in text
    )
    assert "'fs sweep SPEC' is 'fs sweep run SPEC'" in text
    assert "'fs sweep run --help'" in text
    options = run("sweep", "run", "--help").stdout
    for option in ("--engine", "--out", "--jobs", "--objective"):
        assert option in options
