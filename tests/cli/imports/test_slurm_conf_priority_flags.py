"""``PriorityFlags``, ``PriorityMaxAge=0`` and ``PriorityFavorSmall`` from ``fs import slurm-conf`` to ``fs sprio -l``
(hand-derived from ``priority_multifactor.c``, 22.05 and 26.05 alike).

``NO_NORMAL_ALL`` sets the four ``NO_NORMAL_*`` flags (``read_config.c``): the association
priority, the partition's ``PriorityJobFactor``, the QOS priority and each TRES count are
weighed as they are, not over their largest (``set_priority_factors``,
``_get_tres_factors``). ``PriorityMaxAge=0``: ``diff < max_age`` never holds, so every job
with an accrue time has the age factor 1.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]

CONF = """\
PriorityType=priority/multifactor
PriorityFlags={flags}
PriorityWeightQOS=10
PriorityWeightPartition=10
PriorityWeightAssoc=10
PriorityWeightTRES=CPU=1
PriorityMaxAge=0
PriorityWeightAge=1000
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES PriorityJobFactor=3
"""
TABLES = """
[accounts.hep]
shares = 1
priority = 7
users = { alice = 1 }
[qos.normal]
priority = 0
[qos.high]
priority = 5
"""


@pytest.mark.parametrize(
    ("flags", "row"),
    [
        # AGE 1000 (max age 0); ASSOC 7 x 10; PARTITION 3 x 10; QOS 5 x 10; TRES cpu 2 x 1:
        # 1152
        ("NO_NORMAL_ALL", ["1152", "0", "1000", "70", "0", "0", "30", "high", "50", "0", "cpu=2"]),
        # the QOS alone raw: ASSOC 7/7, PARTITION 3/3 x 10 = 10; cpu 2/4 x 1 = 0.5: 1070.5
        ("NO_NORMAL_QOS", ["1070", "0", "1000", "10", "0", "0", "10", "high", "50", "0", "cpu=0"]),
        # none raw (CALCULATE_RUNNING: no job runs): QOS 5/5 x 10 = 10: 1030.5
        (
            "CALCULATE_RUNNING",
            ["1030", "0", "1000", "10", "0", "0", "10", "high", "10", "0", "cpu=0"],
        ),
    ],
)
def test_no_normal_flags_weigh_the_raw_values(
    tmp_path: Path, run: Run, flags: str, row: list[str]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF.format(flags=flags), encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 0, result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write(TABLES)
    at = ["--config", str(pool), "--state", str(tmp_path / "state.json"), "--now"]
    submitted = run("submit", "--owner", "alice", "--account", "hep", "--qos", "high",
                    "--cpus", "2", *at, "2026-11-21T11:00:00Z")  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run("sprio", "-l", *at, "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.splitlines()[1].split() == ["1", "batch", "alice", "hep", *row]


def test_a_job_factor_is_read_as_slurmctld_reads_a_uint16(tmp_path: Path, run: Run) -> None:
    """``PriorityJobFactor`` is an ``S_P_UINT16`` partition key: ``010`` is octal 8
    (``s_p_handle_uint16``), so with ``NO_NORMAL_ALL`` PARTITION is 8 x 10 = 80 (fs read 10:
    100); AGE 1000, ASSOC 70, QOS 50, TRES cpu 2: 1202."""
    conf = tmp_path / "slurm.conf"
    text = CONF.format(flags="NO_NORMAL_ALL").replace(
        "PriorityJobFactor=3", "PriorityJobFactor=010"
    )
    conf.write_text(text, encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 0, result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write(TABLES)
    at = ["--config", str(pool), "--state", str(tmp_path / "state.json"), "--now"]
    submitted = run("submit", "--owner", "alice", "--account", "hep", "--qos", "high",
                    "--cpus", "2", *at, "2026-11-21T11:00:00Z")  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run("sprio", "-l", *at, "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.splitlines()[1].split() == [
        "1", "batch", "alice", "hep", "1202", "0", "1000", "70", "0", "0", "80", "high", "50",
        "0", "cpu=2",
    ]  # fmt: skip


def test_a_job_factor_above_16_bits_is_refused_at_its_default_line(
    tmp_path: Path, run: Run
) -> None:
    """``PriorityTier=70000`` on a ``PartitionName=DEFAULT`` line stops slurmctld: named at
    that line, exit 2."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("NodeName=n1 CPUs=4\nPartitionName=DEFAULT PriorityTier=70000\n"
                    "PartitionName=batch Nodes=n1\n")  # fmt: skip
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 2
    assert result.stderr == (
        f'fs: error: {conf}:2: PriorityTier: "70000" is greater than 65535, and slurmctld '
        "stops on it (expected a whole number up to 65535, UNLIMITED or INFINITE)\n"
    )


@pytest.mark.parametrize(("favor", "jobsize"), [("YES", "625"), ("no", "375")])
def test_favor_small_from_the_file(tmp_path: Path, run: Run, favor: str, jobsize: str) -> None:
    """``PriorityFavorSmall``: 2 nodes of 4 CPUs, a job of 1 node and 2 CPUs. Small:
    ((2 - 1)/2 + (8 - 2)/8)/2 = 0.625; large: (1/2 + 2/8)/2 = 0.375; times 1000."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "PriorityType=priority/multifactor\nPriorityWeightJobSize=1000\n"
        f"PriorityFavorSmall={favor}\nNodeName=n[1-2] CPUs=4 RealMemory=1000\n"
        "PartitionName=batch Nodes=ALL Default=YES MaxTime=1-0\n",
        encoding="utf-8",
    )
    pool = tmp_path / "pool.toml"
    assert run("import", "slurm-conf", str(conf), "--into", str(pool)).exit_code == 0
    with pool.open("a", encoding="utf-8") as out:
        out.write("\n[accounts.hep]\nshares = 1\nusers = { alice = 1 }\n")
    at = ["--config", str(pool), "--state", str(tmp_path / "state.json"), "--now"]
    submitted = run("submit", "--owner", "alice", "--account", "hep", "--cpus", "2",
                    "--nodes", "1", *at, "2026-11-21T11:00:00Z")  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run("sprio", "-o", "%.5i %.10J", *at, "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout == f"JOBID    JOBSIZE\n    1 {jobsize:>10}\n"
