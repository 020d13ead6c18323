"""The cycle's frozen inputs: slots and slot classes, autoclusters, compiled expressions.

Built once at the start of a cycle (``Matchmaker::negotiationTime`` before the first pie
spin: the startd ads with their slot weights, ``addRemoteUserPrios``, the submitters and
their queues) and never changed after; the changing state lives in :mod:`.state`. The
exceptions are pointers and caches kept on the objects for speed: a slot class's ``head``,
an autocluster's ``ptr`` and its candidate lists, and the submitters' runs (the queue the
pie spins work through).

A simulation builds the slots of its pool once (:class:`~.frozen_pool.FrozenPool`) and
each cycle gives them its claims, instead of expanding the stanzas again.

Scale: slots fall into slot classes (same machine stanza, same claim state, same values of
the per-slot attributes any expression reads), so Requirements and ranks are evaluated once
per (autocluster, slot class) pair through :mod:`fairshare_cli.core.htcondor.classads`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.concurrency import LimitCounts, limit_expr_refs, parse_limits
from fairshare_cli.core.htcondor.groups import ROOT, GroupTree, assigned_group
from fairshare_cli.core.htcondor.negotiator.claimed_values import (
    ClaimedValues,
    add_remote_group_attrs,
    remote_group_quotas,
)
from fairshare_cli.core.htcondor.negotiator.frozen_pool import (
    SLOT_FIELD,
    ClassOfSlot,
    FrozenPool,
    SlotKey,
    unclaimed_key,
)
from fairshare_cli.core.htcondor.negotiator.job_constraint import compile_constraint, unoffered
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    claims_weigher,
    fresh_slots,
    held_claim_weigher,
)
from fairshare_cli.core.htcondor.negotiator.pool_size import class_sizes, slot_counts, weigh_pool
from fairshare_cli.core.htcondor.negotiator.queue import (
    SUBMITTER_ATTRS,
    group_queue,
    job_ad,
    job_limits,
    job_names,
    make_submitters,
    scan_jobs,
)
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs, SubmitterPrio
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.negotiator.slot_constraint import fetch
from fairshare_cli.core.htcondor.negotiator.slots import (
    CLAIM_ATTRS,
    PER_SLOT,
    Slot,
    SlotClass,
    SlotExprs,
    compile_slot_exprs,
    slot_ad,
    slot_values,
    slot_weight,
    stanza_slot_names,
    within_resource_limits,
)
from fairshare_cli.core.htcondor.negotiator.submitter_constraint import submitter_list
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import ConfigError, InputError

_CLAIM_LIMITS = attrgetter("concurrency_limits")
_SUBMITTER = attrgetter("submitter")


@dataclass(frozen=True)
class CycleInputs:
    """What a cycle reads (:func:`~.cycle.negotiate_cycle`'s arguments but its options).

    Attributes:
        machines: the ``[[machines]]`` stanzas.
        claims: slots held by running jobs.
        jobs: the queue (jobs or batches of identical jobs), read once.
        submitter_of: the accountant's submitter name of a job.
        priorities: the accountant's view of a submitter at ``now``.
        tree: the group tree, or None without groups.
        knobs: negotiator settings.
        now: the cycle time (epoch seconds).
        last_quotas: the group quotas the last cycle stored (``groupQuotasHash``), if any.
    """

    machines: Sequence[MachineSpec]
    claims: Iterable[Claim]
    jobs: Iterable[Job | JobBatch]
    submitter_of: Callable[[Job], str]
    priorities: Callable[[str], SubmitterPrio]
    tree: GroupTree | None
    knobs: NegotiatorKnobs
    now: float
    frozen: FrozenPool | None = None
    running: RunningJobs | None = None
    last_quotas: Mapping[str, float] | None = None


class Snapshot:
    """Everything a cycle reads and never changes (see the module docstring).

    Attributes:
        slot_exprs: (stanza, claimed) -> the negotiator's slot-scope expressions.
        refs: attribute names read by matching and ranking (not by the preemption knobs).
        held: the claimed slots, in pool order.
        slot_class: pool index of a slot -> its class.
        pool_weight: the pie's slot total (:attr:`.PoolSize.pie`), before any match.
        quota_pool: what group quotas share (:attr:`.PoolSize.quota`).
        min_weight: the smallest slot weight (``minSlotWeight``).
        limit_counts: the concurrency limits the claims hold as the cycle starts.
        matchable: how many slots a job may be matched to (every slot, or only the
            unclaimed ones when ``consider_preemption`` is off).
        unoffered: the autoclusters whose jobs the schedd does not offer (:mod:`.job_constraint`).
        submitters: the queue, by submitter name: each one's idle jobs as runs in job
            order. The runs' positions, stop reasons and summaries are the pie spins' to
            change (see :mod:`.pie`).
        demand: submitter -> running work + idle jobs (by CPUs with weighted demand).
        arrival: the submitters by their first idle jobs, then running work alone
            (:mod:`.submitter_constraint`): the collector's order of the ads it sends, as fs has it.
        usage: submitter -> weighted resources in use at the start of the cycle.
        group_usage: group -> Σ of its submitters' ``usage``.
    """

    def __init__(self, inputs: CycleInputs, reference: bool) -> None:
        machines, tree, knobs = inputs.machines, inputs.tree, inputs.knobs
        priorities = inputs.priorities
        self.knobs = knobs
        self.legacy = knobs.profile == "legacy"
        self.reference = reference
        self.now = inputs.now
        self.last_quotas = inputs.last_quotas
        self.priorities = priorities
        self.tree = tree if (tree is not None and len(tree.groups) > 1) else None
        self._group_of: dict[str, str] = {}
        frozen = inputs.frozen
        if frozen is not None and (frozen.machines is not machines or knobs.slot_constraint):
            frozen = None  # (a constraint that leaves slots out: built fresh each cycle)
        self.frozen = frozen
        self.ev = Evaluator(None if self.frozen is None else self.frozen.compiled)
        self.claimed_values = ClaimedValues(machines, self.ev, self.now, priorities, self.group_of)
        self.empty = Ad({}, {}, self.ev, "empty")
        self.stanza_names = [spec.name for spec in machines]
        self.machines = machines
        running, claims = inputs.running, list(inputs.claims)
        if running is None or running.submitter_of is not inputs.submitter_of:
            weigh = claims_weigher(claims, machines, knobs.slot_weight, inputs.now)
            weigh_claim = held_claim_weigher(machines, knobs.slot_weight, inputs.now)
            running = RunningJobs(inputs.submitter_of, weigh, weigh_claim=weigh_claim)
            if inputs.running is not None:
                for job_id, job in inputs.running.jobs.items():
                    running.add(job_id, job)
        #: the slots the collector did not send (:mod:`.slot_constraint`)
        self._fresh, self.left_out, self._fetched = fetch(
            self.ev, machines, knobs, claims, running, self.now
        )
        refs, rank_refs, preempt_refs = self._compile_slot_side(machines)
        idle, texts = scan_jobs(inputs.jobs, running)
        names = job_names(idle)
        for (req, rank), job_id in texts.items():
            for what, text in (("requirements", req), ("rank", rank)):
                c = self.ev.compile(text, names, f"job {job_id} {what}", InputError)
                refs.update(c.my_refs)
                refs.update(c.target_refs)
        refs.update(limit_expr_refs(self.ev, idle, names))
        offer = compile_constraint(self.ev, knobs.job_constraint, names, refs)
        self.refs = frozenset(refs | rank_refs)
        self.unclaimed_per_submitter = any(r in SUBMITTER_ATTRS for r in self.refs)
        self.all_refs = frozenset(self.refs | preempt_refs)
        #: what splits claimed slots into classes: the negotiator's ranks and preemption
        #: knobs are evaluated on candidates alone, so they count only when a claimed slot
        #: can be one
        self.claimed_refs = self.all_refs if self._claimed_can_match else frozenset(refs)
        self._build_slots(machines, claims, running.jobs)
        self.limit_counts = self._claimed_limits(claims, running, inputs.submitter_of)
        kept = self.frozen.autoclusters if self.frozen is not None else None
        self.autoclusters, queued, self.demand = group_queue(
            idle, running, claims, self.ev, self.refs, inputs.submitter_of, knobs, kept
        )
        self.submitters = make_submitters(
            queued, self.demand, priorities, self.group_of, self.legacy
        )
        self.arrival = submitter_list(self.ev, knobs, self.submitters)
        self.unoffered = unoffered(self.ev, offer, self.autoclusters, self.empty)
        del queued  # the runs hold the batches now
        self.usage, self.group_usage = self._usage(claims)
        self._add_remote_group_attrs()

    def group_of(self, submitter: str) -> str | None:
        """The submitter's group (None without group quotas)."""
        if self.tree is None:
            return None
        found = self._group_of.get(submitter)
        if found is None:
            found = self._group_of[submitter] = assigned_group(self.tree, submitter).name
        return found

    def _compile_slot_side(
        self, machines: Sequence[MachineSpec]
    ) -> tuple[set[str], set[str], set[str]]:
        """Compile the negotiator's slot-scope expressions for unclaimed and claimed slot
        shapes, and every stanza's START and RANK; return the attribute names they read:
        matching and weighing, the negotiator's ranks, preemption.

        Raises:
            ConfigError: one does not parse.
        """
        self.slot_exprs: dict[tuple[int, bool], SlotExprs] = {}
        refs: set[str] = set()
        rank_refs: set[str] = set()
        preempt_refs: set[str] = set()
        #: whether a claimed slot can ever be matched (see :meth:`_never_taken`)
        self._claimed_can_match = False
        for i, spec in enumerate(machines):
            fetched = i in self._fetched  # (the refs of a stanza the collector sent)
            for claimed in (False, True):
                exprs = compile_slot_exprs(self.ev, self.knobs, stanza_slot_names(spec, claimed))
                self.slot_exprs[(i, claimed)] = exprs
                for target, c in (
                    (rank_refs, exprs.pre),
                    (rank_refs, exprs.post),
                    (refs, exprs.weight),
                    (preempt_refs, exprs.preq),
                    (preempt_refs, exprs.prank),
                ):
                    if c is not None and fetched:
                        target.update(c.my_refs)
                        target.update(c.target_refs)
            stanza = stanza_slot_names(spec, False)
            limits = within_resource_limits(spec)
            for what, text in (("start", spec.start), ("rank", spec.rank), ("limits", limits)):
                where = f"machine {spec.name} {what}"
                c = self.ev.compile(text or "true", stanza, where, ConfigError)
                if not fetched:
                    continue
                refs.update(c.my_refs)
                refs.update(c.target_refs)
                if what == "rank" and (c.my_refs or c.target_refs):
                    self._claimed_can_match = True
            if fetched and not self._never_taken(self.slot_exprs[(i, True)]):
                self._claimed_can_match = True
        return refs, rank_refs, preempt_refs

    def _never_taken(self, exprs: SlotExprs) -> bool:
        """Whether ``PREEMPTION_REQUIREMENTS`` on a claimed slot reads nothing and is not
        true: no priority preemption. With a machine ``RANK`` that reads nothing (no rank
        preemption either) such a slot is never a candidate, and the preemption knobs
        (``PREEMPTION_RANK``, ...) are never evaluated on it (:mod:`.preemption`)."""
        preq = exprs.preq
        if preq is None or preq.my_refs or preq.target_refs:
            return False
        return not self.ev.is_true(preq, self.empty, self.empty)

    def _build_slots(
        self, machines: Sequence[MachineSpec], claims: list[Claim], running: dict[str, Job]
    ) -> None:
        """Every slot, its claim, and the slot classes with their ads and weights.

        A class is made for the first slot of its key in pool order, and the classes are
        in the order of their first slots. On a frozen pool only the claimed slots are
        visited one by one; the free ones come grouped by key (:meth:`FrozenPool.free_slots`).
        """
        frozen = self.frozen
        per_slot = [a for a in PER_SLOT if a in self.all_refs]
        claimed_per_slot = [a for a in PER_SLOT if a in self.claimed_refs]
        self.classes: list[SlotClass] = []
        self._class_by_key: dict[SlotKey, SlotClass] = {}
        #: (stanza, claimed) -> the last slot ad built in full (:meth:`.Ad.like`)
        self._last_ad: dict[tuple[int, bool], Ad] = {}
        claim_attrs = [a for a in CLAIM_ATTRS if a in self.claimed_refs]
        # a claimed slot's holder splits classes only where something can read it: a claim
        # attribute, or a search of candidates (whose own holder it may not preempt)
        by_holder = self._by_holder = self._claimed_can_match or bool(claim_attrs)
        if frozen is not None:
            frozen.claimed_slots(claims, running)
            self.slots: list[Slot] = frozen.slots
            groups, held_keys = (
                frozen.held_groups(claimed_per_slot, by_holder) if not claim_attrs else ({}, {})
            )
            self.slot_class: dict[int, SlotClass] = ClassOfSlot(
                frozen.unclaimed_keys(per_slot), self._class_by_key, held_keys, self.slots
            )
            self.held: list[Slot] | None = None
            if claim_attrs:
                self._add_claimed(self.held_slots(), running, claim_attrs, claimed_per_slot)
            else:  # a class per group of claimed slots, made in pool order
                for key, group in sorted(
                    ((k, g) for k, g in groups.items() if g), key=lambda kg: kg[1][0].index
                ):
                    first = group[0]
                    assert first.claim is not None
                    values = self.claimed_values.values(first, first.claim, running)
                    self._new_class(key, first, values).slots = group  # the pool's, read
            for key, free in frozen.free_slots(per_slot).items():
                if free:
                    self._new_class(key, free[0], None).slots = free  # the pool's, read
            self.classes.sort(key=SlotClass.first_index)
            for i, made in enumerate(self.classes):
                made.index = i
        else:
            self.slots = self._fresh or fresh_slots(machines, claims, running)
            self.held = [slot for slot in self.slots if slot.claim is not None]
            self.slot_class = {}
            for slot in self.slots:
                if slot.index in self.left_out:
                    continue  # (never claimed: the collector did not send it)
                if slot.claim is not None:
                    self._add_claimed([slot], running, claim_attrs, claimed_per_slot)
                    continue
                key = unclaimed_key(slot, per_slot)
                cls = self._class_by_key.get(key)
                if cls is None:
                    cls = self._new_class(key, slot, None)
                cls.slots.append(slot)
                self.slot_class[slot.index] = cls
        self._weigh_pool()

    def _add_claimed(
        self, held: list[Slot], running: dict[str, Job], claim_attrs: list[str], per_slot: list[str]
    ) -> None:
        """Put each claimed slot in its class (made for the first slot of its key).

        Hot loop: once per claimed slot per cycle (``benchmarks/bench_simulate.py``
        busy-week); :meth:`.ClaimedValues.key` written out for a plain stanza.
        """
        claimed = self.claimed_values
        plain = claimed.plain_stanzas
        by_key, slot_class = self._class_by_key, self.slot_class
        fields = [SLOT_FIELD[a] for a in per_slot]
        for slot in held:
            claim = slot.claim
            assert claim is not None
            stanza = slot.stanza
            values = None
            if not claim_attrs:
                claimed_key: tuple[object, ...] = ()
            elif stanza in plain:
                claimed_key = claimed.claim_key(stanza, claim, running, claim_attrs)
            else:
                claimed_key, values = claimed.key(slot, claim, running, claim_attrs)
            holder = claim.submitter if self._by_holder else None
            key: SlotKey = (stanza, holder, claimed_key, slot.resources)
            if fields:
                key = (*key, tuple([getattr(slot, f) for f in fields]))
            cls = by_key.get(key)
            if cls is None:
                if values is None:
                    values = claimed.values(slot, claim, running)
                cls = self._new_class(key, slot, values)
            cls.slots.append(slot)
            slot_class[slot.index] = cls

    def _new_class(self, key: SlotKey, slot: Slot, values: dict[str, object] | None) -> SlotClass:
        """A new slot class for ``key``, its ad made from ``slot`` (an unclaimed slot's
        values made here; a claimed slot's given) and its weight evaluated."""
        spec = self.machines[slot.stanza]
        claim = slot.claim
        if values is None:
            values = slot_values(spec, slot, self.now)
        shape = (slot.stanza, claim is not None)
        last = self._last_ad.get(shape)
        ad = last.like(values) if last is not None else None
        if ad is None:  # the first of its stanza and claim state, or other names
            ad = self._last_ad[shape] = slot_ad(spec, values, self.ev)
        expr = self.slot_exprs[shape].weight
        weight = slot_weight(self.ev, expr, ad, self.empty)
        cls = SlotClass(len(self.classes), ad, weight, claim is not None)
        holder = key[1]  # a claimed class split by holder: its holder (else None)
        cls.remote = holder if isinstance(holder, str) else None
        cls.partitionable = slot.partitionable
        self.classes.append(cls)
        self._class_by_key[key] = cls
        return cls

    def held_slots(self) -> list[Slot]:
        """The claimed slots, in pool order (listed on the first ask on a frozen pool)."""
        if self.held is None:
            assert self.frozen is not None
            self.held = self.frozen.held_slots()
        return self.held

    def _claimed_limits(
        self, claims: list[Claim], running: RunningJobs, submitter_of: Callable[[Job], str]
    ) -> LimitCounts:
        """The concurrency limits the claims hold as the cycle starts (``LoadLimits``: the
        slot's ``ConcurrencyLimits``, the job's evaluated against the slot it runs on)."""
        knobs = self.knobs
        counts = LimitCounts(
            knobs.concurrency_limits,
            knobs.concurrency_limit_default,
            knobs.concurrency_limit_scope_defaults,
        )
        frozen = self.frozen
        limited = frozen.limited if frozen is not None else any(map(_CLAIM_LIMITS, claims))
        if not running.limited and not limited:
            return counts  # no claim nor running job holds a limit
        for slot in self.held_slots():
            claim = slot.claim
            assert claim is not None
            if claim.concurrency_limits is not None:
                counts.add(parse_limits(claim.concurrency_limits))  # the slot ad's
                continue
            job = running.jobs.get(claim.job_id)
            if job is None:
                continue
            if job.concurrency_limits:
                counts.add(parse_limits(job.concurrency_limits))
            elif job.concurrency_limits_expr:
                ad = job_ad(self.ev, job, submitter_of(job))
                limits, expr = job_limits(self.ev, job, ad)
                if expr is not None:
                    value = self.ev.evaluate(expr, ad, self.slot_class[slot.index].ad)
                    limits = parse_limits(value) if isinstance(value, str) else ()
                counts.add(limits)
        return counts

    def _weigh_pool(self) -> None:
        """The pool's sizes (:mod:`.pool_size`) and its smallest slot weight, the matchable
        slots."""
        knobs = self.knobs
        use_weights = knobs.use_slot_weights
        weights = [c.weight for c in self.classes]
        frozen = self.frozen
        fetched = [s for s in self.slots if s.index not in self.left_out] if self.left_out else None
        open_pslots, effective = (
            slot_counts(fetched or self.slots) if frozen is None else frozen.counts()
        )
        if knobs.slot_poolsize_constraint is None and knobs.slot_constraint is None:
            sizes = class_sizes(self.classes, self.slots, self.slot_class, effective, use_weights)
        else:
            compiled = frozen.compiled if frozen is not None else None
            sizes = weigh_pool(self.machines, self.slots, knobs, self.now, compiled, self.left_out)
        self.pool_weight, self.quota_pool = sizes
        self.min_weight = min(weights) if (weights and use_weights) else 1.0
        self.unclaimed_classes = [c for c in self.classes if not c.claimed]
        self.claimed_classes = [c for c in self.classes if c.claimed]
        if not knobs.consider_preemption:
            # trimStartdAds_PreemptionLogic: claimed slots leave the cycle's candidates
            # (after the pool's weight and smallest weight were taken, untrimmed)
            self.claimed_classes = []
        self.matchable = sum(
            len(c.slots) for c in self.unclaimed_classes if not c.partitionable
        ) + sum(len(c.slots) for c in self.claimed_classes)
        # a partitionable slot stays matchable until nothing is left of it
        self.matchable += open_pslots
        #: whether the pool has partitionable slots (a match on one carves a dynamic slot)
        self.partitionable = (
            any(s.partitionable for s in self.slots) if frozen is None else frozen.partitionable
        )
        #: bumped whenever a match changes a partitionable slot (candidate lists go stale)
        self.generation = 0

    def _usage(self, claims: list[Claim]) -> tuple[dict[str, float], dict[str, float]]:
        """Weighted usage at the start of the cycle, by submitter and by group: the
        accountant's, for every submitter that wants slots or holds one."""
        usage: dict[str, float] = {}
        for name in sorted(self.demand):
            usage[name] = self.priorities(name).weighted_in_use
        frozen = self.frozen
        holders = frozen.holders.keys() if frozen is not None else set(map(_SUBMITTER, claims))
        if holders - usage.keys():
            for slot in self.held_slots():  # holders with no jobs left still count as users
                assert slot.claim is not None
                holder = slot.claim.submitter
                if holder not in usage:
                    usage[holder] = self.priorities(holder).weighted_in_use
        group_usage: dict[str, float] = {}
        for name, value in usage.items():
            g = self.group_of(name) or ROOT
            group_usage[g] = group_usage.get(g, 0.0) + value
        return usage, group_usage

    def _add_remote_group_attrs(self) -> None:
        """``RemoteGroup``, ``RemoteGroupResourcesInUse`` and ``RemoteGroupQuota`` on claimed
        slots (``Matchmaker::addRemoteUserPrios``, seed §3.4.3, reference §5.6).

        Set only with group quotas in effect, for every running submitter — ``<none>``
        included, as HTCondor's group table holds the root. The usage is the group's at the
        start of the cycle; the quota the last cycle's (:func:`remote_group_quotas`). Slot
        weights were computed before, as HTCondor sums them before it adds these attributes.
        """
        tree, last = self.tree, self.last_quotas
        if tree is None or not self.claimed_classes:
            return
        oversub = self.knobs.quotas.allow_quota_oversubscription
        quotas = remote_group_quotas(tree, self.quota_pool, oversub, last)
        where = [f"machine {name}" for name in self.stanza_names]
        add_remote_group_attrs(
            self.claimed_classes, quotas, self.group_of, self.group_usage, self.ev, where
        )
