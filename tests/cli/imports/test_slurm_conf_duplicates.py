"""``fs import slurm-conf`` reads nodes and partitions as slurmctld does: a second
``NodeName`` line for a node, or a second ``PartitionName`` line for a partition, is refused
at its line, as slurmctld stops on it (``src/common/read_config.c``, ``_push_to_hashtbls``:
``fatal("Duplicated NodeName %s in the config file")``; ``src/slurmctld/read_config.c``,
``_build_single_partitionline_info``: ``fatal("%s: duplicate entry for partition %s")``, both
names compared with ``xstrcmp``, case and all). Before, the last line silently won.

And a run of nodes ``n001``-``n003`` beside a node named ``n`` is one ``[[machines]]``
entry each: compressed, the run took the name ``n`` too, a config every command refuses
(``machines[1].name: 'n' is used by an earlier [[machines]] entry``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param(
            "NodeName=n1 CPUs=4\nNodeName=n[1-2] CPUs=8\n",
            ":2: NodeName: n1 has a NodeName line already ({conf}:1); slurmctld stops on it "
            "(Duplicated NodeName n1 in the config file)",
            id="node",
        ),
        pytest.param(
            "NodeName=n1\nPartitionName=batch Nodes=n1\nPartitionName=batch Nodes=n1 MaxTime=60\n",
            ":3: PartitionName: batch has a PartitionName line already; slurmctld stops on it "
            "(duplicate entry for partition batch)",
            id="partition",
        ),
    ],
)
def test_a_second_line_for_a_node_or_partition_is_refused(
    tmp_path: Path, run: Callable[..., Any], text: str, says: str
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(text, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    refused(result, f"{conf}{says.format(conf=conf)}")
    assert result.stdout == ""


def test_partitions_named_apart_by_case_are_two(tmp_path: Path, run: Callable[..., Any]) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("NodeName=n1\nPartitionName=batch Nodes=n1\nPartitionName=Batch Nodes=n1\n")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert "[partitions.batch]" in result.stdout and "[partitions.Batch]" in result.stdout


def test_a_run_beside_a_node_of_its_name_is_not_compressed(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n[001-003] CPUs=4\nNodeName=n CPUs=8\nPartitionName=batch Nodes=ALL\n",
        encoding="utf-8",
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    names = [line for line in result.stdout.splitlines() if line.startswith(("name", "hosts"))]
    assert names == [
        'name = "n001"', 'hosts = ["n001", "n002", "n003"]', 'name = "n"', 'hosts = ["n"]'
    ]  # fmt: skip
    fragment = tmp_path / "fragment.toml"
    fragment.write_text(result.stdout, encoding="utf-8")
    assert run("config", "check", "--config", str(fragment)).exit_code == 0


@pytest.mark.parametrize(
    ("text", "toml", "summary"),
    [
        pytest.param(
            "PriorityWeightQOS=10\nPriorityWeightQOS=20\n",
            "qos = 20\n",
            "1 knob, 0 nodes, 0 partitions (PriorityWeightQOS)",
            id="knob",
        ),
        pytest.param(
            "SchedulerParameters=bf_window=100,bf_interval=60\n"
            "SchedulerParameters=bf_max_job_test=7\nPriorityWeightQOS=1\n",
            "[priority]\nbf_max_job_test = 7\nfairshare",
            "2 knobs, 0 nodes, 0 partitions (SchedulerParameters, PriorityWeightQOS)",
            id="scheduler-parameters",
        ),
    ],
)
def test_a_knob_given_twice_takes_its_last_line(
    tmp_path: Path, run: Callable[..., Any], text: str, toml: str, summary: str
) -> None:
    """slurmctld reads a key given twice by its last line, whole ("specified more than
    once, latest value used": ``_handle_common`` in ``src/common/parse_config.c`` frees the
    first value; SchedulerParameters is one string). fs import slurm-conf slurm.conf named
    the knob twice ('2 knobs (PriorityWeightAge, PriorityWeightAge)') and kept bf_window
    and bf_interval from the first SchedulerParameters line, which slurmctld drops."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(text, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert toml in result.stdout
    assert "bf_window" not in result.stdout and "bf_interval" not in result.stdout
    assert result.stderr == f"{conf}: {summary}\n"
