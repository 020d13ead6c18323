"""HTCondor's accountant: real and effective user priorities with half-life decay.

Mirrors ``Accountant.cpp`` (reference/htcondor.md §1–2): one customer record per submitter
(``user@domain`` or ``group.sub.user@domain``) and per accounting group (bare group name,
root ``<none>``). The real user priority (RUP) decays towards the weighted resources in use:

    P' = max(P·β + Uw·(1 − β), 0.5),   β = 0.5 ** (Δt / half_life)

Decay is lazy and exact: a record stores its RUP as of ``last_update`` and the resources it
has held since, so its value at any later ``now`` is one update (steps compose exactly).
Edits, as HTCondor's, run no update (per-cycle accounting: :mod:`cycle_accounting`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config, GroupSpec

# The record and its one update live in leaf modules; these stay the accountant's names too.
from fairshare_cli.core.htcondor.customer_record import MIN_PRIORITY as MIN_PRIORITY
from fairshare_cli.core.htcondor.customer_record import STORED_FIELDS
from fairshare_cli.core.htcondor.customer_record import CustomerRecord as CustomerRecord
from fairshare_cli.core.htcondor.customer_record import as_stored as as_stored
from fairshare_cli.core.htcondor.decay import advance as advance
from fairshare_cli.core.htcondor.decay import awaits_begin, begin_at_update
from fairshare_cli.core.htcondor.decay import decay_factor as decay_factor
from fairshare_cli.core.htcondor.groups import ROOT, deepest_group, group_path

MIN_FACTOR = 1.0
ROOT_GROUP = ROOT
NICE_USER_PREFIX = "nice-user"


# --------------------------------------------------------------------------- names, groups


def domain_of(name: str) -> str:
    """The text after the last ``@`` (empty if none)."""
    return name.rsplit("@", 1)[1] if "@" in name else ""


def qualify(name: str, uid_domain: str) -> str:
    """A bare user name gets ``@uid_domain``; group names and full names are kept."""
    if "@" in name or name == ROOT_GROUP:
        return name
    return f"{name}@{uid_domain}"


def submitter_name(
    owner: str, accounting_group: str | None, nice_user: bool, uid_domain: str
) -> str:
    """The accountant name a job is charged to (``AccountingGroup@domain`` or ``User``).

    ``nice_user`` without an accounting group becomes ``nice-user.<owner>@domain``; with an
    explicit accounting group it is ignored, as condor_submit does.
    """
    user, _, domain = owner.partition("@")
    domain = domain or uid_domain
    if accounting_group:
        return f"{accounting_group}@{domain}"
    if nice_user:
        return f"{NICE_USER_PREFIX}.{user}@{domain}"
    return f"{user}@{domain}"


class GroupTree:
    """Configured accounting groups, matched case-insensitively (``GROUP_NAMES``)."""

    def __init__(self, groups: Mapping[str, GroupSpec]) -> None:
        self.groups = dict(groups)
        self._lower = {name.lower(): name for name in groups}

    def names(self) -> list[str]:
        """Group names sorted case-insensitively (HTCondor's group-id order)."""
        return sorted(self.groups, key=str.lower)

    def group_of(self, name: str) -> str:
        """The deepest configured group a submitter name maps to, else ``<none>``.

        Drops the text from the last ``@``; everything before the last ``.`` is the group
        path, walked down as far as it matches. A group record maps to itself.
        """
        if name == ROOT_GROUP:
            return ROOT_GROUP
        path = group_path(name) if "@" in name else name
        return deepest_group(path, self._lower.get) or ROOT_GROUP

    def ancestors(self, group: str) -> list[str]:
        """``group`` and its dotted prefixes, deepest first (never ``<none>``)."""
        if group == ROOT_GROUP:
            return []
        parts = group.split(".")
        return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def priority_factor(rec: CustomerRecord, config: Config, tree: GroupTree) -> float:
    """The priority factor in force for a record (reference/htcondor.md §2.3).

    The stored factor when the record has one; else the one ``GetPriorityFactor`` derives
    (and would store): nice user (name starts with ``nice-user``), the deepest group's
    ``prio_factor``, remote domain, default. A group record's name has no domain, so with
    ``local_domains`` set a group (and ``<none>``) without a ``prio_factor`` of its own gets
    ``remote_prio_factor``. A factor below 1 counts as 1.
    """
    if rec.priority_factor is not None:
        return max(rec.priority_factor, MIN_FACTOR)
    return derived_factor(rec.name, config, tree)


def derived_factor(name: str, config: Config, tree: GroupTree) -> float:
    """The factor ``GetPriorityFactor`` derives for a record that stores none."""
    acc = config.accountant
    if name.startswith(NICE_USER_PREFIX):
        return acc.nice_user_prio_factor
    group = tree.group_of(name)
    if group != ROOT_GROUP:
        gf = tree.groups[group].prio_factor
        if gf:
            return max(gf, MIN_FACTOR)
    local = config.pool.local_domains
    if local and domain_of(name) not in local:
        return acc.remote_prio_factor
    return acc.default_prio_factor


def effective_priority(rec: CustomerRecord, factor: float) -> float:
    """EUP = max(RUP, 0.5) × factor."""
    return max(rec.priority, MIN_PRIORITY) * factor


# --------------------------------------------------------------------------- the accountant


@dataclass(frozen=True)
class AccountantState:
    """All customer records, keyed by name."""

    records: Mapping[str, CustomerRecord]

    def get(self, name: str) -> CustomerRecord | None:
        return self.records.get(name)


EMPTY = AccountantState(records={})


def all_records(state: AccountantState, config: Config) -> dict[str, CustomerRecord]:
    """Every record: stored ones plus a fresh one for each configured group and ``<none>``."""
    out = dict(state.records)
    for name in [ROOT_GROUP, *config.groups]:
        if name not in out:
            out[name] = CustomerRecord(name=name, is_group=True)
    return out


def view(state: AccountantState, config: Config, now: float) -> dict[str, CustomerRecord]:
    """Every record as it stands at ``now`` (nothing is written)."""
    h = config.accountant.priority_halflife
    return {n: advance(r, now, h) for n, r in all_records(state, config).items()}


def bring_up_to_date(
    state: AccountantState, config: Config, now: float, names: Iterable[str] | None = None
) -> AccountantState:
    """Advance the named records (all when None) to ``now``."""
    h = config.accountant.priority_halflife
    records = all_records(state, config)
    todo = records.keys() if names is None else set(names)
    for n in list(todo):
        if n in records:
            records[n] = advance(records[n], now, h)
    return AccountantState(records=store_factors(records, config))


def last_update_of(state: AccountantState) -> float | None:
    """The accountant's ``LastUpdateTime``: the latest update of any record (None: never)."""
    times = [r.last_update for r in state.records.values() if r.last_update is not None]
    return max(times) if times else None


def new_record(name: str, state: AccountantState, now: float) -> CustomerRecord:
    """A record created by an edit or a match: as of the accountant's last update (or now)."""
    since = last_update_of(state)
    when = now if since is None else since
    return CustomerRecord(name=name, is_group="@" not in name, last_update=when)


def store_factors(records: dict[str, CustomerRecord], config: Config) -> dict[str, CustomerRecord]:
    """Store the derived factor in every record that has none (``GetPriorityFactor``'s write).

    HTCondor reads every record's factor each cycle and for each ``condor_userprio``, and the
    first read stores it; ``fs`` stores it whenever it writes the accountant. Later changes
    of the factor knobs then leave the record alone until ``setfactor`` or ``delete``.
    """
    tree: GroupTree | None = None
    for n, r in records.items():
        if r.priority_factor is None:
            tree = tree or GroupTree(config.groups)
            factor = as_stored(max(derived_factor(n, config, tree), MIN_FACTOR))
            records[n] = replace(r, priority_factor=factor)
    return records


def at_last_update(rec: CustomerRecord, since: float | None, config: Config) -> CustomerRecord:
    """The record as HTCondor holds it between cycles: at the accountant's
    ``LastUpdateTime`` ``since`` (:func:`last_update_of`), where ``UpdatePriorities`` left
    every record; ``fs`` updates lazily, so a record last touched before then is brought
    there with the values it held. An edit changes this record: the next update decays the
    edited values from ``since``, not from the record's own older time."""
    if since is None:
        return rec
    return advance(rec, since, config.accountant.priority_halflife)


def _set(
    state: AccountantState, config: Config, name: str, now: float, **fields: Any
) -> AccountantState:
    """Set ``fields`` of ``name`` (created if need be) as HTCondor's edits do: no update.

    The record stands at the accountant's last update (:func:`at_last_update`); the next
    update (a cycle, or a view at a later ``now``) charges the interval since then with
    the edited values.
    """
    records = dict(all_records(state, config))
    rec = records.get(name) or new_record(name, state, now)
    records[name] = replace(at_last_update(rec, last_update_of(state), config), **fields)
    return AccountantState(records=store_factors(records, config))


def as_sent(value: float) -> float:
    """``value`` as the negotiator receives it from ``condor_userprio``: CEDAR sends a
    double as the 31-bit integer ``(int)(frexp(d) · 2147483647)`` and its exponent
    (``Stream::put(double)``; ``get`` divides back), so the mantissa is cut toward zero:
    10000 arrives as 9999.99999665..., which six decimals keep as 9999.999997."""
    mantissa, exponent = math.frexp(value)
    return math.ldexp(int(mantissa * _FRAC_CONST) / _FRAC_CONST, exponent)


#: ``FRAC_CONST`` of CEDAR's ``Stream::put(double)``.
_FRAC_CONST = 2147483647.0


def set_priority(
    state: AccountantState, config: Config, name: str, value: float, now: float
) -> AccountantState:
    """``condor_userprio -setprio``: store the RUP as sent (:func:`as_sent`), with six
    decimals (reads clamp it to 0.5)."""
    return _set(state, config, name, now, priority=as_stored(as_sent(value)))


def set_factor(
    state: AccountantState, config: Config, name: str, value: float, now: float
) -> AccountantState:
    """``-setfactor``: store an explicit factor as sent (:func:`as_sent`), with six
    decimals (below 1 is stored as 1: ``setfactor 1`` arrives as 0.9999999995)."""
    factor = as_stored(max(as_sent(value), MIN_FACTOR))
    return _set(state, config, name, now, priority_factor=factor)


def set_floor_or_ceiling(
    state: AccountantState, config: Config, name: str, field: str, value: int, now: float
) -> AccountantState:
    """``-setfloor``/``-setceiling`` (``SetFloor``/``SetCeiling``) of ``field``."""
    return _set(state, config, name, now, **{field: value})


def set_accumulated(
    state: AccountantState, config: Config, name: str, seconds: float, now: float
) -> AccountantState:
    """``-setaccum``: writes only the weighted accumulated usage (slot-seconds, as sent:
    :func:`as_sent`, with six decimals: 360000 is stored as 359999.999923)."""
    usage = as_stored(as_sent(seconds))
    return _set(state, config, name, now, weighted_accumulated_usage=usage)


def set_begin(
    state: AccountantState, config: Config, name: str, when: float, now: float
) -> AccountantState:
    """``-setbegin``: the begin-usage time (whole seconds)."""
    return _set(state, config, name, now, begin_usage_time=float(int(when)))


def set_last(
    state: AccountantState, config: Config, name: str, when: float, now: float
) -> AccountantState:
    """``-setlast``: the last-usage time (whole seconds)."""
    return _set(state, config, name, now, last_usage_time=float(int(when)))


def reset_usage(
    state: AccountantState, config: Config, names: Iterable[str] | None, now: float
) -> AccountantState:
    """``-resetusage`` / ``-resetall``: zero accumulated usage, begin = now, RUP unchanged.

    No update runs: each record stands at the accountant's last update
    (:func:`at_last_update`) and usage held since then is charged by the next update.
    """
    records = dict(all_records(state, config))
    targets = list(records) if names is None else list(names)
    since = last_update_of(state)
    for n in targets:
        # An unknown name gets a fresh record, as every other edit (and HTCondor) does.
        rec = at_last_update(records.get(n) or new_record(n, state, now), since, config)
        records[n] = replace(
            rec, accumulated_usage=0.0, weighted_accumulated_usage=0.0, begin_usage_time=now
        )
    return AccountantState(records=store_factors(records, config))


def delete(state: AccountantState, name: str) -> AccountantState:
    """``-delete``: drop the record; it comes back with defaults when next used."""
    records = dict(state.records)
    records.pop(name, None)
    return AccountantState(records=records)


def replay_start(section: Any, rebuild: bool) -> AccountantState:
    """The accountant section a history replay starts from: as stored, or with ``rebuild``
    only what an admin set kept (group or not, factor, floor, ceiling), usage forgotten.

    Raises:
        SectionError: a malformed section.
    """
    state = accountant_from_json(section)
    if not rebuild:
        return state
    return AccountantState(
        records={
            n: CustomerRecord(
                name=n,
                is_group=r.is_group,
                priority_factor=r.priority_factor,
                floor=r.floor,
                ceiling=r.ceiling,
            )
            for n, r in state.records.items()
        }
    )


def charge_targets(submitter: str, tree: GroupTree) -> tuple[str, list[str]]:
    """The submitter's assigned group and the groups whose subtree usage it counts in.

    ``AddMatch`` walks the assigned group's name and its dotted prefixes, so an ungrouped
    submitter counts in ``<none>``'s subtree usage too.
    """
    group = tree.group_of(submitter)
    return group, tree.ancestors(group) or [ROOT_GROUP]


def charged_records(submitter: str, tree: GroupTree) -> list[tuple[str, bool, bool]]:
    """The records a match of ``submitter`` changes, each once: (name, whether its own
    counts change: the submitter's and its assigned group's, whether its subtree usage
    does: :func:`charge_targets`' groups)."""
    group, hier = charge_targets(submitter, tree)
    names = dict.fromkeys([submitter, group, *hier])
    return [(n, n in (submitter, group), n in hier) for n in names]


def add_match(
    state: AccountantState,
    config: Config,
    submitter: str,
    weight: float,
    now: float,
    slots: int = 1,
) -> AccountantState:
    """``AddMatch``: the submitter starts holding ``slots`` slots of total ``weight``.

    +slots/+weight on the submitter and its assigned group (``<none>`` when ungrouped);
    +weight hierarchical usage on the assigned group and every dotted prefix of it.
    """
    return change_uses(state, config, [(submitter, weight, slots)], now)


def remove_match(
    state: AccountantState,
    config: Config,
    submitter: str,
    weight: float,
    now: float,
    slots: int = 1,
) -> AccountantState:
    """``RemoveMatch``: reverses :func:`add_match`, clamping at 0."""
    return change_uses(state, config, [(submitter, -weight, -slots)], now)


def change_uses(
    state: AccountantState,
    config: Config,
    changes: Iterable[tuple[str, float, int]],
    now: float,
) -> AccountantState:
    """:func:`add_match` (or, negative, :func:`remove_match`) at ``now`` for each
    (submitter, weight, slots) of ``changes`` in turn: the same sums and clamps in the same
    order, with one copy of the records (thousands of unplaced running records are
    uncharged at once). Each record is brought up to ``now`` when first touched; later
    changes at the same ``now`` leave its times alone. ``now`` is an update of the whole
    pool: a record not touched that awaits its ``BeginUsageTime`` gets it
    (:func:`~fairshare_cli.core.htcondor.decay.begin_at_update`), the rest left lazy.
    """
    tree = GroupTree(config.groups)
    h = config.accountant.priority_halflife
    records = all_records(state, config)
    touched: set[str] = set()  # records copied and brought up to now: changed in place
    plans: dict[str, list[tuple[CustomerRecord, bool, bool]]] = {}
    for submitter, weight, slots in changes:
        plan = plans.get(submitter)
        if plan is None:
            group, hier = charge_targets(submitter, tree)
            names = [submitter, group, *[g for g in hier if g != group]]
            plan = plans[submitter] = []
            for n in names:
                if n not in touched:
                    rec = records.get(n) or CustomerRecord(name=n, is_group="@" not in n)
                    new = advance(rec, now, h)
                    records[n] = new if new is not rec else replace(rec)  # never the stored one
                    touched.add(n)
                plan.append((records[n], n in (submitter, group), n in hier))
        for rec, own, in_hier in plan:
            if own:
                rec.resources_used = max(rec.resources_used + slots, 0)
                rec.weighted_resources_used = _clamp0(rec.weighted_resources_used + weight)
            if in_hier:
                rec.hier_weighted_resources_used = _clamp0(
                    rec.hier_weighted_resources_used + weight
                )
    for n in [n for n, r in records.items() if r.begin_usage_time == 0 and n not in touched]:
        rec = records[n]
        if awaits_begin(rec):
            begin = begin_at_update(rec, now)
            if begin != rec.begin_usage_time:
                records[n] = replace(rec, begin_usage_time=begin)
    return AccountantState(records=store_factors(records, config))


def _clamp0(x: float) -> float:
    """A usage after a match change: at least 0, as the accountant stores it."""
    return as_stored(x) if x > 0 else 0.0


# --------------------------------------------------------------------------- JSON


#: Written only when not at their default: older states keep their shape.
_SPARSE = {"uncharged_time": 0.0, "weighted_uncharged_time": 0.0, "floor": 0, "ceiling": -1}


def accountant_to_json(state: AccountantState) -> dict[str, Any]:
    """The ``accountant`` state section."""
    return {
        "records": {
            name: {
                f: getattr(rec, f) for f in STORED_FIELDS if getattr(rec, f) != _SPARSE.get(f, ...)
            }
            for name, rec in sorted(state.records.items())
        }
    }


def accountant_from_json(raw: Any) -> AccountantState:
    """Decode the ``accountant`` state section (:mod:`accountant_decode` reads the records).

    Raises:
        SectionError: a record is malformed (message names it).
    """
    if raw is None:
        return EMPTY
    # msgspec loads with the reader: only the commands that read the accountant pay it.
    from fairshare_cli.core.htcondor.accountant_decode import stored_records

    return AccountantState(records=stored_records(raw))
