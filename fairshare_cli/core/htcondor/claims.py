"""Slot claims: the ``negotiator`` state section and the weight each claim was charged.

HTCondor's accountant keeps one resource record per claimed slot (``RemoteUser``,
``SlotWeight``, ``StartTime``) and ``RemoveMatch`` subtracts the ``SlotWeight`` stored
there, never a fresh evaluation. A :class:`Claim` here does the same: it stores the weight
``AddMatch`` charged, and every release (``fs rm``, a preemption, a finished job in
``fs simulate``) takes that weight back through :func:`claim_weight`, with the six
decimals the resource record keeps it with (``SetAttributeFloat`` writes ``%f``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from itertools import chain, compress
from operator import attrgetter
from typing import Any

from fairshare_cli.core.config import Config, MachineSpec
from fairshare_cli.core.htcondor.classads import (
    evaluate_alone,
    evaluate_slot_weight,
    is_slot_weight,
)
from fairshare_cli.core.htcondor.customer_record import as_stored
from fairshare_cli.core.htcondor.negotiator import Claim, Match, expand_slots, machine_names
from fairshare_cli.core.htcondor.negotiator.results import JoblessMatch
from fairshare_cli.core.htcondor.negotiator.slots import Slot, slot_values
from fairshare_cli.core.htcondor.pool import submitter_of
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.names import name_problem, names_fit
from fairshare_cli.core.state import SectionError


@dataclass(frozen=True)
class NegotiatorState:
    """The ``negotiator`` state section: claims by slot, group round-robin times, the last
    cycle's time, the group quotas it negotiated with (None: no cycle stored them) and the
    concurrency limits its cycles counted (``limits_seen``, sorted lower-case names: the
    accountant's map keeps a limit no claim holds any more, at 0), and the last cycle's
    matches no job takes (``jobless``, in the order it made them: each a :class:`Claim`
    with no ``job_id``, charged its ``weight``, and counted in its ``concurrency_limits``,
    until the next cycle's ``CheckMatches``)."""

    claims: Mapping[str, Claim] = field(default_factory=dict)
    rr_times: Mapping[str, float] = field(default_factory=dict)
    last_cycle: float | None = None
    group_quotas: Mapping[str, float] | None = None
    limits_seen: tuple[str, ...] = ()
    jobless: tuple[Claim, ...] = ()

    def with_claims(self, claims: Mapping[str, Claim]) -> NegotiatorState:
        """This section with ``claims`` in place of its own, the rest as it is."""
        return dc_replace(self, claims=claims)


def _is_time(value: Any) -> bool:
    """Epoch seconds within the years 1 to 9999 (what ``parse_time`` accepts)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and TIME_MIN <= value <= TIME_MAX
    )


def _unicode(text: str) -> bool:
    """Whether ``text`` is Unicode text: no lone surrogate (JSON's ``"\\udcff"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _claim_from_json(slot: str, body: Any, where: str | None = None) -> Claim:
    where = where or f"negotiator.claims.{slot}"
    if not isinstance(body, Mapping):
        raise SectionError(f"{where}: expected an object")
    submitter, job_id, start = body.get("submitter"), body.get("job_id"), body.get("start_time")
    if not isinstance(submitter, str) or not isinstance(job_id, str):
        raise SectionError(f"{where}: expected string 'submitter' and 'job_id'")
    if not isinstance(start, (int, float)) or not _is_time(start):
        raise SectionError(f"{where}.start_time: expected epoch seconds")
    charged = _weight_from_json(where, body, "weight", "the slot weight charged")
    cost = _weight_from_json(where, body, "match_cost", "what the match was charged")
    resources = _resources_from_json(where, body.get("resources", {}))
    limits = body.get("concurrency_limits")
    if limits is not None and not isinstance(limits, str):
        raise SectionError(f"{where}.concurrency_limits: expected a ConcurrencyLimits string")
    for key, text in (("submitter", submitter), ("job_id", job_id), ("concurrency_limits", limits)):
        if text is not None and not _unicode(text):  # (classad2 crashes on a lone surrogate)
            raise SectionError(f"{where}.{key}: expected Unicode text, got {text!r}")
    since = body.get("accountant_start")
    if since is not None and not _is_time(since):
        raise SectionError(f"{where}.accountant_start: expected epoch seconds")
    since = None if since is None else float(since)
    return Claim(slot, submitter, job_id, float(start), charged, resources, limits, cost, since)


def _weight_from_json(where: str, body: Mapping[str, Any], key: str, what: str) -> float | None:
    """A claim's optional weight ``key`` (a number, 0 or more)."""
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0:
        raise SectionError(f"{where}.{key}: expected {what} (0 or more)")
    return float(value)


def _resources_from_json(where: str, raw: Any) -> tuple[tuple[str, float], ...]:
    """A dynamic slot's ``resources``: ``{"Cpus": 4, "Memory": 1024, ...}`` (0 or more)."""
    if not isinstance(raw, Mapping) or not all(
        isinstance(k, str)
        and isinstance(v, (int, float))
        and not isinstance(v, bool)
        and 0 <= v < float("inf")
        for k, v in raw.items()
    ):
        raise SectionError(f"{where}.resources: expected resource name -> amount (0 or more)")
    return tuple((k, v) for k, v in raw.items())


def negotiator_from_json(raw: Any) -> NegotiatorState:
    """Decode the ``negotiator`` section (a claim without ``weight`` is from an older state).

    Raises:
        SectionError: naming the malformed key.
    """
    if raw is None:
        return NegotiatorState()
    if not isinstance(raw, Mapping):
        raise SectionError("negotiator: expected an object")
    raw_claims = raw.get("claims", {})
    if not isinstance(raw_claims, Mapping):
        raise SectionError("negotiator.claims: expected an object keyed by slot name")
    claims = {slot: _claim_from_json(slot, body) for slot, body in raw_claims.items()}
    _check_claim_names(claims)
    rr = raw.get("rr_times", {})
    if not isinstance(rr, Mapping) or not all(_is_time(v) for v in rr.values()):
        raise SectionError("negotiator.rr_times: expected group name -> epoch seconds")
    last = raw.get("last_cycle")
    if last is not None and not _is_time(last):
        raise SectionError("negotiator.last_cycle: expected epoch seconds or null")
    quotas = raw.get("group_quotas")
    if quotas is not None and (
        not isinstance(quotas, Mapping) or not all(_is_quota(v) for v in quotas.values())
    ):
        raise SectionError("negotiator.group_quotas: expected group name -> quota (0 or more)")
    rr_times = {k: float(v) for k, v in rr.items()}
    if quotas is not None:
        quotas = {k: float(v) for k, v in quotas.items()}
    seen = raw.get("limits_seen", [])
    if not isinstance(seen, list) or not all(isinstance(n, str) and n for n in seen):
        raise SectionError("negotiator.limits_seen: expected a list of concurrency limit names")
    jobless = _jobless_from_json(raw.get("jobless_matches", []))
    return NegotiatorState(claims, rr_times, last, quotas, tuple(sorted({*seen})), jobless)


def _jobless_from_json(raw: Any) -> tuple[Claim, ...]:
    """``negotiator.jobless_matches``: ``[{"slot", "submitter", "start_time", "weight"}]``,
    each with the match's ``concurrency_limits`` if it took any
    (absent in a state written before fs kept them)."""
    where = "negotiator.jobless_matches"
    if not isinstance(raw, list) or not all(isinstance(m, Mapping) for m in raw):
        raise SectionError(f"{where}: expected a list of objects")
    out = []
    for i, body in enumerate(raw):
        slot = body.get("slot")
        if not isinstance(slot, str) or not slot.isprintable() or " " in slot or not slot:
            raise SectionError(f"{where}[{i}].slot: expected a slot name")
        claim = _claim_from_json(slot, {"job_id": "", **body}, f"{where}[{i}]")
        if claim.weight is None or claim.job_id:
            raise SectionError(f"{where}[{i}]: expected the 'weight' charged and no 'job_id'")
        out.append(claim)
    return tuple(out)


def _is_quota(value: Any) -> bool:
    """A finite number of 0 or more (a group quota)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < math.inf


def _check_claim_names(claims: Mapping[str, Claim]) -> None:
    """Refuse a claim whose slot, submitter or job id holds a blank or a control character
    (a terminal escape ``fs negotiate`` would print as it is), or whose slot or submitter
    is empty or too long (a claim of ``""`` was kept, charged to no one): every door
    refuses such names, a hand-edited state too. One test of them all in C, each only
    when it fails.

    Raises:
        SectionError: naming the claim's slot and field.
    """
    joined = "".join(chain.from_iterable((s, c.submitter, c.job_id) for s, c in claims.items()))
    named = [*claims, *(c.submitter for c in claims.values())]
    if joined.isprintable() and " " not in joined and names_fit(named):
        return
    for slot, claim in claims.items():
        if (problem := name_problem(slot)) is not None:
            raise SectionError(f"negotiator.claims: {problem}")
        if (problem := name_problem(claim.submitter)) is not None:
            raise SectionError(f"negotiator.claims.{slot}.submitter: {problem}")
        if not claim.job_id.isprintable() or " " in claim.job_id:
            problem = name_problem(claim.job_id)
            raise SectionError(f"negotiator.claims.{slot}.job_id: {problem}")


def _claim_to_json(claim: Claim) -> dict[str, Any]:
    body: dict[str, Any] = {
        "submitter": claim.submitter,
        "job_id": claim.job_id,
        "start_time": claim.start_time,
    }
    if claim.weight is not None:
        body["weight"] = claim.weight
    if claim.resources:
        body["resources"] = dict(claim.resources)
    if claim.concurrency_limits is not None:
        body["concurrency_limits"] = claim.concurrency_limits
    if claim.match_cost is not None:
        body["match_cost"] = claim.match_cost
    if claim.accountant_start is not None:
        body["accountant_start"] = claim.accountant_start
    return body


def _jobless_to_json(claim: Claim) -> dict[str, Any]:
    body = {"slot": claim.slot, "submitter": claim.submitter, "start_time": claim.start_time,
            "weight": claim.weight}  # fmt: skip
    if claim.concurrency_limits is not None:
        body["concurrency_limits"] = claim.concurrency_limits
    return body


def negotiator_to_json(state: NegotiatorState) -> dict[str, Any]:
    """Encode the ``negotiator`` section."""
    body: dict[str, Any] = {
        "claims": {slot: _claim_to_json(c) for slot, c in sorted(state.claims.items())},
        "rr_times": dict(sorted(state.rr_times.items())),
        "last_cycle": state.last_cycle,
    }
    if state.group_quotas is not None:
        body["group_quotas"] = dict(sorted(state.group_quotas.items()))
    if state.limits_seen:
        body["limits_seen"] = list(state.limits_seen)
    if state.jobless:
        body["jobless_matches"] = [_jobless_to_json(c) for c in state.jobless]
    return body


_ID, _STATUS, _RUNNING = attrgetter("id"), attrgetter("status"), "running"


def current_claims(
    state: NegotiatorState,
    jobs: Sequence[Job],
    config: Config,
    now: float,
    more: Mapping[str, str] | None = None,
) -> list[Claim]:
    """Claims from the state section, plus running jobs that name a slot the section lacks.

    A claim whose job is in the queue but no longer running is dropped (``more``: the
    status of queued jobs ``jobs`` does not hold, by id). A claim made up for a running job
    has no charged weight (``None``): see :func:`claim_weight`.
    """
    statuses = list(map(_STATUS, jobs))
    status = dict(zip(map(_ID, jobs), statuses, strict=True))  # (in C: a million jobs)
    status.update(more or {})
    claims = {
        slot: c for slot, c in state.claims.items() if status.get(c.job_id, "running") == "running"
    }
    name = submitter_of(config)
    for job in compress(jobs, map(_RUNNING.__eq__, statuses)):
        if job.slot and job.slot not in claims:
            start = job.start_time if job.start_time is not None else now
            claims[job.slot] = Claim(job.slot, name(job), job.id, start)
    return list(claims.values())


def unclaimed_slot_values(
    spec: MachineSpec, stanza: int, machine: str, slot_id: int, now: float
) -> dict[str, object]:
    """The ad of an unclaimed slot as the negotiator builds it at ``now``."""
    return slot_values(spec, Slot(0, stanza, machine, slot_id), now)


def slot_weigher(config: Config) -> Callable[[str, float], float]:
    """The weight a negotiation at ``now`` charges for matching the unclaimed slot named.

    1.0 without slot weights or for a slot no machine stanza defines; else ``SLOT_WEIGHT``
    over the slot's ad through the ClassAd bridge (not a number or negative: 1.0).
    """
    neg = config.negotiator
    if not neg.use_slot_weights:
        return lambda slot, now: 1.0
    where = "[negotiator] slot_weight"
    index: dict[str, tuple[int, str, int]] = {}

    def weigh(slot: str, now: float) -> float:
        if not index:
            for stanza, machine, slot_id in expand_slots(config.machines):
                index[f"slot{slot_id}@{machine}".lower()] = (stanza, machine, slot_id)
        found = index.get(slot.lower())
        if found is None:
            return 1.0
        stanza, machine, slot_id = found
        values = unclaimed_slot_values(config.machines[stanza], stanza, machine, slot_id, now)
        return evaluate_slot_weight(neg.slot_weight, values, where)

    return weigh


def dynamic_slot_weigher(config: Config, now: float) -> Callable[[MachineSpec, Slot], float]:
    """``SLOT_WEIGHT`` of a dynamic slot (its own ``Cpus``, ``Memory``, ...) at ``now``;
    1.0 without slot weights (see :func:`slot_weigher`)."""
    neg = config.negotiator
    if not neg.use_slot_weights:
        return lambda spec, slot: 1.0

    def weigh(spec: MachineSpec, slot: Slot) -> float:
        values = slot_values(spec, slot, now)
        return evaluate_slot_weight(neg.slot_weight, values, "[negotiator] slot_weight")

    return weigh


def unweighable_machines(config: Config, now: float) -> list[tuple[str, object]]:
    """Machine stanzas whose slots ``SLOT_WEIGHT`` cannot weigh, with what it evaluates to.

    With slot weights on, a stanza is listed when the expression over its first slot's
    ad is not a number of 0 or more; the negotiator then charges 1.0 for each of its slots.

    Raises:
        InputError: the expression does not parse.
    """
    neg = config.negotiator
    if not neg.use_slot_weights:
        return []
    out: list[tuple[str, object]] = []
    for stanza, spec in enumerate(config.machines):
        names = machine_names(spec)
        if not names or spec.slots < 1:
            continue
        values = unclaimed_slot_values(spec, stanza, names[0], 1, now)
        value = evaluate_alone(neg.slot_weight, values, "[negotiator] slot_weight")
        if not is_slot_weight(value):
            out.append((spec.name, value))
    return out


def claim_weight(claim: Claim, weigh: Callable[[str, float], float]) -> float:
    """The weight to release for ``claim``: the one the accountant holds for it, as its
    resource record stores it (``AddMatch`` writes ``SlotWeight`` with ``%f``: a weight of
    ``Cpus / 3.0`` on one CPU is charged 0.333333333... and released as 0.333333).

    A partitionable slot's match not yet re-weighted by a cycle's ``CheckMatches``
    (:func:`checked_claim`) holds its ``match_cost``; any other claim the weight it was
    charged. A claim from an older state (no stored weight) gets what that state's
    ``fs negotiate`` charged: the slot's weight when it was matched, at the claim's start.
    """
    return as_stored(charged_weight(claim, weigh))


def charged_weight(claim: Claim, weigh: Callable[[str, float], float]) -> float:
    """The weight ``AddMatch`` charged for ``claim`` (the slot ad's ``SlotWeight`` as
    evaluated, before the resource record stores it): see :func:`claim_weight`."""
    if claim.match_cost is not None:
        return claim.match_cost
    if claim.weight is not None:
        return claim.weight
    return weigh(claim.slot, claim.start_time)


def checked_claim(claim: Claim) -> Claim:
    """``claim`` as the next cycle's ``CheckMatches`` leaves it: held at its own weight.

    ``Accountant::CheckMatches`` finds a partitionable slot's resource record (charged the
    match cost by ``AddMatch``) on a slot no longer claimed and removes it, then adds the
    claimed dynamic slot with its own ``SlotWeight``
    (:func:`~fairshare_cli.core.htcondor.cycle_accounting.check_match_at`).
    """
    return claim if claim.match_cost is None else dc_replace(claim, match_cost=None)


def unchecked_matches(
    claims: Iterable[Claim], weigh: Callable[[str, float], float]
) -> list[tuple[str, float, float]]:
    """(submitter, match cost, own weight) of each claim a cycle's ``CheckMatches`` has yet
    to re-weight (:func:`checked_claim`): the cost its ``RemoveMatch`` releases (as stored,
    :func:`claim_weight`), the weight the dynamic slot's ``AddMatch`` charges."""
    return [
        (c.submitter, as_stored(c.match_cost), charged_weight(checked_claim(c), weigh))
        for c in claims
        if c.match_cost is not None
    ]


def displaced_holder(claims: Mapping[str, Claim], match: Claim) -> Claim | None:
    """The claim a match no job takes (``match``) displaces: its slot's holder when
    another submitter holds it (``AddMatch`` ``RemoveMatch``es it first, the next cycle's
    ``CheckMatches`` puts it back); None for a free slot or the submitter's own."""
    holder = claims.get(match.slot)
    return holder if holder is not None and holder.submitter != match.submitter else None


def accounted_jobless(
    jobless: Sequence[JoblessMatch], claims: Mapping[str, Claim]
) -> list[JoblessMatch]:
    """The matches no job takes that a committed cycle's accountant records: all but one
    on a slot its own submitter holds (``claims``), where ``AddMatch`` finds the resource
    record already the submitter's ("Match already existed!") and returns: nothing charged
    or taken off, no limit counted, nothing for the next cycle to end (the holder's record
    goes on at its own weight)."""
    out = []
    for j in jobless:
        holder = claims.get(j.slot)
        if holder is None or holder.submitter != j.submitter:
            out.append(j)
    return out


def passed_on(old: Claim | None, m: Match, now: float) -> Claim:
    """The claim match ``m`` at ``now`` leaves on its slot, whose claim was ``old``: the
    new one (:func:`match_claim`), but where ``m`` preempts its own submitter's job (the
    machine ranks the new job above it): ``AddMatch`` finds the slot's resource record
    already the submitter's ("Match already existed!") and returns, so nothing is charged
    or released, and the record, its weight and its start go on, now holding the new job
    (:func:`own_preemption`)."""
    if old is None or not own_preemption(old, m):
        return match_claim(m, now)
    began = old.start_time if old.accountant_start is None else old.accountant_start
    return dc_replace(old, job_id=m.job_id, start_time=now, accountant_start=began)


def own_preemption(old: Claim, m: Match) -> bool:
    """Whether match ``m`` preempts the job of ``old``, its slot's claim, for the same
    submitter (a machine-rank preemption: see :func:`passed_on`)."""
    return bool(m.preempted_job) and old.submitter == m.submitter


def match_claim(m: Match, now: float) -> Claim:
    """The claim a match at ``now`` opens: held at the dynamic slot's own weight once the
    next cycle has checked it, its ``match_cost`` (on a partitionable slot, the whole
    slot's ``SlotWeight`` or a consumption policy's cost) until then (:func:`checked_claim`).
    """
    cost = None if m.charge is None or m.charge == m.weight else m.charge
    return Claim(m.slot, m.submitter, m.job_id, now, m.weight, m.resources, None, cost)
