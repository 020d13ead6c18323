"""The partition slurmctld leaves a job of several partitions in, by the priorities it stores.

From the first decay pass after its submission, slurmctld computes a job's factors in
``job_ptr->part_ptr``: the partition of the record of the job the schedulers popped last,
each record setting it (``_schedule``, backfill). They pop a job's records in
``sort_job_queue2``'s order, highest tier first, then highest priority, where a record's
priority is the job's entry of ``priority_array`` for that partition (and QOS): a
``uint32``, the sum ``_priority_each_qos`` truncates (``part·W + (age + assoc + fs + js + qos
+ tres + site − nice)``, at least 1), so two partitions whose sums truncate alike tie, and
the record queued later (the later partition as slurmctld keeps them) is popped last (glibc's
``qsort`` is a merge sort: equal records keep their order). 22.05 and 26.05 alike.

What depends on that partition: the job-size factor of a job of no time limit under
``SMALL_RELATIVE_TO_TIME`` (its ``MaxTime``), and the TRES a row of sprio keeps
(:meth:`~.priority.FactorMaker.size_values`). The sums that choose it depend on the job's
own age, fair share, site and nice, so a kind of job whose rows depend on it is picked job
by job (:meth:`SizedShares.pick`).

The priorities that choose it are the pass before's (the submission's before the first):
its size factor that of the partition chosen the pass before (its first named at
submission), so the choice is made from there until it holds; its other factors are taken
as this pass's, where slurmctld's are the pass before's (a job whose age or fair share
moved its sums across a whole number since that pass is not modelled).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fairshare_cli.core.slurm.factors import clamp_priority


class Sizes:
    """The job-size and partition values of a kind of job (``size_values``' tuple) per
    partition it may be left in (``variants``, by name), and what chooses among them:
    ``start``, its first named partition; ``weighted_jobsize``, the weighted job-size
    factor each of those (and ``start``) gives; ``choices``: the partitions of the records
    popped last (``sizing_choices``), each as its name, weighted partition factor and
    weighted TRES sum (as ``_get_tres_prio_weighted`` adds it), in slurmctld's order."""

    __slots__ = ("choices", "start", "variants", "weighted_jobsize")

    def __init__(
        self,
        start: str,
        weighted_jobsize: Mapping[str, float],
        choices: Sequence[tuple[str, float, float]],
        variants: Mapping[str, Any],
    ) -> None:
        self.start = start
        self.weighted_jobsize = weighted_jobsize
        self.choices = choices
        self.variants = variants

    def pick(self, head: float, qos_w: Sequence[float], site: int, nice: int) -> str:
        """The partition slurmctld leaves a job in, its weighted age, ASSOC and fair-share
        factors summed (``head``), its QOS rows' weighted QOS factors ``qos_w``, its site
        factor and nice: the last of the least stored priority, its size factor that of the
        pass before's choice, from its first named on until the choice holds (at most as
        many passes as there are choices; one that flips pass to pass is not modelled)."""
        chosen = self.start
        for _ in range(len(self.choices) + 1):
            before = head + self.weighted_jobsize[chosen]
            best, least = chosen, None
            for name, part_w, tres in self.choices:
                low = min(clamp_priority(part_w + (before + q + tres + site - nice)) for q in qos_w)
                if least is None or low <= least:
                    best, least = name, low
            if best == chosen:
                break
            chosen = best
        return chosen

    def shares(self, qos: Sequence[tuple[str, float, float]], make: Callable[..., Any]) -> Any:
        """The :class:`SizedShares` of the job's QOS rows (``qos_values``), each row made by
        ``make(size, part, qos)`` (a ``PartShare``)."""
        made = {
            name: tuple(make(size, part, q) for part in size[2] for q in qos)
            for name, size in self.variants.items()
        }
        return SizedShares(self, tuple(q[2] for q in qos), made)


class SizedShares:
    """A kind of job's rows per partition it may be left in (:class:`Sizes`), picked job by
    job; iterated, the rows of any (their partition, QOS and partition factors alike)."""

    __slots__ = ("made", "qos_w", "sizes")

    def __init__(self, sizes: Sizes, qos_w: tuple[float, ...], made: dict[str, Any]) -> None:
        self.sizes = sizes
        self.qos_w = qos_w
        self.made = made

    def __iter__(self) -> Any:
        return iter(next(iter(self.made.values())))

    def pick(self, age_w: float, assoc: Any, site: int, nice: int) -> Any:
        """The rows of a job of weighted age ``age_w``, of ``assoc`` (an ``AssocShare``),
        site factor ``site`` and nice ``nice``."""
        head = age_w + assoc.weighted_assoc + assoc.weighted_fairshare
        return self.made[self.sizes.pick(head, self.qos_w, site, nice)]


def weighted_sum(terms: Mapping[str, float]) -> float:
    """Weighted TRES factors summed as ``_get_tres_prio_weighted`` adds them: from 0.0, in
    the controller's order, one at a time (not ``sum``, which compensates)."""
    total = 0.0
    for value in terms.values():
        total += value
    return total
