"""``fs import slurm-conf`` takes only a slurm.conf with a line the config models
(io/importers/slurm_conf.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no Key=Value lines; expected a slurm.conf", id="empty"),
        pytest.param("# comment\n", "no Key=Value lines", id="comments"),
        pytest.param(
            "SlurmctldHost=x\nAuthType=auth/munge\n",
            "none of its 2 keys is a Priority* knob, ClusterName, NodeName or PartitionName; "
            "expected a slurm.conf",
            id="no-known-key",
        ),
        pytest.param(GARBAGE, ':1: expected Key=Value, got "hello"', id="garbage"),
        pytest.param(OTHER_DUMPS["condor_config"], ":22: expected Key=Value", id="condor_config"),
        pytest.param(OTHER_DUMPS["dirac.cfg"], ":1: expected Key=Value", id="dirac.cfg"),
        pytest.param(
            "NodeName=n\x1bred CPUs=1\n", ":1: NodeName: expected a name without", id="node"
        ),
        pytest.param(
            "PartitionName=p\x1b Nodes=ALL\n", ":1: PartitionName: expected a name", id="part"
        ),
    ],
)
def test_what_is_not_a_slurm_conf_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("slurm-conf", content, expected, into=True)
