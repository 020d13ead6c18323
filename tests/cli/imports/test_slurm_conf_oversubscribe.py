"""``fs import slurm-conf`` says where a partition shares nodes otherwise than
``OverSubscribe=NO``, which fs does not model: fs runs jobs on a node up to its CPUs, each
CPU to one job (``select/cons_tres`` with ``OverSubscribe=NO``, slurmctld's default).

slurmctld reads a partition's ``OverSubscribe`` (the old ``Shared``) in
``_build_single_partitionline_info`` (22.05 and today alike): ``NO``; ``EXCLUSIVE`` (whole
nodes to a job); ``YES`` (``YES:4``: jobs asking ``--oversubscribe`` share CPUs) and
``FORCE`` (``FORCE:4``: every job shares them); ``YES:1`` and ``FORCE:0`` are logged and
read as ``NO``; any other value stops slurmctld. ``ExclusiveUser=YES`` gives a node's CPUs
to one user's jobs. Since Slurm 25.11 ``Exclusive=`` is read after them (another value
than ``NO``, ``NONE``, ``NODE``, ``USER``, ``TOPO`` stops slurmctld): it clears
``ExclusiveUser``; ``NODE`` and ``TOPO`` make nodes whole, ``USER`` a user's, and ``NO``
or ``NONE`` undo an ``OverSubscribe=EXCLUSIVE``. The import dropped these
keys without a word, so a cluster of ``OverSubscribe=EXCLUSIVE`` partitions was simulated
packing jobs onto shared nodes with nothing saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

NOTE = (
    "; not modelled: fs runs jobs on a node up to its CPUs, a CPU to one job, as "
    "OverSubscribe=NO does (docs/slurm.md)"
)


def test_partitions_sharing_nodes_otherwise_are_noted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n1 CPUs=4\n"
        "PartitionName=a Nodes=n1 Default=YES OverSubscribe=FORCE:4\n"
        "PartitionName=b Nodes=n1 Shared=YES:1\n"  # (read as NO: no note)
        "PartitionName=c Nodes=n1 OverSubscribe=NO ExclusiveUser=YES\n"
        "PartitionName=DEFAULT OverSubscribe=EXCLUSIVE\n"
        "PartitionName=d Nodes=n1\n"
        "PartitionName=e Nodes=n1 Exclusive=TOPO OverSubscribe=NO\n"
        "PartitionName=f Nodes=n1 Exclusive=NONE\n"  # (clears the EXCLUSIVE: no note)
        "PartitionName=g Nodes=n1 ExclusiveUser=YES Exclusive=NO OverSubscribe=FORCE\n",
        encoding="utf-8",
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[1:] == [
        f"fs: note: {conf}:2: PartitionName a: OverSubscribe=FORCE:4{NOTE}",
        f"fs: note: {conf}:4: PartitionName c: ExclusiveUser=YES{NOTE}",
        f"fs: note: {conf}:6: PartitionName d: OverSubscribe=EXCLUSIVE{NOTE}",
        f"fs: note: {conf}:7: PartitionName e: Exclusive=TOPO{NOTE}",
        f"fs: note: {conf}:9: PartitionName g: OverSubscribe=FORCE{NOTE}",
    ]


def test_scontrol_show_partition_is_read_alike(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The 26.05 capture prints ``Exclusive=NO`` and ``OverSubscribe=NO`` for each
    partition: no note. With express's changed to ``Exclusive=USER`` and
    ``OverSubscribe=YES:2``, one note names both, at the partition's line."""
    text = (FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "scontrol_show_partition.txt").read_text()
    dump = tmp_path / "partitions.txt"
    dump.write_text(text)
    result = run("import", "slurm-conf", str(dump))
    assert (result.exit_code, result.stderr.count("\n")) == (0, 1), result.stderr
    at = text.index("PartitionName=express")
    changed = text[at:].replace("Exclusive=NO", "Exclusive=USER", 1)
    dump.write_text(text[:at] + changed.replace("OverSubscribe=NO", "OverSubscribe=YES:2", 1))
    result = run("import", "slurm-conf", str(dump))
    assert result.exit_code == 0, result.stderr
    line = text[:at].count("\n") + 1
    assert result.stderr.splitlines()[1:] == [
        f"fs: note: {dump}:{line}: PartitionName express: OverSubscribe=YES:2 Exclusive=USER{NOTE}"
    ]


def test_a_value_slurmctld_refuses_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``OverSubscribe=MAYBE`` stops slurmctld ("Bad value"): refused at its line, exit 2,
    and the config given to ``--into`` is left as it was."""
    conf = tmp_path / "slurm.conf"
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nname = "c1"\n')
    for line, key in (("OverSubscribe=MAYBE", "OverSubscribe"), ("Exclusive=YES", "Exclusive")):
        conf.write_text(f"NodeName=n1 CPUs=4\nPartitionName=a Nodes=n1 {line}\n")
        result = run("import", "slurm-conf", str(conf), "--into", str(config))
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr.startswith(f"fs: error: {conf}:2: {key}: expected ")
        assert config.read_text() == '[pool]\nname = "c1"\n'
