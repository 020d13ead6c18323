"""``fs import slurm-conf`` of a ``Priority*`` key that misspells a knob fs takes
(``PriorityWieghtQOS``): slurmctld refuses such a key ("Parsing error at unrecognized key")
and stops; it was counted among the ignored keys without a word, and the weight the admin
meant stayed at its default."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

CONF = """\
ClusterName=Mini
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityWieghtQOS=500
PriorityFlag=FAIR_TREE
PriorityParameters=x
AccountingStorageType=accounting_storage/slurmdbd
NodeName=cn[01-02] CPUs=8 RealMemory=4000
PartitionName=cpu Nodes=cn[01-02] Default=YES
"""


def test_a_misspelt_priority_knob_is_warned_about(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import slurm-conf slurm.conf: one warning per misspelt Priority* key, naming the
    knob meant; real keys fs does not model (PriorityParameters, AccountingStorageType)
    stay counted as ignored alone."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert "qos = 0" in result.stdout
    assert result.stderr.splitlines()[1:] == [
        'fs: warning: PriorityWieghtQOS: no slurm.conf key (slurmctld stops at it: "Parsing '
        'error at unrecognized key"); did you mean PriorityWeightQOS?',
        'fs: warning: PriorityFlag: no slurm.conf key (slurmctld stops at it: "Parsing error '
        'at unrecognized key"); did you mean PriorityFlags?',
    ]
    assert "ignored 4: AccountingStorageType, PriorityFlag, PriorityParameters" in result.stderr
