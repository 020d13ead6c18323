"""A Slurm job entering the state of a config without ``[qos]`` or ``[accounts]`` (the
docs' imports in another order, or a QOS sacctmgr was not asked for): ``fs sprio`` refuses
such a job (a QOS but ``normal``, an account it has no association for), so the command
that brings it in refuses it, saying what brings the table, and writes nothing; before, it
was queued and every later ``fs sprio`` stopped on the state file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
CLUSTER = """\
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 1
slots = 1
attributes = { Cpus = 4 }
partitions = ["b"]
[partitions.b]
default = true
[accounts.a]
users = { u1 = 1 }
"""


def test_submit_of_a_qos_a_config_without_qos_lacks_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs submit --owner u1 --account a --qos high on a config of no [qos] said 'Submitted
    1 job as cluster 1', and fs sprio then ended 'fs: error: state file s.json: jobs: job
    1: unknown QOS "high"' until the job was removed."""
    config, state = tmp_path / "c.toml", tmp_path / "s.json"
    config.write_text(CLUSTER)
    where = ["--config", str(config), "--state", str(state), "--now", NOW]
    result = run("submit", "--owner", "u1", "--account", "a", "--qos", "high", *where)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: fs submit: job 1: unknown QOS "high" (the config has no [qos]: fs import '
        "sacctmgr of sacctmgr show qos brings them)\n"
    )
    assert not state.exists()
    assert (
        run("submit", "--owner", "u1", "--account", "a", "--qos", "normal", *where).exit_code == 0
    )
    assert run("sprio", *where).exit_code == 0


def test_import_squeue_into_a_config_without_accounts_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import slurm-conf slurm.conf --into c.toml, then fs import squeue
    scontrol_show_jobs.txt (before fs import sacctmgr) said '12 jobs (9 pending, 3
    running) into c.json', and every fs sprio then ended 'fs: error: state file c.json:
    jobs: job 5: unknown account "b"'; now the import refuses the dump, naming the
    import that brings the associations, and writes nothing."""
    capture = REPO / "tests" / "fixtures" / "slurm-22.05"
    config, state = tmp_path / "c.toml", tmp_path / "c.json"
    conf = str(capture / "config" / "slurm.conf.fairtree")
    assert run("import", "slurm-conf", conf, "--into", str(config)).exit_code == 0
    dump = str(capture / "ft1_running" / "scontrol_show_jobs.txt")
    result = run(
        "import", "squeue", dump, "--last-decay", "2026-11-21T23:13:20Z", "--config",
        str(config), "--state", str(state), "--now", "2026-11-21T23:14:06Z",
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {dump}: job 2: user "u1" has no association in account "b" (the config '
        "has no [accounts]: fs import sacctmgr of sacctmgr show assoc brings them)\n"
    )
    assert not state.exists()


def test_submit_of_a_partition_a_config_without_partitions_lacks_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs submit --owner u1 --account a --partition gpu on a config of no [partitions]
    (accounts from sacctmgr, no slurm.conf yet) was queued, and fs sprio then ended 'state
    file s.json: jobs: job 1: unknown partition "gpu"'."""
    config, state = tmp_path / "c.toml", tmp_path / "s.json"
    config.write_text(CLUSTER.replace('partitions = ["b"]\n[partitions.b]\ndefault = true\n', ""))
    where = ["--config", str(config), "--state", str(state), "--now", NOW]
    result = run("submit", "--owner", "u1", "--account", "a", "--partition", "gpu", *where)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: fs submit: job 1: unknown partition "gpu" (the config has no [partitions]: '
        "fs import slurm-conf brings them)\n"
    )
    assert not state.exists()


def test_import_squeue_names_the_dump_when_usage_is_there(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import sacctmgr (associations, QOS) and scontrol-assoc, then fs import squeue
    before fs import slurm-conf ended 'fs: error: job 5: unknown partition "batch"' (the
    printed priorities worked out first: no file named, no way out); now the dump and the
    import that brings the partitions are named, and nothing is written."""
    run_dir = REPO / "tests" / "fixtures" / "slurm-22.05" / "ft1_running"
    config, state = tmp_path / "c.toml", tmp_path / "c.json"
    for name in ("sacctmgr_assoc_tree.txt", "sacctmgr_qos.txt"):
        result = run("import", "sacctmgr", str(run_dir / name), "--into", str(config))
        assert result.exit_code == 0, result.stderr
    where = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T23:14:06Z"]
    usage = str(run_dir / "scontrol_assoc_mgr.txt")
    last = ["--last-decay", "2026-11-21T23:13:20Z"]
    assert run("import", "scontrol-assoc", usage, *last, *where).exit_code == 0
    before = state.read_bytes()
    dump = str(run_dir / "scontrol_show_jobs.txt")
    result = run("import", "squeue", dump, *last, *where)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {dump}: job 2: unknown partition "batch" (the config has no '
        "[partitions]: fs import slurm-conf brings them)\n"
    )
    assert state.read_bytes() == before


def test_sprio_of_a_config_without_partitions_says_what_brings_them(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs submit --owner u1 (no partition named) on a config of [accounts] alone, then
    fs sprio: 'job 1: no partition given and no default partition is configured', and
    no word of the import that brings the partitions."""
    config, state = tmp_path / "c.toml", tmp_path / "s.json"
    config.write_text('[pool]\ndefaults = "current"\n[accounts.a]\nusers = { u1 = 1 }\n')
    where = ["--config", str(config), "--state", str(state), "--now", NOW]
    assert run("submit", "--owner", "u1", *where).exit_code == 0
    result = run("sprio", *where)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: state file {state}: jobs: job 1: no partition given and no default "
        "partition is configured (the config has no [partitions]: fs import slurm-conf "
        "brings them)\n"
    )
