"""Slurm's association tree: accounts, users, shares and raw usage.

Mirrors ``src/common/assoc_mgr.c`` (fair-share parents, level shares, usage summed up to
root). The four fair-share algorithms over it are :mod:`fairshare_cli.core.slurm.fairshare`.
Pure: usage comes in as numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

import msgspec

from fairshare_cli.errors import ConfigError

#: ``SLURMDB_FS_USE_PARENT``: the raw shares of a ``Fairshare=parent`` association.
FS_USE_PARENT = 0x7FFFFFFF
#: Slurm's ``NO_VAL`` as a double; sshare prints it blank.
NO_VAL = 4294967294.0


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


class AccountDef(msgspec.Struct, frozen=True):
    """A plain account definition (the same fields as the config's ``AccountSpec``)."""

    name: str
    parent: str | None = "root"
    shares: Shares = 1
    users: Mapping[str, Shares] = msgspec.field(default_factory=dict)


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

    def __init__(
        self, root: Assoc, assocs: list[Assoc], lineage: list[Assoc] | None = None
    ) -> None:
        self.root = root
        self.assocs = assocs
        self._lineage = lineage
        self.by_key: dict[tuple[str, str | None], Assoc] = {(a.account, a.user): a for a in assocs}
        self.users = [a for a in assocs if a.user is not None]
        self.accounts: dict[str, Assoc] = {a.account: a for a in assocs if a.user is None}
        # A user's first association: written last, from the end backwards.
        self._user_default: dict[str, Assoc] = {
            a.user: a for a in reversed(self.users) if a.user is not None
        }

    def user_assoc(self, user: str, account: str | None) -> Assoc | None:
        """The user's association in ``account`` (its first one when ``account`` is None)."""
        if account is None:
            return self._user_default.get(user)
        return self.by_key.get((account, user))

    def in_lineage_order(self) -> list[Assoc]:
        """Associations sorted as sshare lists them: by lineage, byte-wise (a new list)."""
        if self._lineage is None:
            self._lineage = lineage_order(self.root)
        return list(self._lineage)


def lineage_order(root: Assoc) -> list[Assoc]:
    """The associations under ``root`` by lineage, byte-wise: the order of slurmctld's
    association list (slurmdbd sends it ``order by lineage``;
    ``slurmdb_sort_hierarchical_assoc_list`` keeps it so), and so of the children lists
    ``_set_assoc_parent_and_user`` appends to, and of sshare's rows.

    Equal to sorting the full lineage strings: a parent's lineage is a prefix of its
    descendants' (so it comes first), and two subtrees compare as their parts do (each
    part ends in ``/``, which names never contain). A pre-order walk with children
    sorted by part is that order, in linear time however deep the tree.
    """
    out: list[Assoc] = []
    stack = [root]
    while stack:
        a = stack.pop()
        out.append(a)
        if a.children:
            stack.extend(sorted(a.children, key=_part, reverse=True))
    return out


def _part(a: Assoc) -> str:
    """A child's (never root's) lineage part, the key sshare's order sorts by: byte-wise,
    as the database compares it, which for UTF-8 text is the order of its code points,
    Python's order of the text itself (no encoding needed)."""
    return f"0-{a.user}/" if a.user is not None else f"{a.account}/"


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

    Children are loaded in config order (users first, then sub-accounts), numbered so;
    Fair Tree keeps equal siblings in lineage order, as slurmctld does
    (:func:`lineage_order`), whatever the config's.

    Raises:
        ConfigError: an unknown parent, a cycle, or bad shares, naming the account key.
    """
    specs = list(accounts.values()) if isinstance(accounts, Mapping) else list(accounts)
    by_name: dict[str, AccountLike] = {}
    for spec in specs:
        by_name[spec.name] = spec
    _check_parents(specs, by_name)
    kids: dict[str, list[AccountLike]] = {}
    for spec in specs:
        if spec.name != "root":
            kids.setdefault(spec.parent or "root", []).append(spec)

    root = Assoc(1, "root", None, 1, None)
    assocs = [root]
    _add_users(root, by_name.get("root"), assocs)
    stack: list[tuple[Assoc, list[AccountLike], int]] = [(root, kids.get("root", []), 0)]
    # Depth-first in config order; an explicit stack keeps deep trees off the C stack.
    while stack:
        parent_assoc, todo, i = stack.pop()
        if i >= len(todo):
            continue
        spec = todo[i]
        stack.append((parent_assoc, todo, i + 1))
        shares = spec.shares
        if type(shares) is not int or not 0 <= shares < FS_USE_PARENT:  # else checked here
            shares = _shares_value(shares, f"accounts.{spec.name}.shares")
        acct = Assoc(len(assocs) + 1, spec.name, None, shares, parent_assoc)
        parent_assoc.children.append(acct)
        assocs.append(acct)
        _add_users(acct, spec, assocs)
        stack.append((acct, kids.get(spec.name, []), 0))
    lineage = lineage_order(root)
    _link_fair_share(lineage)
    return AssocTree(root, assocs, lineage)


def check_tree(accounts: Mapping[str, AccountLike]) -> None:
    """Refuse what :func:`build_tree` refuses, with its error, building no tree when every
    share is plainly valid (then only a parent or a cycle can be wrong).

    The config reader checks ``[accounts]`` so on load; the tree is built once more
    when a view evaluates it (a 10,000-user tree twice was a tenth of ``fs sshare``).

    Raises:
        ConfigError: as :func:`build_tree` raises it.
    """
    specs = list(accounts.values())
    if all(_plain_shares(s.shares) and all(map(_plain_shares, s.users.values())) for s in specs):
        _check_parents(specs, {spec.name: spec for spec in specs})
    else:
        build_tree(accounts)


def _plain_shares(value: Shares) -> bool:
    """Whether :func:`_shares_value` takes ``value`` without a word."""
    if type(value) is int:
        return 0 <= value < FS_USE_PARENT
    return isinstance(value, str) and value.lower() == "parent"


def _check_parents(specs: list[AccountLike], by_name: Mapping[str, AccountLike]) -> None:
    """Every parent exists and no account is its own ancestor.

    Raises:
        ConfigError: an unknown parent or a cycle, naming the account key.
    """
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


def _add_users(acct: Assoc, spec: AccountLike | None, assocs: list[Assoc]) -> None:
    """The user associations of one account, numbered on from ``len(assocs)``.

    Raises:
        ConfigError: a user's shares are not a whole number or ``parent``.
    """
    if spec is None:
        return
    children = acct.children
    for user, shares in spec.users.items():
        if type(shares) is not int or not 0 <= shares < FS_USE_PARENT:  # else checked here
            shares = _shares_value(shares, f"accounts.{spec.name}.users.{user}")
        u = Assoc(len(assocs) + 1, acct.account, user, shares, acct)
        children.append(u)
        assocs.append(u)


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

    ``assocs`` is in lineage order (top-down, so a parent's fair-share parent is known
    first), which each fair-share parent's children keep, as ``_set_assoc_parent_and_user``
    appends them.
    """
    for a in assocs:
        p = a.parent
        if p is None:
            continue
        # The nearest ancestor not in parent mode; a parent-mode ``p`` already knows its own
        # (top-down order), so deep Fairshare=parent chains stay linear.
        fs = p.fs_parent if p.shares_raw == FS_USE_PARENT and p.fs_parent is not None else p
        a.fs_parent = fs
        fs.fs_children.append(a)
    for a in assocs:
        kids = a.fs_children
        if not kids:
            continue
        total = 0
        for c in kids:
            if c.shares_raw == FS_USE_PARENT:  # a parent-mode child: its children's shares
                total += sum(g.shares_raw for g in c.fs_children if g.shares_raw != FS_USE_PARENT)
            else:
                total += c.shares_raw
        for c in kids:
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


def fs_assoc(a: Assoc) -> Assoc:
    """The association whose values a job uses: the fair-share parent for ``parent``."""
    if a.is_parent_mode and a.fs_parent is not None:
        return a.fs_parent
    return a
