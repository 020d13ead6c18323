"""``fs import slurm-conf`` reads ``OverTimeLimit`` (the cluster's and a partition's) and
``KillWait`` as slurmctld reads them (``read_config.c``, 22.05 and 26.05 alike), into
``priority.over_time_limit``, ``partitions.<name>.over_time_limit`` and
``priority.kill_wait``; it listed them as ignored.

The cluster's ``OverTimeLimit`` and ``KillWait`` are ``uint16_t`` (``s_p_get_uint16``:
``UNLIMITED``/``INFINITE`` or 65535 are UNLIMITED, more is refused); a partition's is
read with ``strtol``: above 65534 UNLIMITED, 65534 itself (``NO_VAL16``) unset, the
cluster's. ``scontrol show config`` prints them "5 min" and "30 sec"; ``scontrol show
partition`` prints an unset one ``NONE``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONF = """ClusterName=x
OverTimeLimit={over}
KillWait=45
NodeName=n1 CPUs=4
PartitionName=a Nodes=n1 Default=YES OverTimeLimit=UNLIMITED
PartitionName=b Nodes=n1 OverTimeLimit=65534
PartitionName=c Nodes=n1 OverTimeLimit=7
PartitionName=d Nodes=n1 OverTimeLimit=70000
PartitionName=e Nodes=n1 OverTimeLimit=NONE
"""


@pytest.mark.parametrize(
    ("over", "written"),
    [
        pytest.param("5", '"5"', id="minutes"),
        pytest.param("unlimited", '"UNLIMITED"', id="unlimited"),
        pytest.param("65535", '"UNLIMITED"', id="infinite16"),
        pytest.param("65534", '"65534"', id="largest"),
    ],
)
def test_over_time_limit_and_kill_wait(
    tmp_path: Path, run: Callable[..., Any], over: str, written: str
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF.format(over=over), encoding="utf-8")
    res = run("import", "slurm-conf", str(conf))
    assert res.exit_code == 0, res.stderr
    assert f"over_time_limit = {written}\nkill_wait = 45\n" in res.stdout
    parts = {block.split("]", 1)[0]: block for block in res.stdout.split("[partitions.")[1:]}
    assert 'over_time_limit = "UNLIMITED"' in parts["a"]
    assert "over_time_limit" not in parts["b"]  # (65534: NO_VAL16, the cluster's)
    assert 'over_time_limit = "7"' in parts["c"]
    assert 'over_time_limit = "UNLIMITED"' in parts["d"]
    assert "over_time_limit" not in parts["e"]
    # and the config reads what the import wrote
    pool = res.stdout.replace("[pool]\n", '[pool]\ndefaults = "current"\n')
    (tmp_path / "pool.toml").write_text(pool, encoding="utf-8")
    check = run("config", "check", "--config", str(tmp_path / "pool.toml"))
    assert check.exit_code == 0, check.stderr
    assert "partitions.c.over_time_limit = 420.0\n" in check.stdout


def test_scontrol_show_config_units(tmp_path: Path, run: Callable[..., Any]) -> None:
    dump = tmp_path / "config.txt"
    dump.write_text(
        "$ scontrol show config\nOverTimeLimit           = 2 min\n"
        "KillWait                = 30 sec\nPriorityType            = priority/multifactor\n",
        encoding="utf-8",
    )
    res = run("import", "slurm-conf", str(dump))
    assert res.exit_code == 0, res.stderr
    assert 'over_time_limit = "2"\nkill_wait = 30\n' in res.stdout


@pytest.mark.parametrize(
    ("line", "error"),
    [
        pytest.param(
            "OverTimeLimit=65536",
            'OverTimeLimit: expected a whole number of at most 65535, got "65536"',
            id="over-uint16",
        ),
        pytest.param(
            "OverTimeLimit=-1", "OverTimeLimit: expected a whole number of at most", id="negative"
        ),
        pytest.param("KillWait=1:00", "KillWait: expected a whole number", id="kill-wait"),
    ],
)
def test_values_slurmctld_refuses(
    tmp_path: Path, run: Callable[..., Any], line: str, error: str
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(line + "\n", encoding="utf-8")
    res = run("import", "slurm-conf", str(conf))
    assert res.exit_code == 2
    assert res.stderr == f"fs: error: {conf}:1: {error}{res.stderr.split(error, 1)[1]}"
    assert len(res.stderr.splitlines()) == 1 and "Traceback" not in res.stderr


def test_a_partitions_over_time_limit_is_read_as_strtol_reads_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import slurm-conf refused a partition's OverTimeLimit=1:00 ('expected a whole
    number'), where slurmctld reads it with strtol into an int (read_config.c,
    _build_single_partitionline_info): 1:00 is 1 minute, a word 0, a negative number
    ignored (the partition takes the cluster's), 4294967297 wraps to 1 in the int."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "OverTimeLimit=5\nNodeName=n1 CPUs=4\n"
        "PartitionName=a Nodes=n1 Default=YES OverTimeLimit=1:00\n"
        "PartitionName=b Nodes=n1 OverTimeLimit=-3\n"
        "PartitionName=c Nodes=n1 OverTimeLimit=soon\n"
        "PartitionName=d Nodes=n1 OverTimeLimit=4294967297\n",
        encoding="utf-8",
    )
    res = run("import", "slurm-conf", str(conf))
    assert res.exit_code == 0, res.stderr
    parts = {block.split("]", 1)[0]: block for block in res.stdout.split("[partitions.")[1:]}
    assert 'over_time_limit = "1"' in parts["a"]
    assert "over_time_limit" not in parts["b"]  # (the cluster's 5)
    assert 'over_time_limit = "0"' in parts["c"]
    assert 'over_time_limit = "1"' in parts["d"]
    assert 'over_time_limit = "5"' in res.stdout.split("[partitions.")[0]
