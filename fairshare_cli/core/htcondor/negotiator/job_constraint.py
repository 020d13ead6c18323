"""``NEGOTIATOR_JOB_CONSTRAINT``: the jobs the schedd offers the negotiator.

25.0's negotiator sends the expression to the schedd with each negotiation request
(``Matchmaker::negotiate``: ``ATTR_NEGOTIATOR_JOB_CONSTRAINT``), and the schedd offers only
the idle jobs it is true on (``Scheduler::negotiate``: ``EvalExprBool`` of the job ad, no
target: true or a non-zero number; undefined, an error or a string are not), skipping the
rest of an autocluster once a job of it is refused. The negotiator counts the attributes it
reads as significant (``negotiationTime``), so every job of an autocluster gets the same
answer: here it is taken once per autocluster. The jobs not offered still count in their
submitter's idle jobs (its submitter ad, its group's demand); they are never matched, and
are reported unmatched as :data:`JOB_CONSTRAINT`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster
from fairshare_cli.core.htcondor.negotiator.runs import Run
from fairshare_cli.core.htcondor.negotiator.slots import compile_knob

#: The unmatched reason of a job the constraint keeps from being offered.
JOB_CONSTRAINT = "job_constraint"


def compile_constraint(
    ev: Evaluator, text: str | None, names: frozenset[str], refs: set[str]
) -> Compiled | None:
    """The constraint compiled for job ads with attribute ``names`` (None when unset), the
    attributes it reads added to ``refs`` (they split autoclusters).

    Raises:
        ConfigError: it does not parse.
    """
    offer = compile_knob(ev, text, names, "job_constraint")
    if offer is not None:
        refs.update(offer.my_refs)
        refs.update(offer.target_refs)
    return offer


def unoffered(
    ev: Evaluator, offer: Compiled | None, autoclusters: Iterable[AutoCluster], empty: Ad
) -> frozenset[int]:
    """The autoclusters (by index) whose jobs the schedd does not offer."""
    if offer is None:
        return frozenset()
    return frozenset(ac.index for ac in autoclusters if not ev.is_true(offer, ac.ad, empty))


def offered(runs: Iterable[Run], kept_back: frozenset[int]) -> Iterator[Run]:
    """A submitter's runs as the schedd offers them: those of the ``kept_back``
    autoclusters left out."""
    return (run for run in runs if run.ac.index not in kept_back)
