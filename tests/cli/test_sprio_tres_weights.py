"""``PriorityWeightTRES`` as Slurm reads and prints it, worked out by hand from
``slurm_get_tres_weight_array`` / ``_tres_weight_item`` (src/common/slurm_protocol_api.c:
``type[/name]=value[unit]`` items, a unit dividing the weight by 1024 per step above the
TRES's base unit, M for mem) and from sprio's print.c, whose weights row prints the
configured string itself under ``%T`` (sprio.c's ``weight_tres``, which is NULL when
unset and printed by glibc as ``(null)``) and nothing under ``%t``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
CONFIG, TAIL = SPRIO_POOL, SPRIO_ACCOUNTS
SLURM_CONF = """\
ClusterName=oracle
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityWeightTRES=CPU=1000,Mem=2G
NodeName=exec[1-2] CPUs=2 RealMemory=8192
PartitionName=batch Nodes=exec[1-2] Default=YES
"""


def _pool(tmp_path: Path, weights: str = "") -> list[str]:
    job = {"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 60480,
           "request_cpus": 2, "request_memory": 4096}  # fmt: skip
    return sprio_files(tmp_path, [job], CONFIG + weights + TAIL)


def test_sprio_w_prints_the_configured_tres_weights_string_as_written(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = _pool(tmp_path, 'tres = "CPU=1000,Mem=2G"\n')
    result = run("sprio", "-w", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "          JOBID PARTITION   PRIORITY       SITE        AGE                 TRES",
        "        Weights                               1       1000      CPU=1000,Mem=2G",
    ]


@pytest.mark.parametrize(
    "weights",
    [
        # 2048K: cpu has no base unit, K is one step: 2048 / 1024 = 2 a CPU. 8192G: mem's
        # base unit is M, G is one step above it: 8192 / 1024 = 8 a MB.
        pytest.param("CPU=2048K,Mem=8192G", id="units-divide"),
        # K is below mem's base unit (M): no division. Names match without regard to case.
        pytest.param("cpu=2,MEM=8k", id="unit-below-base"),
    ],
)
def test_a_tres_weight_with_a_unit_is_divided_by_1024_per_step_above_the_base_unit(
    tmp_path: Path, run: Callable[..., Any], weights: str
) -> None:
    """The job's 2 of the pool's 4 CPUs (0.5) weigh 0.5 x 2 = 1; its 4096 of 16384 MB
    (0.25) weigh 0.25 x 8 = 2; its AGE is 60480 / 604800 x 1000 = 100: PRIORITY 103."""
    args = _pool(tmp_path, f'tres = "{weights}"\n')
    weighted = run("sprio", "-o", "%.5i %.10Y %20T", *args)
    assert weighted.exit_code == 0, weighted.stderr
    assert weighted.stdout.splitlines()[1] == "    1        103 cpu=1,mem=2         "
    normalised = run("sprio", "-o", "%.5i %20t", *args)
    assert normalised.stdout.splitlines()[1] == "    1 cpu=0.50,mem=0.25   "


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        # sprio.c sets no TRES string: _print_str(NULL) prints glibc's "(null)" ...
        pytest.param("%.15i %.20T", "        Weights               (null)", id="right"),
        pytest.param("%i %10T|", "Weights (null)    |", id="left"),
        # ... unless a left-justified field's precision (its width) is under 6 characters.
        pytest.param("%i %5T|", "Weights      |", id="left-narrow"),
        pytest.param("%i %.3T|", "Weights (nu|", id="right-narrow-cut"),
        # The normalised letter prints nothing in the weights row.
        pytest.param("%i %10t|", "Weights           |", id="normalised"),
    ],
)
def test_sprio_w_without_tres_weights_prints_what_sprio_prints_for_a_null_string(
    tmp_path: Path, run: Callable[..., Any], fmt: str, expected: str
) -> None:
    result = run("sprio", "-w", "-h", "-o", fmt, *_pool(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected + "\n"


def test_sprio_l_w_without_tres_weights_ends_in_null(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run("sprio", "-l", "-w", "-h", *_pool(tmp_path))
    assert result.exit_code == 0, result.stderr
    # ... QOS weight 0, NICE blank (%.11N), then %.20T: "(null)" right-justified in 20.
    assert result.stdout.endswith(" 0" + " " * 12 + " " + " " * 14 + "(null)\n")


def test_sprio_w_normalised_weights_row_leaves_tres_blank(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run("sprio", "-w", "-n", "-h", *_pool(tmp_path, 'tres = "CPU=1000"\n'))
    assert result.exit_code == 0, result.stderr
    # "%.15i %9r %10y %10a %20t": Weights, blank PARTITION and PRIORITY, 1000, blank TRES.
    expected = "        Weights" + " " * 22 + "1000" + " " * 6 + " " + " " * 20 + "\n"
    assert result.stdout == expected


def test_a_tres_weight_of_zero_still_shows_the_tres_column(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """sprio.c adds ``%.20T`` to the default format when the TRES string is set, whatever
    weights it gives."""
    result = run("sprio", *_pool(tmp_path, 'tres = "CPU=0"\n'))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith("        AGE                 TRES")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param("CPU=1000,Mem=2X", "invalid unit type 'X' in \"Mem=2X\"", id="unit"),
        pytest.param("CPU", '"CPU" is an invalid TRES weight entry', id="no-value"),
        pytest.param("CPU=", '"CPU=" is an invalid TRES weight entry', id="empty-value"),
        pytest.param("CPU=1e999", 'weight "1e999" is out of range', id="range"),
    ],
)
def test_a_tres_weights_string_slurmctld_refuses_is_refused(
    tmp_path: Path, run: Callable[..., Any], value: str, message: str
) -> None:
    result = run("sprio", "-w", *_pool(tmp_path, f'tres = "{value}"\n'))
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: ")
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_import_slurm_conf_keeps_the_tres_weights_string(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(SLURM_CONF, encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert 'tres = "CPU=1000,Mem=2G"' in result.stdout.splitlines()


def test_import_slurm_conf_refuses_a_tres_weight_slurmctld_refuses(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(SLURM_CONF.replace("Mem=2G", "Mem=2Q"), encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {conf}:4: PriorityWeightTRES: invalid unit type 'Q' in \"Mem=2Q\" "
        "(possible units: K, M, G, T, P)\n"
    )


def test_import_slurm_conf_into_a_config_with_a_tres_table_names_the_table_inline(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The refusal showed the file's table as TOML lines ("cpu = 1\\n")."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightTRES=CPU=1000,Mem=2G\n", encoding="utf-8")
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[priority.weights]\nage = 5\ntres = { cpu = 1 }\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf), "--into", str(cfg))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {cfg}: priority.weights.tres is {{cpu = 1}} in the file, the import says "
        '"CPU=1000,Mem=2G"; pass --replace to overwrite it\n'
    )
    replaced = run("import", "slurm-conf", str(conf), "--into", str(cfg), "--replace")
    assert replaced.exit_code == 0, replaced.stderr
    assert 'tres = "CPU=1000,Mem=2G"' in cfg.read_text(encoding="utf-8").splitlines()


OVERFLOW = (
    "a {unit} unit on a TRES other than mem and bb is 1024^{steps}, which overflows Slurm's"
    " int (get_convert_unit_val): what slurmctld reads depends on its compiler; give the"
    " weight as a plain number\n"
)


@pytest.mark.parametrize(
    ("weights", "item", "unit", "steps"),
    [
        # get_convert_unit_val multiplies 1024s in a C int from cpu's base unit (none): T is
        # its 4th step, 2^40, a signed overflow (undefined; 22.05 and 26.05 alike). fs took
        # 2/1024^4 and printed TRES cpu=0 (gcc 12 keeps 2 at -O0; inlined at -O2, inf).
        pytest.param("CPU=2T", "CPU=2T", "T", 4, id="cpu-T"),
        pytest.param("Mem=2G,GRES/gpu=1p", "GRES/gpu=1p", "P", 5, id="gres-p"),
    ],
)
def test_a_t_or_p_unit_on_a_tres_other_than_mem_is_refused(
    tmp_path: Path, run: Callable[..., Any], weights: str, item: str, unit: str, steps: int
) -> None:
    args = _pool(tmp_path, f'tres = "{weights}"\n')
    state = (tmp_path / "state.json").read_bytes()
    result = run("sprio", "-l", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f'fs: error: {tmp_path / "pool.toml"}: priority.weights.tres: "{item}": '
        + OVERFLOW.format(unit=unit, steps=steps)
    )
    assert (tmp_path / "state.json").read_bytes() == state


def test_a_t_or_p_unit_on_mem_or_bb_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    # Mem's base unit is M: P is 3 steps (1024^3, an int's 2^30): 1099511627776P (2^40)
    # is 1024 a MB; 4096 of the partition's 16384 MB, factor 0.25 (%t), weighted 256:
    # PRIORITY 100 (age) + 256. bb's T: 2 steps, read too.
    args = _pool(tmp_path, 'tres = "Mem=1099511627776P,bb/x=1T"\n')
    result = run("sprio", "-o", "%.5i %.10Y %20t", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == ["    1        356 mem=0.25            "]


def test_import_slurm_conf_refuses_a_t_unit_on_cpu(tmp_path: Path, run: Callable[..., Any]) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text(SLURM_CONF.replace("Mem=2G", "Mem=2G,CPU=3T"), encoding="utf-8")
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[priority.weights]\nage = 5\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf), "--into", str(cfg))
    assert result.exit_code == 2
    assert result.stderr == (
        f'fs: error: {conf}:4: PriorityWeightTRES: "CPU=3T": ' + OVERFLOW.format(unit="T", steps=4)
    )
    assert cfg.read_text(encoding="utf-8") == "[priority.weights]\nage = 5\n"
