"""``NEGOTIATOR_SUBMITTER_CONSTRAINT``: the submitter ads the negotiator fetches.

25.0's ``Matchmaker::obtainAdsFromCollector`` adds it to its query of submitter ads, and the
collector sends only the ads it is true on (``query_scanFunc``: ``EvalExprToBool`` of the
ad, no target, then ``IsBooleanValueEquiv``: true or a non-zero number; undefined, an error
or a string are not). A submitter whose ad is not sent is not in the cycle's submitter list:
never negotiated (its idle jobs are reported unmatched as :data:`SUBMITTER_CONSTRAINT`),
left out of the pie's shares (``calculateNormalizationFactor`` and the spins run over the
ads fetched) and of its group's demand (``hgq_prepare_for_matchmaking`` sums the ads'
jobs). What the accountant holds stays: its claims are still charged (``CheckMatches``
reads slot ads), still count in its group's usage (the accountant's group record), and its
slots may still be preempted.

The ad fs knows is ``Name`` (the submitter's name as the accountant has it) and
``MyType`` (``"Submitter"``). A schedd's submitter ad carries more (``IdleJobs``,
``RunningJobs``, ``ScheddName``...), counted as the schedd counts them, which fs does not
model: a constraint that reads any other attribute is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.negotiator.queue import Submitter, arrival_order
from fairshare_cli.core.htcondor.negotiator.results import NegotiatorKnobs
from fairshare_cli.errors import ConfigError

#: The unmatched reason of the idle jobs of a submitter whose ad is not fetched.
SUBMITTER_CONSTRAINT = "submitter_constraint"

KEY = "[negotiator] submitter_constraint"

#: The attributes of a submitter ad fs knows (lower case).
KNOWN = frozenset({"name", "mytype"})


def left_out(ev: Evaluator, text: str | None, names: Iterable[str]) -> frozenset[str]:
    """The submitters (of ``names``) whose ads the collector does not send.

    Raises:
        ConfigError: the constraint does not parse, or reads an attribute fs does not know.
    """
    if text is None or not text.strip():
        return frozenset()
    expr = ev.compile(text, KNOWN, KEY, ConfigError)
    other = {r.lower() for r in (*expr.my_refs, *expr.target_refs)} - KNOWN
    if other:
        raise ConfigError(
            f"{KEY} reads {', '.join(sorted(other))}: fs knows a submitter ad's Name and "
            "MyType only (the schedd's job counts and the like are not modelled)"
        )
    empty = Ad({}, {}, ev, "empty")
    out = set()
    for name in names:
        ad = Ad({"Name": name, "MyType": "Submitter"}, {}, ev, "submitter")
        if not ev.is_true(expr, ad, empty, cached=False):
            out.add(name)
    return frozenset(out)


def submitter_list(
    ev: Evaluator, knobs: NegotiatorKnobs, submitters: Mapping[str, Submitter]
) -> list[str]:
    """The cycle's submitter list: the names of ``submitters`` in their arrival order
    (:func:`.queue.arrival_order`), those whose ads are not sent left out and stopped
    with :data:`SUBMITTER_CONSTRAINT`.

    Raises:
        ConfigError: as :func:`left_out`.
    """
    arrival = arrival_order(submitters)
    out = left_out(ev, knobs.submitter_constraint, arrival)
    if not out:
        return arrival
    for name in out:
        submitters[name].stop_reason = SUBMITTER_CONSTRAINT
    return [name for name in arrival if name not in out]
