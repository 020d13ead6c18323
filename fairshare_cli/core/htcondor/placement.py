"""Running work holds slots: place it as claims, and make the accountant agree.

Wherever running work comes in (a history record without an end, ``condor_q`` running
jobs, ``condor_status`` claimed slots, ``fs submit`` of a running job) it must hold a slot,
or the negotiator hands the same slot out again. :func:`place_running` puts each piece on
the slot its source names, else on the first free slot that matches it (configuration
order; ``Cpus`` at least its CPUs, its ``requirements`` and the slot's ``start`` true), and
returns what found no slot so the caller can warn.

:func:`charge_claims` then mirrors ``Accountant::CheckMatches``: the negotiator rebuilds
each submitter's resources in use from the claimed slot ads it sees, so a submitter's
weighted use is at least what its claims weigh. Use already recorded (a usage history
replayed from the job's start, a ``condor_userprio`` dump) is not charged twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config, MachineSpec, in_partition
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.negotiator import Claim, expand_slots
from fairshare_cli.core.htcondor.negotiator.partitionable import parent_name, totals
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.node_placement import SlurmNodes
from fairshare_cli.core.htcondor.pslot_placement import DynamicWeigher, PartitionablePool
from fairshare_cli.core.jobs import Job

#: Job ids of claims held by running usage-history records (``history:<name>:<start>:<n>``).
HISTORY_PREFIX = "history:"


@dataclass(frozen=True)
class Running:
    """One piece of running work that must hold one slot.

    Attributes:
        submitter: the accountant name it is charged to.
        job_id: the job it is (``12.3``), or a made-up id naming its source.
        start_time: when it started (epoch seconds).
        slot: the slot its source names (``slot1@x01``), if any.
        job: the job, whose ``requirements`` and ``request_cpus`` a free slot must meet.
        cpus: CPUs it needs when there is no job.
        label: names it in a warning (``history line 12``, ``job 12.3``).
        charged: slot weight the accountant already charges for it (a replayed history
            record); if it finds no slot, that use stops at ``now`` (``RemoveMatch``).
    """

    submitter: str
    job_id: str
    start_time: float
    slot: str | None = None
    job: Job | None = None
    cpus: int = 1
    label: str = ""
    charged: float = 0.0
    #: What its dynamic slot has (``Cpus``, ``Memory``, ``Disk``), when the source says.
    resources: tuple[tuple[str, float], ...] = ()
    #: How many slots' use it stands for: more than one only for the part of a record the
    #: pool has no room for (see :func:`pool_room`), which is never placed.
    slots: int = 1
    #: The slot ad's ``ConcurrencyLimits`` when the source says (its claim holds them).
    concurrency_limits: str | None = None
    #: Slurm work: the partition it runs in (``""``: any node), placed as slurmctld places
    #: it (:mod:`~fairshare_cli.core.htcondor.node_placement`); None: HTCondor work.
    partition: str | None = None


@dataclass(frozen=True)
class Placement:
    """Claims after placing running work, the new ones, and the work that found no slot."""

    claims: dict[str, Claim]
    new: tuple[Claim, ...] = ()
    unplaced: tuple[Running, ...] = ()
    moved: tuple[tuple[Running, str], ...] = field(default_factory=tuple)
    displaced: tuple[Claim, ...] = ()
    #: Slurm work placed on a node whose slots were all held: it runs beside the work
    #: there, with no claim of its own (with the node's first slot).
    beside: tuple[tuple[Running, str], ...] = ()


class _Slots:
    """The configured slots, their ads (built lazily) and a name index."""

    def __init__(self, machines: Sequence[MachineSpec], now: float) -> None:
        self.machines = machines
        self.now = now
        self.ev = Evaluator()
        self._ads: dict[str, Ad] = {}
        self.cursor = 0  # every slot before it is claimed

    @cached_property
    def order(self) -> list[tuple[int, str, str, int]]:
        """The static slots in configuration order: (stanza, name, machine, slot id)
        (listed on first use: filling leftovers reads only partitionable slots' ads)."""
        machines = self.machines
        return [
            (stanza, f"slot{k}@{machine}", machine, k)
            for stanza, machine, k in expand_slots(machines)
            if not machines[stanza].partitionable  # work holds dynamic slots of those
        ]

    @cached_property
    def by_name(self) -> dict[str, str]:
        """A static slot's name as configured, by its name in lower case."""
        return {name.lower(): name for _, name, _, _ in self.order}

    def first_free(self, item: Running, claims: Mapping[str, Claim]) -> str | None:
        """The first slot, in configuration order, that no claim holds and ``item`` fits.

        The search starts after the leading run of claimed slots (kept across calls), so
        placing many pieces of work stays linear in the pool.
        """
        order = self.order
        while self.cursor < len(order) and order[self.cursor][1] in claims:
            self.cursor += 1
        for i in range(self.cursor, len(order)):
            stanza, name, machine, k = order[i]
            if name not in claims and _fits(item, self.ad(stanza, name, machine, k), self):
                return name
        return None

    def pslot_ad(self, slot: Slot) -> Ad:
        """A partitionable slot's ad (its totals: ``fits`` checks requirements and start)."""
        return self.ad(slot.stanza, slot.name, slot.machine, slot.slot_id)

    def ad(self, stanza: int, name: str, machine: str, slot_id: int) -> Ad:
        found = self._ads.get(name)
        if found is None:
            spec = self.machines[stanza]
            values: dict[str, object] = dict(spec.attributes)
            values.update(
                {
                    "Name": name,
                    "Machine": machine,
                    "SlotID": slot_id,
                    "State": "Unclaimed",
                    "Activity": "Idle",
                    "CurrentTime": int(self.now),
                    "MyCurrentTime": int(self.now),
                    "EnteredCurrentState": int(self.now),
                }
            )
            found = Ad(values, {"Requirements": spec.start or "true"}, self.ev, f"slot {name}")
            self._ads[name] = found
        return found


def _job_ad(job: Job, submitter: str, ev: Evaluator) -> Ad:
    values: dict[str, object] = dict(job.attributes)
    values.update(
        {
            "Owner": job.owner,
            "User": submitter,
            "NiceUser": bool(job.nice_user),
            "JobPrio": int(job.job_prio),
            "RequestCpus": job.request_cpus,
            "RequestMemory": job.request_memory,
        }
    )
    return Ad(values, {"Requirements": job.requirements or "true"}, ev, f"job {job.id}")


def _fits(work: Running, slot_ad: Ad, slots: _Slots) -> bool:
    cpus = work.job.request_cpus if work.job is not None else work.cpus
    have = slot_ad.get("cpus")
    if isinstance(have, (int, float)) and not isinstance(have, bool) and have < cpus:
        return False
    if work.job is None:
        return True
    ev = slots.ev
    job_ad = _job_ad(work.job, work.submitter, ev)
    req = job_ad.exprs["requirements"][1]
    start = slot_ad.exprs["requirements"][1]
    return ev.is_true(req, job_ad, slot_ad, cached=False) and ev.is_true(
        start, slot_ad, job_ad, cached=False
    )


def _fits_pslot(work: Running, slots: _Slots, pslot: Slot) -> bool:
    """Whether ``work`` fits a partitionable slot's totals, requirements and start."""
    return _fits(work, slots.pslot_ad(pslot), slots)


def place_running(
    work: Iterable[Running],
    claims: Mapping[str, Claim],
    machines: Sequence[MachineSpec],
    now: float,
    weight_of: Callable[[str], float] = lambda slot: 1.0,
    dynamic_weight: DynamicWeigher = lambda spec, slot: 1.0,
    slurm_running: Iterable[tuple[Job, str]] = (),
) -> Placement:
    """Put running work on slots: the named slot, else the first free slot that fits.

    Work whose job already holds a claim stays where it is (re-importing is harmless). A
    named slot that is configured is taken even if another claim held it (the source is
    newer); a named slot that is not configured falls back to the first free slot. Each
    claim stores the weight it is charged with: what the work was already charged (a
    replayed history record), else ``weight_of`` its slot. Slurm work (a ``partition``)
    goes on its partition's nodes as slurmctld places it, beside the queue's
    ``slurm_running`` jobs, each with the partition it runs in
    (:class:`~fairshare_cli.core.htcondor.node_placement.SlurmNodes`).

    Returns:
        All claims after placement, the new claims, the work that found no slot, the work
        that named an unknown slot but found another (with the slot it got), the claims
        other work took over (their holders no longer use those slots), and the Slurm work
        that runs beside the work on a node's slots (with the node's first slot).
    """
    slots = _Slots(machines, now)
    pslots = PartitionablePool(machines, claims, dynamic_weight)
    work = list(work)
    placing = {item.job_id for item in work}
    nodes = SlurmNodes(machines, claims, (r for r in slurm_running if r[0].id not in placing))
    out = dict(claims)
    by_job = {c.job_id: c for c in out.values() if c.job_id}
    new: list[Claim] = []
    unplaced = [item for item in work if item.slots > 1]
    moved: list[tuple[Running, str]] = []
    displaced: list[Claim] = []
    beside: list[tuple[Running, str]] = []
    for item in work:
        if item.slots > 1 or (item.job_id and item.job_id in by_job):
            continue  # more than the pool can hold (unplaced, below), or held already
        carved: tuple[tuple[str, float], ...] = ()
        dynamic = pslots.named(item) if pslots else None
        target = _named_slot(item, slots, nodes)
        if dynamic is None and target is None:
            target, dynamic, shared = _free_place(item, slots, pslots, nodes, out)
            if shared is not None:
                beside.append((item, shared))
                continue
            if target is None and dynamic is None:
                unplaced.append(item)
                continue
            if item.slot:
                moved.append((item, dynamic[0] if dynamic else str(target)))
        if dynamic is not None:
            target, carved = dynamic
        assert target is not None
        old = out.get(target)
        if old is not None and (old.submitter, old.job_id) == (item.submitter, item.job_id):
            continue  # the same claim again
        if old is not None:
            displaced.append(old)
        if item.charged > 0:
            weight = item.charged
        else:
            weight = pslots.weight(target, carved) if carved else weight_of(target)
        claim = Claim(
            target, item.submitter, item.job_id, item.start_time, weight, carved,
            item.concurrency_limits,
        )  # fmt: skip
        out[target] = claim
        if item.job_id:
            by_job[item.job_id] = claim
        new.append(claim)
    return Placement(out, tuple(new), tuple(unplaced), tuple(moved), tuple(displaced),
                     tuple(beside))  # fmt: skip


def _named_slot(item: Running, slots: _Slots, nodes: SlurmNodes) -> str | None:
    """The configured static slot ``item`` names, if any; for Slurm work, only a slot of
    a node of its partition (another is moved, as an unknown one is)."""
    target = slots.by_name.get(item.slot.lower()) if item.slot else None
    return target if target is None or nodes.may_hold(target, item.partition) else None


def _free_place(
    item: Running,
    slots: _Slots,
    pslots: PartitionablePool,
    nodes: SlurmNodes,
    claims: Mapping[str, Claim],
) -> tuple[str | None, tuple[str, tuple[tuple[str, float], ...]] | None, str | None]:
    """Where work that names no slot goes: (a free static slot, a dynamic slot carved on
    a partitionable one, the first slot of a node whose slots are all held: Slurm work
    runs beside the work there); all None when nothing fits.

    HTCondor work takes the first free slot that fits, else a dynamic slot; Slurm work
    a node of its partition with its CPUs free (:class:`SlurmNodes`), else a dynamic slot
    on a partitionable machine of its partition.
    """
    if item.partition is None:
        target = slots.first_free(item, claims)
        if target is None and pslots:
            return None, pslots.first_free(item, partial(_fits_pslot, item, slots)), None
        return target, None, None
    partition = item.partition
    cpus = item.job.request_cpus if item.job is not None else item.cpus
    found = nodes.place(partition, cpus, claims)
    if found is not None:
        slot, free = found
        return (slot, None, None) if free else (None, None, slot)
    if not pslots:
        return None, None, None
    machines = slots.machines

    def fits(pslot: Slot) -> bool:
        return in_partition(machines[pslot.stanza], partition) and _fits_pslot(item, slots, pslot)

    return None, pslots.first_free(item, fits), None


def fill_leftovers(
    machines: Sequence[MachineSpec],
    claims: Mapping[str, Claim],
    matched: Iterable[tuple[str, str]],
    idle: Sequence[tuple[JobBatch, str]],
    now: float,
    dynamic_weight: DynamicWeigher,
    pslots: Iterable[tuple[int, str, int]] | None = None,
) -> list[Claim]:
    """The schedd's ``CLAIM_PARTITIONABLE_LEFTOVERS``: after a match on a partitionable
    slot (no consumption policy), the startd hands the claiming schedd what is left, and
    the schedd starts more of the same submitter's idle jobs on it (``FindRunnableJob`` on
    the leftover ad, in the schedd's job order), one dynamic slot each, until none fits.

    Args:
        machines: the ``[[machines]]`` stanzas.
        claims: every claim after the cycle's matches (their dynamic slots carved).
        matched: (dynamic slot, submitter) of each match on a partitionable slot.
        idle: the idle jobs left, as (batch, submitter).
        now: when the jobs start.
        dynamic_weight: ``SLOT_WEIGHT`` of a dynamic slot (what its claim holds).
        pslots: the (stanza, machine, slot id) of the matched partitionable slots, when
            known (else every slot of ``machines`` is listed to find them).

    Returns:
        The new claims, in the order the jobs start.
    """
    slots = _Slots(machines, now)
    pool = PartitionablePool(machines, claims, dynamic_weight, pslots)
    # the schedd's job order (prio_compar in qmgmt.cpp): JobPrio high first, then the id
    idle = sorted(idle, key=lambda item: (-item[0].job.job_prio, item[0].job.cluster_proc))
    out: list[Claim] = []
    taken: dict[int, int] = {}  # idle batch -> how many of its jobs started
    for dslot, submitter in matched:
        found = parent_name(dslot)
        parent = pool.parents.get(found[0].lower()) if found is not None else None
        if parent is None or machines[parent.stanza].consumption_policy:
            continue
        for k, (batch, owner) in enumerate(idle):
            if owner != submitter:
                continue
            while taken.get(k, 0) < batch.count:  # identical jobs: stop at the first misfit
                job = batch.job
                if batch.count > 1:
                    job = replace(job, id=batch.job_id(taken.get(k, 0)))
                work = Running(submitter, job.id, now, slot=parent.name, job=job)
                got = pool.named(work) if _fits_pslot(work, slots, parent) else None
                if got is None:
                    break
                name, carved = got
                out.append(Claim(name, submitter, job.id, now, pool.weight(name, carved), carved))
                taken[k] = taken.get(k, 0) + 1
    return out


def charge_claims(
    state: acct.AccountantState,
    config: Config,
    claims: Iterable[Claim],
    weight_of: Callable[[str], float],
    now: float,
) -> acct.AccountantState:
    """``AddMatch`` what the claims hold beyond each submitter's recorded use.

    Mirrors ``Accountant::CheckMatches``: after it, every submitter's weighted resources in
    use are at least the weight of the slots it holds, and its slot count at least their
    number; use already recorded is not added again.
    """
    weight: dict[str, float] = {}
    count: dict[str, int] = {}
    for c in claims:
        held = c.weight if c.weight is not None else weight_of(c.slot)
        weight[c.submitter] = weight.get(c.submitter, 0.0) + held
        count[c.submitter] = count.get(c.submitter, 0) + 1
    for name in sorted(weight):
        rec = state.get(name)
        have_w = rec.weighted_resources_used if rec is not None else 0.0
        have_n = rec.resources_used if rec is not None else 0
        add_w = weight[name] - have_w
        add_n = count[name] - have_n
        if add_w > 1e-9 or add_n > 0:
            state = acct.add_match(state, config, name, max(add_w, 0.0), now, slots=max(add_n, 0))
    return state


def uncharge_displaced(
    state: acct.AccountantState,
    config: Config,
    displaced: Iterable[Claim],
    weight_of: Callable[[str], float],
    now: float,
) -> acct.AccountantState:
    """``RemoveMatch`` at ``now`` each claim another piece of work took the slot of (the
    weight it was charged with, as its resource record stores it: six decimals)."""
    for claim in displaced:
        held = claim.weight if claim.weight is not None else weight_of(claim.slot)
        state = acct.remove_match(state, config, claim.submitter, acct.as_stored(held), now)
    return state


def uncharge_unplaced(
    state: acct.AccountantState, config: Config, unplaced: Iterable[Running], now: float
) -> acct.AccountantState:
    """``RemoveMatch`` at ``now`` the use charged for work that found no slot.

    Work that holds no slot is not running in the pool's eyes (``CheckMatches`` removes a
    match whose resource is not claimed), so the pool's slots in use never exceed it.
    """
    changes = [
        (item.submitter, -(item.charged * item.slots), -item.slots)
        for item in unplaced
        if item.charged > 0
    ]  # each a remove_match, in turn
    return acct.change_uses(state, config, changes, now) if changes else state


def pool_room(machines: Sequence[MachineSpec]) -> int:
    """The most pieces of running work the configured slots can hold at once: one per
    static slot, one per CPU of a partitionable slot (a dynamic slot has at least one)."""
    room = 0
    for spec in machines:
        per = max(int(dict(totals(spec)).get("Cpus", 1)), 1) if spec.partitionable else 1
        room += spec.count * spec.slots * per
    return room


def claims_by_slot(claims: Iterable[Claim]) -> dict[str, Claim]:
    """Claims keyed by slot name."""
    return {c.slot: c for c in claims}
