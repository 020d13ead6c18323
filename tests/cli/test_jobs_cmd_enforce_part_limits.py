"""``fs submit`` under ``priority.enforce_part_limits`` (slurm.conf's ``EnforcePartLimits``).

Slurm's rule (``src/slurmctld/job_mgr.c``, 22.05 and today alike): ``_valid_job_part``
runs ``_part_access_check`` on each of the job's partitions, which returns, first found,
``ESLURM_TOO_MANY_REQUESTED_CPUS`` (more CPUs than the partition has: squeue's
``PartitionConfig``), ``ESLURM_INVALID_NODE_COUNT`` (more nodes than it has, or a node
count outside ``MinNodes``..``MaxNodes``: ``PartitionNodeLimit``) or
``ESLURM_INVALID_TIME_LIMIT`` (above ``MaxTime``: ``PartitionTimeLimit``). With ``NO`` these
are reset to success; with ``ALL`` the first partition that fails refuses the job
(``list_for_each`` stops there); with ``ANY`` (``YES`` is ``ANY``: ``parse_part_enforce_type``)
the job is refused only when every partition fails, with the last one's error (each failure
overwrites ``rc``). Today's slurmctld walks the partitions highest ``PriorityTier`` first
(``get_part_list`` sorts them), 22.05's as the job names them. sbatch prints the error's
text (``slurm_errno.c``): "More processors requested than permitted", "Node count
specification invalid", "Requested time limit is invalid (missing or exceeds some limit)".

The numbers, by hand, from ``sample_configs/pool.toml``: partition ``batch`` is 50 nodes of
8 CPUs and 5 of 16 (55 nodes, 50 x 8 + 5 x 16 = 480 CPUs), ``MaxTime`` 1 day; ``express``
the 5 nodes of 16 (80 CPUs), ``MaxTime`` 2 hours.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T09:00:00Z"
TIME = "Requested time limit is invalid (missing or exceeds some limit)"
CPUS = "More processors requested than permitted"
NODES = "Node count specification invalid"
EXPRESS_TIME = (
    'PartitionTimeLimit (partition "express": MaxTime 02:00:00, the job asks for 03:00:00)'
)
EXPRESS_CPUS = 'PartitionConfig (partition "express": 80 CPUs in all, the job asks for 100)'


def _options(tmp_path: Path, enforce: str, extra: str = "") -> list[str]:
    text = (REPO / "sample_configs" / "pool.toml").read_text(encoding="utf-8")
    knob = f'[priority]\nenforce_part_limits = "{enforce}"\n{extra}'
    (tmp_path / "pool.toml").write_text(text.replace("[priority]\n", knob, 1), encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
            "--now", NOW]  # fmt: skip


def _submit(run: Callable[..., Any], line: str, options: list[str]) -> Any:
    return run("submit", "--owner", "alice", "--account", "hep", *line.split(), *options)


@pytest.mark.parametrize(
    ("enforce", "line", "refusal"),
    [
        # one partition: any enforcement refuses on its limits
        ("ALL", "--partition express --time-limit 3:00:00", f"{EXPRESS_TIME}: refused, "
         f'EnforcePartLimits=ALL (sbatch: "{TIME}")'),
        ("ANY", "--partition express --time-limit 3:00:00", f"{EXPRESS_TIME}: refused, "
         f'EnforcePartLimits=ANY (sbatch: "{TIME}")'),
        # CPUs are checked before the time limit: 100 > 80 comes first
        ("ANY", "--partition express --cpus 100 --time-limit 3:00:00", f"{EXPRESS_CPUS}: "
         f'refused, EnforcePartLimits=ANY (sbatch: "{CPUS}")'),
        # ALL: batch passes (480 CPUs, 1 day), express does not
        ("ALL", "--partition batch,express --cpus 100", f"{EXPRESS_CPUS}: refused, "
         f'EnforcePartLimits=ALL (sbatch: "{CPUS}")'),
        # ANY: 60 nodes is more than batch's 55 and express's 5: the last one's error
        ("ANY", "--partition batch,express --nodes 60", 'PartitionNodeLimit (partition '
         '"batch": 55 nodes in all, the job asks for 60); PartitionNodeLimit (partition '
         '"express": 5 nodes in all, the job asks for 60): refused, EnforcePartLimits=ANY '
         f'(sbatch: "{NODES}")'),
    ],
)  # fmt: skip
def test_a_job_the_limits_refuse_is_refused_in_sbatch_words(
    tmp_path: Path, run: Callable[..., Any], enforce: str, line: str, refusal: str
) -> None:
    result = _submit(run, line, _options(tmp_path, enforce))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: fs submit: job 1: {refusal}\n"
    assert not (tmp_path / "state.json").exists()  # nothing written


@pytest.mark.parametrize(
    "line",
    ["--partition batch,express --time-limit 3:00:00", "--partition batch,express --cpus 100"],
)
def test_any_queues_a_job_one_partition_allows(
    tmp_path: Path, run: Callable[..., Any], line: str
) -> None:
    """Batch allows both (3 hours under its day, 100 CPUs under its 480): ANY queues the
    job, as NO does, and it does not pend for express's limits (it may run in batch)."""
    for enforce in ("ANY", "YES", "NO"):
        (tmp_path / "state.json").unlink(missing_ok=True)
        result = _submit(run, line, _options(tmp_path, enforce))
        assert (result.exit_code, result.stdout, result.stderr) == (
            0,
            "Submitted 1 job as cluster 1\n",
            "",
        )


def test_no_queues_what_all_refuses_and_says_it_pends(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """With NO (the default) the express-only job asking 3 hours is queued and pends on
    ``PartitionTimeLimit``, as before."""
    result = _submit(run, "--partition express --time-limit 3:00:00", _options(tmp_path, "NO"))
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert result.stderr == f"fs: warning: job 1 will pend, never started: {EXPRESS_TIME}\n"


def test_partitions_are_checked_by_tier_today_and_as_named_by_2205(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Express at ``PriorityTier`` 2, a job of batch,express asking 100 CPUs for 25 hours:
    batch fails on its time limit (25 h > 1 day; its 480 CPUs are enough), express on its
    CPUs (100 > 80). ANY refuses with the last failure: today's list is express, batch
    (by tier): the time limit's error; 22.05's is batch, express (as named): the CPUs'."""
    line = "--partition batch,express --cpus 100 --time-limit 1-1:00:00"
    batch = (
        'PartitionTimeLimit (partition "batch": MaxTime 1-00:00:00, the job asks for 1-01:00:00)'
    )
    tier = "[partitions.express]\npriority_tier = 2\n"
    options = _options(tmp_path, "ANY")
    config = Path(options[1])
    config.write_text(config.read_text().replace("[partitions.express]\n", tier), encoding="utf-8")
    today = _submit(run, line, options)
    assert today.stderr == (
        f"fs: error: fs submit: job 1: {EXPRESS_CPUS}; {batch}: refused, "
        f'EnforcePartLimits=ANY (sbatch: "{TIME}")\n'
    )
    config.write_text(
        config.read_text().replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n'),
        encoding="utf-8",
    )
    old = _submit(run, line, options)
    assert old.stderr == (
        f"fs: error: fs submit: job 1: {batch}; {EXPRESS_CPUS}: refused, "
        f'EnforcePartLimits=ANY (sbatch: "{CPUS}")\n'
    )


def test_a_bad_word_is_refused_and_yes_is_any(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``parse_part_enforce_type`` takes yes/up/true/1/any (ANY), no/down/false/0 (NO) and
    all (ALL), in any case; slurmctld will not start on another word."""
    bad = run("config", "check", *_options(tmp_path, "maybe")[:2])
    assert bad.exit_code == 2
    assert bad.stderr.endswith(
        'priority.enforce_part_limits: Bad EnforcePartLimits "maybe" '
        '(expected "NO", "ANY" or "ALL"; "YES" is "ANY")\n'
    )
    good = run("config", "check", *_options(tmp_path, "Yes")[:2])
    assert 'priority.enforce_part_limits = "ANY"' in good.stdout


def test_import_slurm_conf_reads_enforce_part_limits(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("EnforcePartLimits=yes\n", encoding="utf-8")
    result = run("import", "slurm-conf", str(conf))
    assert (result.exit_code, result.stdout) == (0, '[priority]\nenforce_part_limits = "ANY"\n')
    conf.write_text("EnforcePartLimits=some\n", encoding="utf-8")
    bad = run("import", "slurm-conf", str(conf))
    assert (bad.exit_code, bad.stdout) == (2, "")
    assert bad.stderr == (
        f'fs: error: {conf}:1: Bad EnforcePartLimits: "some" (expected NO, ANY, ALL or YES)\n'
    )


@pytest.mark.parametrize("zero", ["0", "0:0", "0-0"])
def test_a_time_limit_of_0_is_no_limit_as_sbatch_reads_it(
    tmp_path: Path, run: Callable[..., Any], zero: str
) -> None:
    """``fs submit --partition express --time-limit 0`` under ANY queued the job with a
    limit of 0 seconds, inside express's 2 hours; sbatch's ``arg_set_time_limit``
    (``src/common/slurm_opt.c``) makes a ``--time`` that ``time_str2mins`` reads as 0
    INFINITE, above any MaxTime: refused, as ``--time-limit INFINITE`` is."""
    line = f"--partition express --time-limit {zero}"
    result = _submit(run, line, _options(tmp_path, "ANY"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: fs submit: job 1: PartitionTimeLimit (partition "express": MaxTime '
        "02:00:00, the job asks for UNLIMITED): refused, EnforcePartLimits=ANY "
        f'(sbatch: "{TIME}")\n'
    )
    # one second is one minute to time_str2mins (rounded up), not 0: the job is queued
    kept = _submit(run, "--partition express --time-limit 0:1", _options(tmp_path, "ANY"))
    assert (kept.exit_code, kept.stdout) == (0, "Submitted 1 job as cluster 1\n")
