"""One HTCondor negotiation cycle (a package; the public API is re-exported here)."""

from __future__ import annotations

from fairshare_cli.core.htcondor.negotiator.claimed import (
    FLT_MAX,
    INT_MAX,
    Claim,
    CycleResult,
    Match,
    NegotiatorKnobs,
    SubmitterPrio,
    SubmitterSummary,
    UnmatchedRun,
    expand_slots,
    machine_names,
    negotiate_cycle,
    pool_size,
)

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
