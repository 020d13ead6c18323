"""Classic fair share between decay passes: accounts from the start of the pass, users now.

The rule is ``_decay_thread`` in ``priority_multifactor.c`` (Slurm 22.05 and 26.05): each
pass first runs ``_set_children_usage_efctv`` (every account's ``usage_norm`` =
usage_raw / root usage_raw and ``usage_efctv``, from the usage as the previous pass left
it; users' ``usage_efctv`` set to ``NO_VAL``), then decays every usage alike
(``_apply_decay``) and charges running jobs (``_apply_new_usage``). A user's value is
computed when a job or sshare needs it (``_get_fairshare_priority``,
``assoc_mgr_get_shares`` -> ``priority_p_set_assoc_usage``): its usage_norm from the usage
as it then stands, its effective usage from its parent's as of the pass start
(``_set_usage_efctv``: ``UE = UN + (UE_parent - UN) · S / S_siblings``), and the factor
``2^(-UE/S_norm)``.

The cluster of these tests: root -> A (1 share: u1, u2, 1 share each), B (1 share: u3).
Half-life 10 minutes (``d = 1 - 0.693/600``), a pass every minute. At the pass T0 u1
and u3 have 600 each, u2 nothing; u2's 4-CPU job starts at T0. At the pass T1 = T0 + 60:

- the pass starts from u1 = u3 = 600, u2 = 0 (root 1200): A and B have usage_norm
  = usage_efctv = 1/2;
- then q = d^60 decays all and u2 is charged 60 · q · 4 = 240q: u1 = u3 = 600q,
  u2 = 240q, root 1440q, A 840q;
- u2: UN = 240/1440 = 1/6, UE = 1/6 + (1/2 - 1/6)/2 = 1/3, S = 1/2 · 1/2 = 1/4,
  factor 2^(-4/3); u1: UN = 5/12, UE = 5/12 + (1/2 - 5/12)/2 = 11/24, factor 2^(-11/6);
  u3 (alone in B): UE = B's 1/2, S = 1/2, factor 2^(-1).

Over the usage as it stands after the pass (A's UN = 840/1440 = 7/12), u2 would get
UE = 1/6 + (7/12 - 1/6)/2 = 3/8, factor 2^(-3/2), and u3 UE 5/12, factor 2^(-5/6).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import AccountSpec, Config, SlurmPriorityConfig
from fairshare_cli.core.slurm.assoc_tree import set_usage
from fairshare_cli.core.slurm.fairshare import compute_fairshare
from fairshare_cli.core.slurm.pass_grid import decay_factor
from fairshare_cli.core.slurm.tree_usage import (
    decay_params,
    evaluate,
    pass_charges,
    tree_from_config,
    usage_before_charges,
)
from fairshare_cli.core.slurm.usage import RunningCharge, SlurmUsage

T0 = 1_795_303_140.0  # a decay pass (a whole minute)
T1 = T0 + 60
D = decay_factor(600)
Q = D**60
ACCOUNTS = {
    "A": AccountSpec("A", shares=1, users={"u1": 1, "u2": 1}),
    "B": AccountSpec("B", shares=1, users={"u3": 1}),
}


def _config(algorithm: str = "classic", **knobs: object) -> Config:
    priority = SlurmPriorityConfig(
        fairshare=algorithm, decay_halflife=600.0, calc_period=60.0, **knobs
    )  # type: ignore[arg-type]
    return Config(priority=priority, accounts=ACCOUNTS)


JOB = RunningCharge("A", "u2", 4.0, T0)
AT_T0 = SlurmUsage(
    last_decay_ran=T0,
    usage={("A", "u1"): 600.0, ("A", "u2"): 0.0, ("B", "u3"): 600.0},
    running=(JOB,),
)
#: The same cluster as a dump taken after T1 shows it (usage as T1 left it, the job on).
AT_T1 = SlurmUsage(
    last_decay_ran=T1,
    usage={("A", "u1"): 600.0 * Q, ("A", "u2"): 240.0 * Q, ("B", "u3"): 600.0 * Q},
    running=(JOB,),
)


@pytest.mark.parametrize(
    "state",
    [
        pytest.param(AT_T0, id="decayed-from-the-pass-before"),
        pytest.param(AT_T1, id="imported-at-the-pass"),
    ],
)
def test_accounts_from_the_pass_start_users_as_they_stand(state: SlurmUsage) -> None:
    t, tree = evaluate(_config(), state, T1 + 25)
    assert t == T1
    a, b = tree.accounts["A"], tree.accounts["B"]
    assert a.usage_raw == pytest.approx(840.0 * Q, rel=1e-12)  # sshare's RawUsage: now
    assert (a.usage_norm, a.usage_efctv) == (pytest.approx(0.5), pytest.approx(0.5))
    assert (b.usage_norm, b.usage_efctv) == (pytest.approx(0.5), pytest.approx(0.5))
    u1, u2 = tree.user_assoc("u1", "A"), tree.user_assoc("u2", "A")
    u3 = tree.user_assoc("u3", "B")
    assert u1 is not None and u2 is not None and u3 is not None
    assert u2.usage_norm == pytest.approx(1 / 6)
    assert u2.usage_efctv == pytest.approx(1 / 3)
    assert u2.fs_factor == pytest.approx(2 ** (-4 / 3))  # 0.396850, not 2^(-3/2) = 0.353553
    assert u1.usage_efctv == pytest.approx(11 / 24)
    assert u1.fs_factor == pytest.approx(2 ** (-11 / 6))
    assert u3.usage_efctv == pytest.approx(0.5)
    assert u3.fs_factor == pytest.approx(0.5)  # not 2^(-5/6) = 0.561231


def test_depth_oblivious_from_the_pass_start() -> None:
    """``_depth_oblivious_set_usage_efctv``: UE = ratio_p · ratio_l^k · S. For u2, A's
    ratio_p = UE_A / S_A = (1/2)/(1/2) = 1 (the pass start's UE), so k = 1 (log 1 = 0);
    ratio_s = (UN_u1 + UN_u2) / S_A = (5/12 + 1/6)/(1/2) = 7/6, ratio_l = (UN_u2 / S_u2) /
    ratio_s = ((1/6)/(1/4))/(7/6) = 4/7: UE = 4/7 · 1/4 = 1/7, factor 2^(-4/7). u3 alone
    in B: ratio_l = ((5/12)/(1/2)) / ((5/12)/(1/2)) = 1, UE = 1/2. (Over the usage after the
    pass, A's UE 7/12 would give ratio_p 7/6 and k = 1/(1 + (5 ln 7/6)^2).)"""
    _, tree = evaluate(_config("depth_oblivious"), AT_T0, T1)
    u2, u3 = tree.user_assoc("u2", "A"), tree.user_assoc("u3", "B")
    assert u2 is not None and u3 is not None
    assert u2.usage_efctv == pytest.approx(1 / 7)
    assert u2.fs_factor == pytest.approx(2 ** (-4 / 7))
    assert u3.usage_efctv == pytest.approx(0.5)


def test_fair_tree_and_linear_use_the_usage_as_it_stands() -> None:
    """Fair Tree computes everything after the pass (``fair_tree_decay``); ``linear`` is
    Slurm 2.0's documented formula: A's usage is 840/1440 = 7/12 for both."""
    for algorithm in ("fair_tree", "linear"):
        _, tree = evaluate(_config(algorithm), AT_T0, T1)
        assert tree.accounts["A"].usage_norm == pytest.approx(7 / 12), algorithm
    _, tree = evaluate(_config("linear"), AT_T0, T1)
    u2 = tree.user_assoc("u2", "A")
    assert u2 is not None
    assert u2.usage_efctv == pytest.approx(3 / 8)  # 1/6 + (7/12 - 1/6) / 2


def test_before_charges_takes_out_the_pass_charge_and_ends_after_it() -> None:
    """At T1 the job's pass charge is 60 · q · 4; a job of u1 that started at T0 + 30 was
    charged 30 · d^30 · 2 there; with limits enforced, u3's job that ended at T1 + 10
    (after the pass, by ``now``) had its last 10 s charged then: 10 · d^10 · 1."""
    ends = SlurmUsage(
        last_decay_ran=T1,
        usage={("A", "u1"): 100.0, ("A", "u2"): 300.0, ("B", "u3"): 500.0},
        running=(
            JOB,
            RunningCharge("A", "u1", 2.0, T0 + 30),
            RunningCharge("B", "u3", 1.0, T0 - 600, T1 + 10),
        ),
    )
    params = decay_params(_config(enforce_limits=True))
    out = usage_before_charges(
        ends, T1, ends.usage, T1 + 20, params, pass_charges(ends, T1, params)
    )
    assert out is not None
    assert out[("A", "u2")] == pytest.approx(300.0 - 240.0 * Q)
    assert out[("A", "u1")] == pytest.approx(100.0 - 60.0 * D**30)
    assert out[("B", "u3")] == pytest.approx(500.0 - 60.0 * Q - 10.0 * D**10)
    # Not yet ended at ``now``: only its pass charge comes out.
    out = usage_before_charges(ends, T1, ends.usage, T1 + 5, params, pass_charges(ends, T1, params))
    assert out is not None
    assert out[("B", "u3")] == pytest.approx(500.0 - 60.0 * Q)
    # A pass that charged nothing: the usage is already in the pass start's proportions.
    idle = SlurmUsage(last_decay_ran=T1, usage=ends.usage)
    assert (
        usage_before_charges(idle, T1, idle.usage, T1 + 5, params, pass_charges(idle, T1, params))
        is None
    )


def test_a_reset_at_the_pass_leaves_accounts_no_usage() -> None:
    """``_reset_usage`` runs before ``_set_children_usage_efctv``: every account's
    usage_norm is 0 (root usage 0), so u2's UE = 1/6 + (0 - 1/6)/2 = 1/12."""
    reset = SlurmUsage(last_decay_ran=T1, last_reset=T1, usage={("A", "u2"): 1.0, ("B", "u3"): 5.0})
    params = decay_params(_config())
    charges = pass_charges(reset, T1, params)
    assert usage_before_charges(reset, T1, reset.usage, T1, params, charges) == {
        ("A", "u2"): 0.0,
        ("B", "u3"): 0.0,
    }
    _, tree = evaluate(_config(), reset, T1)
    u2 = tree.user_assoc("u2", "A")
    assert u2 is not None
    assert tree.accounts["A"].usage_efctv == 0.0
    assert u2.usage_efctv == pytest.approx(1 / 12)


@settings(max_examples=50, deadline=None)
@given(
    usage=st.lists(st.floats(0.0, 1e6, allow_nan=False), min_size=3, max_size=3),
    algorithm=st.sampled_from(["classic", "depth_oblivious"]),
)
def test_with_no_job_running_the_pass_start_is_the_usage_now(
    usage: list[float], algorithm: str
) -> None:
    """A pass with nothing to charge only decays, alike everywhere: every value is the
    one computed over the usage as it stands."""
    keys = [("A", "u1"), ("A", "u2"), ("B", "u3")]
    state = SlurmUsage(last_decay_ran=T1, usage=dict(zip(keys, usage, strict=True)))
    _, tree = evaluate(_config(algorithm), state, T1 + 30)
    plain = tree_from_config(_config(algorithm))
    set_usage(plain, state.usage)
    compute_fairshare(plain, algorithm)
    for ours, theirs in zip(tree.assocs, plain.assocs, strict=True):
        assert ours.usage_norm == theirs.usage_norm
        assert ours.usage_efctv == theirs.usage_efctv
        assert ours.fs_factor == theirs.fs_factor
