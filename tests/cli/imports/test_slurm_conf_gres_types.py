"""``fs import slurm-conf`` and the pool config read ``GresTypes`` as slurmctld does
(core/slurm/gres_types.py, io/config/slurm_tres.py).

slurmctld knows the GRES ``GresTypes`` names and no other (``gres_init``; 22.05's
``src/common/gres.c``, 26.05's ``src/interfaces/gres.c``): a node's ``Gres=`` token of an
unlisted name is dropped (``gres_name_filter``: "Invalid GRES configured on node"; every
token with no ``GresTypes``), names compared in case (``xstrcmp``); it stops on ``mps`` or
``shard`` without ``gpu`` and on two names of one plugin id. The TRES a GRES is counted in,
and that the weights name, are found in any case (``assoc_mgr_find_tres_pos``:
``xstrcasecmp``). fs read no ``GresTypes``: it took every ``Gres=`` token, and ``GPU`` for
``gpu`` (lower-casing the node's names but not the job's).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, sprio_files

NOW_EPOCH = 1795262400
Run = Callable[..., Any]

#: One node of 4 CPUs: two GPUs written ``GPU`` and one A100 written ``gpu``.
CASE_CONF = """\
PriorityType=priority/multifactor
PriorityWeightTRES=CPU=1000,GRES/gpu=1000
GresTypes=gpu
NodeName=n1 CPUs=4 RealMemory=1000 Gres=GPU:2,gpu:a100:1
PartitionName=batch Nodes=n1 Default=YES
"""


def _import(tmp_path: Path, run: Run, conf: str) -> Any:
    path = tmp_path / "slurm.conf"
    path.write_text(conf, encoding="utf-8")
    return run("import", "slurm-conf", str(path))


def _sprio(tmp_path: Path, run: Run, config: str, attributes: dict[str, int]) -> str:
    """sprio's PRIORITY and TRES of one 1-CPU job of ``attributes`` in batch."""
    jobs = [{"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60,
             "attributes": attributes}]  # fmt: skip
    result = run("sprio", "-o", "%.5i %.10Y %.30T", *sprio_files(tmp_path, jobs, config))
    assert (result.exit_code, result.stderr) == (0, "")
    return str(result.stdout.splitlines()[1])


def test_a_gres_name_gres_types_does_not_list_in_its_case_is_dropped(
    tmp_path: Path, run: Run
) -> None:
    """``GPU:2`` names no GRES of ``GresTypes=gpu``: slurmctld drops it, so n1 holds the
    one A100 (``gres/gpu:a100`` = 1, counting towards gres/gpu: 1). A 1-CPU job asking
    gres/gpu 1: cpu 1/4 x 1000 = 250, gres/gpu 1/1 x 1000 = 1000: PRIORITY 1250. fs took
    ``GPU:2`` as 2 more GPUs: gres/gpu 1/3 x 1000 = 333, PRIORITY 583."""
    result = _import(tmp_path, run, CASE_CONF)
    assert result.exit_code == 0, result.stderr
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/gpu:a100" = 1}' in result.stdout
    assert 'gres_types = "gpu"' in result.stdout
    assert (
        f"fs: note: {tmp_path / 'slurm.conf'}:4: Gres: GPU:2: GresTypes=gpu does not list GPU "
        "(GRES names are compared in case); left out, as slurmctld drops it (Invalid GRES "
        "configured on node)\n"
    ) in result.stderr
    row = _sprio(tmp_path, run, result.stdout + SPRIO_ACCOUNTS, {"gres/gpu": 1})
    assert row.split() == ["1", "1250", "cpu=250,gres/gpu=1000"]


def test_a_token_of_no_gres_name_is_dropped_as_slurmctld_drops_it(tmp_path: Path, run: Run) -> None:
    """``gpu(S:0-1)`` (no count before the binding): its name before the first colon is
    ``gpu(S``, no GresTypes name, so ``gres_name_filter`` drops it (slurmctld starts,
    logging the error); fs refused the line."""
    conf = "GresTypes=gpu\nNodeName=n1 CPUs=4 Gres=gpu(S:0-1),gpu:1\n"
    result = _import(tmp_path, run, conf)
    assert result.exit_code == 0, result.stderr
    assert 'attributes = {Cpus = 4, Memory = 1, "gres/gpu" = 1}' in result.stdout
    assert ":2: Gres: gpu(S:0-1): GresTypes=gpu does not list gpu(S " in result.stderr


def test_no_gres_types_no_gres(tmp_path: Path, run: Run) -> None:
    """With no ``GresTypes`` slurmctld has no GRES context and drops every ``Gres=``
    (``gres_name_filter`` returns none, saying nothing): the node is imported without
    GRES, and the import says so once for its line."""
    result = _import(tmp_path, run, "NodeName=n[1-2] CPUs=4 Gres=gpu:2\n")
    assert result.exit_code == 0, result.stderr
    assert "gres/" not in result.stdout
    assert result.stderr.count("fs: note: ") == 1
    assert (
        ":1: Gres: gpu:2: GresTypes is unset, so slurmctld knows no GRES; left out, as "
        "slurmctld drops it (add GresTypes)\n" in result.stderr
    )


@pytest.mark.parametrize(
    ("types", "why"),
    [
        ("mps", "gres/mps requires that gres/gpu also be configured"),
        ("GPU,shard", "gres/shard requires that gres/gpu also be configured"),
        ("abcde,ebcda", "gres/abcde and gres/ebcda have the same plugin id 1684234950"),
    ],
)
def test_gres_types_slurmctld_stops_on_are_refused(
    tmp_path: Path, run: Run, types: str, why: str
) -> None:
    """``gres_init`` stops (``fatal``) on a GPU-sharing GRES without ``gpu`` (in lower
    case: ``GPU`` is another name) and on two names of one ``gres_build_id``; fs refuses
    the line (exit 2, nothing written), and the pool config's ``gres_types`` alike."""
    result = _import(tmp_path, run, f"ClusterName=c\nGresTypes={types}\n")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {tmp_path / 'slurm.conf'}:2: GresTypes: {why}")
    assert result.stderr.count("\n") == 1
    config = tmp_path / "pool.toml"
    config.write_text(f'[priority]\ngres_types = "{types}"\n' + SPRIO_ACCOUNTS)
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert f'priority.gres_types ("{types}"): {why}' in result.stderr


def test_tres_names_match_in_any_case(tmp_path: Path, run: Run) -> None:
    """``GresTypes=GPU`` and ``Gres=GPU:2``: slurmctld knows the node's two GPUs, counts
    them in the TRES gres/gpu (``xstrcasecmp``), which ``GRES/gpu=1000`` weighs; a job
    asking ``--gres=GPU:1`` counts 1 there too. cpu 1/4 x 1000 = 250, gres/gpu 1/2 x 1000
    = 500: PRIORITY 750. fs found no ``gres/gpu`` among the job's ``"gres/GPU"``: 250."""
    conf = CASE_CONF.replace("GresTypes=gpu", "GresTypes=GPU").replace(",gpu:a100:1", "")
    result = _import(tmp_path, run, conf + "AccountingStorageTRES=gres/gpu\n")
    assert result.exit_code == 0, result.stderr
    assert 'attributes = {Cpus = 4, Memory = 1000, "gres/GPU" = 2}' in result.stdout
    row = _sprio(tmp_path, run, result.stdout + SPRIO_ACCOUNTS, {"gres/GPU": 1})
    assert row.split() == ["1", "750", "cpu=250,gres/gpu=500"]


def test_the_config_refuses_a_machine_gres_gres_types_does_not_list(
    tmp_path: Path, run: Run
) -> None:
    """The pool config's own check: with ``gres_types`` set, a machine's ``gres/`` attribute
    of a name it does not list, in its case, is refused (slurmctld would drop that GRES
    from the node); unset, not checked."""
    machines = '[[machines]]\nname = "n1"\nattributes = { Cpus = 4, "gres/GPU" = 2 }\n'
    config = tmp_path / "pool.toml"
    config.write_text('[priority]\ngres_types = "gpu"\n' + machines + SPRIO_ACCOUNTS)
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert result.stderr == (
        f'fs: error: {config}: machines[0] (n1).attributes: "gres/GPU" names a GRES '
        'priority.gres_types ("gpu") does not list, in its case: slurmctld drops it from the '
        "node (Invalid GRES configured on node); list it in gres_types (GresTypes) or drop "
        "the attribute\n"
    )
    config.write_text('[priority]\ngres_types = "gpu,GPU"\n' + machines + SPRIO_ACCOUNTS)
    assert run("config", "check", "--config", str(config)).exit_code == 0
    config.write_text(machines + SPRIO_ACCOUNTS)
    assert run("config", "check", "--config", str(config)).exit_code == 0


@pytest.mark.parametrize(
    ("select", "compat", "given"),
    [
        ("SelectType=select/linear\n", "current", "select/linear"),
        ("", "22.05", "unset, so select/linear (Slurm 22.05)"),
    ],
)
def test_a_shared_gres_needs_cons_tres(
    tmp_path: Path, run: Run, select: str, compat: str, given: str
) -> None:
    """``gres_init`` stops slurmctld on a GPU-sharing GRES (``mps``, ``shard``) unless
    ``SelectType`` is ``select/cons_tres``: ``select/linear``, or left unset under 22.05,
    whose default it is (``select/cons_tres`` since 23.11). Refused at the ``GresTypes``
    line (exit 2, nothing merged); ``SelectType=select/cons_tres``, or unset today, passes."""
    conf = tmp_path / "slurm.conf"
    text = "ClusterName=c1\n{}GresTypes=gpu,mps\nNodeName=n1 CPUs=4 Gres=gpu:1\n"
    conf.write_text(text.format(select))
    config = tmp_path / "pool.toml"
    config.write_text(f'[pool]\nname = "c1"\n\n[priority]\noutput_compat = "{compat}"\n')
    before = config.read_text()
    result = run("import", "slurm-conf", str(conf), "--into", str(config))
    assert result.exit_code == 2
    line = 3 if select else 2
    assert result.stderr == (
        f"fs: error: {conf}:{line}: GresTypes: gres/mps needs SelectType=select/cons_tres "
        f"(SelectType is {given}): slurmctld stops on it (Use of shared gres requires the use "
        "of select/cons_tres)\n"
    )
    assert config.read_text() == before
    conf.write_text(text.format("SelectType=select/cons_tres\n"))
    result = run("import", "slurm-conf", str(conf), "--into", str(config))
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("plugins", "types", "compat", "imported"),
    [
        ("node_features/knl_generic", "GresTypes=gpu\n", "22.05", "gpu,hbm"),
        ("node_features/knl_cray", "", "22.05", "hbm"),
        ("node_features/knl_generic", "GresTypes=gpu,HBM\n", "22.05", "gpu,HBM"),
        ("node_features/knl_generic", "GresTypes=gpu\n", "current", "gpu"),
        ("node_features/helpers", "GresTypes=gpu\n", "22.05", "gpu"),
    ],
)
def test_a_knl_plugin_adds_hbm_to_gres_types_in_22_05(
    tmp_path: Path, run: Run, plugins: str, types: str, compat: str, imported: str
) -> None:
    """Slurm 22.05's ``read_config.c``: with ``knl_`` in ``NodeFeaturesPlugins`` (``xstrstr``)
    and no ``GresTypes`` name ``hbm`` in any case (``_have_hbm_token``: ``xstrcasecmp``),
    ``,hbm`` is added (``hbm`` alone where unset), so a node's ``Gres=hbm:16G`` is kept;
    25.11 dropped this ("Remove automatic setup of hbm gres for KNL"), so today's import adds
    nothing. 16G is 16 x 2^30 = 17179869184 (``_get_gres_cnt``'s ``G``); RealMemory unset: 1."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        f"ClusterName=c1\nNodeFeaturesPlugins={plugins}\n{types}"
        "NodeName=n1 CPUs=4 Gres=gpu:1,hbm:16G,HBM:1\n"
    )
    config = tmp_path / "pool.toml"
    config.write_text(f'[pool]\nname = "c1"\n\n[priority]\noutput_compat = "{compat}"\n')
    result = run("import", "slurm-conf", str(conf), "--into", str(config))
    assert result.exit_code == 0, result.stderr
    text = config.read_text()
    if imported != types.removeprefix("GresTypes=").strip():
        assert f'gres_types = "{imported}"' in text
        assert (
            f'fs: note: {conf}:2: NodeFeaturesPlugins: slurmctld adds hbm to GresTypes ("'
            f'{imported}"), as Slurm 22.05 does for a KNL plugin (KNL nodes implicitly add '
            "GRES type of hbm)\n"
        ) in result.stderr
    else:
        assert "adds hbm" not in result.stderr
        assert f'gres_types = "{imported}"' in text
    names = imported.split(",")
    gres = {"gres/gpu": 1, "gres/hbm": 17179869184, "gres/HBM": 1}
    kept = [f'"{k}" = {v}' for k, v in gres.items() if k[5:] in names]
    assert f"attributes = {{Cpus = 4, Memory = 1, {', '.join(kept)}}}" in text
