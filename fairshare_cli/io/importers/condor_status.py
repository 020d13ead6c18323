"""``condor_status -json`` / ``-long`` output: slots as ``[[machines]]``, claimed slots as work.

Each slot ad keeps its literal attributes (``Cpus``, ``Memory``, ``Arch``, ``Site``, ...) for
ClassAd evaluation; what describes the slot's identity (``Name``, ``Machine``, ``SlotID``:
the config makes them), its current claim (``State``, ``RemoteUser``, ``JobId``, ...) or the
daemon (addresses, update counters) is left out, and expression attributes (``SlotWeight``,
``Requirements``) are listed as ignored: ``Start`` and ``Rank`` become the stanza's
``start`` and ``rank``. Machines whose slots are alike share one ``[[machines]]`` entry
naming them in ``hosts``.

Partitionable slots are not modelled yet: a partitionable slot's current dynamic slots are
imported as static slots of its machine (``slot1_2@m`` becomes ``slotN@m``), and the
partitionable slot itself (its unclaimed rest) is left out; the summary says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Any

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.classad_dumps import Ad, Expr, iter_ads

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
        "Start",
        "Rank",
        "Requirements",
    ]
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
    if not isinstance(name, str) or "@" not in name:
        raise InputError(f'{where}: expected a slot ad with Name = "slotN@machine"')
    machine = ad.get("Machine")
    if not isinstance(machine, str) or not machine:
        machine = name.split("@", 1)[1]
    slot_type = str(ad.get("SlotType", "Static"))
    if slot_type == "Partitionable":
        dump.partitionable.append(name)
        return None
    attrs: dict[str, Any] = {}
    for key, value in ad.items():
        if key.lower() in DYNAMIC or value is None:
            continue
        if isinstance(value, Expr) or not isinstance(value, (str, int, float, bool)):
            dump.ignored.add(key)
            continue
        attrs[key] = value
    if slot_type == "Dynamic":
        attrs["SlotType"] = "Static"
    start = _text(ad["Start"]) if "Start" in ad else "true"
    rank = _text(ad["Rank"]) if "Rank" in ad else "0"
    slot = SlotAd(name, machine, attrs, start, rank, slot_type, line)
    if str(ad.get("State", "")) == "Claimed":
        holder = ad.get("AccountingGroup") or ad.get("RemoteUser")
        if isinstance(holder, str) and holder:
            slot.holder = holder
            job = ad.get("JobId")
            slot.job_id = str(job) if job is not None else None
            since = ad.get("JobStart") or ad.get("EnteredCurrentState")
            slot.since = float(since) if isinstance(since, (int, float)) else None
    return slot


def read_status(fh: IO[str], label: str) -> StatusDump:
    """The slots of ``condor_status -json`` or ``-long`` output.

    Raises:
        InputError: ``FILE:LINE`` of a malformed line or an ad that is not a slot.
    """
    dump = StatusDump()
    for line, ad in iter_ads(fh, label):
        slot = _slot(ad, line, label, dump)
        if slot is not None:
            dump.slots.append(slot)
    return dump


def _slot_number(slot: SlotAd) -> tuple[int, int]:
    m = re.match(r"^slot(\d+)(?:_(\d+))?@", slot.name)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else (1 << 30, slot.line)


def machines_fragment(dump: StatusDump) -> tuple[list[dict[str, Any]], dict[str, str], list[str]]:
    """``[[machines]]`` entries, the config's name for each dumped slot, and notes.

    Machines are grouped by their slots' attributes, ``start`` and ``rank`` and number of
    slots, in the order the dump first shows them; slots of one machine are numbered
    ``slot1``, ``slot2``, ... in dump order (a machine whose slots differ takes its first
    slot's attributes for all: noted).
    """
    by_machine: dict[str, list[SlotAd]] = {}
    for slot in dump.slots:
        by_machine.setdefault(slot.machine, []).append(slot)
    for slots in by_machine.values():
        slots.sort(key=_slot_number)
    stanzas: dict[tuple[Any, ...], dict[str, Any]] = {}
    names: dict[str, str] = {}
    notes: list[str] = []
    for machine, slots in by_machine.items():
        first = slots[0]
        if any(
            (s.attributes, s.start, s.rank) != (first.attributes, first.start, first.rank)
            for s in slots[1:]
        ):
            notes.append(f"{machine}: its slots differ; all imported like {first.name}")
        key = (tuple(sorted(first.attributes.items())), first.start, first.rank, len(slots))
        stanza = stanzas.get(key)
        if stanza is None:
            stanza = {
                "name": f"m{len(stanzas) + 1}",
                "hosts": [],
                "slots": len(slots),
                "start": first.start,
                "rank": first.rank,
                "attributes": dict(sorted(first.attributes.items())),
            }
            stanzas[key] = stanza
        stanza["hosts"].append(machine)
        for k, slot in enumerate(slots, start=1):
            names[slot.name] = f"slot{k}@{machine}"
    return list(stanzas.values()), names, notes
