"""The association ``Priority`` factor: each association's own, or its nearest ancestor's.

``sacctmgr modify account/user ... set priority=N`` stores N on the association; one that
has none inherits its parent's when slurmdbd reads the tree (``_cluster_get_assocs``:
``assoc->priority = row[PRIO] ? row[PRIO] : parent_prio``), none anywhere is 0
(``_set_assoc_norm_priority``). The factor is that priority over the largest of every
association's (``g_assoc_max_priority``), or the priority itself with ``NO_NORMAL_ASSOC``;
0 for all when no association has one.
"""

from __future__ import annotations

from collections.abc import Mapping

from fairshare_cli.core.config import AccountSpec

AssocKey = tuple[str, str]  # (account, user)


def effective_priorities(accounts: Mapping[str, AccountSpec]) -> dict[AssocKey, int]:
    """``(account, user) -> priority`` of every user association, inherited where unset.

    Account associations appear with user ``""``.
    """
    resolved: dict[str, int | None] = {}

    def account_priority(name: str, depth: int = 0) -> int | None:
        if name in resolved:
            return resolved[name]
        spec = accounts.get(name)
        value: int | None = None
        if spec is not None:
            value = spec.priority
            if value is None and spec.parent is not None and depth < len(accounts):
                value = account_priority(spec.parent, depth + 1)
        resolved[name] = value
        return value

    out: dict[AssocKey, int] = {}
    for name, spec in accounts.items():
        own = account_priority(name)
        out[(name, "")] = own or 0
        for user in spec.users:
            value = spec.user_priority.get(user, own)
            out[(name, user)] = value or 0
    return out


def assoc_factors(
    accounts: Mapping[str, AccountSpec], no_normal: bool = False
) -> dict[AssocKey, float]:
    """The ASSOC factor of each user association (``usage->priority_norm``)."""
    priorities = effective_priorities(accounts)
    top = max(priorities.values(), default=0)
    if no_normal:
        return {key: float(p) for key, p in priorities.items() if key[1]}
    if top <= 0:
        return {}
    return {key: p / top for key, p in priorities.items() if key[1] and p}
