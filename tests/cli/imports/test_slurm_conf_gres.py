"""``fs import slurm-conf`` reads a node's ``Gres=`` into the ``[[machines]]`` attributes
the GRES terms of ``priority.weights.tres`` count (io/importers/gres.py).

slurmctld counts a node's GRES in ``_get_gres_cnt`` (``gres.c``, 22.05 and 26.05 alike):
``Gres=`` is a comma list of ``NAME[:TYPE][:COUNT]``; what follows the last ``(`` (the
socket binding, ``(S:0-1)``) is dropped; the count is after the last ``:`` with a
``suffix_mult`` suffix (``K`` is 1024), none is 1; a typed count is its type's and its
name's. The import dropped ``Gres=``, so every partition counted no GPU and a GRES weight
gave 0 whatever the job asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, sprio_files

NOW_EPOCH = 1795262400
SLURM_CONF = """\
ClusterName=gpus
GresTypes=gpu,mps
PriorityType=priority/multifactor
PriorityWeightTRES=CPU=1000,GRES/gpu=1000,GRES/gpu:a100=500
NodeName=DEFAULT Gres=gpu:a100:2(S:0-1)
NodeName=g[001-002] CPUs=4 RealMemory=1000
NodeName=h001 CPUs=8 RealMemory=1000 Gres=gpu:2,mps:1K
PartitionName=batch Nodes=g[001-002] Default=YES
PartitionName=other Nodes=h001
"""


def _import(tmp_path: Path, run: Callable[..., Any], conf: str) -> Any:
    path = tmp_path / "slurm.conf"
    path.write_text(conf, encoding="utf-8")
    return run("import", "slurm-conf", str(path))


def test_a_nodes_gres_becomes_its_machines_attributes(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """g001 and g002 take the DEFAULT line's gpu:a100:2(S:0-1): 2 of type a100, the socket
    binding dropped; h001's gpu:2 is 2 untyped GPUs and mps:1K is 1 x 1024."""
    result = _import(tmp_path, run, SLURM_CONF)
    assert result.exit_code == 0, result.stderr
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/gpu:a100" = 2}' in result.stdout
    assert (
        'attributes = {Cpus = 8, Memory = 1000, "gres/gpu" = 2, "gres/mps" = 1024}' in result.stdout
    )


def test_sprio_weighs_the_imported_gres(tmp_path: Path, run: Callable[..., Any]) -> None:
    """After the import, batch counts cpu 2 x 4 = 8, gres/gpu:a100 2 x 2 = 4 and so
    gres/gpu 4; other counts cpu 8, gres/gpu 2 (untyped), gres/gpu:a100 none.
    Job 1 in batch, 1 CPU and gres/gpu:a100 1: cpu 1/8 x 1000 = 125, gres/gpu 1/4 x 1000
    = 250 (the typed request counts towards its name), gres/gpu:a100 1/4 x 500 = 125:
    PRIORITY 500. Job 2 in other, 2 CPUs and gres/gpu 1: cpu 2/8 x 1000 = 250, gres/gpu
    1/2 x 1000 = 500, gres/gpu:a100 0 (other counts none): 750. Before: 125 and 250."""
    result = _import(tmp_path, run, SLURM_CONF)
    assert result.exit_code == 0, result.stderr
    jobs = [
        {"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60,
         "attributes": {"gres/gpu:a100": 1}},
        {"id": "2", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60,
         "partition": "other", "request_cpus": 2, "attributes": {"gres/gpu": 1}},
    ]  # fmt: skip
    options = sprio_files(tmp_path, jobs, result.stdout + SPRIO_ACCOUNTS)
    result = run("sprio", "-o", "%.5i %.10Y %.40T", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "JOBID   PRIORITY                                     TRES",
        "    1        500   cpu=125,gres/gpu=250,gres/gpu:a100=125",
        "    2        750                     cpu=250,gres/gpu=500",
    ]


@pytest.mark.parametrize("gres", ["gpu:2X", "gpu:a100:2.5"])
def test_a_count_slurmctld_cannot_read_is_refused(
    tmp_path: Path, run: Callable[..., Any], gres: str
) -> None:
    """``_get_gres_cnt``: a count followed by no ``suffix_mult`` suffix is a ``Bad GRES
    configuration``; fs refuses it at its line (exit 2) rather than guess a count."""
    result = _import(tmp_path, run, f"GresTypes=gpu\nNodeName=n1 CPUs=4 Gres={gres}\n")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {tmp_path / 'slurm.conf'}:2: Gres: {gres}: ")


def test_a_weight_of_an_untracked_gres_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """slurmctld reads PriorityWeightTRES with ``slurm_get_tres_weight_array(..., fail)``
    (``priority_multifactor.c``'s ``_internal_setup``, 22.05 and 26.05 alike): an item
    whose TRES is not among those it tracks (the standard ones and
    ``AccountingStorageTRES``'s) is ``not a configured TRES type`` (named type:name), and
    slurmctld stops (``fatal``: ``failed to parse tres weights str``). So the import
    refuses ``GRES/gpu:a100=500`` when ``AccountingStorageTRES=gres/gpu`` (exit 2,
    nothing printed), and takes it once gres/gpu:a100 is tracked (in any case)."""
    conf = SLURM_CONF + "AccountingStorageTRES=gres/gpu\n"
    result = _import(tmp_path, run, conf)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {tmp_path / 'slurm.conf'}:10: AccountingStorageTRES: "
        "priority.weights.tres: TRES weight 'gres:gpu:a100' is not a configured TRES type: "
        "slurmctld stops on it (failed to parse tres weights str); add gres/gpu:a100 to "
        'priority.accounting_storage_tres ("gres/gpu") as to AccountingStorageTRES, or '
        "drop its weight\n"
    )
    result = _import(tmp_path, run, SLURM_CONF + "AccountingStorageTRES=gres/gpu,GRES/GPU:A100\n")
    assert result.exit_code == 0, result.stderr
    assert 'accounting_storage_tres = "gres/gpu,GRES/GPU:A100"' in result.stdout


def test_a_config_tracking_no_such_gres_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The pool config's own check: ``priority.accounting_storage_tres`` set and a
    ``weights.tres`` item of a TRES it leaves out (and no standard one) is refused when
    the config is read, exit 2, as slurmctld would not start; unset, fs cannot know what
    the cluster tracks and takes the weight."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[priority]\naccounting_storage_tres = "license/matlab"\n'
        '[priority.weights]\ntres = "CPU=1000,Mem=2G,GRES/gpu=1000"\n' + SPRIO_ACCOUNTS
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert "TRES weight 'gres:gpu' is not a configured TRES type" in result.stderr
    config.write_text('[priority.weights]\ntres = "CPU=1000,GRES/gpu=1000"\n' + SPRIO_ACCOUNTS)
    assert run("config", "check", "--config", str(config)).exit_code == 0


def test_a_billing_weight_of_an_untracked_gres_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """read_config.c reads a partition's TRESBillingWeights with
    ``set_partition_billing_weights(..., true)``: the same ``slurm_get_tres_weight_array``
    with ``fail``, so a weight of an untracked GRES stops slurmctld too (22.05 and 26.05
    alike); with gres/gpu tracked, the partition is imported as before."""
    conf = (
        "AccountingStorageTRES=license/matlab\n"
        "GresTypes=gpu\n"
        "NodeName=n1 CPUs=4 Gres=gpu:2\n"
        'PartitionName=batch Nodes=n1 Default=YES TRESBillingWeights="CPU=1.0,GRES/gpu=2.0"\n'
    )
    result = _import(tmp_path, run, conf)
    assert (result.exit_code, result.stdout) == (2, "")
    assert (
        "partitions.batch.billing_weights: TRES weight 'gres:gpu' is not a configured TRES type"
        in result.stderr
    )
    result = _import(tmp_path, run, conf.replace("license/matlab", "license/matlab,gres/gpu"))
    assert result.exit_code == 0, result.stderr
    assert 'billing_weights = "CPU=1.0,GRES/gpu=2.0"' in result.stdout


#: A bare name, a mixed list and the no_consume flag word (``_get_gres_cnt`` and
#: ``gres_add_type``, 22.05 and 26.05 alike).
FLAG_CONF = """\
PriorityType=priority/multifactor
GresTypes=gpu,mps
PriorityWeightTRES=CPU=1000,GRES/gpu=1000,GRES/mps=1000
NodeName=n1 CPUs=4 RealMemory=1000 Gres=gpu,mps:100
NodeName=n2 CPUs=4 RealMemory=1000 Gres=gpu:no_consume:2
NodeName=n3 CPUs=4 RealMemory=1000 Gres=gpu:a100:NO_CONSUME:2
PartitionName=bare Nodes=n1 Default=YES
PartitionName=shared Nodes=n2,n3
"""


def test_a_bare_name_counts_one_and_no_consume_is_no_type(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """n1's bare ``gpu`` is 1 GPU (``!xstrcmp(tok, gres_name)``: count 1) and its
    ``mps:100`` 100 MPS (the mps plugin reads its own token); ``no_consume``, in any case,
    sets a flag and is no type (``gres_add_type``), so n2's ``gpu:no_consume:2`` is 2
    untyped GPUs and n3's ``gpu:a100:NO_CONSUME:2`` 2 of type a100, and the TRES the
    priority plugin reads (``gres_node_config_cnt``: ``gres_cnt_config``) count 2 each.
    Partition bare: cpu 4, gres/gpu 1, gres/mps 100; shared: cpu 8, gres/gpu 2 + 2 = 4.
    Job 1 in bare, 1 CPU, 1 GPU, 50 MPS: cpu 1/4 x 1000 = 250, gres/gpu 1/1 x 1000 = 1000,
    gres/mps 50/100 x 1000 = 500: PRIORITY 1750. Job 2 in shared, 2 CPUs, 2 GPUs: cpu
    2/8 x 1000 = 250, gres/gpu 2/4 x 1000 = 500: 750. fs took ``no_consume`` for a type:
    shared counted gres/gpu 2 + 2 + 2 = 6 (n3's a100 and "no_consume" each 2), job 2's
    gres/gpu 2/6 x 1000 = 333, PRIORITY 583."""
    result = _import(tmp_path, run, FLAG_CONF)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/gpu" = 1, "gres/mps" = 100}' in out
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/gpu" = 2}' in out
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/gpu:a100" = 2}' in out
    jobs = [
        {"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60,
         "attributes": {"gres/gpu": 1, "gres/mps": 50}},
        {"id": "2", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60,
         "partition": "shared", "request_cpus": 2, "attributes": {"gres/gpu": 2}},
    ]  # fmt: skip
    options = sprio_files(tmp_path, jobs, out + SPRIO_ACCOUNTS)
    result = run("sprio", "-o", "%.5i %.10Y %.40T", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "JOBID   PRIORITY                                     TRES",
        "    1       1750       cpu=250,gres/gpu=1000,gres/mps=500",
        "    2        750                     cpu=250,gres/gpu=500",
    ]


@pytest.mark.parametrize(
    ("gres", "token", "why"),
    [
        # a bare name sets the count to 1 and breaks out of the token loop
        ("gpu,gpu:2", "gpu", "slurmctld counts gpu as 1 at it"),
        ("gpu:a100:2,gpu", "gpu", "slurmctld counts gpu as 1 at it"),
        # every type word gets the token's count, the name it once
        ("gpu:a100:tesla:2", "gpu:a100:tesla:2", "slurmctld counts 2 for each of its types"),
    ],
)
def test_a_gres_slurmctld_stops_at_is_refused(
    tmp_path: Path, run: Callable[..., Any], gres: str, token: str, why: str
) -> None:
    """Where ``_get_gres_cnt`` stops reading a name's tokens (a bare ``gpu`` with other
    ``gpu`` tokens: the count is 1 there and the loop breaks) or a token's count goes to several types and once to its name (which the
    ``[[machines]]`` attributes, typed counts adding up to their name's, cannot hold), fs
    refuses the line in one line, exit 2, and writes nothing."""
    result = _import(tmp_path, run, f"GresTypes=gpu\nNodeName=n1 CPUs=4 Gres={gres}\n")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {tmp_path / 'slurm.conf'}:2: Gres: {token}: {why}")
    assert result.stderr.count("\n") == 1
