"""Job-queue changes: submit, prio and rm (``fs submit``, ``fs prio``, ``fs rm``); the
queue's reading and storing and the naming of jobs that ``fs release``
(:mod:`~fairshare_cli.core.operations.queue_release`) shares.

Each takes the state and returns the new state and what changed. Removing a running job
is more than a queue edit: its claim is released, the accountant stops charging it
(``RemoveMatch`` of the weight the claim was charged), DIRAC's running-jobs history
closes its interval and Slurm stops charging it. A running Slurm job submitted starts
accruing Slurm usage from its start.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    claim_weight,
    negotiator_from_json,
    negotiator_to_json,
    slot_weigher,
)
from fairshare_cli.core.htcondor.pool import submitter_of
from fairshare_cli.core.jobs import (
    Job,
    alike_but_id,
    job_to_json,
    parse_jobs,
    parse_jobs_one_by_one,
)
from fairshare_cli.core.limits import SLURM_PRIORITY_MAX
from fairshare_cli.core.names import shown
from fairshare_cli.core.operations.node_fit import NodeFit, check_slurm_names
from fairshare_cli.core.operations.submit_batch import batch_json
from fairshare_cli.core.state import State
from fairshare_cli.errors import InputError, RuntimeFailure


def read_queue(state: State, where: str) -> list[Job]:
    """The state's ``jobs`` section; ``where`` names the state file in messages.

    Raises:
        InputError: a malformed job.
    """
    raw = state.section("jobs")
    return parse_jobs([] if raw is None else raw, f"{where}: jobs")


def store_queue(state: State, jobs: Iterable[Job]) -> State:
    return state.with_section("jobs", [job_to_json(j) for j in jobs])


def no_job(wanted: str, ids: Collection[str]) -> InputError:
    """``no job "4.0" in the queue``; with a job ``4`` queued (one job submitted alone, as
    sbatch numbers it), the id to give instead: condor_q would list that job as 4.0."""
    cluster, dot, proc = wanted.partition(".")
    alone = dot and proc == "0" and cluster in ids
    hint = f"; the queue has job {shown(cluster)}: give {shown(cluster)}" if alone else ""
    return InputError(f'no job "{shown(wanted)}" in the queue{hint}')


def matches(job: Job, wanted: str) -> bool:
    """``12.3`` names one job; ``12`` names every job of cluster 12 (as condor_rm does)."""
    return job.id == wanted or ("." not in wanted and job.id.split(".", 1)[0] == wanted)


def check_slurm_fields(config: Config, job: Job, fit: NodeFit | None = None) -> str | None:
    """Reject a job naming a partition, QOS or account the config does not define, with
    an admin priority Slurm refuses, or that no nodes of its partitions could ever run
    (``fit``: the submission's :class:`NodeFit`). (A nice or site factor beyond Slurm's
    range: the job parser refuses it, in every file.)

    Returns:
        Why the job, queued, will pend for ever (:meth:`NodeFit.check`); None if not.

    Raises:
        InputError: naming the job and the field.
    """
    if job.admin_priority is not None and job.admin_priority > SLURM_PRIORITY_MAX:
        raise InputError(
            f"job {job.id}: admin_priority {job.admin_priority}: expected 0 to "
            f"{SLURM_PRIORITY_MAX} "
            "(scontrol update job priority=)"
        )
    check_slurm_names(config, job, f"job {job.id}", hints=True)
    return (fit or NodeFit(config)).check(job)


def slurm_charges(
    config: Config,
    state: State,
    jobs: Sequence[Job],
    now: float,
    stop: bool,
    queue: Sequence[Job] | None = None,
) -> State:
    """Running Slurm jobs accrue usage from their start (submit) until removed (rm), or
    until slurmctld would have ended them at their time limits (``queue``: the state's,
    read from it when None).

    Raises:
        SectionError: a malformed ``slurm`` section.
    """
    from fairshare_cli.core.slurm import snapshot
    from fairshare_cli.core.slurm.limit_ends import charged_ids
    from fairshare_cli.core.slurm.usage import usage_from_json, usage_to_json

    if not any(j.status == "running" for j in jobs) or not config.accounts:
        return state
    slurm = usage_from_json(state.section("slurm"))
    if stop:
        slurm = snapshot.stop_charges(slurm, jobs, now, config)
    else:
        # the queue's running jobs whose charges are open end at their limits
        if not charged_ids(slurm):
            queue = []
        elif queue is None:
            queue = read_queue(state, "the state")
        slurm = snapshot.charge_running_jobs(slurm, jobs, config, now, queue)
    return state.with_section("slurm", usage_to_json(slurm))


def _next_cluster(jobs: Sequence[Job]) -> int:
    best = 0
    for job in jobs:
        head = job.id.split(".", 1)[0]
        if head.isdigit():
            best = max(best, int(head))
    return best + 1


def _refuse_queued_cluster(
    queue: Sequence[Job], clusters: Mapping[str, str], job_id: str, label: str, where: str
) -> None:
    """Refuse a job submitted into a cluster the queue already holds (``8.3`` beside a Slurm
    job ``8``, or ``8`` beside ``8.0``): condor_submit gives every submission a cluster of
    its own, Slurm and DIRAC a number of its own, and ``fs rm 8`` or ``fs prio 8`` would
    act on both.

    ``clusters``: the first queued job of each cluster of ``queue``, by cluster.

    Raises:
        InputError: naming the job, the queued one and the next free cluster.
    """
    cluster = job_id.split(".", 1)[0]
    held = clusters.get(cluster)
    if held is not None:
        raise InputError(
            f"{label}: cluster {cluster} is already in the queue of {where} (job {held}),"
            f" and fs rm {cluster} or fs prio {cluster} would act on both; a submission is a"
            f" cluster of its own: give another id (the next free is {_next_cluster(queue)})"
        )


def numbered(
    queue: Sequence[Job], objects: Sequence[Any], now: float, job_id: str | None
) -> list[Any]:
    """Copies of ``objects`` as they are queued: a ``submit_time`` (``now``) and an ``id``
    (``job_id`` for a single job, else the next free cluster number) where they have none.
    Anything in a jobs file's list that is no job object stays as it is, for
    :func:`~fairshare_cli.core.jobs.parse_jobs_one_by_one` to refuse by its place."""
    objs = [dict(o) if isinstance(o, Mapping) else o for o in objects]
    next_id = _next_cluster(queue)
    for obj in objs:
        if not isinstance(obj, dict):
            continue
        obj.setdefault("submit_time", now)
        if "id" not in obj:
            obj["id"] = job_id if job_id is not None and len(objs) == 1 else str(next_id)
            next_id += 1
    return objs


def new_jobs(
    config: Config,
    queue: Sequence[Job],
    objects: Sequence[Mapping[str, Any]],
    now: float,
    *,
    source: str,
    where: str,
    job_id: str | None = None,
) -> tuple[list[Job], dict[str, str]]:
    """The jobs ``objects`` describe (docs/jobs.md job objects), checked against ``queue``,
    as the scheduler stores them (a Slurm job of no time limit with its partition's
    ``DefaultTime``: :meth:`NodeFit.taken`; a running one of several partitions with the
    one it runs in first: :meth:`NodeFit.started`).

    A job without ``submit_time`` is submitted at ``now``; one without ``id`` gets
    ``job_id`` (a single job) or the next free cluster number.

    Args:
        source: names the objects in messages (a file, or ``fs submit``).
        where: names the state file in messages.

    Returns:
        The jobs, and why each pending one that will never start waits, by id (its
        partitions' limits hold it back: :meth:`NodeFit.check`).

    Raises:
        InputError: a malformed job, an id already queued, or an unknown Slurm field.
    """
    new = parse_jobs_one_by_one(numbered(queue, objects, now, job_id), source)
    return checked_jobs(config, queue, new, source=source, where=where)


def checked_jobs(
    config: Config, queue: Sequence[Job], new: Sequence[Job], *, source: str, where: str
) -> tuple[list[Job], dict[str, str]]:
    """The parsed jobs ``new`` checked against ``queue`` and the config, as
    :func:`new_jobs` returns them.

    Raises:
        InputError: an id already queued, or an unknown Slurm field.
    """
    queued = {j.id for j in queue}
    clusters: dict[str, str] = {}
    for queued_job in queue:
        clusters.setdefault(queued_job.id.split(".", 1)[0], queued_job.id)
    fit = NodeFit(config)
    jobs: list[Job] = []
    held: dict[str, str] = {}
    before: Job | None = None
    reason: str | None = None
    for job in new:
        if job.id in queued:
            raise InputError(f"{source}: job id {job.id} is already in the queue of {where}")
        _refuse_queued_cluster(queue, clusters, job.id, f"{source}: job {job.id}", where)
        if alike_but_id(job, before):  # (its predecessor's checks and record, its own id)
            jobs.append(replace(jobs[-1], id=job.id))
        else:
            try:
                reason = check_slurm_fields(config, job, fit)
                taken = fit.taken(job)
                jobs.append(fit.started(taken) if job.status == "running" else taken)
            except InputError as exc:
                raise InputError(f"{source}: {exc}") from None
        before = job
        if reason is not None and job.status != "running":
            held[job.id] = reason
    return jobs, held


def add_jobs(
    config: Config,
    state: State,
    queue: Sequence[Job],
    new: Sequence[Job],
    now: float,
    batches: Sequence[JobBatch] | None = None,
) -> State:
    """The state with ``new`` queued after ``queue`` (``batches``: the same jobs, a batch
    of jobs alike but for their ids each); running Slurm jobs start accruing.

    Raises:
        SectionError: a malformed ``slurm`` section.
    """
    if batches is None:
        state = store_queue(state, [*queue, *new])
    else:  # (each batch's JSON made once, not once a job)
        stored = [job_to_json(j) for j in queue]
        at = 0
        for batch in batches:
            stored += batch_json(batch, [job.id for job in new[at : at + batch.count]])
            at += batch.count
        state = state.with_section("jobs", stored)
    return slurm_charges(config, state, new, now, stop=False, queue=queue)


def submit(
    config: Config,
    state: State,
    now: float,
    objects: Sequence[Mapping[str, Any]],
    *,
    source: str,
    where: str,
    job_id: str | None = None,
) -> tuple[State, list[Job]]:
    """Add the jobs described by ``objects`` to the queue (:func:`new_jobs`, :func:`add_jobs`).

    Returns:
        The new state and the jobs added.

    Raises:
        InputError: a malformed job, an id already queued, or an unknown Slurm field.
        SectionError: a malformed state section.
    """
    queue = read_queue(state, where)
    new, _ = new_jobs(config, queue, objects, now, source=source, where=where, job_id=job_id)
    return add_jobs(config, state, queue, new, now), new


def set_priority(
    state: State, job_id: str, number: int, *, slurm: bool, where: str
) -> tuple[State, list[Job]]:
    """Set ``JobPrio`` (or, with ``slurm``, the admin priority; 0 holds a pending job, and a
    running one runs on) of the jobs named.

    Returns:
        The new state and the jobs changed (before the change).

    Raises:
        InputError: no job of that id.
        RuntimeFailure: with ``slurm``, a priority other than 0 for a held job, or any for
            a completed or removed one.
    """
    queue = read_queue(state, where)
    hit = [j for j in queue if matches(j, job_id)]
    if not hit:
        raise no_job(job_id, {j.id for j in queue})
    ended = [j.id for j in hit if j.status in ENDED]
    if slurm and ended:  # (_update_job: IS_JOB_FINISHED, ESLURM_JOB_FINISHED)
        raise RuntimeFailure(
            f"job {ended[0]}: Job has already finished (scontrol update sets no priority on "
            "a completed or removed job)"
        )
    held = [j.id for j in hit if is_held(j)]
    if slurm and number and held:  # (_update_job: "ignore priority reset request on held")
        raise RuntimeFailure(
            f"job {held[0]}: Job is in held state, pending scheduler release (scontrol "
            "update sets no priority but 0 on a held job; fs release releases it)"
        )
    out = []
    for job in queue:
        if matches(job, job_id):
            if slurm:
                job = replace(job, admin_priority=number)
                if number == 0 and job.status == "idle":  # (a running job runs on)
                    job = replace(job, status="held")
            else:
                job = replace(job, job_prio=number)
        out.append(job)
    return store_queue(state, out), hit


def release_jobs(
    removed: Iterable[Job],
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    config: Config,
    now: float,
) -> tuple[acct.AccountantState, NegotiatorState]:
    """Running jobs leave the pool (``condor_rm``): ``RemoveMatch`` and their claims go.

    Each claim gives back the weight it was charged; a running job without a claim gives
    back its slot's weight (1.0 without a slot). A claim on the slot of a match no job took
    gives back nothing: that match's ``AddMatch`` took its holder off already.

    Returns:
        The accountant and negotiator section after the jobs released their slots.
    """
    name_of = submitter_of(config)
    weigh = slot_weigher(config)
    claims = dict(negotiator.claims)
    by_job = {c.job_id: c for c in claims.values()}
    taken = {c.slot for c in negotiator.jobless}
    for job in removed:
        if job.status != "running":
            continue
        claim = by_job.get(job.id)
        if claim is not None:
            del claims[claim.slot]
            if claim.slot in taken:
                continue
            submitter, weight = claim.submitter, claim_weight(claim, weigh)
        else:
            began = job.start_time if job.start_time is not None else now
            submitter = name_of(job)
            weight = weigh(job.slot, began) if job.slot else 1.0
        accountant = acct.remove_match(accountant, config, submitter, weight, now)
    return accountant, negotiator.with_claims(claims)


def _release(config: Config, state: State, gone: Sequence[Job], now: float) -> State:
    """Running jobs removed: their slots are released and their usage stops now.

    Raises:
        SectionError: a malformed ``accountant``, ``negotiator`` or ``dirac`` section.
    """
    from fairshare_cli.core.dirac.correction import record_cycle

    accountant = acct.accountant_from_json(state.section("accountant"))
    negotiator = negotiator_from_json(state.section("negotiator"))
    accountant, negotiator = release_jobs(gone, accountant, negotiator, config, now)
    state = slurm_charges(config, state, gone, now, stop=True)
    state = state.with_section("accountant", acct.accountant_to_json(accountant))
    state = state.with_section("negotiator", negotiator_to_json(negotiator))
    stopped = [(j.dirac_group, j.owner) for j in gone if j.status == "running" and j.dirac_group]
    if stopped:
        state = state.with_section("dirac", record_cycle(state.section("dirac"), [], stopped, now))
    return state


#: A job that is over: no hold, release or new priority changes it.
ENDED = frozenset(("completed", "removed"))


def is_held(job: Job) -> bool:
    """Held: by its status, or by a Slurm admin priority of 0 (slurmctld's hold)."""
    return job.status == "held" or job.admin_priority == 0


def named_in_queue(
    state: State, where: str, job_ids: Sequence[str]
) -> tuple[list[Job], Callable[[Job], bool]]:
    """The queue, once every id (``12.3``, or ``12`` for a cluster) names a job in it, and
    whether a job is named (:func:`matches` any id), by set look-ups: one pass over the
    queue however many ids (``fs release $(seq 1 2000)`` on a queue of 200,000 jobs
    compared every job with every id).

    Raises:
        InputError: an id that names no job (the first on the line).
    """
    queue = read_queue(state, where)
    exact = set(job_ids)
    clusters = {w for w in exact if "." not in w}

    def named(job: Job) -> bool:
        return job.id in exact or job.id.split(".", 1)[0] in clusters

    ids = {job.id for job in queue}
    queued_clusters = {job.id.split(".", 1)[0] for job in queue}
    for wanted in job_ids:
        if wanted not in ids and (wanted not in queued_clusters or "." in wanted):
            raise no_job(wanted, ids)
    return queue, named


def remove(
    config: Config, state: State, now: float, job_ids: Sequence[str], *, where: str
) -> tuple[State, list[Job]]:
    """Remove the jobs named (``12.3``, or ``12`` for a whole cluster) from the queue.

    Returns:
        The new state and the jobs removed.

    Raises:
        InputError: an id that names no job.
        SectionError: a malformed state section.
    """
    queue, named = named_in_queue(state, where, job_ids)
    gone: list[Job] = []
    kept: list[Job] = []
    for job in queue:
        (gone if named(job) else kept).append(job)
    state = store_queue(state, kept)
    if any(j.status == "running" for j in gone):
        state = _release(config, state, gone, now)
    return state, gone


def ended_by_dump(queue: Sequence[Job], ended: Mapping[str, str]) -> tuple[list[Job], list[str]]:
    """The queue, each job a later dump of the scheduler's queue lists as over (``ended``:
    its id, ``"completed"`` or ``"removed"``) so marked, and the ids marked: a running job
    a re-import of ``scontrol show jobs`` or ``condor_q -all`` shows finished ran on in
    the queue, and held its claim, for ever. A job already over is left as it is; its
    claim, if any, ends at the next cycle, as ``CheckMatches`` ends one whose job stopped.
    """
    if not ended:
        return list(queue), []
    out: list[Job] = []
    marked: list[str] = []
    for job in queue:
        status = ended.get(job.id)
        if status is not None and job.status not in ENDED:
            job = replace(job, status=status)
            marked.append(job.id)
        out.append(job)
    return out, marked
