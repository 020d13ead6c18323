"""``fs submit`` of a Slurm job naming an account, partition or QOS the config lacks: the
error lists the names the config has, so the admin can pick one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"


@pytest.mark.parametrize(
    ("option", "said"),
    [
        pytest.param(
            ["--account", "hep"],
            'unknown account "hep" (see [accounts]: chemistry, physics)',
            id="account",
        ),
        pytest.param(
            ["--account", "physics", "--partition", "gpu"],
            'unknown partition "gpu" (see [partitions]: batch)',
            id="partition",
        ),
        pytest.param(
            ["--account", "physics", "--qos", "high"],
            'unknown QOS "high" (see [qos]: normal)',
            id="qos",
        ),
    ],
)
def test_submit_on_the_starter_config_lists_the_names_it_has(
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    option: list[str],
    said: str,
) -> None:
    """fs init, then fs submit --owner alice --account hep (fs submit --help's example):
    'unknown account "hep" (see [accounts])' named no account to use instead."""
    monkeypatch.chdir(tmp_path)
    assert run("init").exit_code == 0
    result = run("submit", "--owner", "alice", *option, "--now", NOW)
    assert result.exit_code == 2
    assert result.stderr == f"fs: error: fs submit: job 1: {said}\n"
    assert not (tmp_path / "fairshare-state.json").exists()


def test_a_long_table_is_listed_in_part(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[[str], Path]
) -> None:
    accounts = "".join(f"[accounts.a{k:02d}]\nusers = {{ alice = 1 }}\n" for k in range(12))
    config = write_config(accounts)
    state = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("submit", "--owner", "alice", "--account", "zz", *state)
    assert result.stderr == (
        'fs: error: fs submit: job 1: unknown account "zz" (see [accounts]: a00, a01, a02, '
        "a03, a04, a05, a06, a07, ... (12 in all))\n"
    )


SLURM_CONF = """\
NodeName=n01 CPUs=4
PartitionName=b Nodes=n01 Default=YES
"""


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--account", "a"], ' in account "a"'),
        (["--account", "root"], ' in account "root"'),
        (["--partition", "b"], ""),
        (["--qos", "normal"], ""),  # (Slurm's QOS a config need not list)
    ],
)
def test_submit_to_a_config_with_no_accounts_is_refused_as_sprio_refuses_it(
    tmp_path: Path, run: Callable[..., Any], option: list[str], said: str
) -> None:
    """fs import slurm-conf slurm.conf --into c.toml (no [accounts]: they come from
    sacctmgr), then fs submit --owner alice --partition b: it was queued, and every later
    fs sprio stopped on the state ('state file s.json: jobs: job 1: user "alice" has no
    association'). Now fs submit refuses it, and writes nothing."""
    (tmp_path / "slurm.conf").write_text(SLURM_CONF)
    config, state = tmp_path / "c.toml", tmp_path / "s.json"
    assert (
        run("import", "slurm-conf", str(tmp_path / "slurm.conf"), "--into", str(config)).exit_code
        == 0
    )
    where = ["--config", str(config), "--state", str(state), "--now", NOW]
    result = run("submit", "--owner", "alice", *option, *where)
    assert result.exit_code == 2
    assert result.stderr == (
        f'fs: error: fs submit: job 1: user "alice" has no association{said} (sbatch: '
        '"Invalid account or account/partition combination specified"); add it to [accounts]\n'
    )
    assert not state.exists()
    assert run("submit", "--owner", "alice", *where).exit_code == 0  # not a Slurm job
    assert run("sprio", *where).exit_code == 0
