"""The job ad an autocluster shows during a submitter's turn (``Matchmaker::negotiate``)."""

from __future__ import annotations

from fairshare_cli.core.htcondor.classads import Ad, Evaluator
from fairshare_cli.core.htcondor.groups import ROOT, GroupTree
from fairshare_cli.core.htcondor.negotiator.common import float32
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster, Submitter
from fairshare_cli.core.htcondor.negotiator.state import CycleState
from fairshare_cli.errors import InputError


def submitter_job_ad(
    sub: Submitter,
    ac: AutoCluster,
    state: CycleState,
    tree: GroupTree | None,
    legacy: bool,
    ev: Evaluator,
) -> Ad:
    """The autocluster's job ad with the submitter's ephemeral attributes (seed §3.4.3,
    reference §5.6; ``Matchmaker::negotiate``).

    ``SubmitterNegotiatingGroup`` is the group being negotiated (``<none>`` without
    group quotas and for the root), ``SubmitterAutoregroup`` whether this is the
    autoregroup round of ``<none>``. With group quotas in effect every submitter —
    those of ``<none>`` too — gets ``SubmitterGroup``, its group's usage and quota.
    """
    values = {k: v for k, v in ac.ad.values.values()}
    negotiating = state.negotiating_group
    autoregroup = tree is not None and tree.autoregroup and negotiating == ROOT
    # 7.x assigned the submitter's EUP as a C float, today's code as a double
    eup = float32(sub.eup) if legacy else sub.eup
    values.update(
        {
            "SubmitterUserPrio": eup,
            "SubmittorPrio": eup,
            "SubmitterUserResourcesInUse": state.usage.get(sub.name, 0.0),
            "SubmitterNegotiatingGroup": negotiating,
            "SubmitterAutoregroup": autoregroup,
        }
    )
    if sub.group is not None:
        values["SubmitterGroup"] = sub.group
        values["SubmitterGroupResourcesInUse"] = state.group_usage.get(sub.group, 0.0)
        values["SubmitterGroupQuota"] = state.group_quota.get(sub.group, 0.0)
    exprs = {k: c.text for k, c in ac.ad.exprs.values()}
    return Ad(values, exprs, ev, "job", InputError)
