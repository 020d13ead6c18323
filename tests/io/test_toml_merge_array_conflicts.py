"""An import whose ``[[machines]]`` differ from the config's in a key, not in their names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """[pool]
name = "oracle"
[[machines]]
name = "localhost"
hosts = ["localhost"]
attributes = { Cpus = 16, Memory = 1000 }
"""

SLURM_CONF = """NodeName=localhost CPUs=16 RealMemory=1000
PartitionName=batch Nodes=localhost Default=YES
"""


def test_a_differing_machine_names_the_entry_and_key(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import slurm-conf slurm.conf --into pool.toml``, whose node is the config's
    localhost with a partition more: 'machines is 1 table (localhost) in the file, the
    import says 1 table (localhost)', the same words twice. It names the entry and key
    now; exit 2, the config as it was."""
    pool, conf = tmp_path / "pool.toml", tmp_path / "slurm.conf"
    pool.write_text(POOL, encoding="utf-8")
    conf.write_text(SLURM_CONF, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {pool}: machines[0] (localhost).partitions is not set in the file, the "
        'import says ["batch"]; pass --replace to overwrite it\n'
    )
    assert pool.read_text(encoding="utf-8") == POOL
    pool.write_text(POOL.replace("Cpus = 16", "Cpus = 8"), encoding="utf-8")
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert "machines[0] (localhost).attributes is {Cpus = 8, Memory = 1000} in the file" in (
        result.stderr
    )
