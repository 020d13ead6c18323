"""Fair Tree's normalized shares of root, and of a ``Fairshare=parent`` association under
root (core/slurm/fairshare.py).

``_normalize_assoc_shares_fair_tree`` (``assoc_mgr.c``, 22.05 and 26.05 alike) divides an
association's raw shares by its level shares; a ``Fairshare=parent`` one takes those of its
fair-share parent (the first ancestor not ``parent``: ``_set_assoc_parent_and_user``). Root
has no parent, so nothing sets its level shares and they stay ``NO_VAL`` (4294967294, as
``slurmdb_create_assoc_usage`` makes them): root, of raw shares 1, holds 1/4294967294, as the
26.05 capture's ``sshare --json`` prints it (2.3283064376228985e-10), and so does a parent
user under root. fs held 0.0 for both (the table prints 0.000000 either way).
"""

from __future__ import annotations

from fairshare_cli.core.config import AccountSpec
from fairshare_cli.core.slurm.assoc_tree import build_tree, set_usage
from fairshare_cli.core.slurm.fairshare import compute_fairshare


def test_root_and_a_parent_user_under_it_hold_one_over_no_val() -> None:
    accounts = {
        "a": AccountSpec(name="a", shares=1, users={"u1": 1}),
        "root": AccountSpec(name="root", users={"ops": "parent"}),
    }
    tree = build_tree(accounts)
    set_usage(tree, {("a", "u1"): 10.0, ("root", "ops"): 30.0})
    compute_fairshare(tree, "fair_tree")
    assert tree.root.shares_norm == 1 / 4294967294 == 2.3283064376228985e-10
    assert tree.by_key[("root", "ops")].shares_norm == 1 / 4294967294
    assert tree.by_key[("a", "u1")].shares_norm == 1.0  # (1 of a's level of 1)
