"""The Slurm usage of ``fs simulate``: the decay passes a cycle runs past, and the tree
each of them leaves (what ``INCR_ONLY`` keeps a pending job's priority at)."""

from __future__ import annotations

from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.slurm_series import SlurmSeries
from fairshare_cli.core.slurm.fairshare import user_fairshare_factors
from fairshare_cli.io.config import build_config

T0 = 1_795_262_400.0  # a pass (the state's last_decay_ran)


def _series() -> SlurmSeries:
    """One minute a pass, a week's half-life; bob holds 100 of usage, alice none."""
    raw = {
        "pool": {"defaults": "current"},
        "priority": {"fairshare": "fair_tree", "calc_period": "1", "decay_halflife": "7-0"},
        "accounts": {"hep": {"shares": 1, "users": {"alice": 1, "bob": 1}}},
    }
    section = {"last_decay_ran": T0, "usage": {"hep": {"bob": 100.0}}}
    return SlurmSeries(build_config(raw, "test.toml"), section)


def test_the_passes_a_cycle_runs_past() -> None:
    """From the last cycle's pass (12:00) to a cycle at 12:03:30, whose own pass is 12:03:
    12:00, 12:01 and 12:02; none to a cycle of the same pass."""
    series = _series()
    assert series.passes_between(T0, T0 + 210) == [T0, T0 + 60, T0 + 120]
    assert series.passes_between(T0, T0 + 59) == []


def test_a_pass_tree_is_the_one_the_series_reaches_there() -> None:
    """alice starts a 1-CPU job at 12:00: 60 a pass. At 12:01 her usage (60) is under bob's
    (100 x 2^(-60/604800), a little under 100), so Fair Tree ranks her first (factor 1,
    bob 0.5); at 12:02 (120) over it (alice 0.5, bob 1). pass_tree leaves the series as it
    is: a series advanced to each pass gives the same factors."""
    series = _series()
    series.tree(T0)
    series.start("1", Job(id="1", owner="alice", account="hep", request_cpus=1), T0)
    at = {p: user_fairshare_factors(series.pass_tree(p), "fair_tree") for p in (T0 + 60, T0 + 120)}
    assert at == {T0 + 60: {"alice": 1.0, "bob": 0.5}, T0 + 120: {"alice": 0.5, "bob": 1.0}}
    assert series.passes_between(T0, T0 + 150) == [T0, T0 + 60]  # (not advanced)
    assert series.factors(T0 + 60) == at[T0 + 60]
    assert series.factors(T0 + 120) == at[T0 + 120]
