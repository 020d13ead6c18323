"""sshare's columns (``share_columns``, one comprehension a column) hold what the plain
row-by-row rule gives, and the table made from them is the table made from rows.

:func:`row_by_row` is the rule as sshare prints it (``src/sshare/process.c``): root shows
no RawShares or NormUsage, a ``Fairshare=parent`` row shows RawShares "parent" and no
LevelFS, Fair Tree shows FairShare on user rows only, the other algorithms on user rows
or (``account_fairshare``, Slurm 22.05) every row.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.assoc_tree import (
    FS_USE_PARENT,
    NO_VAL,
    AssocTree,
    build_tree,
    set_usage,
)
from fairshare_cli.core.slurm.fairshare import (
    ROW_KEYS,
    compute_fairshare,
    share_columns,
    share_rows,
    user_fairshare_factors,
)
from fairshare_cli.render import sshare, sshare_fields
from tests.core.slurm.test_assoc_tree import draw_accounts


def row_by_row(
    tree: AssocTree, algorithm: str, account_fairshare: bool, cluster: str
) -> list[dict[str, Any]]:
    rows = []
    for a in tree.in_lineage_order():
        root = a.parent is None
        user = a.user is not None
        parent_mode = a.shares_raw == FS_USE_PARENT
        if algorithm == "fair_tree":
            fairshare = a.fs_factor if user else None
        else:
            fairshare = a.fs_factor if user or account_fairshare else None
        rows.append(
            {
                "account": a.account,
                "account_display": " " * a.depth + a.account,
                "user": a.user,
                "id": a.id,
                "cluster": cluster,
                "partition": None,
                "raw_shares": None if root else "parent" if parent_mode else a.shares_raw,
                "norm_shares": a.shares_norm,
                "raw_usage": a.usage_raw,
                "norm_usage": None if root else a.usage_norm,
                "effective_usage": a.usage_efctv,
                "fairshare": fairshare,
                "level_fs": None if parent_mode or a.level_fs == NO_VAL else a.level_fs,
                "grp_tres_mins": None,
                "grp_tres_raw": "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0",
                "tres_run_mins": "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0",
                "depth": a.depth,
                "is_user": user,
            }
        )
    return rows


@settings(max_examples=120, deadline=None)
@given(
    data=st.data(),
    algorithm=st.sampled_from(["linear", "classic", "fair_tree", "depth_oblivious"]),
    account_fairshare=st.booleans(),
)
def test_columns_are_the_rows_row_by_row(
    data: st.DataObject, algorithm: str, account_fairshare: bool
) -> None:
    """Random trees (``parent`` shares, users in several accounts, zero usage): the same
    values as the row-by-row rule, in the same order, and the same sshare tables."""
    tree = build_tree(draw_accounts(data, min_accounts=0))
    usage = {
        (u.account, u.user): data.draw(st.sampled_from([0.0, 1.0, 12345.678, 1e9]))
        for u in tree.users
    }
    set_usage(tree, usage)
    compute_fairshare(tree, algorithm)
    expected = row_by_row(tree, algorithm, account_fairshare, "c1")
    columns = share_columns(tree, algorithm, account_fairshare=account_fairshare, cluster="c1")
    assert list(columns) == list(ROW_KEYS)
    rows = share_rows(tree, algorithm, account_fairshare=account_fairshare, cluster="c1")
    assert rows == expected
    assert [list(r) for r in rows] == [list(ROW_KEYS)] * len(rows)
    for spec in (
        sshare_fields.LONG_FAIR_TREE,
        sshare_fields.DEFAULT_FORMAT + ",Cluster,ID,Partition",
    ):
        fields = sshare_fields.parse_format(spec)
        for mode in ("table", "parsable", "parsable2"):
            assert sshare.render_columns(fields, columns, len(rows), mode=mode) == sshare.render(
                fields, expected, mode=mode
            )
    factors = user_fairshare_factors(tree, algorithm)
    names = [r["user"] for r in expected if r["is_user"]]
    for r in expected:
        if r["is_user"]:
            key = r["user"] if names.count(r["user"]) == 1 else f"{r['user']} ({r['account']})"
            assert factors[key] == r["fairshare"]


def test_a_key_the_columns_lack_is_blank() -> None:
    """``render_columns`` prints a field whose key it was not given as blanks."""
    fields = sshare_fields.parse_format("Account,GrpTRESRaw,User")
    columns = {"account_display": ["root", " a"], "user": [None, "x"]}
    rows = [{"account_display": "root", "user": None}, {"account_display": " a", "user": "x"}]
    for mode in ("table", "parsable"):
        assert sshare.render_columns(fields, columns, 2, mode=mode) == sshare.render(
            fields, rows, mode=mode
        )
