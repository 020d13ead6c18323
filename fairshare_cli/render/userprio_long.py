"""``fs userprio --long``: each record as ``condor_userprio -long`` prints its accounting ad."""

from __future__ import annotations

import math

from fairshare_cli.core.htcondor.userprio import UserprioView


def classad_real(value: float) -> str:
    """A real as an old-syntax ClassAd prints it (``ClassAdUnParser::UnparseReal``):
    ``%.1f`` of a zero (its sign kept), ``real("NaN")``, ``real("INF")`` / ``real("-INF")``,
    else ``%.16G`` with ".0" added where that has no '.', 'E' or 'e'."""
    if value == 0.0:
        return "%.1f" % value  # noqa: UP031  (C's format)
    if math.isnan(value):
        return 'real("NaN")'
    if math.isinf(value):
        return 'real("INF")' if value > 0 else 'real("-INF")'
    text = "%.16G" % value  # noqa: UP031  (C's format)
    return text if any(c in text for c in ".Ee") else text + ".0"


def render_long(view: UserprioView, now: float) -> str:
    """``-long``: each record as an accounting ad in the old ``attr = value`` form."""
    out: list[str] = []
    for r in view.listed or view.rows:
        ad = {
            "MyType": '"Accounting"',
            "Name": f'"{r.name}"',
            "IsAccountingGroup": "true" if r.is_group else "false",
            "AccountingGroup": f'"{r.group}"',
            "Priority": classad_real(r.effective_priority),
            "PriorityFactor": classad_real(r.priority_factor),
            "ResourcesUsed": str(r.resources_in_use),
            "WeightedResourcesUsed": classad_real(r.weighted_resources_in_use),
            "AccumulatedUsage": classad_real(r.accumulated_usage),
            "WeightedAccumulatedUsage": classad_real(r.weighted_accumulated_usage),
            "BeginUsageTime": str(int(r.begin_usage_time)),
            "LastUsageTime": str(int(r.last_usage_time)),
            "LastUpdate": str(int(now)),
        }
        if r.floor > 0 or r.ceiling > -1:  # the accountant's Floor/Ceiling, when set
            ad["Ceiling"] = str(int(r.ceiling))
            ad["Floor"] = str(int(r.floor))
        if r.is_group:
            if r.config_quota is not None:
                ad["ConfigQuota"] = classad_real(r.config_quota)
            if r.effective_quota is not None:
                ad["EffectiveQuota"] = classad_real(r.effective_quota)
            if r.subtree_quota is not None:
                ad["SubtreeQuota"] = classad_real(r.subtree_quota)
            ad["SurplusPolicy"] = f'"{r.surplus.lower()}"'
        out.append("\n".join(f"{k} = {v}" for k, v in ad.items()))
    return "\n\n".join(out) + ("\n" if out else "")
