"""Slurm's four fair-share algorithms over the association tree, and sshare's rows.

Mirrors ``priority_multifactor.c`` (classic and depth-oblivious effective usage, the
``2^(-UE/S)`` factor) and ``fair_tree.c`` (level fair share and the depth-first ranking);
``linear`` is the Slurm 2.0 formula ``F = (S - UE + 1) / 2``. The tree itself (parents,
shares, usage) is :mod:`fairshare_cli.core.slurm.assoc_tree`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from fairshare_cli.core.slurm.assoc_tree import FS_USE_PARENT, NO_VAL, Assoc, AssocTree, fs_assoc
from fairshare_cli.core.slurm.billing import STANDARD_TRES

ALGORITHMS = ("linear", "classic", "fair_tree", "depth_oblivious")
#: The algorithms whose accounts' usage comes from the start of the decay pass
#: (``_set_children_usage_efctv`` in ``_decay_thread``): Slurm's ``NO_FAIR_TREE`` ones.
#: ``linear`` is Slurm 2.0's documented formula, over the usage as it stands.
STALE_ACCOUNT_USAGE = ("classic", "depth_oblivious")


def compute_fairshare(
    tree: AssocTree,
    algorithm: str,
    *,
    dampening_factor: int = 1,
    capacity: float | None = None,
    pass_usage: list[float] | None = None,
) -> None:
    """Fill normalised shares and usage, effective usage, factors and level fair share.

    ``capacity``, when given, normalises usage as Slurm 2.0 did
    (``usage / (cluster CPUs x half-life x 2)``); otherwise usage / root usage.
    ``pass_usage``, each association's raw usage (in ``tree.assocs`` order) in the
    proportions of the usage the decay pass started from: with an algorithm of
    :data:`STALE_ACCOUNT_USAGE`, accounts' normalised usage is their share of root's in
    it (``_set_children_usage_efctv`` runs before the pass decays and charges), users'
    comes from their ``usage_raw`` (``priority_p_set_assoc_usage`` when a job or sshare
    needs it, after the pass). Not with ``capacity``.

    Raises:
        ValueError: an unknown algorithm name.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown fair-share algorithm {algorithm!r}")
    root = tree.root
    denom = capacity if capacity is not None else root.usage_raw
    for a in tree.assocs:
        if denom:
            norm = a.usage_raw / denom
            a.usage_norm = 1.0 if norm > 1.0 else norm  # min(norm, 1.0), without the call
        else:
            a.usage_norm = 0.0
        a.fs_factor = None
    if pass_usage is not None and capacity is None and algorithm in STALE_ACCOUNT_USAGE:
        _account_norms(tree, pass_usage)
    if algorithm == "fair_tree":
        _fair_tree(tree)
    else:
        _classic(tree, algorithm, dampening_factor)


def _account_norms(tree: AssocTree, pass_usage: list[float]) -> None:
    """Accounts' share of root's usage in ``pass_usage`` (``set_assoc_usage_norm``)."""
    denom = pass_usage[0]  # root comes first
    for a, before in zip(tree.assocs, pass_usage, strict=True):
        if a.user is None and a.parent is not None:
            norm = before / denom if denom else 0.0
            a.usage_norm = 1.0 if norm > 1.0 else norm


def classic_factor(usage_efctv: float, shares_norm: float, dampening_factor: int = 1) -> float:
    """``priority_p_calc_fs_factor``: ``2^(-(UE/S)/damp)``, 0 when S <= 0."""
    if shares_norm <= 0:
        return 0.0
    return float(2.0 ** (-(usage_efctv / shares_norm) / dampening_factor))


def linear_factor(usage_efctv: float, shares_norm: float) -> float:
    """Slurm 2.0's fair-share factor ``F = (S - UE + 1) / 2``."""
    return (shares_norm - usage_efctv + 1.0) / 2.0


def _classic(tree: AssocTree, algorithm: str, damp: int) -> None:
    """Classic, linear and depth-oblivious normalised shares and effective usage."""
    root = tree.root
    root.shares_norm = 1.0
    root.usage_efctv = 1.0
    chain = _chained_shares(tree)
    for a in tree.assocs:
        if a.parent is None:
            continue
        fs = a.fs_parent
        assert fs is not None
        a.shares_norm = fs.shares_norm if a.is_parent_mode else chain[id(a)]
        a.usage_efctv = _classic_ue(a, fs, root, algorithm)
    for a in tree.assocs:
        if algorithm == "linear":
            a.fs_factor = linear_factor(a.usage_efctv, a.shares_norm)
        else:
            a.fs_factor = classic_factor(a.usage_efctv, a.shares_norm, damp)
        a.level_fs = 0.0


def renormalise_user(tree: AssocTree, a: Assoc, usage_norm: float, damp: int = 1) -> None:
    """Classic fair share of user association ``a`` from a normalised usage of its own
    (``priority_p_set_assoc_usage`` run mid-pass: :func:`~fairshare_cli.core.slurm.
    tree_usage.evaluate`): its effective usage from its parent's and its factor."""
    fs = a.fs_parent
    assert fs is not None
    a.usage_norm = usage_norm
    a.usage_efctv = _classic_ue(a, fs, tree.root, "classic")
    a.fs_factor = classic_factor(a.usage_efctv, a.shares_norm, damp)


def _chained_shares(tree: AssocTree) -> dict[int, float]:
    """Each association's share of the whole machine, as ``_normalize_assoc_shares_traditional``
    multiplies it (22.05 and 26.05 alike): from 1.0, times its own level ratio, then each
    ancestor's below root, leaf first, each ratio divided first. The order sets the last bit:
    30 shares of 40 under 40 of 100 is ``0.75 * 0.4`` = 0.30000000000000004, where
    ``0.4 * 30 / 40`` is 0.3. A ``parent`` association multiplies none of its own (its row
    takes its fair-share parent's); a level of no shares makes it 0.
    """
    chain: dict[int, float] = {}
    for a in tree.assocs:
        norm = 1.0
        node = a
        while node.parent is not None:
            if not node.is_parent_mode:  # (a parent association multiplies none of its own)
                ratio = node.shares_raw / node.level_shares if node.level_shares else 0.0
                norm *= ratio
            node = node.parent
        chain[id(a)] = norm
    return chain


def _classic_ue(a: Assoc, fs: Assoc, root: Assoc, algorithm: str) -> float:
    """``_set_usage_efctv``: the effective usage from the fair-share parent's."""
    if fs is root:
        return a.usage_norm
    if a.is_parent_mode:
        return fs.usage_efctv
    if algorithm == "depth_oblivious":
        return _depth_oblivious_ue(a, fs)
    if a.level_shares == 0:
        return fs.usage_efctv
    ua = a.usage_norm
    return ua + (fs.usage_efctv - ua) * a.shares_raw / a.level_shares


def _depth_oblivious_ue(a: Assoc, parent: Assoc) -> float:
    """``_depth_oblivious_set_usage_efctv``: UE = R_parent · r_l^k · S."""
    if not (a.shares_norm and parent.shares_norm and parent.usage_efctv and a.usage_norm):
        return a.usage_norm
    ratio_p = parent.usage_efctv / parent.shares_norm
    ratio_s = sum(s.usage_norm for s in parent.fs_children if not s.is_parent_mode)
    ratio_s /= parent.shares_norm
    ratio_l = (a.usage_norm / a.shares_norm) / ratio_s
    if not ratio_p or not ratio_l or math.log(ratio_p) * math.log(ratio_l) >= 0:
        k = 1.0
    else:
        k = 1.0 / (1.0 + (5.0 * math.log(ratio_p)) ** 2)
    return float(ratio_p * ratio_l**k * a.shares_norm)


def _fair_tree(tree: AssocTree) -> None:
    """Fair Tree (``fair_tree.c``): level shares, level usage, level fair share, ranking."""
    root = tree.root
    # _normalize_assoc_shares_fair_tree: its raw shares over its level shares, which root,
    # a child of none, keeps at NO_VAL (slurmdb_create_assoc_usage): sshare --json's
    # 2.3283064376228985e-10 (0.000000 in the table)
    root.shares_norm = root.shares_raw / NO_VAL
    root.usage_efctv = 1.0
    root.level_fs = NO_VAL
    _set_level_fs(tree)
    _rank_users(tree)


def _set_level_fs(tree: AssocTree) -> None:
    """``_calc_assoc_fs``: level shares, level usage and level fair share of every
    association but root (a measured loop: benchmarks/run.py --rows sshare)."""
    for a in tree.assocs:
        fs = a.fs_parent
        if fs is None:
            continue
        if a.shares_raw == FS_USE_PARENT:
            # the fair-share parent's own level ratio
            if fs.parent is None:  # (root: its own, as above)
                a.shares_norm = fs.shares_norm
            elif not fs.level_shares:
                a.shares_norm = 0.0
            else:
                a.shares_norm = fs.shares_raw / fs.level_shares
            a.usage_efctv = a.usage_raw / fs.usage_raw if fs.usage_raw else 0.0
            a.level_fs = math.inf if a.user is not None else NO_VAL
            continue
        shares_norm = a.shares_raw / a.level_shares if a.level_shares else 0.0
        usage_efctv = a.usage_raw / fs.usage_raw if fs.usage_raw else 0.0
        a.shares_norm = shares_norm
        a.usage_efctv = usage_efctv
        if shares_norm == 0:
            a.level_fs = 0.0
        elif usage_efctv == 0:
            a.level_fs = math.inf
        else:
            a.level_fs = shares_norm / usage_efctv


def _rank_users(tree: AssocTree) -> None:
    """``_calc_tree_fs``: rank users depth-first by level fair share; factor = rank / users.

    Users tied with the previous sibling (an account tied passes the tie to its first child)
    share its rank.
    """
    n_users = len(tree.users)
    if not n_users:
        return
    rank = n_users
    rnt = n_users
    # Iterative depth-first walk: (siblings sorted, at the first, account_tied, prev LF),
    # each frame's users in one inner loop (benchmarks/run.py --rows sshare).
    stack: list[tuple[Iterator[Assoc], bool, bool, float | None]] = [
        (iter(_sorted_level(tree.root.fs_children)), True, False, NO_VAL)
    ]
    while stack:
        sibs, first, account_tied, prev = stack.pop()
        for a in sibs:
            lf = a.level_fs
            tied = True if (first and account_tied) else (lf == prev)
            prev = lf
            first = False
            if a.user is None:
                stack.append((sibs, False, account_tied, prev))
                stack.append((iter(_sorted_level(a.fs_children)), True, tied, NO_VAL))
                break
            if not tied:
                rank = rnt
            a.fs_factor = rank / n_users
            rnt -= 1


def _sorted_level(children: list[Assoc]) -> list[Assoc]:
    """Siblings by level fair share, highest first; users before accounts on ties."""
    return sorted(children, key=_level_order)


def _level_order(a: Assoc) -> tuple[float, bool]:
    """Highest level fair share first; users (``False``) before accounts (``True``)."""
    return -(a.level_fs or 0.0), a.user is None


def job_fairshare_factor(a: Assoc, algorithm: str) -> float:
    """The fair-share factor a job of association ``a`` gets (``_get_fairshare_priority``)."""
    if algorithm == "fair_tree":
        return a.fs_factor or 0.0
    src = fs_assoc(a)
    return src.fs_factor or 0.0


#: The keys of one of sshare's rows, in order.
ROW_KEYS = (
    "account",
    "account_display",
    "user",
    "id",
    "cluster",
    "partition",
    "raw_shares",
    "norm_shares",
    "raw_usage",
    "norm_usage",
    "effective_usage",
    "fairshare",
    "level_fs",
    "grp_tres_mins",
    "grp_tres_raw",
    "tres_run_mins",
    "depth",
    "is_user",
)


def share_rows(
    tree: AssocTree, algorithm: str, *, account_fairshare: bool = False, cluster: str = ""
) -> list[dict[str, object]]:
    """sshare's rows, in lineage order, with None where sshare prints a blank: the rows
    of :func:`share_columns` (see there), each a dict of :data:`ROW_KEYS`."""
    columns = share_columns(tree, algorithm, account_fairshare=account_fairshare, cluster=cluster)
    return [
        dict(zip(ROW_KEYS, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def share_columns(
    tree: AssocTree,
    algorithm: str,
    *,
    account_fairshare: bool = False,
    cluster: str = "",
    tres_run_mins: Sequence[str | None] | None = None,
) -> dict[str, list[Any]]:
    """sshare's rows as columns: each of :data:`ROW_KEYS` (in order) with its value in
    every row, rows in lineage order, None where sshare prints a blank.

    Fair Tree shows FairShare on user rows only and LevelFS everywhere but root and
    ``parent`` rows. The other algorithms show the factor computed from each row's
    effective usage and normalised shares: on user rows, or on every row with
    ``account_fairshare`` (what Slurm 22.05 prints), and LevelFS as 0.

    TRESRunMins and GrpTRESRaw list zeros for the TRES a default cluster tracks, in its
    order: slurmctld adds to neither without ``AccountingStorageEnforce=limits``
    (``_handle_assoc_tres_run_secs``). With it (``tres_run_mins`` given: each row's cell,
    :func:`~fairshare_cli.core.slurm.tres_run.tres_run_cells`), GrpTRESRaw, the decayed
    TRES-minutes charged, is blank: fs keeps usage as one billed number per association,
    not per TRES.

    Column by column, each a comprehension over the associations (benchmarks/run.py
    --rows sshare: a dict a row was half the cost of the rows and their table).
    """
    order = tree.in_lineage_order()
    n = len(order)
    account = [a.account for a in order]
    depth = [a.depth for a in order]
    user = [a.user for a in order]
    account_factor = account_fairshare and algorithm != "fair_tree"
    zeros = ",".join(f"{t}=0" for t in STANDARD_TRES)
    columns: dict[str, list[Any]] = {
        "account": account,
        "account_display": [
            " " * d + name if d else name for d, name in zip(depth, account, strict=True)
        ],
        "user": user,
        "id": [a.id for a in order],
        "cluster": [cluster] * n,
        "partition": [None] * n,
        "raw_shares": ["parent" if a.shares_raw == FS_USE_PARENT else a.shares_raw for a in order],
        "norm_shares": [a.shares_norm for a in order],
        "raw_usage": [a.usage_raw for a in order],
        "norm_usage": [a.usage_norm for a in order],
        "effective_usage": [a.usage_efctv for a in order],
        "fairshare": [a.fs_factor if a.user is not None or account_factor else None for a in order],
        "level_fs": [
            None if a.level_fs == NO_VAL or a.shares_raw == FS_USE_PARENT else a.level_fs
            for a in order
        ],
        "grp_tres_mins": [None] * n,
        "grp_tres_raw": [zeros if tres_run_mins is None else None] * n,
        "tres_run_mins": [zeros] * n if tres_run_mins is None else list(tres_run_mins),
        "depth": depth,
        "is_user": [u is not None for u in user],
    }
    # Root, first in lineage order, shows no RawShares or NormUsage.
    columns["raw_shares"][0] = columns["norm_usage"][0] = None
    return columns


def basic_columns(
    columns: dict[str, list[Any]], algorithm: str, account_fairshare: bool, compat: str
) -> None:
    """:func:`share_columns` as sshare prints them under ``PriorityType=priority/basic``:
    that plugin never normalises the associations' shares or usage (``NO_VAL64``,
    ``NO_VAL``: blank) nor sets their effective usage, level or factor (0: ``0.000000``; a
    ``parent`` row's level blank). FairShare shows where :func:`share_columns` shows it:
    the factor left unset, 0, but where 22.05's sshare computes it itself (not under
    Fair Tree's flags: ``priority_g_calc_fs_factor``, basic's, of that 0 usage over
    ``NO_VAL64`` shares: 2^-0 = 1); today's prints the association's own. Checked against
    a real 22.05.8 (classic and Fair Tree)."""
    n = len(columns["account"])
    columns["norm_shares"] = [None] * n
    columns["norm_usage"] = [None] * n
    columns["effective_usage"] = [0.0] * n
    shown = account_fairshare and algorithm != "fair_tree"
    value = basic_fairshare(algorithm, compat)
    columns["fairshare"] = [value if u or shown else None for u in columns["is_user"]]
    columns["level_fs"] = [None if r == "parent" else 0.0 for r in columns["raw_shares"]]


def basic_fairshare(algorithm: str, compat: str) -> float:
    """The FairShare sshare prints under ``priority/basic`` (:func:`basic_columns`)."""
    return 1.0 if compat == "22.05" and algorithm != "fair_tree" else 0.0


def user_fairshare_factors(
    tree: AssocTree, algo: str, basic_compat: str | None = None
) -> dict[str, float]:
    """Each user association's fair-share factor, as sshare prints it, by name: ``user``,
    or ``user (account)`` for a user in several accounts (the simulation's series); under
    ``priority/basic`` (``basic_compat``: the ``output_compat``) basic's
    (:func:`basic_fairshare`)."""
    columns = share_columns(tree, algo)
    if basic_compat is not None:
        value = basic_fairshare(algo, basic_compat)
        columns["fairshare"] = [value] * len(columns["fairshare"])
    users = [
        (str(user), account, value)
        for user, account, value in zip(
            columns["user"], columns["account"], columns["fairshare"], strict=True
        )
        if user is not None
    ]
    counts: dict[str, int] = {}
    for user, _, _ in users:
        counts[user] = counts.get(user, 0) + 1
    out: dict[str, float] = {}
    for user, account, value in users:
        name = user if counts[user] == 1 else f"{user} ({account})"
        if isinstance(value, (int, float)):
            out[name] = float(value)
    return out
