"""``fs import slurm-conf`` reads the ``PriorityWeight*`` knobs and
``FairShareDampeningFactor`` as slurmctld reads them (io/importers/slurm_knobs.py).

They are ``S_P_UINT32`` and ``S_P_UINT16`` keys (``read_config.c``), which
``s_p_handle_uint32`` / ``s_p_handle_uint16`` read with ``strtoul(value, &end, 0)``
(``parse_value.c``, 22.05 and 26.05 alike): ``010`` is octal 8, ``0x2710`` is 10000, a ``k``
after the number multiplies it by 1024, ``UNLIMITED`` and ``INFINITE`` are the largest; a
negative value, one above the type, or other text stops slurmctld. fs read the digits as
decimal (``010`` was 10) and refused every other spelling.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]

NOW = "2026-11-21T12:00:00Z"
HEAD = "PriorityType=priority/multifactor\n"
NODES = "NodeName=n1 CPUs=4 RealMemory=1000\nPartitionName=batch Nodes=n1 Default=YES\n"
ACCOUNTS = "\n[accounts.hep]\nshares = 1\nusers = { alice = 1 }\n"


def _import(tmp_path: Path, run: Run, knobs: str) -> tuple[Any, Path]:
    conf = tmp_path / "slurm.conf"
    conf.write_text(HEAD + knobs + NODES, encoding="utf-8")
    pool = tmp_path / "pool.toml"
    return run("import", "slurm-conf", str(conf), "--into", str(pool)), pool


def test_weights_are_read_as_strtoul_of_base_0_reads_them(tmp_path: Path, run: Run) -> None:
    """``010`` is 8 (octal), ``0x2710`` 10000, ``1k`` 1024, ``+5`` 5: ``sprio -w`` prints
    them so. fs read ``010`` as 10 and refused the others."""
    knobs = "PriorityWeightAge=010\nPriorityWeightFairshare=0x2710\n"
    knobs += "PriorityWeightJobSize=1k\nPriorityWeightPartition=+5\n"
    result, pool = _import(tmp_path, run, knobs)
    assert result.exit_code == 0, result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write(ACCOUNTS)
    state = str(tmp_path / "state.json")
    shown = run("sprio", "-w", "--config", str(pool), "--state", state, "--now", NOW)
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout == (
        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
        "PARTITION\n"
        "        Weights                               1          8      10000       1024  "
        "        5\n"
    )


def test_unlimited_is_the_largest_and_a_sum_above_32_bits_is_warned(
    tmp_path: Path, run: Run
) -> None:
    """``PriorityWeightQOS=UNLIMITED`` is 4294967295 (``INFINITE``); with the fair-share
    weight of 1 the weights sum to 4294967296, above 32 bits: slurmctld starts and logs
    that a priority may overflow, and so does the import (a warning); the dampening
    factor's ``INFINITE`` is 65535 (a ``uint16_t``)."""
    knobs = "PriorityWeightQOS=UNLIMITED\nPriorityWeightFairshare=1\n"
    knobs += "FairShareDampeningFactor=infinite\n"
    result, pool = _import(tmp_path, run, knobs)
    assert result.exit_code == 0, result.stderr
    text = pool.read_text(encoding="utf-8")
    assert "qos = 4294967295\n" in text
    assert "dampening_factor = 65535\n" in text
    assert result.stderr.endswith(
        f"fs: warning: {tmp_path / 'slurm.conf'}: the PriorityWeight* sum to 4294967296, "
        'above 4294967295 (slurmctld: "PriorityWeight values too high, job priority value '
        "may overflow\"); a job's priority above it is cut to 4294967295, in fs as in "
        "slurmctld\n"
    )
    checked = run("config", "check", "--config", str(pool))
    assert checked.exit_code == 0
    assert checked.stderr == (
        f"fs: warning: {pool}: [priority.weights]: the PriorityWeight* sum to 4294967296, "
        'above 4294967295 (slurmctld: "PriorityWeight values too high, job priority value '
        "may overflow\"); a job's priority above it is cut to 4294967295, in fs as in "
        "slurmctld\n"
    )


@pytest.mark.parametrize(
    ("knob", "problem"),
    [
        ("PriorityWeightAge=-1", '"-1" is less than zero'),
        ("PriorityWeightAge=4294967296", '"4294967296" is greater than 4294967295'),
        ("PriorityWeightAge=4194304k", '"4194304k" is greater than 4294967295'),
        ("PriorityWeightAge=08", '"08" is not a valid number'),
        ("PriorityWeightAge=1kb", '"1kb" is not a valid number'),
        ("PriorityWeightAge=99999999999999999999", '"99999999999999999999" is out of range'),
    ],
)
def test_a_weight_slurmctld_stops_on_is_refused(
    tmp_path: Path, run: Run, knob: str, problem: str
) -> None:
    """``08`` is no octal number, ``1kb`` has text after the ``k``; a value above 2^64 is
    ``ERANGE``: one line, exit 2, the config not written."""
    result, pool = _import(tmp_path, run, knob + "\n")
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {tmp_path / 'slurm.conf'}:2: PriorityWeightAge: {problem}, and slurmctld "
        "stops on it (expected a whole number up to 4294967295, UNLIMITED or INFINITE)\n"
    )
    assert not pool.exists()


def test_a_dampening_factor_above_16_bits_is_refused(tmp_path: Path, run: Run) -> None:
    """``FairShareDampeningFactor`` is a ``uint16_t``: ``64k`` (65536) stops slurmctld."""
    result, pool = _import(tmp_path, run, "FairShareDampeningFactor=64k\n")
    assert result.exit_code == 2
    assert result.stderr == (
        f'fs: error: {tmp_path / "slurm.conf"}:2: FairShareDampeningFactor: "64k" is greater '
        "than 65535, and slurmctld stops on it (expected a whole number up to 65535, "
        "UNLIMITED or INFINITE)\n"
    )
    assert not pool.exists()


def test_a_dampening_factor_of_0_is_taken_under_fair_tree(tmp_path: Path, run: Run) -> None:
    """``FairShareDampeningFactor=0``: slurmctld takes it (a ``uint16_t``), and Fair Tree
    never reads it; fs refused it. Under classic fair share (``NO_FAIR_TREE``) slurmctld
    divides by it, which fs does not model: refused, naming the key."""
    conf = tmp_path / "slurm.conf"
    given = HEAD + "FairShareDampeningFactor=0\n" + NODES
    conf.write_text(given, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert (result.exit_code, "dampening_factor = 0\n" in result.stdout) == (0, True)
    conf.write_text(given + "PriorityFlags=NO_FAIR_TREE\n", encoding="utf-8")
    pool = tmp_path / "pool.toml"
    refused = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"fs: error: {conf}:5: PriorityFlags: priority.dampening_factor: 0 under classic or "
        "depth-oblivious fair share, where slurmctld divides by it (a FairShare of 0, NaN "
        "for no usage), which fs does not model; expected 1 to 65535, or 0 under Fair Tree\n"
    )
    assert not pool.exists()
