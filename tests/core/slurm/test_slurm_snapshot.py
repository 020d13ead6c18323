"""Imported usage made exact by the dump's jobs, and the association Priority factor."""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.config import AccountSpec, Config, QosSpec, SlurmPriorityConfig
from fairshare_cli.core.slurm.assoc_priority import assoc_factors, effective_priorities
from fairshare_cli.core.slurm.snapshot import JobCharge, refine_usage
from fairshare_cli.core.slurm.usage import SlurmUsage

T = 1_795_303_160.0  # a decay pass
# No decay (an infinite half-life): a pass charges 60 s × rate, nothing fades.
CONFIG = Config(
    priority=SlurmPriorityConfig(decay_halflife=math.inf, calc_period=60.0),
    qos={"half": QosSpec("half", usage_factor=0.5)},
)


@pytest.mark.parametrize(
    ("imported", "refined"),
    [
        pytest.param(6000.0, True, id="rounded-value"),
        pytest.param(5999.996, True, id="just-inside"),
        pytest.param(6000.02, False, id="older-usage-too"),
    ],
)
def test_refine_only_what_the_jobs_explain(imported: float, refined: bool) -> None:
    """1 CPU for 100 passes (6000 s) plus 2 CPUs at UsageFactor 0.5 for 30 s that ended
    between passes (charged nothing): 6000 exactly; a value more than 0.005 away holds
    usage the dump does not show, and stays."""
    state = SlurmUsage(last_decay_ran=T, usage={("a", "u"): imported, ("a", "v"): 0.0})
    jobs = [
        JobCharge("a", "u", 1.0, None, T - 6000, None),
        JobCharge("a", "u", 2.0, "half", T - 50, T - 20),
        JobCharge("a", "v", 4.0, None, T - 10, T - 5),
    ]
    out, keys = refine_usage(state, jobs, CONFIG)
    assert keys == ([("a", "u")] if refined else [])
    assert out.usage[("a", "u")] == (6000.0 if refined else imported)
    assert out.usage[("a", "v")] == 0.0


def test_assoc_priority_inherits_and_normalises() -> None:
    """slurmdbd: unset takes the parent's; factor = priority / the largest."""
    accounts = {
        "a": AccountSpec("a", priority=10, users={"u1": 1, "u2": 1}, user_priority={"u2": 40}),
        "b": AccountSpec("b", parent="a", users={"u3": 1}),
        "c": AccountSpec("c", users={"u4": 1}),
    }
    assert effective_priorities(accounts)[("b", "u3")] == 10
    assert assoc_factors(accounts) == {("a", "u1"): 0.25, ("a", "u2"): 1.0, ("b", "u3"): 0.25}
    assert assoc_factors(accounts, no_normal=True)[("a", "u2")] == 40.0
    assert assoc_factors({"c": accounts["c"]}) == {}
