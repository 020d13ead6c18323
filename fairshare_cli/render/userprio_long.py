"""``fs userprio --long``: each record as ``condor_userprio -long`` prints its accounting ad."""

from __future__ import annotations

from fairshare_cli.core.htcondor.userprio import UserprioView


def render_long(view: UserprioView, now: float) -> str:
    """``-long``: each record as an accounting ad in the old ``attr = value`` form."""
    out: list[str] = []
    for r in view.listed or view.rows:
        ad = {
            "MyType": '"Accounting"',
            "Name": f'"{r.name}"',
            "IsAccountingGroup": "true" if r.is_group else "false",
            "AccountingGroup": f'"{r.group}"',
            "Priority": repr(r.effective_priority),
            "PriorityFactor": repr(r.priority_factor),
            "ResourcesUsed": str(r.resources_in_use),
            "WeightedResourcesUsed": repr(r.weighted_resources_in_use),
            "AccumulatedUsage": repr(r.accumulated_usage_hours * 3600.0),
            "WeightedAccumulatedUsage": repr(r.weighted_accumulated_usage_hours * 3600.0),
            "BeginUsageTime": str(int(r.begin_usage_time)),
            "LastUsageTime": str(int(r.last_usage_time)),
            "LastUpdate": str(int(now)),
        }
        if r.floor > 0 or r.ceiling > -1:  # the accountant's Floor/Ceiling, when set
            ad["Ceiling"] = str(int(r.ceiling))
            ad["Floor"] = str(int(r.floor))
        if r.is_group:
            if r.config_quota is not None:
                ad["ConfigQuota"] = repr(r.config_quota)
            if r.effective_quota is not None:
                ad["EffectiveQuota"] = repr(r.effective_quota)
            if r.subtree_quota is not None:
                ad["SubtreeQuota"] = repr(r.subtree_quota)
            ad["SurplusPolicy"] = f'"{r.surplus.lower()}"'
        out.append("\n".join(f"{k} = {v}" for k, v in ad.items()))
    return "\n\n".join(out) + ("\n" if out else "")
