"""``fs sshare`` under Fair Tree when two accounts tie: slurmctld walks tied siblings in
its children list's order, which is lineage order, not the order the config names them.

From the source (``src/plugins/priority/multifactor/fair_tree.c``, ``_calc_tree_fs``):
siblings are sorted by level fair share (glibc's stable sort; users before accounts on a
tie), a user tied with the previous sibling keeps its rank, and an account tied with the
previous one passes the tie to its first child (``_count_tied_accounts`` never merges:
it stops at the first account). The children lists come from ``_set_assoc_parent_and_user``
over the association list, which slurmdbd sends ``order by lineage``
(``as_mysql_assoc.c``) and ``slurmdb_sort_hierarchical_assoc_list`` keeps so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
POOL = """\
[pool]
name = "ties"

[priority]
fairshare = "fair_tree"

[[machines]]
name = "n1"
attributes = { Cpus = 8 }

[partitions.batch]
default = true
"""
ZETA = "[accounts.zeta]\nusers = { z1 = 1 }\n"
ALPHA = "[accounts.alpha]\nusers = { a1 = 1, a2 = 1 }\n"
HISTORY = (
    "owner,account,start,end,cpus\n"
    "a2,alpha,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,1\n"
    "z1,zeta,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,1\n"
)


@pytest.mark.parametrize("zeta_first", [True, False], ids=["zeta-first", "alpha-first"])
def test_tied_accounts_are_walked_in_lineage_order(
    tmp_path: Path, run: Callable[..., Any], zeta_first: bool
) -> None:
    """a2 and z1 ran the same hour: alpha and zeta have one share of two and half the
    usage each, LevelFS 0.5/0.5 = 1, a tie. alpha comes first (``/root/alpha/`` before
    ``/root/zeta/``): a1 (no usage, inf) rank 3 of 3, 1.000000; a2 (0.5/1) rank 2,
    0.666667; zeta is tied, so z1, its first child, keeps rank 2: 0.666667. With zeta
    named first in the config, fs walked zeta first: z1 1.000000, a1 1.000000 (tied),
    a2 0.333333."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL + (ZETA + ALPHA if zeta_first else ALPHA + ZETA))
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(history), *common).exit_code == 0
    result = run("sshare", "-a", "-o", "Account,User,LevelFS,FairShare", *common)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Account                    User    LevelFS  FairShare ",
        "-------------------- ---------- ---------- ---------- ",
        "root                                                  ",
        " alpha                            1.000000            ",
        "  alpha                      a1        inf   1.000000 ",
        "  alpha                      a2   0.500000   0.666667 ",
        " zeta                             1.000000            ",
        "  zeta                       z1   1.000000   0.666667 ",
    ]
