"""One HTCondor negotiation cycle: pie spins, job order, slot choice, preemption.

Mirrors ``Matchmaker::negotiationTime``, ``negotiateWithGroup``, ``negotiate`` and
``matchmakingAlgorithm`` in HTCondor's ``src/condor_negotiator.V6/matchmaker.cpp``
(reference §5, seed §3.4.5-3.4.6). The parts, in the order a cycle uses them:

* :mod:`.results` — claims, priorities and knobs going in; matches and summaries out;
* :mod:`.slots` — slots, slot classes, slot weights;
* :mod:`.pool_size` — the pool's size (the pie's and the group quotas'), with a cycle or
  without;
* :mod:`.queue` — job ads, autoclusters, job order and runs;
* :mod:`.snapshot` — the cycle's frozen inputs, built once;
* :mod:`.preemption` — what ``PREEMPTION_REQUIREMENTS`` and machine ranks allow;
* :mod:`.claimed` — the claimed-candidate index (segment trees, union-find);
* :mod:`.candidates` — ranked candidates per autocluster;
* :mod:`.matchmaking` — the best slot for a job, or the reason there is none;
* :mod:`.state` and :mod:`.pie` — the changing state and the pie spins;
* :mod:`.explain` — one job's story; :mod:`.cycle` — :func:`negotiate_cycle`.
"""

from __future__ import annotations

from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor.negotiator.common import INT_MAX
from fairshare_cli.core.htcondor.negotiator.cycle import negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.pool_size import pool_size
from fairshare_cli.core.htcondor.negotiator.results import (
    Claim,
    CycleResult,
    Match,
    NegotiatorKnobs,
    SubmitterPrio,
    SubmitterSummary,
    UnmatchedRun,
)
from fairshare_cli.core.htcondor.negotiator.slots import expand_slots, machine_names

__all__ = [
    "FLT_MAX",
    "INT_MAX",
    "Claim",
    "CycleResult",
    "Match",
    "NegotiatorKnobs",
    "SubmitterPrio",
    "SubmitterSummary",
    "UnmatchedRun",
    "expand_slots",
    "machine_names",
    "negotiate_cycle",
    "pool_size",
]
