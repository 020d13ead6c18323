"""Classic fair share: a user's usage as the decay pass computes it at the user's first job.

The rule is ``_decay_thread`` in ``priority_multifactor.c`` (Slurm 22.05): the pass sets
every account's usage (``_set_children_usage_efctv``, which also marks each user's
``usage_efctv`` unset), decays all usage, then walks the job list
(``_decay_apply_new_usage_and_weighted_factors``): each running job is charged
(``_apply_new_usage``, to its association and every parent up to root), each pending job
weighed (``decay_apply_weighted_factors``; not a held job, whose priority is 0, and
``_get_priority_internal`` returns before the factors for an admin-set priority).
``_get_fairshare_priority`` computes a user's usage when its ``usage_efctv`` is unset,
so at its first job weighed, over root's usage as it then stands; later jobs and sshare
(``assoc_mgr_get_shares``) reuse it. slurmctld appends jobs to its list as it creates
them (``_create_job_record``: ``list_append``), so the list runs in job id order.

The cluster of tests/core/slurm/test_tree_usage.py: root -> A (1 share: u1, u2, 1 share
each), B (1 share: u3). Half-life 10 minutes (``d = 1 - 0.693/600``), a pass a minute. At
the pass T0 u1 and u3 have 600 each, u2 nothing; u2's 4-CPU job 5 runs from T0. The pass
T1 = T0 + 60 starts from A = B = 1/2 (usage_norm = usage_efctv), decays all by
q = d^60 (u1 = u3 = 600q, root 1200q) and charges job 5 60 · q · 4 = 240q (root 1440q).

- u1's pending job 3 comes before job 5: u1's usage is 600q over root's 1200q, UN = 1/2,
  UE = 1/2 + (1/2 - 1/2) · 1/2 = 1/2, S = 1/4, factor 2^(-2) = 1/4 (after the charge it
  would be UN = 5/12, UE = 11/24, factor 2^(-11/6)).
- u2's pending job 4 comes before its own job 5: UN = 0, UE = 0 + (1/2 - 0) · 1/2 = 1/4,
  factor 2^(-1) (after: UN 1/6, UE 1/3, 2^(-4/3)).
- u3's pending job 7 comes after job 5: UN = 600q/1440q = 5/12, UE = B's 1/2, as after
  the pass.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import AccountSpec, Config, SlurmPriorityConfig
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.assoc_tree import Assoc
from fairshare_cli.core.slurm.pass_grid import decay_factor
from fairshare_cli.core.slurm.tree_usage import evaluate
from fairshare_cli.core.slurm.usage import RunningCharge, SlurmUsage

T0 = 1_795_303_140.0  # a decay pass (a whole minute)
T1 = T0 + 60
Q = decay_factor(600) ** 60
ACCOUNTS = {
    "A": AccountSpec("A", shares=1, users={"u1": 1, "u2": 1}),
    "B": AccountSpec("B", shares=1, users={"u3": 1}),
}
AT_T0 = SlurmUsage(
    last_decay_ran=T0,
    usage={("A", "u1"): 600.0, ("A", "u2"): 0.0, ("B", "u3"): 600.0},
    running=(RunningCharge("A", "u2", 4.0, T0, job="5"),),
)
RUNNING = Job(id="5", owner="u2", account="A", status="running", start_time=T0)


def _config(algorithm: str = "classic", flags: tuple[str, ...] = ()) -> Config:
    priority = SlurmPriorityConfig(
        fairshare=algorithm, decay_halflife=600.0, calc_period=60.0, flags=flags
    )  # type: ignore[arg-type]
    return Config(priority=priority, accounts=ACCOUNTS)


def _pending(job_id: str, owner: str, account: str, **fields: object) -> Job:
    fields.setdefault("submit_time", T0 - 30)
    return Job(id=job_id, owner=owner, account=account, **fields)  # type: ignore[arg-type]


def _users(queue: list[Job], config: Config | None = None) -> tuple[Assoc, Assoc, Assoc]:
    _, tree = evaluate(config or _config(), AT_T0, T1 + 25, queue)
    u1, u2, u3 = (tree.user_assoc(u, a) for u, a in (("u1", "A"), ("u2", "A"), ("u3", "B")))
    assert u1 is not None and u2 is not None and u3 is not None
    return u1, u2, u3


def test_a_pending_job_before_a_charge_takes_the_usage_then() -> None:
    queue = [_pending("3", "u1", "A"), RUNNING, _pending("7", "u3", "B")]
    u1, u2, u3 = _users(queue)
    assert (u1.usage_norm, u1.usage_efctv) == (pytest.approx(0.5), pytest.approx(0.5))
    assert u1.fs_factor == pytest.approx(0.25)
    # u2 has no pending job: sshare computes it after the pass
    assert u2.usage_norm == pytest.approx(1 / 6)
    assert u2.fs_factor == pytest.approx(2 ** (-4 / 3))
    assert u3.usage_norm == pytest.approx(5 / 12)
    assert u3.fs_factor == pytest.approx(0.5)


def test_a_users_job_before_its_own_running_job() -> None:
    u1, u2, _ = _users([_pending("4", "u2", "A"), RUNNING])
    assert (u2.usage_norm, u2.usage_efctv) == (0.0, pytest.approx(0.25))
    assert u2.fs_factor == pytest.approx(0.5)
    assert u1.usage_norm == pytest.approx(5 / 12)  # (no job: after)


def test_the_first_job_in_id_order_counts_whatever_the_queue_order() -> None:
    """Job 10 of u1 comes after the charge, job 3 before it: job 3 is the first weighed
    (ids compare as numbers: 10 after 9)."""
    queue = [RUNNING, _pending("10", "u1", "A"), _pending("3", "u1", "A")]
    u1, _, _ = _users(queue)
    assert u1.fs_factor == pytest.approx(0.25)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"status": "held"}, id="held"),
        pytest.param({"admin_priority": 0}, id="admin-priority-0"),
        pytest.param({"admin_priority": 5000}, id="admin-set-priority"),
        pytest.param({"submit_time": T1 + 10}, id="submitted-after-the-pass"),
    ],
)
def test_jobs_the_pass_does_not_weigh(fields: dict[str, object]) -> None:
    u1, _, _ = _users([_pending("3", "u1", "A", **fields), RUNNING])
    assert u1.usage_norm == pytest.approx(5 / 12)
    assert u1.fs_factor == pytest.approx(2 ** (-11 / 6))


def test_calculate_running_weighs_a_running_job_after_its_charge() -> None:
    """With ``CALCULATE_RUNNING`` job 5 is weighed too, after its own charge: u2 gets the
    usage after the pass (its first job), unlike its pending job 4 before it, which gives
    u2 UN 0."""
    config = _config(flags=("NO_FAIR_TREE", "CALCULATE_RUNNING"))
    _, u2, _ = _users([RUNNING], config)
    assert u2.usage_norm == pytest.approx(1 / 6)
    _, u2, _ = _users([RUNNING, _pending("4", "u2", "A")], config)
    assert u2.usage_norm == 0.0


def test_fair_tree_and_no_queue_keep_the_usage_after_the_pass() -> None:
    queue = [_pending("3", "u1", "A"), RUNNING]
    u1, _, _ = _users(queue, _config("fair_tree"))
    assert u1.usage_efctv == pytest.approx(5 / 7)  # (600q / 840q)
    _, tree = evaluate(_config(), AT_T0, T1 + 25)
    alone = tree.user_assoc("u1", "A")
    assert alone is not None and alone.usage_norm == pytest.approx(5 / 12)


def test_many_charges_before_a_users_first_job_are_summed_exactly() -> None:
    """6,000 running jobs of u2 (ids 100 to 6099, rates of many binary digits) and u1's
    pending job 5000: the pass charged 4,900 of them before weighing u1's job, more than
    the walk keeps uncompacted (WALK_COMPACT); u1's usage is 600q over root's 1200q plus
    exactly those charges (``math.fsum`` of them, 60 · q · rate each), as one sum."""
    import math

    from fairshare_cli.core.slurm.tree_usage import WALK_COMPACT, decay_params, pass_charges

    rates = [1.0 + k / 7 + 1e-9 * k for k in range(6000)]
    charges = tuple(
        RunningCharge("A", "u2", rate, T0, job=str(100 + k)) for k, rate in enumerate(rates)
    )
    state = SlurmUsage(last_decay_ran=T0, usage=AT_T0.usage, running=charges)
    config = _config()
    _, tree = evaluate(config, state, T1 + 25, [_pending("5000", "u1", "A")])
    u1 = tree.user_assoc("u1", "A")
    assert u1 is not None
    amounts = [amount for _, job, amount in pass_charges(state, T1, decay_params(config))
               if job is not None and int(job) < 5000]  # fmt: skip
    assert len(amounts) == 4900 > WALK_COMPACT
    assert u1.usage_norm == 600 * Q / (1200 * Q + math.fsum(amounts))
