"""What ``fs userprio`` reads from the state: the accountant's records, the queue, each
group's quotas and each submitter's demand of this cycle, and, while a ``condor_userprio``
dump still describes the accountant, the time it was taken at and the quotas it reported;
for the negotiator's one ad, the entries of its accountant table and the concurrency limits
its claims hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

import click

from fairshare_cli.cli.context import Env
from fairshare_cli.core.htcondor.accountant import ROOT_GROUP, accountant_from_json
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.userprio_row import GroupQuotaInfo

if TYPE_CHECKING:
    from fairshare_cli.core.htcondor.claims import NegotiatorState
    from fairshare_cli.core.htcondor.negotiator.results import Claim
    from fairshare_cli.core.jobs import Job


class UserprioInputs(NamedTuple):
    """What the view is computed from."""

    records: Mapping[str, CustomerRecord]
    jobs: list[Job]
    group_info: dict[str, GroupQuotaInfo]
    demand: dict[str, float]  # each submitter's, as fs quota counts it (groups only)


def read_inputs(env: Env) -> UserprioInputs:
    """The accountant's records, the queue and, when groups are configured, each group's
    quotas and each submitter's demand (``fs quota``'s: over the queue and the claims)."""
    if not env.config.groups:  # (no group's demand to show: no claim is read)
        from fairshare_cli.core.htcondor.accountant_decode import stored_records

        records = env.decode("accountant", stored_records)
        jobs = env.queue()
        return UserprioInputs(records, jobs, {}, {})
    # Groups: the quota computation reads queue, accountant and claims once for all.
    from fairshare_cli.cli.htcondor_inputs import load_inputs
    from fairshare_cli.core.htcondor.pool import QuotaKnown, quota_view, submitter_demand

    inputs = load_inputs(env, None)
    weighted = env.config.negotiator.use_weighted_demand
    demand = submitter_demand(inputs.batches, inputs.claims, env.config, weighted, env.now)
    quota_rows = quota_view(
        env.config,
        inputs.batches,
        inputs.accountant,
        inputs.claims,
        env.now,
        inputs.negotiator.rr_times,
        QuotaKnown(demand=demand),
    )
    group_info = {
        r.group: GroupQuotaInfo(
            effective_quota=r.quota, subtree_quota=r.subtree_quota, sort_key=r.sort_key
        )
        for r in quota_rows
    }
    return UserprioInputs(inputs.accountant.records, inputs.jobs, group_info, demand)


def as_dumped(env: Env) -> tuple[float, dict[str, GroupQuotaInfo]]:
    """The time to show the accountant at, and the group quotas of its last cycle.

    While a ``condor_userprio`` dump (``fs import condor-userprio``) still describes the
    accountant, records show as of its ``LastUpdate`` with the quotas it reported, as
    condor_userprio shows them; otherwise at ``--now`` with no dumped quotas.
    """
    if env.state.section("htcondor_snapshot") is None:  # no dump: the module not imported
        return env.now, {}
    from fairshare_cli.core.htcondor.snapshot import (
        SECTION,
        snapshot_from_json,
        snapshot_in_force,
    )

    snap = env.decode(SECTION, snapshot_from_json)
    if snap is None:
        return env.now, {}
    from fairshare_cli.core.htcondor.claims import negotiator_from_json  # only with a dump

    last_cycle = env.decode("negotiator", negotiator_from_json).last_cycle
    state = env.decode("accountant", accountant_from_json)  # again: only with a dump
    if not snapshot_in_force(snap, last_cycle, env.now, state):
        return env.now, {}
    quotas = {
        name: GroupQuotaInfo(g.effective_quota, g.subtree_quota, g.sort_key)
        for name, g in snap.groups.items()
    }
    return snap.last_update, quotas


def negotiator_section(env: Env) -> NegotiatorState:
    """The state's negotiator section, read once (its claims give the ad's entries and
    limits, and ``-getreslist``; its ``limits_seen`` the limits held at 0)."""
    from fairshare_cli.core.htcondor.claims import negotiator_from_json

    return env.decode("negotiator", negotiator_from_json)


def negotiator_claims(env: Env) -> Mapping[str, Claim]:
    """The state's claims (:func:`negotiator_section`)."""
    return negotiator_section(env).claims


def claimed_limits(
    claims: Sequence[Claim], jobs: Sequence[Job], seen: Sequence[str] = ()
) -> dict[str, float]:
    """The negotiator's ``ConcurrencyLimit_<name>`` counts: each claim's limits, its own
    (the slot ad's, or a match's no job took: the accountant counts those until the next
    cycle's ``CheckMatches`` recounts the limits) or its running job's, and at 0 each limit
    of ``seen`` (counted by an earlier cycle) no claim holds; a job whose limits are an
    expression, which the negotiator evaluates against the slot, is left out, with a note."""
    from fairshare_cli.core.htcondor.concurrency import reported_limits

    by_id = {job.id: job for job in jobs}
    texts, left = [], 0
    for claim in claims:
        job = by_id.get(claim.job_id) if claim.job_id else None
        text = claim.concurrency_limits or (job.concurrency_limits if job else None)
        if text:
            texts.append(text)
        elif job is not None and job.concurrency_limits_expr:
            left += 1
    if left:
        click.echo(f"fs: note: ConcurrencyLimit_ counts leave out {left} claim(s) whose job's "
                   "limits are an expression", err=True)  # fmt: skip
    return reported_limits(texts, seen)


def table_entries(
    env: Env, records: Mapping[str, CustomerRecord], claims: Mapping[str, Claim]
) -> int:
    """The entries of the negotiator's accountant table: each record (every configured
    group has one), each match (a claim's ``Resource.`` record) and ``Accountant.``."""
    return len({*records, ROOT_GROUP, *env.config.groups}) + len(claims) + 1
