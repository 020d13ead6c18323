"""What an idle job weighs in its submitter's demand (the submitter ad's ``WeightedIdleJobs``).

The schedd counts the weight (``Scheduler::count_jobs`` and ``guessJobSlotWeight`` in
HTCondor 25.0's ``schedd.cpp``), and the negotiator adds it to the group's demand with
``NEGOTIATOR_USE_WEIGHTED_DEMAND``. The schedd reads ``SLOT_WEIGHT`` itself, so its rule
holds whether or not the negotiator uses slot weights:

* ``SLOT_WEIGHT`` that is just ``Cpus`` (or just ``Memory``, either case) weighs a job its
  ``RequestCpus`` (its ``RequestMemory``);
* any other ``SLOT_WEIGHT`` is evaluated in an ad that holds only ``Cpus``, ``Memory`` and
  ``Disk``, set to the job's requests; a result that is not a number weighs ``RequestCpus``;
* each job's weight is truncated to a whole number (toward 0) before it is added.

``SCHEDD_SLOT_WEIGHT`` (an expression of the job, taken instead when set) is not a key of
fs: the pool's ``slot_weight`` stands for what the schedd reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone
from fairshare_cli.core.jobs import Job

#: ``RequestDisk`` in the schedd's guess (KiB): the job ad's default (negotiator/queue.py).
GUESS_REQUEST_DISK = 1048576


def idle_weigher(slot_weight: str) -> Callable[[Job], int]:
    """The weight one idle job adds to its submitter's ``WeightedIdleJobs``, under the
    pool's ``SLOT_WEIGHT`` text ``slot_weight``.

    Raises:
        InputError: (when called) ``slot_weight`` does not parse.
    """
    text = slot_weight.strip()
    if text.lower() == "cpus":
        return lambda job: int(job.request_cpus)
    if text.lower() == "memory":
        return lambda job: int(job.request_memory)
    cache: dict[object, Compiled] = {}
    found: dict[tuple[object, object], int] = {}

    def weigh(job: Job) -> int:
        cpus = int(job.request_cpus)
        memory = int(job.request_memory)
        weight = found.get((cpus, memory))
        if weight is None:
            values = {"Cpus": cpus, "Memory": memory, "Disk": GUESS_REQUEST_DISK}
            value = evaluate_alone(text, values, "[negotiator] slot_weight", cache)
            number = _number(value)
            usable = number is not None and math.isfinite(number)
            weight = found[(cpus, memory)] = int(number) if usable else cpus  # type: ignore[arg-type]
        return weight

    return weigh


def _number(value: object) -> float | None:
    """A ClassAd value read as a number (``LookupFloat``: a boolean is 0 or 1), else None."""
    if value is True or value is False:
        return float(value)
    if type(value) in (int, float):
        return float(value)  # type: ignore[arg-type]
    return None
