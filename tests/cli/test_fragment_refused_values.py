"""Every ``fs import KIND`` that makes configuration refuses, at the input line it came
from, a value the pool config refuses (the config's own checks run on the fragment): exit
2, one line, nothing printed, the ``--into`` config and the state unchanged. Before,
``fs import slurm-conf`` with ``PriorityWeightAge=99999999999999999999999`` printed a
fragment (exit 0) that ``fs config check`` then refused, and ``--into`` blamed the target
config (``pool.toml: priority.weights.age: ...``) for a value it never held; so did
sacctmgr, sshare ``--into`` and condor-status ``--into``.

The bounds are the config's (docs/config.md), each Slurm's own: ``PriorityWeight*`` are
``S_P_UINT32`` in Slurm's ``src/common/read_config.c`` (line 367 for PriorityWeightAge),
so 4294967295 is the largest weight and 4294967296 is refused; an association's Share
(``shares``) and a QOS Priority are uint32 too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, refused, write_pool
from tests.conftest import FIXTURES

SLURM = FIXTURES / "slurm-22.05"
HTCONDOR = FIXTURES / "htcondor-25.0" / "flat_users"
MULTIFACTOR = "PriorityType=priority/multifactor\n"
ASSOC = "Cluster|Account|User|Share|ParentName\nc|root||1|\n"
SSHARE = "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\nroot|||1.0|0|1.0|0.5\n"
QOS = "Name|Priority|UsageFactor\n"

#: kind, the input's text, what the one line says (after "fs: error: FILE:").
CASES = [
    pytest.param(
        "slurm-conf",
        MULTIFACTOR + "PriorityWeightAge=99999999999999999999999\n",
        '2: PriorityWeightAge: "99999999999999999999999" is out of range, and slurmctld '
        "stops on it",
        id="slurm-conf-weight-beyond-uint32",
    ),
    pytest.param(
        "slurm-conf",
        MULTIFACTOR + "PriorityWeightFairshare=4294967296\n",
        '2: PriorityWeightFairshare: "4294967296" is greater than 4294967295, and slurmctld '
        "stops on it",
        id="slurm-conf-weight-one-beyond-uint32",
    ),
    pytest.param(
        "slurm-conf",
        MULTIFACTOR + "PriorityFlags=NO_FAIR_TREE\nFairShareDampeningFactor=0\n",
        "3: FairShareDampeningFactor: priority.dampening_factor: 0 under classic or "
        "depth-oblivious fair share",
        id="slurm-conf-dampening-0",
    ),
    pytest.param(
        "slurm-conf",
        MULTIFACTOR + "SchedulerParameters=defer,bf_window=99999\n",
        "2: SchedulerParameters: bf_window: priority.bf_window: expected a whole number of "
        "at most 43200",
        id="slurm-conf-bf-window",
    ),
    pytest.param(
        "slurm-conf",
        "NodeName=DEFAULT RealMemory=99999999999999999999999\nNodeName=n1\n"
        "PartitionName=batch Nodes=n1\n",
        "1: RealMemory: machines[0].attributes.Memory: expected a whole number that fits in "
        "64 bits",
        id="slurm-conf-default-line-memory",
    ),
    pytest.param(
        "slurm-conf",
        "NodeName=n1 CPUs=4\nPartitionName=DEFAULT PriorityTier=65534\n"
        "PartitionName=batch Nodes=n1\n",
        "2: PriorityTier: partitions.batch.priority_tier: expected a whole number of at most "
        "65533, got 65534",
        id="slurm-conf-default-line-tier",
    ),
    pytest.param(
        "slurm-conf",
        "NodeName=n1\nPartitionName=batch Nodes=n1 MaxTime=soon\n",
        '2: MaxTime: partitions.batch.max_time: "soon" has characters other than digits',
        id="slurm-conf-max-time",
    ),
    pytest.param(
        "slurm-conf",
        MULTIFACTOR + "PriorityWeightQOS=4294967296\nPriorityWeightAge=4294967296\n",
        '2: PriorityWeightQOS: "4294967296" is greater than',
        id="slurm-conf-first-of-two",
    ),
    pytest.param(
        "slurm-conf",
        "Configuration data as of 2026-11-21T12:00:00\nPriorityType            = "
        "priority/multifactor\nPriorityWeightAssoc     = 4294967296\n",
        '3: PriorityWeightAssoc: "4294967296" is greater than 4294967295',
        id="scontrol-show-config",
    ),
    pytest.param(
        "slurm-conf",
        "PartitionName=batch\n   PriorityJobFactor=65534 PriorityTier=1\n   MaxNodes=4\n",
        "1: PriorityJobFactor: partitions.batch.priority_job_factor: expected a whole number "
        "of at most 65533",
        id="scontrol-show-partition",
    ),
    pytest.param(
        "sacctmgr",
        ASSOC + "c|a||99999999999|root\n",
        "3: Share: accounts.a.shares: expected a whole number of at most 4294967295",
        id="sacctmgr-account-share",
    ),
    pytest.param(
        "sacctmgr",
        ASSOC + "c|a||1|root\nc|a|alice|4294967296|\n",
        "4: Share: accounts.a.users.alice: expected a whole number of at most 4294967295",
        id="sacctmgr-user-share",
    ),
    pytest.param(
        "sacctmgr",
        ASSOC + "c|a||1|zz\n",
        '3: ParentName: accounts.a.parent: unknown account "zz"',
        id="sacctmgr-unknown-parent",
    ),
    pytest.param(
        "sacctmgr",
        ASSOC + "c|a||1|b\nc|b||1|a\n",
        "4: ParentName: accounts.a.parent: the account tree has a cycle",
        id="sacctmgr-cycle",
    ),
    pytest.param(
        "sacctmgr",
        QOS + "normal|0|1\nhigh|10|nan\n",
        "3: UsageFactor: qos.high.usage_factor: expected a finite number, got nan",
        id="sacctmgr-qos-nan",
    ),
    pytest.param(
        "sacctmgr",
        QOS + "normal|0|-1\n",
        "2: UsageFactor: qos.normal.usage_factor: expected a number at least 0, got -1",
        id="sacctmgr-qos-negative",
    ),
    pytest.param(
        "sacctmgr",
        QOS + "normal|4294967296|1\n",
        "2: Priority: qos.normal.priority: expected a whole number of at most 4294967295",
        id="sacctmgr-qos-priority",
    ),
    pytest.param(
        "sacctmgr",
        "Cluster - 'c':Fairshare=1\nParent - 'root'\nAccount - 'a':Fairshare=99999999999\n",
        "3: Fairshare: accounts.a.shares: expected a whole number of at most 4294967295",
        id="sacctmgr-dump",
    ),
    pytest.param(
        "condor-config",
        "GROUP_NAMES = group_a, group_b..c\nGROUP_QUOTA_group_a = 5\n",
        '1: GROUP_NAMES: groups."group_b..c": a group name is dot-separated words',
        id="condor-config-group-name",
    ),
]


@pytest.mark.parametrize(("kind", "text", "says"), CASES)
def test_a_value_the_config_refuses_is_refused_at_its_line(
    tmp_path: Path, run: Callable[..., Any], kind: str, text: str, says: str
) -> None:
    dump = tmp_path / "input.txt"
    dump.write_text(text, encoding="utf-8")
    result = run("import", kind, str(dump))
    refused(result, f"{dump}:{says}")
    assert result.stdout == ""
    pool = write_pool(tmp_path)
    before = pool["config"].read_bytes()
    result = run("import", kind, str(dump), "--into", str(pool["config"]), "--replace")
    refused(result, f"{dump}:{says}")
    assert "pool.toml" not in result.stderr  # (the target config is not blamed)
    assert pool["config"].read_bytes() == before


def test_the_largest_weight_slurm_reads_is_taken(tmp_path: Path, run: Callable[..., Any]) -> None:
    """4294967295 (2**32 - 1, uint32's largest) is a weight slurmctld reads: printed, and
    the fragment is a config ``fs config check`` takes."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(MULTIFACTOR + "PriorityWeightAge=4294967295\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert "age = 4294967295\n" in result.stdout
    fragment = tmp_path / "fragment.toml"
    fragment.write_text(result.stdout, encoding="utf-8")
    assert run("config", "check", "--config", str(fragment)).exit_code == 0


def test_sshare_into_refuses_shares_at_their_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sshare FILE --into CONFIG``: RawShares beyond uint32 named at its line;
    neither the config nor the state changes."""
    pool = write_pool(tmp_path)
    before = (pool["config"].read_bytes(), pool["state"].read_bytes())
    dump = tmp_path / "shares.txt"
    dump.write_text(SSHARE + " hep||99999999999|1.0|0|0|0\n  hep|alice|1|1.0|0|0|0\n")
    args = ["--state", str(pool["state"]), "--now", NOW]
    result = run("import", "sshare", str(dump), "--into", str(pool["config"]), *args)
    refused(result, f"{dump}:3: RawShares: accounts.hep.shares: expected a whole number of")
    assert (pool["config"].read_bytes(), pool["state"].read_bytes()) == before


def test_condor_status_into_refuses_a_slot_attribute_at_its_ad(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import condor-status FILE --into CONFIG``: a slot's negative Memory is named at
    its ad (the machine's first slot, whose attributes the entry takes); no claim is
    written, the config is unchanged. (One beyond 64 bits is refused at its own line, as
    the ClassAd reader reads it: tests/cli/imports/test_import_huge_numbers.py.)"""
    pool = write_pool(tmp_path)
    before = (pool["config"].read_bytes(), pool["state"].read_bytes())
    text = (HTCONDOR / "condor_status.long.txt").read_text(encoding="utf-8")
    dump = tmp_path / "slots.txt"
    dump.write_text(text.replace("Memory = 2048", "Memory = -1", 1))
    args = ["--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-status", str(dump), "--into", str(pool["config"]), *args)
    refused(
        result,
        f"{dump}:1: slot1@x01.htc.test: machines[0].attributes.Memory: expected a number "
        "of 0 or more (a slot resource), got -1",
    )
    assert (pool["config"].read_bytes(), pool["state"].read_bytes()) == before


def test_a_value_naming_the_configs_table_is_checked_among_its_values(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import sacctmgr part.txt --into pool.toml``: the fragment's values are checked
    in the config the merge makes, so an account whose parent only the config has merges;
    printed alone, the same listing is a config every command refuses (unknown parent),
    refused at its line. A value refused where a config's value differs (no --replace) is
    named at its line before the difference."""
    pool = write_pool(tmp_path)
    listing = tmp_path / "part.txt"
    listing.write_text("Account|User|Share|ParentName\nphys||5|hep\n", encoding="utf-8")
    refused(
        run("import", "sacctmgr", str(listing)),
        f'{listing}:2: ParentName: accounts.phys.parent: unknown account "hep"',
    )
    result = run("import", "sacctmgr", str(listing), "--into", str(pool["config"]))
    assert result.exit_code == 0, result.stderr
    assert '[accounts.phys]\nparent = "hep"\nshares = 5\n' in pool["config"].read_text()
    before = pool["config"].read_bytes()
    listing.write_text("Account|User|Share|ParentName\nphys||4294967296|hep\n", encoding="utf-8")
    result = run("import", "sacctmgr", str(listing), "--into", str(pool["config"]))
    refused(result, f"{listing}:2: Share: accounts.phys.shares: expected a whole number of at most")
    assert pool["config"].read_bytes() == before


def test_the_configs_own_fault_still_names_the_config(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """What the config refuses without the import's values is its own: named as before."""
    pool = write_pool(tmp_path, "[qos.normal]\npriority = -1\n")
    listing = tmp_path / "assoc.txt"
    listing.write_text(ASSOC + "c|a||5|root\n", encoding="utf-8")
    result = run("import", "sacctmgr", str(listing), "--into", str(pool["config"]))
    refused(result, f"{pool['config']}: qos.normal.priority: expected a whole number of at least 0")
