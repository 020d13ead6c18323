"""Slurm's association tree and its four fair-share algorithms.

Mirrors ``src/common/assoc_mgr.c`` (fair-share parents, level shares, normalised shares and
usage), ``priority_multifactor.c`` (classic and depth-oblivious effective usage, the
``2^(-UE/S)`` factor) and ``fair_tree.c`` (level fair share and the depth-first ranking);
``linear`` is the Slurm 2.0 formula ``F = (S - UE + 1) / 2``. Pure: usage comes in as numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from fairshare_cli.errors import ConfigError

#: ``SLURMDB_FS_USE_PARENT``: the raw shares of a ``Fairshare=parent`` association.
FS_USE_PARENT = 0x7FFFFFFF
#: Slurm's ``NO_VAL`` as a double; sshare prints it blank.
NO_VAL = 4294967294.0
UINT32_MAX = 2**32 - 1

ALGORITHMS = ("linear", "classic", "fair_tree", "depth_oblivious")

Shares = int | str


class AccountLike(Protocol):
    """What the tree needs of one ``[accounts.<name>]`` table."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    @property
    def parent(self) -> str | None: ...  # pragma: no cover - protocol

    @property
    def shares(self) -> Shares: ...  # pragma: no cover - protocol

    @property
    def users(self) -> Mapping[str, Shares]: ...  # pragma: no cover - protocol


@dataclass(frozen=True)
class AccountDef:
    """A plain account definition (the same fields as the config's ``AccountSpec``)."""

    name: str
    parent: str | None = "root"
    shares: Shares = 1
    users: Mapping[str, Shares] = field(default_factory=dict)


class Assoc:
    """One association: root, an account, or a user under an account.

    ``shares_raw`` is the uint32 ``Fairshare`` (``FS_USE_PARENT`` for ``parent``). The fields
    after ``usage_raw`` are filled by :func:`compute_fairshare`.
    """

    __slots__ = (
        "account",
        "children",
        "depth",
        "fs_children",
        "fs_factor",
        "fs_parent",
        "id",
        "level_fs",
        "level_shares",
        "parent",
        "shares_norm",
        "shares_raw",
        "usage_efctv",
        "usage_norm",
        "usage_raw",
        "user",
    )

    def __init__(
        self, assoc_id: int, account: str, user: str | None, shares_raw: int, parent: Assoc | None
    ) -> None:
        self.id = assoc_id
        self.account = account
        self.user = user
        self.shares_raw = shares_raw
        self.parent = parent
        self.children: list[Assoc] = []
        self.fs_parent: Assoc | None = None
        self.fs_children: list[Assoc] = []
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.usage_raw = 0.0
        self.level_shares = 0
        self.shares_norm = 0.0
        self.usage_norm = 0.0
        self.usage_efctv = 0.0
        self.fs_factor: float | None = None
        self.level_fs: float | None = None

    @property
    def is_user(self) -> bool:
        """True for a user association (a leaf that accrues usage)."""
        return self.user is not None

    @property
    def is_parent_mode(self) -> bool:
        """True for ``Fairshare=parent``."""
        return self.shares_raw == FS_USE_PARENT

    @property
    def name(self) -> str:
        """The user name on user rows, the account name otherwise."""
        return self.user if self.user is not None else self.account

    @property
    def lineage_part(self) -> str:
        """This association's part of Slurm's lineage: ``account/`` or ``0-user/``."""
        if self.parent is None:
            return "/"
        return f"0-{self.user}/" if self.user is not None else f"{self.account}/"

    @property
    def lineage(self) -> str:
        """Slurm's lineage string (``/A/B/0-u/``), built on demand (deep trees stay linear)."""
        parts = []
        a: Assoc | None = self
        while a is not None:
            parts.append(a.lineage_part)
            a = a.parent
        return "".join(reversed(parts))

    def __repr__(self) -> str:
        return f"Assoc({self.account!r}, {self.user!r})"


class AssocTree:
    """The association tree: ``root`` plus every association in load order."""

    def __init__(self, root: Assoc, assocs: list[Assoc]) -> None:
        self.root = root
        self.assocs = assocs
        self.by_key: dict[tuple[str, str | None], Assoc] = {(a.account, a.user): a for a in assocs}
        self.users = [a for a in assocs if a.is_user]
        self.accounts: dict[str, Assoc] = {a.account: a for a in assocs if not a.is_user}
        self._user_default: dict[str, Assoc] = {}
        for a in self.users:
            assert a.user is not None
            self._user_default.setdefault(a.user, a)

    def user_assoc(self, user: str, account: str | None) -> Assoc | None:
        """The user's association in ``account`` (its first one when ``account`` is None)."""
        if account is None:
            return self._user_default.get(user)
        return self.by_key.get((account, user))

    def in_lineage_order(self) -> list[Assoc]:
        """Associations sorted as sshare lists them: by lineage, byte-wise.

        Equal to sorting the full lineage strings: a parent's lineage is a prefix of its
        descendants' (so it comes first), and two subtrees compare as their parts do (each
        part ends in ``/``, which names never contain). A pre-order walk with children
        sorted by part is that order, in linear time however deep the tree.
        """
        out: list[Assoc] = []
        stack = [self.root]
        while stack:
            a = stack.pop()
            out.append(a)
            stack.extend(sorted(a.children, key=lambda c: c.lineage_part.encode(), reverse=True))
        return out


def _shares_value(value: Shares, where: str) -> int:
    if isinstance(value, str):
        if value.lower() == "parent":
            return FS_USE_PARENT
        raise ConfigError(f'{where}: expected a whole number of shares or "parent", got "{value}"')
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f'{where}: expected a whole number of shares or "parent", got {value!r}')
    if value < 0:
        raise ConfigError(f"{where}: shares cannot be negative, got {value}")
    if value >= FS_USE_PARENT:
        raise ConfigError(f"{where}: expected fewer than {FS_USE_PARENT} shares, got {value}")
    return value


def build_tree(accounts: Mapping[str, AccountLike] | Iterable[AccountLike]) -> AssocTree:
    """Build and validate the association tree from ``[accounts]``.

    Children are loaded in config order (users first, then sub-accounts); that is the order
    Fair Tree keeps among equal siblings.

    Raises:
        ConfigError: an unknown parent, a cycle, or bad shares, naming the account key.
    """
    specs = list(accounts.values()) if isinstance(accounts, Mapping) else list(accounts)
    by_name: dict[str, AccountLike] = {}
    for spec in specs:
        by_name[spec.name] = spec
    for spec in specs:
        if spec.name == "root":
            continue
        parent = spec.parent or "root"
        if parent != "root" and parent not in by_name:
            raise ConfigError(
                f'accounts.{spec.name}.parent: unknown account "{parent}"; '
                f"add [accounts.{parent}] or use an existing account"
            )
    _refuse_cycles(specs, by_name)

    kids: dict[str, list[AccountLike]] = {}
    for spec in specs:
        if spec.name != "root":
            kids.setdefault(spec.parent or "root", []).append(spec)

    next_id = 1
    root = Assoc(next_id, "root", None, 1, None)
    assocs = [root]

    def add_users(acct: Assoc, spec: AccountLike | None) -> None:
        nonlocal next_id
        if spec is None:
            return
        for user, shares in spec.users.items():
            next_id += 1
            u = Assoc(
                next_id,
                acct.account,
                user,
                _shares_value(shares, f"accounts.{spec.name}.users.{user}"),
                acct,
            )
            acct.children.append(u)
            assocs.append(u)

    add_users(root, by_name.get("root"))
    stack: list[tuple[Assoc, list[AccountLike], int]] = [(root, kids.get("root", []), 0)]
    # Depth-first in config order; an explicit stack keeps deep trees off the C stack.
    while stack:
        parent_assoc, todo, i = stack.pop()
        if i >= len(todo):
            continue
        spec = todo[i]
        stack.append((parent_assoc, todo, i + 1))
        next_id += 1
        acct = Assoc(
            next_id,
            spec.name,
            None,
            _shares_value(spec.shares, f"accounts.{spec.name}.shares"),
            parent_assoc,
        )
        parent_assoc.children.append(acct)
        assocs.append(acct)
        add_users(acct, spec)
        stack.append((acct, kids.get(spec.name, []), 0))
    _link_fair_share(assocs)
    return AssocTree(root, assocs)


def _refuse_cycles(specs: list[AccountLike], by_name: Mapping[str, AccountLike]) -> None:
    """Refuse a ``parent`` loop; each account is walked once (linear in the tree's size).

    Raises:
        ConfigError: naming the first account found on a cycle, and the cycle.
    """
    done: set[str] = {"root"}
    for spec in specs:
        path: dict[str, int] = {}
        cur: str | None = spec.name
        while cur is not None and cur not in done:
            if cur in path:
                names = list(path)
                cycle = " -> ".join([*names[path[cur] :], cur])
                raise ConfigError(
                    f"accounts.{spec.name}.parent: the account tree has a cycle ({cycle})"
                )
            path[cur] = len(path)
            cur = (by_name[cur].parent or "root") if cur in by_name else None
        done.update(path)


def _link_fair_share(assocs: list[Assoc]) -> None:
    """Set fair-share parents, children and level shares (``assoc_mgr.c``).

    ``assocs`` is in top-down order, so a parent's fair-share parent is known first.
    """
    for a in assocs:
        p = a.parent
        if p is None:
            continue
        # The nearest ancestor not in parent mode; a parent-mode ``p`` already knows its own
        # (top-down order), so deep Fairshare=parent chains stay linear.
        fs = p.fs_parent if p.is_parent_mode and p.fs_parent is not None else p
        a.fs_parent = fs
        fs.fs_children.append(a)
    for a in assocs:
        total = 0
        for c in a.fs_children:
            if c.is_parent_mode:
                total += sum(g.shares_raw for g in c.fs_children if not g.is_parent_mode)
            else:
                total += c.shares_raw
        for c in a.fs_children:
            c.level_shares = total


def set_usage(tree: AssocTree, user_usage: Mapping[tuple[str, str], float]) -> None:
    """Load raw usage: users' own, summed up every account to root.

    A key naming an association not in the tree (a deleted user or account) keeps its
    usage in the nearest existing account, as Slurm preserves a deleted child's usage.
    """
    for a in tree.assocs:
        a.usage_raw = 0.0
    for (account, user), value in user_usage.items():
        target = tree.by_key.get((account, user))
        if target is None:
            target = tree.accounts.get(account, tree.root)
        node: Assoc | None = target
        while node is not None:
            node.usage_raw += value
            node = node.parent


def compute_fairshare(
    tree: AssocTree, algorithm: str, *, dampening_factor: int = 1, capacity: float | None = None
) -> None:
    """Fill normalised shares and usage, effective usage, factors and level fair share.

    ``capacity``, when given, normalises usage as Slurm 2.0 did
    (``usage / (cluster CPUs x half-life x 2)``); otherwise usage / root usage.

    Raises:
        ValueError: an unknown algorithm name.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown fair-share algorithm {algorithm!r}")
    root = tree.root
    denom = capacity if capacity is not None else root.usage_raw
    for a in tree.assocs:
        a.usage_norm = min(a.usage_raw / denom, 1.0) if denom else 0.0
        a.fs_factor = None
    if algorithm == "fair_tree":
        _fair_tree(tree)
    else:
        _classic(tree, algorithm, dampening_factor)


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
    chain: dict[int, float] = {id(root): 1.0}
    for a in tree.assocs:
        p = a.parent
        if p is None:
            continue
        up = chain[id(p)]
        if a.is_parent_mode:
            mine = up
        elif a.level_shares == 0:
            mine = 0.0
        else:
            mine = up * a.shares_raw / a.level_shares
        chain[id(a)] = mine
    for a in tree.assocs:
        if a.parent is None:
            continue
        fs = a.fs_parent
        assert fs is not None
        a.shares_norm = fs.shares_norm if a.is_parent_mode else chain[id(a)]
        if fs is root:
            a.usage_efctv = a.usage_norm
        elif a.is_parent_mode:
            a.usage_efctv = fs.usage_efctv
        elif algorithm == "depth_oblivious":
            a.usage_efctv = _depth_oblivious_ue(a, fs)
        elif a.level_shares == 0:
            a.usage_efctv = fs.usage_efctv
        else:
            ua = a.usage_norm
            a.usage_efctv = ua + (fs.usage_efctv - ua) * a.shares_raw / a.level_shares
    for a in tree.assocs:
        if algorithm == "linear":
            a.fs_factor = linear_factor(a.usage_efctv, a.shares_norm)
        else:
            a.fs_factor = classic_factor(a.usage_efctv, a.shares_norm, damp)
        a.level_fs = 0.0


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
    root.shares_norm = 0.0
    root.usage_efctv = 1.0
    root.level_fs = NO_VAL
    for a in tree.assocs:
        fs = a.fs_parent
        if fs is None:
            continue
        src = fs if a.is_parent_mode else a
        if a.is_parent_mode:
            # the fair-share parent's own level ratio
            if src.parent is None or not src.level_shares:
                a.shares_norm = 0.0
            else:
                a.shares_norm = src.shares_raw / src.level_shares
        else:
            a.shares_norm = a.shares_raw / a.level_shares if a.level_shares else 0.0
        a.usage_efctv = a.usage_raw / fs.usage_raw if fs.usage_raw else 0.0
        if a.is_parent_mode:
            a.level_fs = math.inf if a.is_user else NO_VAL
        elif a.shares_norm == 0:
            a.level_fs = 0.0
        elif a.usage_efctv == 0:
            a.level_fs = math.inf
        else:
            a.level_fs = a.shares_norm / a.usage_efctv
    n_users = len(tree.users)
    if not n_users:
        return
    rank = n_users
    rnt = n_users
    # Iterative depth-first walk: (siblings sorted, next index, account_tied, prev LF).
    stack: list[list[object]] = [[_sorted_level(root.fs_children), 0, False, NO_VAL]]
    while stack:
        frame = stack[-1]
        sibs: list[Assoc] = frame[0]  # type: ignore[assignment]
        i: int = frame[1]  # type: ignore[assignment]
        if i >= len(sibs):
            stack.pop()
            continue
        a = sibs[i]
        frame[1] = i + 1
        lf = a.level_fs
        tied = True if (i == 0 and frame[2]) else (lf == frame[3])
        frame[3] = lf
        if a.is_user:
            if not tied:
                rank = rnt
            a.fs_factor = rank / n_users
            rnt -= 1
        else:
            stack.append([_sorted_level(a.fs_children), 0, tied, NO_VAL])


def _sorted_level(children: list[Assoc]) -> list[Assoc]:
    """Siblings by level fair share, highest first; users before accounts on ties."""
    return sorted(children, key=lambda a: (-(a.level_fs or 0.0), 0 if a.is_user else 1))


def fs_assoc(a: Assoc) -> Assoc:
    """The association whose values a job uses: the fair-share parent for ``parent``."""
    if a.is_parent_mode and a.fs_parent is not None:
        return a.fs_parent
    return a


def job_fairshare_factor(a: Assoc, algorithm: str) -> float:
    """The fair-share factor a job of association ``a`` gets (``_get_fairshare_priority``)."""
    if algorithm == "fair_tree":
        return a.fs_factor or 0.0
    src = fs_assoc(a)
    return src.fs_factor or 0.0


#: The TRES a default Slurm cluster tracks, in its order (sshare's TRES lists).
DEFAULT_TRES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")


def share_rows(
    tree: AssocTree, algorithm: str, *, account_fairshare: bool = False, cluster: str = ""
) -> list[dict[str, object]]:
    """sshare's rows, in lineage order, with None where sshare prints a blank.

    Fair Tree shows FairShare on user rows only and LevelFS everywhere but root and
    ``parent`` rows. The other algorithms show the factor computed from each row's
    effective usage and normalised shares: on user rows, or on every row with
    ``account_fairshare`` (what Slurm 22.05 prints), and LevelFS as 0.
    """
    fair_tree = algorithm == "fair_tree"
    run_mins = ",".join(f"{t}=0" for t in DEFAULT_TRES)
    rows: list[dict[str, object]] = []
    for a in tree.in_lineage_order():
        is_root = a.parent is None
        if is_root:
            raw_shares: object = None
        elif a.is_parent_mode:
            raw_shares = "parent"
        else:
            raw_shares = a.shares_raw
        if fair_tree:
            fairshare = a.fs_factor if a.is_user else None
        elif a.is_user or account_fairshare:
            fairshare = a.fs_factor
        else:
            fairshare = None
        level_fs = a.level_fs
        if a.is_parent_mode or level_fs == NO_VAL:
            level_fs = None
        rows.append(
            {
                "account": a.account,
                "account_display": " " * a.depth + a.account,
                "user": a.user,
                "id": a.id,
                "cluster": cluster,
                "partition": None,
                "raw_shares": raw_shares,
                "norm_shares": a.shares_norm,
                "raw_usage": a.usage_raw,
                "norm_usage": None if is_root else a.usage_norm,
                "effective_usage": a.usage_efctv,
                "fairshare": fairshare,
                "level_fs": level_fs,
                "grp_tres_mins": None,
                "grp_tres_raw": None,
                "tres_run_mins": run_mins,
                "depth": a.depth,
                "is_user": a.is_user,
            }
        )
    return rows
