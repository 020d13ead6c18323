"""``fs sweep --help`` says where the options of ``fs sweep SPEC`` are.

The group's help listed only ``--help``, and its spec keys left out ``history``,
``backfill`` and ``mode`` (docs/sweep.md's table has them); ``fs sweep SPEC`` runs the
``run`` subcommand, whose help lists ``--engine``, ``--out``, ``--jobs``, ...
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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


def test_a_refusal_of_fs_sweep_spec_points_to_the_help_of_what_was_typed(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs sweep nope.toml --config pool.toml`` said ``(see 'cli sweep run --help')``, a
    subcommand never typed (``fs sweep SPEC`` runs ``run``): now ``fs sweep --help``, whose
    text says where run's options are; ``fs sweep run ...`` keeps its own (CliRunner names
    the program cli)."""
    spec = str(tmp_path / "nope.toml")
    typed = run("sweep", spec, "--config", "pool.toml")
    assert (typed.exit_code, typed.stdout) == (2, "")
    assert typed.stderr == "fs: error: No such option '--config'. (see 'cli sweep --help')\n"
    ranged = run("sweep", spec, "--jobs", "0")
    assert ranged.stderr == (
        "fs: error: Invalid value for '--jobs': 0 is not in the range x>=1. "
        "(see 'cli sweep --help')\n"
    )
    named = run("sweep", "run", spec, "--config", "pool.toml")
    assert named.stderr == "fs: error: No such option '--config'. (see 'cli sweep run --help')\n"
