"""The association tree of the pool config with the state's usage and fair share.

What ``fs sshare`` shows and every Slurm view starts from: the tree of ``[accounts]``, the
usage the last decay pass before ``now`` left (:mod:`~fairshare_cli.core.slurm.usage`) and
the fair share of the configured algorithm (:mod:`~fairshare_cli.core.slurm.fairshare`);
for classic fair share, also the usage the pass started from (:func:`usage_before_charges`).
Apart from :mod:`~fairshare_cli.core.slurm.model` (job priority, the history sink) so that
``fs sshare`` loads neither and starts fast.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.assoc_tree import Assoc, AssocTree, build_tree, set_usage
from fairshare_cli.core.slurm.billing import Billing, billable_tres
from fairshare_cli.core.slurm.factors import effective_algorithm, job_user
from fairshare_cli.core.slurm.fairshare import (
    STALE_ACCOUNT_USAGE,
    compute_fairshare,
    renormalise_user,
)
from fairshare_cli.core.slurm.pass_grid import real_decay
from fairshare_cli.core.slurm.passes import partials
from fairshare_cli.errors import ConfigError

if TYPE_CHECKING:
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.jobs import Job

__all__ = [
    "ClusterSize",
    "algorithm",
    "cluster_size",
    "decay_params",
    "evaluate",
    "pass_charges",
    "tree_from_config",
    "usage_before_charges",
    "users_mid_pass",
]


def algorithm(config: Config) -> str:
    """The fair-share algorithm in effect (the knob, or what the flags select)."""
    return effective_algorithm(config.priority.fairshare, config.priority.flags)


def decay_params(config: Config) -> su.DecayParams:
    """Decay, calc period, reset period and end-of-job charging from ``[priority]``."""
    p = config.priority
    return su.DecayParams(
        halflife=p.decay_halflife,
        calc_period=p.calc_period if p.calc_period > 0 else 300.0,
        reset_period=p.usage_reset_period,
        reset_zone=p.usage_reset_time_zone,
        charge_job_end=p.enforce_limits,
    )


def tree_from_config(config: Config) -> AssocTree:
    """The association tree of ``[accounts]``.

    Raises:
        ConfigError: an unknown parent, a cycle or bad shares, naming the config file.
    """
    try:
        return build_tree(config.accounts)
    except ConfigError as exc:
        raise ConfigError(f"{config.path}: {exc}") from None


class ClusterSize(msgspec.Struct, frozen=True):
    """Nodes and CPUs of the cluster, and TRES counts per partition."""

    node_count: int
    cpus: int
    partition_tres: Mapping[str, Mapping[str, float]]


def _attr(machine: Any, name: str, default: float) -> float:
    for key, value in machine.attributes.items():
        if key.lower() == name.lower() and isinstance(value, (int, float)):
            return float(value)
    return default


def node_gres(machine: Any) -> dict[str, float]:
    """A node's GRES as TRES counts: ``slots ×`` each ``gres/NAME`` or ``gres/NAME:TYPE``
    attribute (``"gres/gpu:a100" = 4``, slurm.conf's ``Gres=gpu:a100:4``), names in lower
    case, a typed count counting towards ``gres/NAME`` too, as a node's TRES counts do
    (``_set_type_tres_cnt``; ``_calc_part_tres`` sums them over a partition's nodes)."""
    out: dict[str, float] = {}
    for key, value in machine.attributes.items():
        name = key.lower()
        if not name.startswith("gres/") or isinstance(value, bool):
            continue
        if not isinstance(value, (int, float)):
            continue
        count = machine.slots * float(value)
        for counted in {name, name.split(":", 1)[0]}:
            out[counted] = out.get(counted, 0.0) + count
    return out


def cluster_size(config: Config) -> ClusterSize:
    """Every ``[[machines]]`` entry is ``count`` nodes of ``slots × Cpus`` CPUs.

    A machine with no ``partitions`` belongs to every partition.
    """
    nodes = 0
    cpus = 0
    per_part: dict[str, dict[str, float]] = {name: {} for name in config.partitions}
    for m in config.machines:
        node_cpus = m.slots * _attr(m, "Cpus", 1.0)
        node_mem = m.slots * _attr(m, "Memory", 0.0)
        nodes += m.count
        cpus += int(m.count * node_cpus)
        for pname in m.partitions or tuple(config.partitions):
            t = per_part.setdefault(pname, {})
            t["node"] = t.get("node", 0.0) + m.count
            t["cpu"] = t.get("cpu", 0.0) + m.count * node_cpus
            t["billing"] = t.get("billing", 0.0) + m.count * node_cpus
            t["mem"] = t.get("mem", 0.0) + m.count * node_mem
            for name, count in node_gres(m).items():
                t[name] = t.get(name, 0.0) + m.count * count
    billing = Billing.of_config(config)
    for pname, weights in billing.weights.items():  # (``_calc_part_tres``: a uint64_t)
        if pname in per_part:
            per_part[pname]["billing"] = float(
                math.trunc(billable_tres(per_part[pname], weights, billing.flags, pname))
            )
    return ClusterSize(nodes, cpus, per_part)


def pass_charges(
    state: su.SlurmUsage, t: float, params: su.DecayParams
) -> list[tuple[su.UsageKey, str | None, float]]:
    """What the decay pass at ``t`` charged each running job: ``(association, job id,
    amount)``, ``Δ · d^Δ · rate`` for the ``Δ`` seconds since the pass before, taken to be
    one calc period earlier (``_apply_new_usage``)."""
    factor, prev = params.factor, t - params.calc_period
    out = []
    for r in state.running:
        if r.start < t and (r.end is None or r.end >= t):
            delta = t - max(r.start, prev)
            out.append(((r.account, r.user), r.job, delta * real_decay(factor, delta) * r.rate))
    return out


def usage_before_charges(
    state: su.SlurmUsage,
    t: float,
    usage: Mapping[su.UsageKey, float],
    now: float,
    params: su.DecayParams,
    charges: list[tuple[su.UsageKey, str | None, float]],
) -> dict[su.UsageKey, float] | None:
    """Usage per user association after the decay pass at ``t`` decayed it and before it
    charged running jobs: in the proportions of the usage the pass started from. None when
    the pass charged nothing (then ``usage`` itself is in those proportions).

    ``_decay_thread`` (``priority_multifactor.c``) computes every account's normalised
    and effective usage (``_set_children_usage_efctv``) before the pass resets, decays
    and charges anything; users get theirs later, from the usage as it then stands. The
    decay multiplies every association alike, so usage over root usage is the same
    before it and after it. So: ``usage`` (as the pass left it, seen at ``now``) without
    what the pass charged each running job (``Δ · d^Δ · rate`` for the ``Δ`` seconds since
    the pass before, as ``_apply_new_usage``) and, with ``charge_job_end``, without the ends
    charged after the pass (``priority_p_job_end``). All zero after a usage reset at ``t``
    (``_reset_usage`` runs first). The pass before is taken to be one calc period earlier
    (a restart between them is not recorded). ``charges``: what the pass charged each
    running job (:func:`pass_charges`).
    """
    anchor = state.last_decay_ran
    cutoff = su.reset_cutoff(params, anchor if anchor is not None else t, state.last_reset, t)
    if cutoff == t or state.last_reset == t:
        return dict.fromkeys(usage, 0.0)
    factor = params.factor
    taken: dict[su.UsageKey, list[float]] = {}
    for key, _, amount in charges:
        taken.setdefault(key, []).append(amount)
    for r in state.running:
        if params.charge_job_end and r.end is not None and t <= r.end <= now:
            delta = r.end - max(t, r.start)
            taken.setdefault((r.account, r.user), []).append(
                delta * real_decay(factor, delta) * r.rate
            )
    if not taken:
        return None
    out = dict(usage)
    for key, amounts in taken.items():
        if key in out:
            out[key] = max(out[key] - math.fsum(amounts), 0.0)
    return out


@functools.lru_cache(maxsize=1 << 18)
def _list_place(job_id: str | None) -> tuple[int, ...] | None:
    """Where a job stands in slurmctld's job list: its id's numbers (jobs are appended as
    they are created, ``_create_job_record``, and a restart reads them back in that order,
    so ids ascend along it); None for an id of no numbers. (Kept: ``fs simulate``'s
    classic passes place the same jobs cycle after cycle.)"""
    if job_id is None:
        return None
    if job_id.isascii() and job_id.isdigit():
        return (int(job_id),)
    try:
        return tuple(int(part) for part in job_id.replace("_", ".").split("."))
    except ValueError:
        return None


#: How long the list of charges walked may grow before it is compacted (:func:`users_mid_pass`).
WALK_COMPACT = 4096

#: A user association's first job a decay pass weighs: its place in the job list, whether
#: it runs (then weighed after its own charge), the association.
_First = tuple[tuple[int, ...], bool, Assoc]


def _first_weighed(tree: AssocTree, queue: Iterable[Job], t: float, running: bool) -> list[_First]:
    """Each user association's first job the decay pass at ``t`` weighs, in job-list order.
    A pending job, a running one too with ``running`` (``CALCULATE_RUNNING``); not a held
    job nor one of an admin-set priority (``_get_priority_internal`` returns before the
    factors), nor one submitted after the pass; a ``parent`` association's jobs take their
    account's usage, set when the pass starts."""
    by_pair: dict[tuple[str, str | None], tuple[tuple[int, ...], bool]] = {}
    for job in queue:
        own = job.status == "running"
        if not (job.status == "idle" or (own and running)) or job.admin_priority is not None:
            continue
        place = _list_place(job.id)
        if place is None or (job.submit_time is not None and job.submit_time > t):
            continue
        pair = (job.owner, job.account)
        known = by_pair.get(pair)
        if known is None or (place, own) < known:
            by_pair[pair] = (place, own)
    first: dict[int, _First] = {}
    for (owner, account), (place, own) in by_pair.items():
        a = tree.user_assoc(job_user(owner), account)
        if a is None or a.is_parent_mode:
            continue
        if id(a) not in first or (place, own) < first[id(a)][:2]:
            first[id(a)] = (place, own, a)
    return sorted(first.values(), key=lambda f: f[:2])


def users_mid_pass(
    tree: AssocTree,
    queue: Iterable[Job],
    charges: list[tuple[su.UsageKey, str | None, float]],
    t: float,
    flags: Sequence[str],
) -> list[tuple[Assoc, float]]:
    """Classic: the normalised usage of each user association whose first job the decay
    pass at ``t`` weighs comes before a job it charges, as the pass computes it
    (``(assoc, usage_norm)``); ``tree`` holds the usage the pass started from,
    ``charges`` what it charged (:func:`pass_charges`).

    The pass (``_decay_thread``) resets users' effective usage, then walks the job list
    charging each running job and weighing each pending one (:func:`_first_weighed`);
    ``_get_fairshare_priority`` computes a user's usage at its first such job
    (``priority_p_set_assoc_usage``: its usage over root's as they then stand), which its
    later jobs and sshare reuse. Users of no job so weighed get theirs after the pass, as
    sshare asks, and so do those whose first job comes after every charge (left out here).
    A charge of no job id is taken as first. One walk of both lists in job-list order, the
    charges so far summed exactly at each user (``math.fsum``), the list of them compacted
    to the :func:`~fairshare_cli.core.slurm.passes.partials` of its sum past
    :data:`WALK_COMPACT` (so a walk of few charges makes none).
    """
    running = "CALCULATE_RUNNING" in ",".join(flags).upper()
    placed: list[tuple[tuple[int, ...], su.UsageKey, float]] = []
    base: dict[su.UsageKey, list[float]] = {}  # (charges of no job id: taken as first)
    for key, job, amount in charges:
        place = _list_place(job)
        if place is None:
            base.setdefault(key, []).append(amount)
        else:
            placed.append((place, key, amount))
    placed.sort(key=lambda c: c[0])
    unplaced = math.fsum(math.fsum(v) for v in base.values())
    so_far: list[float] = []  # (the charges walked, all users', and each user's)
    by_key: dict[su.UsageKey, list[float]] = {}
    out: list[tuple[Assoc, float]] = []
    i, n = 0, len(placed)
    for place, own, a in _first_weighed(tree, queue, t, running):
        while i < n and (placed[i][0] < place or (own and placed[i][0] == place)):
            _, k, amount = placed[i]
            so_far.append(amount)
            by_key.setdefault(k, []).append(amount)  # (summed once: at its user, if any)
            i += 1
        if i == n:
            break
        if len(so_far) > WALK_COMPACT:
            so_far[:] = partials(so_far)
        key = (a.account, a.user or "")
        root = tree.root.usage_raw + unplaced + math.fsum(so_far)
        mine = a.usage_raw + math.fsum(base.get(key, ())) + math.fsum(by_key.get(key, ()))
        norm = mine / root if root else 0.0
        out.append((a, 1.0 if norm > 1.0 else norm))
    return out


def evaluate(
    config: Config, state: su.SlurmUsage, now: float, queue: Iterable[Job] | None = None
) -> tuple[float, AssocTree]:
    """The tree with usage and fair share as the last decay pass before ``now`` left them.

    Returns the pass time (what sprio's ages count to) and the computed tree. Classic
    and depth-oblivious fair share over usage / root usage take the accounts' usage from
    the start of that pass (:func:`usage_before_charges`), the users' as it stands; with
    ``queue`` (the state's jobs, in any order), classic takes a user's as the pass computed
    it at the user's first job in slurmctld's job list (:func:`users_mid_pass`). Under
    ``priority/basic`` no pass runs: the usage stays as stored, neither decayed nor charged.

    Raises:
        ConfigError: the account tree is invalid.
    """
    tree = tree_from_config(config)
    params = decay_params(config)
    basic = config.priority.type == "basic"  # (no pass: nothing charged before it either)
    t, usage = (now, dict(state.usage)) if basic else su.usage_at(state, now, params)
    algo = algorithm(config)
    pass_usage = None
    mid_pass: list[tuple[Assoc, float]] = []
    stale = algo in STALE_ACCOUNT_USAGE and config.priority.usage_normalization == "total"
    if stale and not basic:
        charges = pass_charges(state, t, params)
        before = usage_before_charges(state, t, usage, now, params, charges)
        if before is not None:
            set_usage(tree, before)
            pass_usage = [a.usage_raw for a in tree.assocs]
            if algo == "classic" and queue is not None:
                mid_pass = users_mid_pass(tree, queue, charges, t, config.priority.flags)
    set_usage(tree, usage)
    capacity = None
    if config.priority.usage_normalization == "capacity":
        hl = config.priority.decay_halflife
        size = cluster_size(config)
        if size.cpus and hl > 0 and not math.isinf(hl):
            capacity = size.cpus * hl * 2.0
    damp = config.priority.dampening_factor
    compute_fairshare(tree, algo, dampening_factor=damp, capacity=capacity, pass_usage=pass_usage)
    for a, norm in mid_pass:
        renormalise_user(tree, a, norm, damp)
    return t, tree
