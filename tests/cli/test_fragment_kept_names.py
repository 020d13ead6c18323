"""An account tree (or a group list) merged ``--into`` a config names the config's accounts
(groups) it does not list.

A new admin runs ``fs init``, then ``fs import sacctmgr assoc.txt --into fairshare.toml``:
the starter's example accounts (physics, chemistry) stayed in the tree beside the
cluster's, without a word, and took their shares (the cluster's ``a`` of 40 shown at
NormShares 0.200000 rather than 0.400000). The merge keeps them (a listing may be partial,
or one cluster's): a note now names them. So for ``fs import condor-config`` and the
starter's groups (group_physics, group_chemistry), which kept their quotas.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

ASSOC = """Cluster|Account|User|Share|ParentName|ID
oracle|root||1||1
oracle|a||40|root|3
oracle|a|u6|5||14
oracle|d||60|root|4
oracle|d|u4|1||12
"""


def test_import_into_the_starter_names_the_accounts_it_keeps(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init`` then ``fs import sacctmgr assoc.txt --into fairshare.toml``: a note names
    physics and chemistry; ``fs sshare`` shows what they do to ``a`` (40 of 200 shares)."""
    config, assoc = tmp_path / "fairshare.toml", tmp_path / "assoc.txt"
    assoc.write_text(ASSOC, encoding="utf-8")
    assert run("init", str(config)).exit_code == 0
    res = run("import", "sacctmgr", str(assoc), "--into", str(config))
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines()[1] == (
        f"fs: note: {config} keeps 2 accounts the import does not list (chemistry, physics), "
        "which take their shares in the tree: delete from [accounts] any that are not the "
        "cluster's (such as those 'fs init' writes as examples)"
    )
    line = ["sshare", "-A", "a", "-P", "-n", "-o", "Account,NormShares"]
    shown = run(*line, "--config", str(config), "--now", "2026-11-28T18:28:39Z")
    assert shown.stdout == "a|0.200000\n", shown.stderr  # (40 of 40 + 60 + 60 + 40)


def test_import_into_a_new_config_or_again_says_nothing_more(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Into a config that holds only the listing's accounts (a new file, then the same
    listing again): the summary line alone."""
    config, assoc = tmp_path / "cluster.toml", tmp_path / "assoc.txt"
    assoc.write_text(ASSOC, encoding="utf-8")
    for _ in range(2):
        res = run("import", "sacctmgr", str(assoc), "--into", str(config))
        assert res.exit_code == 0, res.stderr
        assert len(res.stderr.splitlines()) == 1 and "fs: note" not in res.stderr


def test_condor_config_into_the_starter_names_the_groups_it_keeps(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init`` then ``fs import condor-config condor_config --into fairshare.toml
    --replace`` (the starter's uid domain differs): the pool's one group comes in, and a
    note names the two of the starter's that stay."""
    config, knobs = tmp_path / "fairshare.toml", tmp_path / "condor_config"
    knobs.write_text("GROUP_NAMES = group_ops\nGROUP_QUOTA_group_ops = 4\n", encoding="utf-8")
    assert run("init", str(config)).exit_code == 0
    res = run("import", "condor-config", str(knobs), "--into", str(config), "--replace")
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines()[-1] == (
        f"fs: note: {config} keeps 2 groups the import does not list (group_chemistry, "
        "group_physics), which take their quotas: delete from [groups] any that are not the "
        "pool's (such as those 'fs init' writes as examples)"
    )
