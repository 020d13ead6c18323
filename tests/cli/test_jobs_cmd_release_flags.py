"""``fs release`` reads ``PriorityFlags`` as slurmctld reads it (core/operations/queue_release.py).

slurmctld searches the whole ``PriorityFlags`` value for each flag's name
(``read_config.c``), so ``PriorityFlags="ACCRUE_ALWAYS SMALL_RELATIVE_TO_TIME"`` (one
quoted word, blank-separated) sets both. With ``ACCRUE_ALWAYS`` a hold does not clear the
accrue time, even with ``AccountingStorageEnforce=limits``: the released job ages from its
submission. ``fs sprio`` found the flag in the word, but ``fs release`` looked for a word
equal to ``ACCRUE_ALWAYS``, and aged the job from its release.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONF = """\
PriorityType=priority/multifactor
PriorityFlags="ACCRUE_ALWAYS SMALL_RELATIVE_TO_TIME"
AccountingStorageEnforce=limits
PriorityWeightAge=1000
PriorityMaxAge=10:00:00
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES MaxTime=1-0
"""


def test_accrue_always_in_a_word_keeps_the_submit_time(tmp_path: Path, run: Run) -> None:
    """Submitted and held at 10:00, released at 11:00: the 12:00 pass ages it from 10:00,
    7200 s of PriorityMaxAge's 36000, 1000 × 0.2 = 200 (fs printed 100: from 11:00)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF, encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 0, result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write("\n[accounts.hep]\nshares = 1\nusers = { alice = 1 }\n")
    at = ["--config", str(pool), "--state", str(tmp_path / "state.json"), "--now"]
    steps = (
        ("submit", "--owner", "alice", "--account", "hep", *at, "2026-11-21T10:00:00Z"),
        ("prio", "1", "0", "--slurm", *at, "2026-11-21T10:00:00Z"),
        ("release", "1", *at, "2026-11-21T11:00:00Z"),
    )
    for step in steps:
        done = run(*step)
        assert done.exit_code == 0, done.stderr
    shown = run("sprio", "-l", *at, "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.splitlines()[1].split() == [
        "1", "batch", "alice", "hep", "200", "0", "200", "0", "0", "0", "0", "normal", "0", "0",
    ]  # fmt: skip
