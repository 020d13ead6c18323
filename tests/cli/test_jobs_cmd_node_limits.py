"""``fs submit`` of a Slurm job no nodes of its partitions could ever run is refused, as
sbatch refuses it; HTCondor jobs are queued whatever they ask (cli/jobs_cmd.py).

Slurm's rule (``src/slurmctld``): with ``EnforcePartLimits=NO`` (its default,
``DEFAULT_ENFORCE_PART_LIMITS 0`` in ``read_config.h``) the partition checks of
``_part_access_check`` (too many CPUs, too many nodes) do not refuse a job
(``_valid_job_part`` resets them to success); ``job_allocate`` then tests the job against
the partition's nodes, idle as they may be (``select_nodes``, ``_pick_best_nodes``: "never
runnable in partition"), and rejects ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``, which
sbatch prints as "Requested node configuration is not available".

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


@pytest.fixture
def starter(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """``fs init``'s starter pool and a fresh state: the options that name them."""
    config = tmp_path / "fairshare.toml"
    assert run("init", str(config)).exit_code == 0
    return ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("--cpus 1000", 'partition "batch" has 80 CPUs in all, the job asks for 1000'),
        ("--cpus 81", 'partition "batch" has 80 CPUs in all, the job asks for 81'),
        ("--nodes 11", 'partition "batch" has 10 nodes, the job asks for 11'),
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
    """``fs submit --cpus 1000`` (or ``--nodes 11``) by a user with an association was
    queued on the 80-CPU, 10-node pool, a job that would wait forever; sbatch refuses it.
    Now one line, exit 2, nothing written."""
    result = run("submit", *line.split(), *starter, env={"USER": "alice"})
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
    ``batch`` only, so ``batch,express`` is queued (Slurm tries each partition) and
    ``express`` alone refused; 100 CPUs on 6 nodes fit neither (batch's 6 largest: 5 × 16
    + 8 = 88), and the line names both."""
    pool = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    state = ["--state", str(tmp_path / "state.json"), "--now", NOW]
    base = ["submit", "--owner", "alice", "--account", "hep", "--nodes", "6", *pool, *state]
    express = run(*base, "--partition", "express")
    assert (express.exit_code, express.stdout) == (2, "")
    assert express.stderr == (
        f'fs: error: fs submit: job 1: partition "express" has 5 nodes, the job asks for 6 '
        f"{UNAVAILABLE}\n"
    )
    both = run(*base, "--partition", "batch,express", "--dry-run")
    assert both.exit_code == 0, both.stderr
    big = run(*base, "--partition", "batch,express", "--cpus", "100")
    assert big.exit_code == 2
    assert big.stderr == (
        'fs: error: fs submit: job 1: partition "batch" has 88 CPUs on its 6 largest nodes, '
        'the job asks for 100; partition "express" has 5 nodes, the job asks for 6 '
        f"{UNAVAILABLE}\n"
    )


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
