"""Imported usage made exact by the dump's jobs, the association Priority factor, and
printed priorities checked against the imported state."""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.config import (
    AccountSpec,
    Config,
    PartitionSpec,
    PriorityWeights,
    QosSpec,
    SlurmPriorityConfig,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.assoc_priority import assoc_factors, effective_priorities
from fairshare_cli.core.slurm.snapshot import (
    JobCharge,
    PriorityMismatch,
    keep_precision,
    priority_mismatches,
    refine_usage,
)
from fairshare_cli.core.slurm.usage import RunningCharge, SlurmUsage

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


@pytest.mark.parametrize(
    ("printed", "kept"),
    [
        pytest.param(1234.57, True, id="rounds-to-it"),
        pytest.param(1234.56, False, id="more-than-rounding-away"),
    ],
)
def test_keep_precision_where_the_print_agrees(printed: float, kept: bool) -> None:
    """No decay: the state's 1234.5678 at T is still 1234.5678 five passes on; printed
    to two decimals that is 1234.57 (kept), while 1234.56 is 0.0078 away (usage came or
    went in between: the print wins). A dump from before the state's pass keeps nothing."""
    state = SlurmUsage(last_decay_ran=T, usage={("a", "u"): 1234.5678, ("a", "v"): 0.0})
    usage, keys = keep_precision(state, {("a", "u"): printed, ("a", "v"): 0.0}, T + 300, CONFIG)
    assert keys == ([("a", "u")] if kept else [])
    assert usage == {("a", "u"): 1234.5678 if kept else printed, ("a", "v"): 0.0}
    assert keep_precision(state, {("a", "u"): 1234.57}, T - 60, CONFIG) == (
        {("a", "u"): 1234.57},
        [],
    )


def test_keep_precision_across_a_restart() -> None:
    """Half-life 600 s, d = 1 − 0.693/600: passes at T+60…T+360 on the old grid, then a
    restart's first pass at T+386 decays by d^26 (``restart``): 1000 · d^360 · d^26."""
    config = Config(priority=SlurmPriorityConfig(decay_halflife=600.0, calc_period=60.0))
    d = 1 - 0.693 / 600
    exact = 1000.0 * d**360 * d**26
    state = SlurmUsage(last_decay_ran=T, usage={("a", "u"): 1000.0})
    usage, keys = keep_precision(state, {("a", "u"): round(exact, 2)}, T + 386, config)
    assert keys == [("a", "u")]
    assert usage[("a", "u")] == pytest.approx(exact, rel=1e-14)
    assert usage[("a", "u")] != round(exact, 2)


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


def _classic_cluster() -> tuple[Config, SlurmUsage]:
    """The classic cluster of ``test_tree_usage.py`` at the pass T1 = T0 + 60 (its
    docstring derives the factors): u2's factor 2^(-4/3), u3's 1/2; with only
    PriorityWeightFairshare = 10000, ``_get_priority_internal`` truncates
    10000 · 2^(-4/3) = 3968.50 to 3968 and 10000 / 2 to 5000."""
    t0 = T - 60
    d = 1 - 0.693 / 600
    config = Config(
        priority=SlurmPriorityConfig(
            fairshare="classic",
            decay_halflife=600.0,
            calc_period=60.0,
            weights=PriorityWeights(fairshare=10000),
        ),
        accounts={
            "A": AccountSpec("A", shares=1, users={"u1": 1, "u2": 1}),
            "B": AccountSpec("B", shares=1, users={"u3": 1}),
        },
        partitions={"batch": PartitionSpec("batch", default=True)},
    )
    q = d**60
    state = SlurmUsage(
        last_decay_ran=T,
        usage={("A", "u1"): 600.0 * q, ("A", "u2"): 240.0 * q, ("B", "u3"): 600.0 * q},
        running=(RunningCharge("A", "u2", 4.0, t0),),
    )
    return config, state


@pytest.mark.parametrize(
    ("site", "printed", "reported"),
    [
        pytest.param(0, 3968, False, id="adds-up"),
        pytest.param(300, 4268, False, id="site-factor-from-the-dump"),
        pytest.param(0, 4268, True, id="no-site-factor-in-the-dump"),
        # 10000 · 2^(-3/2): the factor over the usage after the pass, not Slurm's rule.
        pytest.param(0, 3535, True, id="another-rule"),
    ],
)
def test_a_priority_that_does_not_add_up_is_reported(
    site: int, printed: int, reported: bool
) -> None:
    config, state = _classic_cluster()
    u2 = Job(id="7", owner="u2", account="A", submit_time=T - 100, site_factor=site)
    u3 = Job(id="8", owner="u3", account="B", submit_time=T - 100)
    running = Job(id="9", owner="u2", account="A", status="running", start_time=T - 60)
    nobody = Job(id="10", owner="u9", account="A", submit_time=T - 100)
    jobs = [(u2, printed), (u3, 5000), (running, 1), (nobody, 77)]
    found = priority_mismatches(config, state, jobs, T + 5)
    assert found == ([PriorityMismatch("7", "batch", printed, 3968 + site)] if reported else [])
    # nothing is absorbed: the job keeps the site factor the dump gave it
    assert u2.site_factor == site
