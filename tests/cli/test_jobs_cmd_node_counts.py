"""``fs submit --nodes N --cpus C`` as sbatch settles ``-N N -n C`` (``_opt_verify`` in
src/sbatch/opt.c) (cli/jobs_cmd.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"


def _run(tmp_path: Path, line: str) -> tuple[int, str, str]:
    state = tmp_path / "state.json"
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = CliRunner().invoke(cli, [*line.split(), *common, "--now", NOW])
    return result.exit_code, result.stdout, result.stderr


def _job(tmp_path: Path) -> dict[str, object]:
    jobs = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))["jobs"]
    return {"num_nodes": jobs[-1].get("num_nodes"), "request_cpus": jobs[-1].get("request_cpus", 1)}


def test_fewer_cpus_than_nodes_sets_the_nodes_to_the_cpus(tmp_path: Path) -> None:
    """``fs submit --nodes 2 --cpus 1`` queued a job of 2 nodes and 1 CPU, which Slurm
    never holds, and sprio's JOBSIZE counted its 2 nodes (19 on the sample pool, where the
    job sbatch makes has 10). sbatch -N 2 -n 1 warns and sets the nodes to 1; so does fs."""
    code, out, err = _run(tmp_path, "submit --owner alice --account hep --nodes 2 --cpus 1")
    assert (code, out) == (0, "Submitted 1 job as cluster 1\n")
    assert err == "fs: warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n"
    assert _job(tmp_path) == {"num_nodes": 1, "request_cpus": 1}
    assert _run(tmp_path, "submit --owner alice --account hep --nodes 1 --cpus 1")[0] == 0
    rows = _run(tmp_path, "sprio -l")[1].splitlines()[1:]
    assert [row.split()[9] for row in rows] == ["10", "10"]  # JOBSIZE alike


def test_nodes_alone_run_a_cpu_on_each(tmp_path: Path) -> None:
    """``fs submit --nodes 2`` asked for 1 CPU (the default) on 2 nodes; sbatch -N 2 runs
    one task on each node: 2 CPUs."""
    assert _run(tmp_path, "submit --owner alice --account hep --nodes 2")[:3] == (
        0,
        "Submitted 1 job as cluster 1\n",
        "",
    )
    assert _job(tmp_path) == {"num_nodes": 2, "request_cpus": 2}


def test_nodes_past_64_bits_are_refused_naming_nodes(tmp_path: Path) -> None:
    """``fs submit --nodes 9223372036854775808`` (no --cpus: one CPU a node, so the CPUs
    take the nodes' value) was refused as ``--cpus: expected a whole number that fits in
    64 bits``, an option never typed; now the refusal names --nodes. No state is written."""
    code, out, err = _run(
        tmp_path, "submit --owner alice --account hep --nodes 9223372036854775808"
    )
    assert (code, out) == (2, "")
    assert err == (
        "fs: error: --nodes: expected a whole number that fits in 64 bits, "
        "got 9223372036854775808\n"
    )
    assert not (tmp_path / "state.json").exists()
