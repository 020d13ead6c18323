"""``fs import slurm-conf`` reads ``NodeName=`` and ``Nodes=`` host lists with the reader
``fs sshare -A`` uses (``core/slurm/char_list.py``, after ``hostlist_create`` in Slurm's
``src/common/hostlist.c``), as slurmctld reads them (``node_conf.c``: ``fatal("Unable to
create NodeName list from %s")`` when ``hostlist_create`` fails).

Before, the importers had a reader of their own: a range of up to 1,000,000 hosts was
taken where ``_parse_single_range`` stops at ``MAX_RANGE`` (65,536: "Too many hosts in
range"), a ``]`` with no ``[`` was refused where Slurm reads a host of that name, and 262,144
ranges in one bracket (``MAX_RANGES``, a ``fatal`` in Slurm) were read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli

from tests.cli.imports.conftest import Refuse


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param(
            "NodeName=n[1-65537] CPUs=2\n",
            ':1: NodeName: Too many hosts in range `1-65537\' in "n[1-65537]"',
            id="max-range",
        ),
        pytest.param(
            "NodeName=n[3-1] CPUs=2\n",
            ':1: NodeName: Invalid range: `3-1\' in "n[3-1]"',
            id="down",
        ),
        pytest.param(
            "NodeName=n1 CPUs=2\nPartitionName=p Nodes=n[x]\n",
            ':2: Nodes: Invalid range: `x\' in "n[x]"',
            id="partition-nodes",
        ),
        pytest.param(
            "NodeName=n[1- CPUs=2\n", ':1: NodeName: unbalanced "[" in "n[1-"', id="unbalanced"
        ),
        pytest.param(
            "NodeName=n[" + "1," * (256 * 1024) + "1] CPUs=2\n",
            ":1: NodeName: Too many ranges, can't process entire list (a fatal error in Slurm)",
            id="max-ranges",
        ),
    ],
)
def test_a_host_list_slurm_refuses_is_refused(
    tmp_path: Path, refuse_dump: Refuse, text: str, says: str
) -> None:
    """Exit 2, the one line, nothing written (``refuse_dump``)."""
    result = refuse_dump("slurm-conf", text, says, into=True)
    if len(text) < 100:
        assert result.stderr == f"fs: error: {tmp_path / 'dump.txt'}{says}\n"


def test_a_range_of_65536_hosts_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``MAX_RANGE`` hosts are one range still (``hi - lo + 1 > MAX_RANGE`` fails)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("NodeName=n[001-65536] CPUs=2\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"{conf}: 0 knobs, 65536 nodes, 0 partitions\n"
    assert 'name = "n"\ncount = 65536\n' in result.stdout


@pytest.mark.parametrize(
    ("names", "hosts"),
    [
        pytest.param("n]1", ["n]1"], id="close-only"),
        pytest.param("n[1-2]x", ["n1x", "n2x"], id="suffix"),
        pytest.param("r[1-2]n[1-2]", ["r1n1", "r1n2", "r2n1", "r2n2"], id="two-brackets"),
    ],
)
def test_host_lists_read_as_slurm_reads_them(
    tmp_path: Path, run: Callable[..., Any], names: str, hosts: list[str]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(f"NodeName={names} CPUs=2\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert tomli.loads(result.stdout)["machines"] == [
        {"name": hosts[0], "hosts": hosts, "attributes": {"Cpus": 2, "Memory": 1}, "partitions": []}
    ]
