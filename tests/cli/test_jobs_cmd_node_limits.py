"""``fs submit`` of a Slurm job no nodes of its partitions could ever run is refused, as
sbatch refuses it; HTCondor jobs are queued whatever they ask (cli/jobs_cmd.py).

Slurm's rule (``src/slurmctld``): with ``EnforcePartLimits=NO`` (its default,
``DEFAULT_ENFORCE_PART_LIMITS 0`` in ``read_config.h``) the partition checks of
``_part_access_check`` (too many CPUs, too many nodes, a node count outside
``MinNodes``..``MaxNodes``) do not refuse a job (``_valid_job_part`` resets them to
success). ``job_allocate`` then tests the job against the partition's nodes, idle as they
may be (``select_nodes``, ``_pick_best_nodes``: "never runnable in partition"), and rejects
``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``, which sbatch prints as "Requested node
configuration is not available" -- except where ``job_limits_check`` holds the job back:
today (``_select_nodes_base``; SchedMD's "Fix allowing job submissions when
EnforcePartLimits=NO and the requested minimum number of nodes exceeds the total nodes",
25.11.2, after the same fix for too many CPUs, 25.11.0) the job is then queued untested
and pends (``PartitionNodeLimit``, ``PartitionConfig``); Slurm 22.05 tests it anyway, and
only ``MaxNodes``/``MinNodes`` stop that test first (``get_node_cnts``: most nodes below
least, ``ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE``, a job left queued).

The numbers, by hand: ``fs init``'s starter pool is 10 nodes ``exec001``..``exec010`` of
8 slots of 1 CPU each, all in partition ``batch`` (the default): 10 nodes, 80 CPUs, 8 a
node. ``alice`` has an association (account ``physics``); ``condoruser`` has none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

NOW = "2026-11-21T11:45:00Z"
UNAVAILABLE = '(sbatch: "Requested node configuration is not available")'
DRY_RUN = "(dry run, nothing written) Submitted 1 job as cluster 1\n"


@pytest.fixture
def starter(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """``fs init``'s starter pool and a fresh state: the options that name them."""
    config = tmp_path / "fairshare.toml"
    assert run("init", str(config)).exit_code == 0
    return ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]


def _as_22_05(options: list[str]) -> list[str]:
    """The starter pool read as Slurm 22.05 (``priority.output_compat``)."""
    config = Path(options[1])
    text = config.read_text().replace("[priority]", '[priority]\noutput_compat = "22.05"', 1)
    config.write_text(text)
    return options


HELD_TODAY = [
    ("--cpus 1000", "PartitionConfig (partition \"batch\": 80 CPUs in all, the job asks for 1000)",
     'has 80 CPUs in all, the job asks for 1000'),
    ("--cpus 81", "PartitionConfig (partition \"batch\": 80 CPUs in all, the job asks for 81)",
     'has 80 CPUs in all, the job asks for 81'),
    ("--nodes 11", "PartitionNodeLimit (partition \"batch\": 10 nodes in all, the job asks for 11)",
     'has 10 nodes, the job asks for 11'),
]  # fmt: skip


@pytest.mark.parametrize(("line", "held", "refused"), HELD_TODAY)
def test_a_job_beyond_the_partition_pends_today_and_was_refused_by_22_05(
    tmp_path: Path, run: Callable[..., Any], starter: list[str], line: str, held: str, refused: str
) -> None:
    """More CPUs (or nodes) than the 80-CPU, 10-node partition has: today's slurmctld
    queues the job untested, pending on the reason ``job_limits_check`` gives (squeue's
    ``PartitionConfig``, ``PartitionNodeLimit``); fs refused it as 22.05 does, and still
    does with ``output_compat = "22.05"``."""
    today = run("submit", *line.split(), *starter, env={"USER": "alice"})
    assert (today.exit_code, today.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert today.stderr == f"fs: warning: job 1 will pend, never started: {held}\n"
    (tmp_path / "state.json").unlink()
    old = run("submit", *line.split(), *_as_22_05(starter), env={"USER": "alice"})
    assert (old.exit_code, old.stdout) == (2, "")
    assert old.stderr == (
        f'fs: error: fs submit: job 1: partition "batch" {refused} {UNAVAILABLE}\n'
    )
    assert not (tmp_path / "state.json").exists()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            "--nodes 2 --cpus 17",
            'partition "batch" has 16 CPUs on its 2 largest nodes, the job asks for 17',
        ),
        (
            "--nodes 1 --cpus 16",
            'partition "batch" has 8 CPUs on its largest node, the job asks for 16',
        ),
        (
            "--nodes 1 --cpus 9",
            'partition "batch" has 8 CPUs on its largest node, the job asks for 9',
        ),
    ],
)
def test_a_slurm_job_that_never_fits_is_refused(
    tmp_path: Path, run: Callable[..., Any], starter: list[str], line: str, reason: str
) -> None:
    """Within the partition's totals but on no set of its nodes: sbatch refuses it (today
    and in 22.05). One line, exit 2, nothing written."""
    for options in (starter, _as_22_05(list(starter))):
        result = run("submit", *line.split(), *options, env={"USER": "alice"})
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == f"fs: error: fs submit: job 1: {reason} {UNAVAILABLE}\n"
        assert not (tmp_path / "state.json").exists()


@pytest.mark.parametrize(
    "line", ["--cpus 80", "--nodes 10", "--nodes 2 --cpus 16", "--cpus 16", "--nodes 1 --cpus 8"]
)
def test_a_slurm_job_that_fits_all_the_nodes_is_queued(
    run: Callable[..., Any], starter: list[str], line: str
) -> None:
    """80 or 16 CPUs (one a task, spread over the nodes as sbatch without ``-N`` does), all
    10 nodes, 16 CPUs on 2 nodes of 8, or 8 CPUs on 1: each fits the idle partition."""
    result = run("submit", "--owner", "alice", *line.split(), *starter)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Submitted 1 job as cluster 1\n"


def test_an_htcondor_job_is_queued_whatever_it_asks(
    run: Callable[..., Any], starter: list[str]
) -> None:
    """A job whose owner has no association and that names no account, partition nor QOS
    is HTCondor's: condor_submit queues any request (the job just never matches)."""
    result = run("submit", "--cpus", "1000", "--nodes", "11", *starter, env={"USER": "condoruser"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Submitted 1 job as cluster 1\n"


def test_a_job_of_several_partitions_needs_to_fit_one(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The sample pool: ``express`` holds the 5 bigmem nodes (4 slots of 4 CPUs: 16 CPUs
    each), ``batch`` those and the 50 exec nodes (8 CPUs each): 55 nodes. Six nodes fit
    ``batch`` only, so ``batch,express`` is queued (Slurm tries each partition); ``express``
    alone pends today (``PartitionNodeLimit``: 5 nodes) and was refused by 22.05. 100 CPUs
    on 6 nodes fit neither (batch's 6 largest: 5 × 16 + 8 = 88): refused, naming batch,
    the one partition tested today, and both in 22.05 (express tested too, and last)."""
    pool = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    state = ["--state", str(tmp_path / "state.json"), "--now", NOW, "--dry-run"]
    base = ["submit", "--owner", "alice", "--account", "hep", "--nodes", "6", *pool, *state]
    express = run(*base, "--partition", "express")
    assert (express.exit_code, express.stdout) == (0, DRY_RUN)
    assert express.stderr == (
        "fs: warning: job 1 will pend, never started: PartitionNodeLimit "
        '(partition "express": 5 nodes in all, the job asks for 6)\n'
    )
    both = run(*base, "--partition", "batch,express")
    assert (both.exit_code, both.stderr) == (0, "")
    big = run(*base, "--partition", "batch,express", "--cpus", "100")
    assert big.exit_code == 2
    batch = 'partition "batch" has 88 CPUs on its 6 largest nodes, the job asks for 100'
    assert big.stderr == f"fs: error: fs submit: job 1: {batch} {UNAVAILABLE}\n"
    old = tmp_path / "pool.toml"
    text = (REPO / "sample_configs" / "pool.toml").read_text()
    old.write_text(text.replace("[priority]", '[priority]\noutput_compat = "22.05"', 1))
    base[base.index(pool[1])] = str(old)
    express = run(*base, "--partition", "express")
    assert (express.exit_code, express.stdout) == (2, "")
    express_has = 'partition "express" has 5 nodes, the job asks for 6'
    assert express.stderr == f"fs: error: fs submit: job 1: {express_has} {UNAVAILABLE}\n"
    big = run(*base, "--partition", "batch,express", "--cpus", "100")
    assert big.stderr == f"fs: error: fs submit: job 1: {batch}; {express_has} {UNAVAILABLE}\n"


def test_one_node_given_is_not_one_node_left_out(
    tmp_path: Path, run: Callable[..., Any], starter: list[str]
) -> None:
    """``sbatch -N 1 -n 16`` on 8-CPU nodes is refused: ``-N 1`` sets the job's least and
    most nodes to 1 (``verify_node_count`` in ``src/common/proc_args.c``), and no node holds
    16 CPUs. Without ``-N`` the most is unset (``max_nodes`` 0 in ``job_mgr.c``): 16 CPUs
    spread over two nodes. fs took both (a job's node count was 1 either way); now the job
    records a count given (the state writes ``"num_nodes": 1``) apart from none (left out,
    as every state written before holds it), a jobs file's ``"num_nodes": 1`` as ``--nodes
    1``. Both ask at least one node, so their priority factors are the same."""
    refused = run("submit", "--owner", "alice", "--nodes", "1", "--cpus", "16", *starter)
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (
        'fs: error: fs submit: job 1: partition "batch" has 8 CPUs on its largest node, the '
        f"job asks for 16 {UNAVAILABLE}\n"
    )
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[{"owner": "alice", "num_nodes": 1, "request_cpus": 16}]\n')
    from_file = run("submit", "--file", str(jobs), *starter)
    assert from_file.exit_code == 2
    assert from_file.stderr == refused.stderr.replace("fs submit:", f"{jobs}:")
    state = tmp_path / "state.json"
    assert not state.exists()
    for line in ("--cpus 16", "--nodes 1 --cpus 8", "--cpus 8"):
        assert run("submit", "--owner", "alice", *line.split(), *starter).exit_code == 0
    queued = json.loads(state.read_text())["jobs"]
    assert [job.get("num_nodes") for job in queued] == [None, 1, None]
    sprio = run("sprio", "-o", "%.6i %.10J %.10Y", *starter).stdout.splitlines()
    assert sprio[2].split()[1:] == sprio[3].split()[1:]  # (job 2's factors are job 3's)


def _limits(options: list[str], compat: str = "current") -> list[str]:
    """The starter's partition ``batch`` with ``MaxNodes=4 MinNodes=2``."""
    config = Path(options[1])
    text = config.read_text().replace(
        "[partitions.batch]", "[partitions.batch]\nmax_nodes = 4\nmin_nodes = 2", 1
    )
    config.write_text(text.replace("[priority]", f'[priority]\noutput_compat = "{compat}"', 1))
    return options


@pytest.mark.parametrize("compat", ["current", "22.05"])
@pytest.mark.parametrize(
    ("line", "held"),
    [
        ("--nodes 5", "MaxNodes 4, the job asks for 5 nodes"),
        ("--nodes 1", "MinNodes 2, the job asks for 1 node"),
        ("--nodes 1 --cpus 9", "MinNodes 2, the job asks for 1 node"),
        ("--nodes 2", None),
        ("--nodes 4 --cpus 32", None),
        ("--cpus 4", None),  # (no -N: at least MinNodes, no most)
    ],
)
def test_a_node_count_outside_max_and_min_nodes_pends(
    run: Callable[..., Any], starter: list[str], compat: str, line: str, held: str | None
) -> None:
    """``MaxNodes=4 MinNodes=2`` on the 10-node partition: ``-N 5`` or ``-N 1`` is queued
    (``EnforcePartLimits=NO``) and pends on ``PartitionNodeLimit`` (``_qos_part_check``:
    1 < 2, 5 > 4), untested against the nodes today and stopped before that test in 22.05
    (``get_node_cnts``: most nodes min(5, 4) = 4 below least 5; min(1, ...) = 1 below
    max(1, 2) = 2): ``-N 1`` of 9 CPUs, which no 8-CPU node holds, is queued too.
    ``-N 2``, ``-N 4`` of 32 CPUs (4 × 8) and a job without ``-N`` are within the limits."""
    result = run("submit", "--owner", "alice", *line.split(), *_limits(starter, compat))
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    want = "" if held is None else (
        "fs: warning: job 1 will pend, never started: PartitionNodeLimit "
        f'(partition "batch": {held})\n'
    )  # fmt: skip
    assert result.stderr == want


def test_within_the_limits_a_job_no_nodes_hold_is_refused(
    run: Callable[..., Any], starter: list[str]
) -> None:
    """``-N 2`` of 17 CPUs passes ``MaxNodes=4 MinNodes=2`` and is tested against the
    nodes: two 8-CPU nodes hold 16, so sbatch refuses it."""
    result = run("submit", "--owner", "alice", "--nodes", "2", "--cpus", "17", *_limits(starter))
    assert result.exit_code == 2
    assert result.stderr == (
        'fs: error: fs submit: job 1: partition "batch" has 16 CPUs on its 2 largest nodes, '
        f"the job asks for 17 {UNAVAILABLE}\n"
    )


def test_a_partition_of_no_nodes(run: Callable[..., Any], starter: list[str]) -> None:
    """A partition no ``[[machines]]`` entry is in: today's slurmctld queues a job sent
    there (``_part_access_check``: 1 CPU asked of 0, ``PartitionConfig``; SchedMD's "Fix
    allowing job submission to empty partitions when EnforcePartLimits=NO", 25.11.0);
    22.05 tests it against no nodes and refuses it."""
    config = Path(starter[1])
    config.write_text(config.read_text() + "\n[partitions.empty]\n")
    line = ["submit", "--owner", "alice", "--partition", "empty", "--dry-run"]
    today = run(*line, *starter)
    assert (today.exit_code, today.stderr) == (
        0,
        "fs: warning: job 1 will pend, never started: PartitionConfig "
        '(partition "empty": 0 CPUs in all, the job asks for 1)\n',
    )
    old = run(*line, *_as_22_05(starter))
    assert (old.exit_code, old.stdout) == (2, "")
    assert old.stderr == (
        'fs: error: fs submit: job 1: partition "empty" has 0 CPUs in all, the job asks for 1 '
        f"{UNAVAILABLE}\n"
    )


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_a_time_limit_above_max_time_pends_and_is_still_tested(
    run: Callable[..., Any], starter: list[str], compat: str
) -> None:
    """``MaxTime=1:00:00``: a job of 2 hours is queued and pends (``_part_access_check``:
    ``ESLURM_INVALID_TIME_LIMIT``, squeue's ``PartitionTimeLimit``); unlike a node or CPU
    limit, it does not spare the job the node test (``_select_nodes_base`` tests the nodes
    for any reason but ``PartitionConfig`` and ``PartitionNodeLimit``; 22.05 for all): one
    node of 9 CPUs is still refused. One hour exactly is within the limit."""
    config = Path(starter[1])
    text = config.read_text().replace(
        "[partitions.batch]", '[partitions.batch]\nmax_time = "1:00:00"'
    )
    config.write_text(text.replace("[priority]", f'[priority]\noutput_compat = "{compat}"', 1))
    line = ["submit", "--owner", "alice", "--dry-run", *starter]
    late = run(*line, "--time-limit", "2:00:00")
    assert (late.exit_code, late.stderr) == (
        0,
        "fs: warning: job 1 will pend, never started: PartitionTimeLimit "
        '(partition "batch": MaxTime 01:00:00, the job asks for 02:00:00)\n',
    )
    assert run(*line, "--time-limit", "1:00:00").stderr == ""
    big = run(*line, "--time-limit", "2:00:00", "--nodes", "1", "--cpus", "9")
    assert big.exit_code == 2
    assert big.stderr == (
        'fs: error: fs submit: job 1: partition "batch" has 8 CPUs on its largest node, the '
        f"job asks for 9 {UNAVAILABLE}\n"
    )
