"""``fs import slurm-conf`` says which ``DefaultTime`` it leaves out: one above its
partition's ``MaxTime``, which slurmctld drops with a log line ("partition %s DefaultTime
exceeds MaxTime", ``_build_single_partitionline_info`` in ``src/slurmctld/read_config.c``,
setting it to ``NO_VAL``). The import left it out without a word, so the admin's
``DefaultTime=2:00:00`` was gone from the config with nothing saying why."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_a_default_time_above_max_time_is_left_out_with_a_note(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n1 CPUs=4\n"
        "PartitionName=batch Nodes=n1 Default=YES MaxTime=2:00:00 DefaultTime=1:00:00\n"
        "PartitionName=short Nodes=n1 MaxTime=1:00:00 DefaultTime=2:00:00\n"
        "PartitionName=DEFAULT MaxTime=30 DefaultTime=45\n"
        "PartitionName=tiny Nodes=n1\n",
        encoding="utf-8",
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert 'default_time = "1:00:00"' in result.stdout  # batch's, within its MaxTime
    assert result.stdout.count("default_time") == 1
    assert result.stderr.splitlines()[1:] == [
        f"fs: note: {conf}:3: PartitionName short: DefaultTime=2:00:00 exceeds "
        "MaxTime=1:00:00; left out, as slurmctld leaves it (jobs setting no time limit get "
        "none until they start)",
        f"fs: note: {conf}:5: PartitionName tiny: DefaultTime=45 exceeds MaxTime=30; left "
        "out, as slurmctld leaves it (jobs setting no time limit get none until they start)",
    ]
