"""The TRES a slurm.conf's weights may name, as ``AccountingStorageTRES`` gives them
(cli/imports/slurm_conf.py, io/config/slurm_tres.py).

``read_config.c``: an unset ``AccountingStorageTRES`` is ``DEFAULT_ACCOUNTING_TRES``
(cpu,mem,energy,node,billing,fs/disk,vmem,pages), so slurmctld stops on a
``PriorityWeightTRES`` or ``TRESBillingWeights`` of ``GRES/gpu`` (``_tres_weight_item``:
is not a configured TRES type); fs took it without a word (the config, not knowing the
cluster's TRES, still takes it: the import warns). From Slurm 23.11 on, tracking
``gres/gpu`` adds ``gres/gpumem`` and ``gres/gpuutil`` (22.05 has neither): fs refused a
weight of ``gres/gpumem`` that today's slurmctld takes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONF = """\
PriorityType=priority/multifactor
PriorityWeightTRES=CPU=1000,GRES/gpumem=2
AccountingStorageType=accounting_storage/slurmdbd
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES TRESBillingWeights=CPU=1,License/matlab=5
"""


def test_a_gres_weight_with_no_accounting_storage_tres_is_warned_of(
    tmp_path: Path, run: Run
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0
    assert result.stderr.splitlines()[1:] == [
        f"fs: warning: {conf}: AccountingStorageTRES is unset, so slurmctld tracks "
        "cpu,mem,energy,node,billing,fs/disk,vmem,pages alone and stops on the weight of "
        "gres/gpumem,license/matlab (is not a configured TRES type); add "
        "gres/gpumem,license/matlab to AccountingStorageTRES"
    ]


def test_gpu_memory_is_tracked_with_the_gpu_from_23_11_on(tmp_path: Path, run: Run) -> None:
    """``AccountingStorageTRES=gres/gpu,license/matlab``: today the ``gres/gpumem`` weight is
    taken and ``fs sprio -w`` prints it as written; a config of ``output_compat = "22.05"``
    refuses it, as 22.05's slurmctld stops on it."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF + "AccountingStorageTRES=gres/gpu,license/matlab\n", encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert (result.exit_code, result.stderr.count("warning")) == (0, 0), result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write("\n[accounts.hep]\nshares = 1\nusers = { alice = 1 }\n")
    files = ["--config", str(pool), "--state", str(tmp_path / "state.json")]
    shown = run("sprio", "-w", *files, "--now", "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout == (
        "          JOBID PARTITION   PRIORITY       SITE                 TRES\n"
        "        Weights                               1 CPU=1000,GRES/gpumem\n"
    )
    old = tmp_path / "old.toml"
    old.write_text('[priority]\noutput_compat = "22.05"\n', encoding="utf-8")
    refused = run("import", "slurm-conf", str(conf), "--into", str(old))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"fs: error: {conf}:6: AccountingStorageTRES: priority.weights.tres: TRES weight "
        "'gres:gpumem' is not a configured TRES type: slurmctld stops on it (failed to parse "
        'tres weights str); add gres/gpumem to priority.accounting_storage_tres ("gres/gpu,'
        'license/matlab") as to AccountingStorageTRES, or drop its weight\n'
    )
    assert old.read_text(encoding="utf-8") == '[priority]\noutput_compat = "22.05"\n'
