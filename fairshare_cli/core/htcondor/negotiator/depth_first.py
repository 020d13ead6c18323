"""``NEGOTIATOR_DEPTH_FIRST``: how many jobs of its request a match counts (``jobsInSlot``),
and the jobs that leaves to the schedd.

In 25.0's ``Matchmaker::negotiate`` each ``getRequest`` moves the request's count on by
``schedd_will_match`` (1 before the turn's first request and after a request that found no
slot). With ``NEGOTIATOR_DEPTH_FIRST`` a match sets it to ``jobsInSlot``: min(``Cpus`` /
``RequestCpus``, ``Memory`` / ``RequestMemory``) of the matched slot's ad as it then reads
(integer division, each request at least 1; a slot ad without ``Cpus`` or ``Memory`` reads
1). So the turn's next request of that autocluster skips that many jobs, the matched one
among them: the others, uncharged and unmatched, are left for the schedd to start in the
slot (a partitionable slot's leftover). A partitionable slot's ad is the slot before it is
carved (the negotiator changes it only under a consumption policy, whose cost it has
already deducted). The skip is taken at the turn's next request, not at its end: a turn
that stops (its limit, its ceiling) skips nothing, one whose pool is empty still skips,
and a skip never reaches past the request's own jobs (``getRequest`` then fetches the
next request with its count afresh). A match counting no job moves the count on by
nothing: the request is offered once more than it has jobs (:func:`counted_past`,
:func:`matched_job`); a re-offer with no job left to take it is still searched, and its
match charged in the cycle for no job, and by a committed cycle in the accountant until the
next cycle (:func:`lost_match`).
"""

from __future__ import annotations

from fairshare_cli.core.batches import IdBatch
from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.concurrency import Limits
from fairshare_cli.core.htcondor.negotiator.carving import Carver
from fairshare_cli.core.htcondor.negotiator.partitionable import Resources
from fairshare_cli.core.htcondor.negotiator.results import JoblessMatch
from fairshare_cli.core.htcondor.negotiator.runs import Run
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot
from fairshare_cli.core.htcondor.negotiator.state import CycleState

#: The reason of the jobs a depth-first match left to the schedd (docs/json.md).
LEFT_TO_SCHEDD = "depth_first"


def _integer(value: object) -> int | None:
    """``EvalInteger``/``LookupInteger``'s integer of a value (a real truncated, a boolean
    1 or 0); None for anything else."""
    if type(value) is bool:
        return int(value)
    if isinstance(value, (int, float)):
        return int(value)
    return None


def _requested(ev: Evaluator, job_ad: Ad, name: str, offer: Ad) -> int:
    """The job's ``Request<name>`` evaluated against the offer, at least 1 (1 when it does
    not evaluate to a number)."""
    value = job_ad.get(name)
    if value is None and name in job_ad.exprs:
        value = ev.evaluate(job_ad.exprs[name][1], job_ad, offer)
    found = _integer(value)
    return max(found if found is not None else 1, 1)


def _offered(slot: Slot, carver: Carver | None, ad: Ad) -> tuple[int, int]:
    """The matched ad's ``Cpus`` and ``Memory``: a dynamic slot's partitionable slot as it
    was offered (before the carve, or after a consumption policy's deduction)."""
    parent = slot.parent
    if parent is not None and carver is not None:
        left: Resources = parent.resources
        offered = dict(left)
        if carver.policy(parent.stanza) is None:  # (no policy: the ad is not changed)
            for name, amount in slot.resources:
                offered[name] = offered.get(name, 0) + amount
        values: dict[str, object] = {k.lower(): v for k, v in offered.items()}
    else:
        values = {"cpus": ad.get("cpus"), "memory": ad.get("memory")}
    cpus, memory = _integer(values.get("cpus")), _integer(values.get("memory"))
    return (1 if cpus is None else cpus), (1 if memory is None else memory)


def jobs_in_slot(snap: Snapshot, job_ad: Ad, slot: Slot, carver: Carver | None) -> int:
    """``jobsInSlot`` (``matchmaker.cpp``): how many jobs of ``job_ad``'s request the match
    on ``slot`` counts (0 when the slot offers less than the request in one resource: a
    consumption policy's slot with nothing left)."""
    slot_ad = snap.slot_class[slot.index].ad
    cpus, memory = _offered(slot, carver, slot_ad)
    request_cpus = _requested(snap.ev, job_ad, "requestcpus", slot_ad)
    request_memory = _requested(snap.ev, job_ad, "requestmemory", slot_ad)
    return min(cpus // request_cpus, memory // request_memory)


def counted_past(snap: Snapshot, job_ad: Ad, slot: Slot, carver: Carver | None, run: Run) -> int:
    """The skip the turn's next request of ``run`` takes after its match on ``slot``: the
    jobs :func:`jobs_in_slot` counts past the matched one. A count of 0 gives the matched
    job's offer back: ``getRequest`` moves the count on by nothing, so the request is
    offered once more than it has jobs (``run.reoffers``)."""
    count = jobs_in_slot(snap, job_ad, slot, carver)
    if count <= 0:
        run.reoffers += 1
        return 0
    return count - 1


def matched_job(run: Run, rematched: set[str]) -> str:
    """The job a match of ``run``'s request goes to: its next job; once it has none left
    (a re-offer), the first of those its depth-first matches left to the schedd, as the
    schedd's ``FindRunnableJob`` gives a match whose job already has one to the first
    idle job without one (these are of the request's autocluster, so they fit); that
    job goes into ``rematched``. With none of those either: no job ("", :func:`lost_match`)."""
    if run.left:
        job_id = run.head_id()
        run.advance()
        return job_id
    run.reoffers -= 1
    if not run.handed:
        return ""
    job_id = run.handed.pop(0)
    rematched.add(job_id)
    return job_id


def lost_match(
    slot: Slot, submitter: str, weight: float, state: CycleState, limits: Limits = ()
) -> float:
    """A re-offer's match that no job of its request takes: the negotiator made it (the
    caller charged ``weight`` within the cycle: limit, pie, slot, concurrency ``limits``), the
    startd never carves its dynamic slot (its number is free again), and fs lists no match
    for it (noted). It goes into ``state.jobless``: a committed cycle has the accountant
    charge it until the next cycle (the schedd, finding no job, never claims the slot, and
    ``NEGOTIATOR_INFORM_STARTD`` is off, so the next ``CheckMatches`` finds the slot
    unclaimed, or still claimed by its holder, whom ``AddMatch`` took off the accountant
    and ``CheckMatches`` puts back). Returns ``weight``."""
    parent = slot.parent
    if parent is not None and slot.claim is None:  # (a claimed dynamic slot stays)
        parent.children.discard(int(slot.name.split("@", 1)[0].rpartition("_")[2]))
    name = slot.name if parent is None or slot.claim is not None else parent.name
    text = ",".join(f"{n}:{inc!r}" for n, inc in limits) or None  # (as parse_limits reads)
    state.jobless.append(JoblessMatch(submitter, name, weight, len(state.matches), text))
    state.notes.add(
        "lost",
        f"negotiator.depth_first: a match of {submitter}'s request counted no job, so "
        "HTCondor offered the request once more than it has jobs and matched a slot no job "
        "of the request takes; fs counts that match in the cycle, and a committed cycle "
        "charges the accountant for it until the next cycle, but lists none and starts no "
        "job in it, where the schedd gives the slot to another idle job of the submitter "
        "that fits it, if any (docs/htcondor.md)",
    )
    return weight


def leave_to_schedd(run: Run, count: int, submitter: str, left: list[tuple[str, IdBatch]]) -> bool:
    """Take the next ``count`` jobs of ``run`` (at most those it has left) out of it, onto
    ``left`` as ``submitter``'s batch of their ids; a count past its jobs takes its
    re-offers. Returns whether ``run`` has an offer left."""
    taken = min(count, run.left)
    if taken > 0:
        job = run.batches[run.bi].job
        ids = run.take(taken)
        left.append((submitter, IdBatch(job=job, count=len(ids), ids=ids)))
        run.handed = [*(run.handed or ()), *ids]
    run.reoffers = max(0, run.reoffers - (count - taken))
    return run.left > 0 or run.reoffers > 0


def next_request(
    stop: str | None,
    run: Run,
    skip: int,
    left: tuple[str, list[tuple[str, IdBatch]]],
) -> str | bool:
    """Whether a turn asks for its next request of ``run`` (``getRequest``), having taken
    the ``skip`` past its last match (:func:`leave_to_schedd`, onto ``left``: the
    submitter and the list): True; False when the skip took the rest of ``run``; else
    ``stop``, why the turn ends. The limit and the ceiling end it before ``getRequest``; an empty
    pool (``pool_exhausted``) does not, so the skip is taken first and the request after
    it finds no slot."""
    if stop is not None and not (skip and stop == "pool_exhausted"):
        return stop
    if skip and not leave_to_schedd(run, skip, left[0], left[1]):
        return False
    if stop is not None:
        return stop
    return True
