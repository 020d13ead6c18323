"""Slots, slot classes, the negotiator's slot-side expressions and slot weights.

A slot's ad is what its startd would publish (``[[machines]]`` attributes, ``Name``,
``SlotID``, ``State``, …, and the claim's ``Remote*`` attributes on a claimed slot); slots
that agree on every value the cycle's expressions read form one :class:`SlotClass`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.classads import slot_weight as weight_of_value
from fairshare_cli.core.htcondor.negotiator.common import float32
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs, SubmitterPrio
from fairshare_cli.errors import ConfigError

#: Slot attributes that differ between slots of one machine stanza.
PER_SLOT = ("name", "machine", "slotid")
#: Slot attributes that describe the claim on a slot (set only on claimed slots).
CLAIM_ATTRS = (
    "remoteuser",
    "remoteowner",
    "accountinggroup",
    "remoteuserprio",
    "remoteuserresourcesinuse",
    "remotegroup",
    "remotegroupresourcesinuse",
    "remotegroupquota",
    "currentrank",
    "enteredcurrentstate",
    "totaljobruntime",
    "jobstart",
    "globaljobid",
)
#: Attributes every slot ad has besides its stanza's (literal or expression).
BASE_SLOT_NAMES = frozenset(
    {"name", "machine", "slotid", "state", "activity", "currenttime"}
    | {"enteredcurrentstate", "mycurrenttime", "requirements", "rank"}
)
#: What partitionable and dynamic slots publish besides (``SlotType``, ...).
PARTITION_NAMES = frozenset({"slottype", "partitionableslot", "dynamicslot"})


#: The resources of the startd's check that a job fits a slot, in its order.
RESOURCES = ("Cpus", "Memory", "Disk")


class Slot:
    """One slot of the pool, in configuration order (``index``)."""

    __slots__ = (
        "children",
        "claim",
        "index",
        "machine",
        "name",
        "parent",
        "partitionable",
        "resources",
        "slot_id",
        "stanza",
    )

    def __init__(self, index: int, stanza: int, machine: str, slot_id: int) -> None:
        self.index = index
        self.stanza = stanza
        self.machine = machine
        self.slot_id = slot_id
        self.name = f"slot{slot_id}@{machine}"
        self.claim: Claim | None = None
        #: A partitionable slot (its ``resources`` are what is left of its totals).
        self.partitionable = False
        #: The ``Cpus``/``Memory``/``Disk`` of a partitionable or dynamic slot (else empty).
        self.resources: tuple[tuple[str, float], ...] = ()
        #: A dynamic slot's partitionable slot (None for any other).
        self.parent: Slot | None = None
        #: A partitionable slot's dynamic slot numbers in use.
        self.children: set[int] = set()


class SlotClass:
    """Slots with the same stanza, claim state and referenced per-slot values.

    Everything here is fixed once the cycle's snapshot is built, except ``head``: the
    number of its slots matched so far this cycle (they are taken in pool order).
    """

    __slots__ = (
        "ad",
        "claimed",
        "head",
        "index",
        "never_preempted",
        "partitionable",
        "preq_slot_true",
        "remote",
        "slots",
        "weight",
    )

    def __init__(self, index: int, ad: Ad, weight: float, claimed: bool) -> None:
        self.index = index
        self.ad = ad
        self.weight = weight
        self.claimed = claimed
        self.slots: list[Slot] = []
        self.head = 0
        self.remote: str | None = None
        self.never_preempted = False
        self.preq_slot_true = True
        #: Its slots are partitionable: a match carves a dynamic slot (``.partitionable``).
        self.partitionable = False

    def first_index(self) -> int:
        """Pool index of its first free slot (a huge number when none is left)."""
        return self.slots[self.head].index if self.head < len(self.slots) else 1 << 62


@dataclass(frozen=True, slots=True)
class SlotExprs:
    """The negotiator's slot-scope expressions, compiled for one slot shape.

    Attributes:
        pre: ``NEGOTIATOR_PRE_JOB_RANK``.
        post: ``NEGOTIATOR_POST_JOB_RANK``.
        weight: ``SLOT_WEIGHT`` (None without slot weights).
        preq: ``PREEMPTION_REQUIREMENTS``.
        prank: ``PREEMPTION_RANK``.
    """

    pre: Compiled | None
    post: Compiled | None
    weight: Compiled | None
    preq: Compiled | None
    prank: Compiled | None


def machine_names(spec: MachineSpec) -> list[str]:
    """Machine names of a stanza: its ``hosts``, else ``exec001`` … (at least three digits)."""
    if spec.hosts:
        return list(spec.hosts)
    width = max(3, len(str(spec.count)))
    return [f"{spec.name}{m:0{width}d}" for m in range(1, spec.count + 1)]


def expand_slots(machines: Sequence[MachineSpec]) -> list[tuple[int, str, int]]:
    """Every slot as ``(stanza index, machine name, slot id)``, in configuration order."""
    out: list[tuple[int, str, int]] = []
    for i, spec in enumerate(machines):
        for machine in machine_names(spec):
            out.extend((i, machine, k) for k in range(1, spec.slots + 1))
    return out


def stanza_slot_names(spec: MachineSpec, claimed: bool) -> frozenset[str]:
    """The attribute names of a slot ad of ``spec`` (lower case), claimed or not."""
    names = BASE_SLOT_NAMES | {k.lower() for k in spec.attributes}
    if spec.partitionable:
        names |= PARTITION_NAMES
    return names | frozenset(CLAIM_ATTRS) if claimed else names


def compile_knob(
    ev: Evaluator, text: str | None, names: frozenset[str], what: str
) -> Compiled | None:
    """A ``[negotiator]`` expression compiled for a slot ad (None when unset or blank).

    Raises:
        ConfigError: the expression does not parse.
    """
    if text is None or not text.strip():
        return None
    return ev.compile(text, names, f"[negotiator] {what}", ConfigError)


def compile_slot_exprs(ev: Evaluator, knobs: NegotiatorKnobs, names: frozenset[str]) -> SlotExprs:
    """The negotiator's slot-scope expressions for slot ads with attribute ``names``.

    Raises:
        ConfigError: one does not parse.
    """
    weight = knobs.slot_weight if knobs.use_slot_weights else None
    return SlotExprs(
        pre=compile_knob(ev, knobs.pre_job_rank, names, "pre_job_rank"),
        post=compile_knob(ev, knobs.post_job_rank, names, "post_job_rank"),
        weight=compile_knob(ev, weight, names, "slot_weight"),
        preq=compile_knob(ev, knobs.preemption_requirements, names, "preemption_requirements"),
        prank=compile_knob(ev, knobs.preemption_rank, names, "preemption_rank"),
    )


def slot_values(spec: MachineSpec, slot: Slot, now: float) -> dict[str, object]:
    """The literal attributes of a slot's ad (an unclaimed one's state included)."""
    values: dict[str, object] = dict(spec.attributes)
    if spec.partitionable:
        _partition_values(values, slot)
    values.update(
        {
            "Name": slot.name,
            "Machine": slot.machine,
            "SlotID": slot.slot_id,
            "CurrentTime": int(now),
            "MyCurrentTime": int(now),
        }
    )
    if slot.claim is None:
        values.update({"State": "Unclaimed", "Activity": "Idle", "EnteredCurrentState": int(now)})
    return values


def _partition_values(values: dict[str, object], slot: Slot) -> None:
    """A partitionable slot's leftover or a dynamic slot's own resources, and its type
    (a slot built without them, outside a cycle, shows the stanza's totals)."""
    if slot.resources:
        for key in [k for k in values if k.lower() in ("cpus", "memory", "disk")]:
            del values[key]  # the stanza's spelling goes: the ad has one of each
        values.update({r: int(v) if float(v).is_integer() else v for r, v in slot.resources})
    if slot.parent is None:
        values.update({"SlotType": "Partitionable", "PartitionableSlot": True})
    else:
        values.update({"SlotType": "Dynamic", "DynamicSlot": True})


def claimed_values(
    spec: MachineSpec, slot: Slot, claim: Claim, prio: SubmitterPrio, owner: str, now: float
) -> dict[str, object]:
    """A claimed slot's literal attributes, but for its group and ``CurrentRank``."""
    values = slot_values(spec, slot, now)
    values.update(claim_values(claim, prio, owner, now))
    return values


def claim_values(claim: Claim, prio: SubmitterPrio, owner: str, now: float) -> dict[str, object]:
    """What a claim adds to its slot's ad (the slot's own attributes aside)."""
    domain = claim.submitter.rsplit("@", 1)[1] if "@" in claim.submitter else ""
    return {
        "State": "Claimed",
        "Activity": "Busy",
        "RemoteUser": claim.submitter,
        "RemoteOwner": f"{owner}@{domain}" if domain else owner,
        # HTCondor stores the remote EUP as a C float (both profiles)
        "RemoteUserPrio": float32(prio.effective_priority),
        # ResourcesInUseByUser(): the accountant's usage as a C float
        "RemoteUserResourcesInUse": float32(prio.weighted_in_use),
        "EnteredCurrentState": int(claim.start_time),
        "JobStart": int(claim.start_time),
        "TotalJobRuntime": int(now - claim.start_time),
        "GlobalJobId": claim.job_id,
    }


def within_resource_limits(spec: MachineSpec) -> str | None:
    """The startd's ``WithinResourceLimits`` for a stanza's slots (None: nothing to check).

    ``MachAttributes::withinLimitsExpression`` (``ResAttributes.cpp``, the default without
    ``STARTD_JOB_HAS_REQUEST_ATTRS``): for each resource the slot has some and the job
    asks for no more, ``MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus`` and the same for
    ``Memory`` and ``Disk``. A real startd always publishes all three; a stanza that does
    not configure one is not limited by it.
    """
    configured = {k.lower() for k in spec.attributes}
    clauses = [
        f"MY.{r} > 0 && TARGET.Request{r} <= MY.{r}" for r in RESOURCES if r.lower() in configured
    ]
    return " && ".join(clauses) if clauses else None


def slot_requirements(spec: MachineSpec) -> str:
    """A static slot's ``Requirements``: ``(START) && (WithinResourceLimits)``, as the
    startd publishes it (``Resource::publish_requirements`` in ``Reqexp.cpp``)."""
    start = spec.start or "true"
    limits = within_resource_limits(spec)
    return start if limits is None else f"({start}) && ({limits})"


def slot_ad(spec: MachineSpec, values: dict[str, object], ev: Evaluator) -> Ad:
    """A slot's ad: its literal ``values``, its ``Requirements`` and the stanza's ``Rank``."""
    exprs = {"Requirements": slot_requirements(spec), "Rank": spec.rank or "0"}
    return Ad(values, exprs, ev, f"machine {spec.name}", ConfigError)


def slot_weight(ev: Evaluator, expr: Compiled | None, ad: Ad, empty: Ad) -> float:
    """``SLOT_WEIGHT`` of a slot ad; 1.0 without slot weights or when it is not a number
    that is at least 0 (booleans count as 0/1): the bridge's :func:`classads.slot_weight`."""
    if expr is None:
        return 1.0
    return weight_of_value(ev.evaluate(expr, ad, empty))
