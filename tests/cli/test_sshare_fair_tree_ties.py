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


PARENTS = """
[accounts.acc]
shares = 1
users = { p = "parent", z = 0, u = 1 }

[accounts.acc2]
shares = 1
users = { w = 1 }

[accounts.sub]
parent = "acc"
shares = "parent"
users = { s = 1 }
"""
PARENTS_HISTORY = "owner,account,start,end,cpus\n" + "".join(
    f"{user},{account},2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,{cpus}\n"
    for user, account, cpus in [("p", "acc", 1), ("z", "acc", 2), ("u", "acc", 1),
                                ("w", "acc2", 1), ("s", "sub", 1)]
)  # fmt: skip


def test_parent_shares_and_zero_shares_rank_as_fair_tree_ranks_them(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``Fairshare=parent`` and 0 shares, from assoc_mgr.c and fair_tree.c (22.05 and
    26.05.3 alike). p, u, s and w ran one CPU-hour each (RawUsage 3577 once decayed), z
    two. sub (parent) and p (parent) hang off acc's children list (``_find_assoc_parent``:
    their fs parent is acc), and so does s, whose direct parent is sub: acc's list is p, z,
    u, sub, s, its level shares z 0 + u 1 + s 1 = 2 (a parent one adds its own children's,
    none: ``_get_children_level_shares``). NormShares: u, s 1/2; p and sub take acc's,
    1/2; z 0. EffectvUsage is usage over acc's, 17885: 0.2 each, z 0.4. LevelFS S/U: u
    and s 2.5, z 0 (S = 0), p inf and sub NO_VAL, both printed blank. At root acc2 (0.5 /
    0.166667 = 3) comes before acc (0.5 / 0.833333 = 0.6). Ranks of 5 users: w 5 (1.0);
    in acc p (inf) 4 (0.8), then sub (NO_VAL: no children left to rank), then u 3 (0.6)
    and s tied with it (0.6), then z 1 (0.2)."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL + PARENTS)
    history = tmp_path / "h.csv"
    history.write_text(PARENTS_HISTORY)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(history), *common).exit_code == 0
    fields = "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,LevelFS,FairShare"
    result = run("sshare", "-a", "-P", "-o", fields, *common)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|LevelFS|FairShare",
        "root|||0.000000|21463|1.000000||",
        " acc||1|0.500000|17885|0.833333|0.600000|",
        "  acc|p|parent|0.500000|3577|0.200000||0.800000",
        "  acc|u|1|0.500000|3577|0.200000|2.500000|0.600000",
        "  acc|z|0|0.000000|7154|0.400000|0.000000|0.200000",
        "  sub||parent|0.500000|3577|0.200000||",
        "   sub|s|1|0.500000|3577|0.200000|2.500000|0.600000",
        " acc2||1|0.500000|3577|0.166667|3.000000|",
        "  acc2|w|1|1.000000|3577|1.000000|1.000000|1.000000",
    ]
