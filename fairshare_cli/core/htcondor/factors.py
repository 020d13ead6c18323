"""The second reading of a factor change: as if the new knobs had been in force all along.

HTCondor stores a record's factor the first time it reads it (``GetPriorityFactor``), so a
new ``DEFAULT_PRIO_FACTOR``, ``REMOTE_PRIO_FACTOR``, ``NICE_USER_PRIO_FACTOR`` or group
factor reaches only records that store none yet. ``fs whatif --rederive-factors`` asks the
other question: each stored factor that the current config derives (one that was never
set by hand, as far as the state can tell) is forgotten, so the changed config derives it
afresh. A ``setfactor`` value equal to the derived one cannot be told apart and is
forgotten too.
"""

from __future__ import annotations

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct


def forget_derived_factors(state: acct.AccountantState, current: Config) -> acct.AccountantState:
    """Drop every stored factor equal to the one ``current`` derives for its record."""
    tree = acct.GroupTree(current.groups)
    records = {}
    for name, rec in state.records.items():
        derived = max(acct.derived_factor(name, current, tree), acct.MIN_FACTOR)
        if rec.priority_factor is not None and rec.priority_factor == derived:
            rec = replace(rec, priority_factor=None)
        records[name] = rec
    return acct.AccountantState(records=records)


def kept_factors(state: acct.AccountantState, before: Config, after: Config) -> int:
    """How many records keep a factor ``before`` derived that ``after`` derives otherwise:
    the records a factor change does not reach unless read with ``--rederive-factors``."""
    before_tree, after_tree = acct.GroupTree(before.groups), acct.GroupTree(after.groups)
    kept = 0
    for name, rec in state.records.items():
        if rec.priority_factor is None:
            continue
        old = max(acct.derived_factor(name, before, before_tree), acct.MIN_FACTOR)
        new = max(acct.derived_factor(name, after, after_tree), acct.MIN_FACTOR)
        kept += rec.priority_factor == old and new != old
    return kept
