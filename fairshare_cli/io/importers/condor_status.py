"""``condor_status -json`` / ``-long`` output: slots as ``[[machines]]``, claimed slots as work.

Each slot ad keeps its literal attributes (``Cpus``, ``Memory``, ``Arch``, ``Site``, ...) for
ClassAd evaluation; what describes the slot's identity (``Name``, ``Machine``, ``SlotID``:
the config makes them), its current claim (``State``, ``RemoteUser``, ``JobId``, ...) or the
daemon (addresses, update counters) is left out, and expression attributes (``SlotWeight``,
``Requirements``) are listed as ignored: ``Start`` and ``Rank`` become the stanza's
``start`` and ``rank``. Machines whose slots are alike share one ``[[machines]]`` entry
naming them in ``hosts``.

A partitionable slot comes in as a ``partitionable = true`` machine whose ``Cpus``,
``Memory`` and ``Disk`` are its totals (``TotalSlotCpus`` ..., else what it has left plus
what its dynamic slots in the dump hold); its claimed dynamic slots come in as claims on
``slotK_N@m`` carrying their resources, carved out of it as the startd did. One that
publishes ``Consumption<resource>`` expressions has a consumption policy
(``consumption_policy = true``, ``num_claims`` its ``NumClaims``, the expressions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Any

from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.names import MAX_NAME_LENGTH, check_name, name_problem
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.classad_dumps import (
    Ad,
    Expr,
    iter_ads,
    other_dump,
    refuse_nonfinite,
)
from fairshare_cli.io.importers.common import as_float

#: What condor_status prints, for the errors that say what was expected.
EXPECTED = "condor_status -json or -long output"
#: Attributes only a slot ad has (one of them, or ``MyType = "Machine"``, makes an ad
#: with a ``slotN@machine`` name a slot, not an accountant's or a job's ad).
SLOT_ATTRIBUTES = ("SlotID", "SlotType", "State", "Activity", "Cpus", "Memory", "Start")

#: Attributes the config makes, or that describe the claim, the daemon or the collector.
DYNAMIC = frozenset(
    a.lower()
    for a in [
        "Name",
        "Machine",
        "SlotID",
        "MyType",
        "TargetType",
        "MyAddress",
        "StartdIpAddr",
        "State",
        "Activity",
        "EnteredCurrentState",
        "EnteredCurrentActivity",
        "RemoteUser",
        "RemoteOwner",
        "AccountingGroup",
        "JobId",
        "GlobalJobId",
        "JobStart",
        "ClientMachine",
        "CurrentRank",
        "TotalJobRunTime",
        "TotalJobRuntime",
        "RemoteScheddName",
        "LastHeardFrom",
        "UpdateSequenceNumber",
        "UpdatesHistory",
        "UpdatesLost",
        "UpdatesSequenced",
        "UpdatesTotal",
        "AuthenticatedIdentity",
        "AuthenticationMethod",
        "DaemonStartTime",
        "DaemonLastReconfigTime",
        "MyCurrentTime",
        "CurrentTime",
        "LastBenchmark",
        "PublicClaimId",
        "RemoteAutoregroup",
        "RemoteNegotiatingGroup",
        "RemoteGroup",
        "ConcurrencyLimits",
        "Start",
        "Rank",
        "Requirements",
    ]
)


#: What a partitionable or dynamic slot publishes about its split (the config and the
#: negotiator make these; its resources are read separately).
PARTITION = frozenset(
    a.lower()
    for a in [
        "SlotType",
        "PartitionableSlot",
        "DynamicSlot",
        "DSlotId",
        "ParentSlotId",
        "SlotTypeID",
        "NumDynamicSlots",
        "TotalSlotCpus",
        "TotalSlotMemory",
        "TotalSlotDisk",
        "Cpus",
        "Memory",
        "Disk",
        "NumClaims",
    ]
)
#: A partitionable slot's consumption policy: its ``Consumption<resource>`` expressions
#: (``Resource::publish_static``) by config key.
CONSUMPTION = {"consumptioncpus": "consumption_cpus", "consumptionmemory": "consumption_memory"}
CONSUMPTION["consumptiondisk"] = "consumption_disk"
#: The resources a dynamic slot is carved of.
RESOURCES = ("Cpus", "Memory", "Disk")
#: The numbers fs reads from a slot ad: its resources, a partitionable slot's totals and a
#: claim's start.
_NUMBERS = (
    *RESOURCES,
    *(f"TotalSlot{r}" for r in RESOURCES),
    "JobStart",
    "EnteredCurrentState",
)


@dataclass
class SlotAd:
    """One slot of the dump, reduced to what the config and the claims need."""

    name: str
    machine: str
    attributes: dict[str, Any]
    start: str
    rank: str
    slot_type: str
    line: int
    holder: str | None = None
    job_id: str | None = None
    since: float | None = None
    #: A dynamic slot's ``Cpus``/``Memory``/``Disk``; a partitionable slot's totals.
    resources: dict[str, float] = field(default_factory=dict)
    #: A partitionable slot's ``Cpus``/``Memory``/``Disk`` left (what it publishes).
    left: dict[str, float] = field(default_factory=dict)
    #: A partitionable slot's consumption policy as ``[[machines]]`` keys (else empty).
    policy: dict[str, Any] = field(default_factory=dict)
    #: A claimed slot's ``ConcurrencyLimits`` (the limits its claim holds).
    limits: str | None = None


@dataclass
class StatusDump:
    """The slots of a ``condor_status`` dump and what was left out."""

    slots: list[SlotAd] = field(default_factory=list)
    ignored: set[str] = field(default_factory=set)
    partitionable: list[str] = field(default_factory=list)


def _text(value: Any) -> str:
    if isinstance(value, Expr):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _slot(ad: Ad, line: int, label: str, dump: StatusDump) -> SlotAd | None:
    where = f"{label}:{line}"
    name = ad.get("Name")
    if not isinstance(name, str) or "@" not in name or not is_slot_ad(ad):
        raise InputError(
            f'{where}: expected a slot ad with Name = "slotN@machine"{other_dump(ad, "machine")}'
        )
    machine = ad.get("Machine")
    if not isinstance(machine, str) or not machine:
        machine = name.split("@", 1)[1]
    _check_names(ad, name, machine, where)
    _check_numbers(ad, name, where)
    slot_type = str(ad.get("SlotType", "Static"))
    split = slot_type in ("Partitionable", "Dynamic")
    if slot_type == "Partitionable":
        dump.partitionable.append(name)
    attrs: dict[str, Any] = {}
    policy = _policy(ad) if slot_type == "Partitionable" else {}
    for key, value in ad.items():
        if key.lower() in DYNAMIC or value is None or (split and _about_split(key)):
            continue
        if policy and key.lower() in CONSUMPTION:
            continue
        if isinstance(value, Expr) or not isinstance(value, (str, int, float, bool)):
            dump.ignored.add(key)
            continue
        attrs[key] = value
    start = _text(ad["Start"]) if "Start" in ad else "true"
    rank = _text(ad["Rank"]) if "Rank" in ad else "0"
    slot = SlotAd(name, machine, attrs, start, rank, slot_type, line, policy=policy)
    if split:
        slot.resources = _resources(ad, slot_type == "Partitionable")
        if slot_type == "Partitionable":
            slot.left = _resources(ad, False)
    if str(ad.get("State", "")) == "Claimed":
        _claim(slot, ad, where)
    return slot


def _claim(slot: SlotAd, ad: Ad, where: str) -> None:
    """A claimed slot's holder, job, start and limits, as its ad gives them.

    Raises:
        InputError: a start outside the years 1 to 9999; a holder or job id that is no name
            (a blank, a control character: a terminal escape a table would print).
    """
    key = "AccountingGroup" if ad.get("AccountingGroup") else "RemoteUser"
    holder = ad.get(key)
    if isinstance(holder, str) and holder:
        since = ad.get("JobStart") or ad.get("EnteredCurrentState")
        slot.since = as_float(since) if isinstance(since, (int, float)) else None
        if slot.since is not None and not TIME_MIN <= slot.since <= TIME_MAX:  # (or NaN)
            at = "JobStart" if ad.get("JobStart") else "EnteredCurrentState"
            raise InputError(f"{where}: {at}: expected epoch seconds of the years 1 to 9999")
        slot.holder = check_name(holder, f"{where}: {key}", submitter=True)
        job = ad.get("JobId")
        slot.job_id = check_name(str(job), f"{where}: JobId") if job is not None else None
        limits = ad.get("ConcurrencyLimits")
        slot.limits = limits if isinstance(limits, str) else None


def _policy(ad: Ad) -> dict[str, Any]:
    """A partitionable slot's consumption policy: it publishes ``Consumption<resource>``
    for each resource (``cp_supports_policy``) and ``NumClaims``, its claim ids."""
    found = {CONSUMPTION[k.lower()]: _text(v) for k, v in ad.items() if k.lower() in CONSUMPTION}
    if not found:
        return {}
    policy: dict[str, Any] = {"consumption_policy": True}
    claims = ad.get("NumClaims")
    if type(claims) is int and claims >= 1:
        policy["num_claims"] = claims
    return policy | dict(sorted(found.items()))


def _check_names(ad: Ad, name: str, machine: str, where: str) -> None:
    """The slot's and machine's names and the attribute names are names
    (:func:`~fairshare_cli.core.names.name_problem`: not blank, no control characters).

    Raises:
        InputError: naming ``where`` and the attribute.
    """
    for text, what in ((name, "Name"), (machine, "Machine")):
        problem = name_problem(text, submitter=True)
        if problem is not None:
            raise InputError(f"{where}: {what}: {problem}")
    joined = "".join(ad)  # one check of them all; each only when it fails
    plain = joined.isprintable() and " " not in joined and "" not in ad
    if plain and max(map(len, ad), default=0) <= MAX_NAME_LENGTH:
        return
    for key in ad:
        if (problem := name_problem(key)) is not None:
            raise InputError(f"{where}: an attribute name: {problem}")


def _check_numbers(ad: Ad, name: str, where: str) -> None:
    """The numbers fs reads (:data:`_NUMBERS`) are no ``real("NaN")`` or ``real("INF")``:
    HTCondor evaluates those to NaN or an infinity, no resource or time.

    Raises:
        InputError: naming ``where``, the slot and the attribute.
    """
    for key in _NUMBERS:
        if key in ad:
            refuse_nonfinite(where, name, key, ad[key])


def is_slot_ad(ad: Ad) -> bool:
    """Whether an ad is a slot's: ``MyType = "Machine"``, or no ``MyType`` and one of
    :data:`SLOT_ATTRIBUTES` (an accountant's ad, ``MyType = "Accounting"``, also has a
    ``user@domain`` Name)."""
    kind = ad.get("MyType")
    if kind is not None:
        return isinstance(kind, str) and kind.lower() == "machine"
    return any(a in ad for a in SLOT_ATTRIBUTES)


def _about_split(key: str) -> bool:
    """Whether a partitionable or dynamic slot's attribute describes the split (its type,
    its resources, its dynamic slots' ``Child*`` lists): not a stanza attribute."""
    lowered = key.lower()
    return lowered in PARTITION or lowered.startswith("child")


def _resources(ad: Ad, totals: bool) -> dict[str, float]:
    """A dynamic slot's resources, or a partitionable slot's ``TotalSlot*`` (those it
    publishes; a missing total is completed from its dynamic slots later)."""
    out: dict[str, float] = {}
    for r in RESOURCES:
        value = ad.get(f"TotalSlot{r}") if totals else ad.get(r)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[r] = value
    return out


def read_status(fh: IO[str], label: str) -> StatusDump:
    """The slots of ``condor_status -json`` or ``-long`` output.

    Raises:
        InputError: ``FILE:LINE`` of a malformed line or an ad that is not a slot, or no
            ad at all (an empty file).
    """
    dump = StatusDump()
    for line, ad in iter_ads(fh, label, wanted=EXPECTED):
        slot = _slot(ad, line, label, dump)
        if slot is not None:
            dump.slots.append(slot)
    if not dump.slots:
        raise InputError(f"{label}: no slot ads; expected {EXPECTED}")
    return dump


def _slot_number(slot: SlotAd) -> tuple[int, int]:
    m = re.match(r"^slot(\d+)(?:_(\d+))?@", slot.name)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else (1 << 30, slot.line)


def machines_fragment(dump: StatusDump) -> tuple[list[dict[str, Any]], dict[str, str], list[str]]:
    """``[[machines]]`` entries, the config's name for each dumped slot, and notes.

    Machines are grouped by their slots' attributes, ``start`` and ``rank`` and number of
    slots, in the order the dump first shows them; slots of one machine are numbered
    ``slot1``, ``slot2``, ... in dump order (a machine whose slots differ takes its first
    slot's attributes for all: noted). Dynamic slots are not slots of the stanza: each is
    named after its partitionable slot's new name (``slot1_2@m`` of ``slot3@m`` becomes
    ``slot1_2@m`` when ``slot3@m`` is the machine's first slot).
    """
    by_machine: dict[str, list[SlotAd]] = {}
    dynamic = [s for s in dump.slots if s.slot_type == "Dynamic"]
    for slot in dump.slots:
        if slot.slot_type != "Dynamic":
            by_machine.setdefault(slot.machine, []).append(slot)
    for slots in by_machine.values():
        slots.sort(key=_slot_number)
    _complete_totals(by_machine, dynamic)
    stanzas: dict[tuple[Any, ...], dict[str, Any]] = {}
    names: dict[str, str] = {}
    notes: list[str] = []
    for machine, slots in by_machine.items():
        first = slots[0]
        attrs = _stanza_attributes(first)
        if any(
            (_stanza_attributes(s), s.start, s.rank, s.slot_type)
            != (attrs, first.start, first.rank, first.slot_type)
            for s in slots[1:]
        ):
            notes.append(f"{machine}: its slots differ; all imported like {first.name}")
        split = first.slot_type == "Partitionable"
        policy = tuple(first.policy.items())
        key = (tuple(sorted(attrs.items())), first.start, first.rank, len(slots), split, policy)
        stanza = stanzas.get(key)
        if stanza is None:
            stanza = {
                "name": f"m{len(stanzas) + 1}",
                "hosts": [],
                "slots": len(slots),
                "start": first.start,
                "rank": first.rank,
                "attributes": dict(sorted(attrs.items())),
            }
            if split:
                stanza["partitionable"] = True
                stanza.update(first.policy)
            stanzas[key] = stanza
        stanza["hosts"].append(machine)
        for k, slot in enumerate(slots, start=1):
            names[slot.name] = f"slot{k}@{machine}"
    notes += _name_dynamic(dynamic, by_machine, names)
    return list(stanzas.values()), names, notes


def machine_origins(dump: StatusDump, stanzas: list[dict[str, Any]], label: str) -> Origins:
    """Where each ``[[machines]]`` entry's values came from: the ad of its first machine's
    first slot (``FILE:LINE: SLOT``), whose values the entry took (its name, hosts and
    slot count, which the dump does not give as values, left out)."""
    first: dict[str, SlotAd] = {}
    for slot in dump.slots:
        if slot.slot_type != "Dynamic":
            held = first.get(slot.machine)
            if held is None or _slot_number(slot) < _slot_number(held):
                first[slot.machine] = slot
    origins = Origins(label)
    for k, stanza in enumerate(stanzas):
        slot = first[stanza["hosts"][0]]
        for key, value in stanza.items():
            if key in ("name", "hosts", "slots"):
                continue
            paths = [(key, name) for name in value] if key == "attributes" else [(key,)]
            for path in paths:
                origins.add(("machines", k, *path), f"{label}:{slot.line}: {slot.name}")
    return origins


def _parent_of(slot: SlotAd) -> str | None:
    """A dynamic slot's partitionable slot name (``slot1_2@m`` -> ``slot1@m``)."""
    m = re.match(r"^slot(\d+)_\d+@(.+)$", slot.name)
    return f"slot{m.group(1)}@{m.group(2)}" if m else None


def _complete_totals(by_machine: dict[str, list[SlotAd]], dynamic: list[SlotAd]) -> None:
    """A partitionable slot's totals: ``TotalSlot*`` where published, else what it has
    left plus what its dynamic slots in the dump hold."""
    held: dict[str, dict[str, float]] = {}
    for d in dynamic:
        parent = _parent_of(d)
        if parent is not None:
            sums = held.setdefault(parent, {})
            for r, v in d.resources.items():
                sums[r] = sums.get(r, 0) + v
    for slots in by_machine.values():
        for p in slots:
            if p.slot_type != "Partitionable":
                continue
            for r, left in p.left.items():
                if r not in p.resources:
                    p.resources[r] = left + held.get(p.name, {}).get(r, 0)


def _stanza_attributes(slot: SlotAd) -> dict[str, Any]:
    """The stanza's attributes for a slot: a partitionable one's with its totals."""
    if slot.slot_type != "Partitionable":
        return slot.attributes
    return {**slot.attributes, **slot.resources}


def _name_dynamic(
    dynamic: list[SlotAd], by_machine: dict[str, list[SlotAd]], names: dict[str, str]
) -> list[str]:
    """Name each dynamic slot after its partitionable slot's config name; notes for those
    whose partitionable slot is not in the dump (left out)."""
    notes: list[str] = []
    kinds = {s.name: s.slot_type for slots in by_machine.values() for s in slots}
    for d in dynamic:
        parent = _parent_of(d)
        if parent is None or kinds.get(parent) != "Partitionable":
            notes.append(f"{d.name}: its partitionable slot is not in the dump; left out")
            continue
        number = d.name.split("@", 1)[0].rsplit("_", 1)[1]
        base, _, machine = names[parent].partition("@")
        names[d.name] = f"{base}_{number}@{machine}"
    return notes
