"""What a job weighs in its submitter's demand (``WeightedIdleJobs``, ``WeightedRunningJobs``).

The schedd counts the weight (``Scheduler::count_jobs`` and ``guessJobSlotWeight`` in
HTCondor 25.0's ``schedd.cpp``), and the negotiator adds it to the group's demand with
``NEGOTIATOR_USE_WEIGHTED_DEMAND``. The schedd reads ``SLOT_WEIGHT`` itself, so its rule
holds whether or not the negotiator uses slot weights:

* ``SLOT_WEIGHT`` that is just ``Cpus`` (or just ``Memory``, either case) weighs a job its
  ``RequestCpus`` (its ``RequestMemory``);
* any other ``SLOT_WEIGHT`` is evaluated in an ad that holds only ``Cpus``, ``Memory`` and
  ``Disk``, set to the job's requests; a result that is not a number weighs ``RequestCpus``;
* each job's weight is truncated to a whole number (toward 0) before it is added.

A running job weighs the ``SlotWeight`` of the slot ad the schedd holds for its claim
(``Scheduler::calcSlotWeight``), summed as it is (no truncation) each time the schedd counts
its jobs:

* the ad is the one the claim was matched with; on a partitionable slot the schedd edits it
  to look like the dynamic slot (``Cpus``, ``Memory``, ``Disk`` set to the job's requests,
  ``fixupPartitionableSlot``) and replaces it by the claimed dynamic slot's own ad when the
  startd answers the claim: a job on a dynamic slot weighs that slot's weight, a job on a
  static slot the whole slot's (``SLOT_WEIGHT = Cpus``: a 1-CPU job on a 4-CPU slot is 4);
* the startd publishes ``SlotWeight`` (``SLOT_WEIGHT``, ``Cpus`` when unset) whatever the
  negotiator's ``NEGOTIATOR_USE_SLOT_WEIGHTS`` says, and the schedd reads it under its own
  ``SCHEDD_USE_SLOT_WEIGHT`` (true; not a key of fs): slot weights off in the negotiator
  leave this weight as it is;
* a blank ``SLOT_WEIGHT`` is unset: the startd publishes ``SlotWeight = Cpus``;
* a ``SlotWeight`` that is not a number weighs 1; a claim with no slot ad (the schedd
  reconnecting after a restart) weighs the idle guess, not cut to a whole number;
* a job whose status says running but whose ``CurrentHosts`` is 0 (no match record runs
  it: a status set by hand) is counted idle, at its idle weight.

``SCHEDD_SLOT_WEIGHT`` (an expression of the job, taken instead when set) is not a key of
fs: the pool's ``slot_weight`` stands for what the schedd reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone, finite_weight
from fairshare_cli.core.jobs import Job

#: ``RequestDisk`` in the schedd's guess (KiB): the job ad's default (negotiator/queue.py).
GUESS_REQUEST_DISK = 1048576


#: Where a ``slot_weight`` that does not parse is named.
WHERE = "[negotiator] slot_weight"


def idle_weigher(slot_weight: str) -> Callable[[Job], int]:
    """The weight one idle job adds to its submitter's ``WeightedIdleJobs``, under the
    pool's ``SLOT_WEIGHT`` text ``slot_weight``: :func:`job_guess` cut to a whole number.

    Raises:
        InputError: (when called) ``slot_weight`` does not parse.
    """
    guess = job_guess(slot_weight)
    return lambda job: int(guess(job))


def job_guess(slot_weight: str) -> Callable[[Job], float]:
    """The schedd's guess of a job's slot weight from its requests alone (see the module).

    Raises:
        InputError: (when called) ``slot_weight`` does not parse.
    """
    text = slot_weight.strip()
    if text.lower() == "cpus":
        return lambda job: job.request_cpus
    if text.lower() == "memory":
        return lambda job: job.request_memory
    cache: dict[object, Compiled] = {}
    found: dict[tuple[object, object], float] = {}

    def weigh(job: Job) -> float:
        cpus = int(job.request_cpus)
        memory = int(job.request_memory)
        weight = found.get((cpus, memory))
        if weight is None:
            values = {"Cpus": cpus, "Memory": memory, "Disk": GUESS_REQUEST_DISK}
            number = _number(evaluate_alone(text, values, WHERE, cache))
            weight = number if number is not None and math.isfinite(number) else float(cpus)
            found[(cpus, memory)] = weight
        return weight

    return weigh


def running_weigher(slot_weight: str) -> Callable[[Mapping[str, object] | None, Job], float]:
    """The weight a running job adds to its submitter's ``WeightedRunningJobs``: the
    ``SLOT_WEIGHT`` of the ad of the slot it holds (1 when that is not a number), or with
    no slot ad (None) :func:`job_guess` of the job (see the module).

    Raises:
        InputError: (when called) ``slot_weight`` does not parse.
    """
    # a blank SLOT_WEIGHT is unset: the startd publishes SlotWeight = Cpus (ResMgr.cpp)
    text = slot_weight.strip() or "Cpus"
    guess = job_guess(slot_weight)
    cache: dict[object, Compiled] = {}
    plain = text.lower() if text.lower() in ("cpus", "memory") else None

    def weigh(slot_ad: Mapping[str, object] | None, job: Job) -> float:
        # (a jobs-file record that holds some fields only has no current_hosts: None)
        if getattr(job, "current_hosts", None) == 0:  # no shadow runs it: counted idle
            return float(int(guess(job)))
        if slot_ad is None:
            return float(guess(job))
        if plain is not None:  # the ad's own value, found as ClassAd names are (any case)
            value = next((v for k, v in slot_ad.items() if k.lower() == plain), None)
            if type(value) in (int, float):
                return float(value)  # type: ignore[arg-type]
        number = _number(evaluate_alone(text, slot_ad, WHERE, cache))
        return 1.0 if number is None else finite_weight(number)

    return weigh


def _number(value: object) -> float | None:
    """A ClassAd value read as a number (``LookupFloat``: a boolean is 0 or 1), else None."""
    if value is True or value is False:
        return float(value)
    if type(value) in (int, float):
        return float(value)  # type: ignore[arg-type]
    return None
