"""What long simulations must settle to, derived from the accountant's and the pie's rules."""

from __future__ import annotations

from typing import Any

import pytest

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.simulate import SimResult, SimWindow, simulate
from fairshare_cli.io.config import build_config

START = 1_795_262_400.0
HALF_LIFE = 1800.0


def _config(slots: int) -> Any:
    return build_config(
        {
            "pool": {"uid_domain": "d", "defaults": "current"},
            "accountant": {"priority_halflife": HALF_LIFE},
            "machines": [{"name": "m", "count": 1, "slots": slots}],
        },
        "test.toml",
    )


def _with_factors(factors: dict[str, float]) -> acct.AccountantState:
    records = {
        f"{user}@d": acct.CustomerRecord(name=f"{user}@d", priority_factor=f)
        for user, f in factors.items()
    }
    return acct.AccountantState(records=records)


def _busy(users: list[str], run_time: float, per_user: int = 100_000) -> list[JobBatch]:
    """Each user keeps far more jobs queued than the pool can run: always busy."""
    return [
        JobBatch(Job(id=f"{k + 1}.0", owner=u, run_time=run_time), per_user)
        for k, u in enumerate(users)
    ]


def _mean_slots(result: SimResult, after: float) -> dict[str, float]:
    held: dict[str, list[float]] = {}
    for r in result.rows:
        if r.kind == "submitter" and r.time >= after:
            held.setdefault(r.name, []).append(r.slots)
    return {name: sum(v) / len(v) for name, v in held.items()}


def test_three_users_with_factors_1_4_16_settle_at_4_2_1() -> None:
    """The square-root law of the pie spin.

    Each cycle the free slots go to submitters by pie slices: submitter ``i``'s share of
    the pool is ``N · (1/EUP_i) / Σ_j (1/EUP_j)``, net of what it already holds
    (``Matchmaker::negotiateWithGroup``), with ``EUP_i = RUP_i · f_i``. The real priority is
    an exponential average of the resources in use (``RUP ← β·RUP + (1-β)·s``, ``β =
    0.5^(Δ/h)``), so in a steady state with every submitter always busy ``RUP_i = s_i`` and
    each holds its share: ``s_i ∝ 1/(s_i · f_i)``, that is ``s_i² · f_i`` is the same for
    all and ``s_i ∝ 1/√f_i``. Factors 1, 4, 16 give ``1 : 1/2 : 1/4`` = 4 : 2 : 1 — not the
    16 : 4 : 1 a reading of "share ∝ 1/factor" would give (that holds only while the RUPs
    are still equal, at the start). On 35 slots: 20, 10 and 5. Jobs of 5 minutes free a
    fifth of the pool each one-minute cycle; the half-life is 30 minutes and the run 6
    hours, the mean over the second half is compared within 2%.
    """
    config = _config(35)
    users = ["f1", "f4", "f16"]
    result = simulate(
        config,
        _with_factors({"f1": 1.0, "f4": 4.0, "f16": 16.0}),
        NegotiatorState(),
        [],
        _busy(users, 300.0),
        SimWindow(START, 6 * 3600, 60),
    )
    mean = _mean_slots(result, START + 3 * 3600)
    total = sum(mean.values())
    assert total == pytest.approx(35)  # always busy: the pool stays full
    want = {"f1@d": 4 / 7, "f4@d": 2 / 7, "f16@d": 1 / 7}
    for name, share in want.items():
        assert mean[name] / total == pytest.approx(share, rel=0.02), (name, mean)


def test_two_equal_users_converge_to_equal_shares() -> None:
    """Equal factors: ``s_a² · f = s_b² · f`` in the steady state, so ``s_a = s_b``.

    User ``b`` starts with a large accumulated usage (RUP 200, so it gets a small pie
    slice at first); with a half-life of 30 minutes that is forgotten within hours, and
    over the second half of 8 hours the two hold 15 of 30 slots each, within 2%.
    """
    config = _config(30)
    state = acct.AccountantState(
        records={
            "a@d": acct.CustomerRecord(name="a@d", priority_factor=1.0),
            "b@d": acct.CustomerRecord(name="b@d", priority=200.0, priority_factor=1.0),
        }
    )
    result = simulate(
        config,
        state,
        NegotiatorState(),
        [],
        _busy(["a", "b"], 600.0),
        SimWindow(START, 8 * 3600, 60),
    )
    mean = _mean_slots(result, START + 4 * 3600)
    assert mean["a@d"] / 30 == pytest.approx(0.5, rel=0.02)
    assert mean["b@d"] / 30 == pytest.approx(0.5, rel=0.02)


def test_a_user_who_stops_submitting_halves_their_priority_every_half_life() -> None:
    """Once a submitter holds nothing, ``RUP ← β·RUP`` with ``β = 0.5^(Δ/h)``: the
    effective priority ``RUP · f`` halves every half-life (while above the 0.5 floor).

    ``a`` runs 20 one-hour jobs from the start on a 20-slot pool; they end at 1 h and the
    accountant sees the ends at the cycle of 1 h. From then on ``a``'s row halves every
    30 minutes: at 1.5 h, 2 h and 2.5 h it is 1/2, 1/4 and 1/8 of its value at 1 h.
    """
    config = _config(20)
    work = [JobBatch(Job(id="1.0", owner="a", run_time=3600.0), 20)]
    result = simulate(
        config,
        _with_factors({"a": 1.0}),
        NegotiatorState(),
        [],
        work,
        SimWindow(START, 3 * 3600, 600),
    )
    eup = {r.time: r.effective_priority for r in result.rows if r.name == "a@d"}
    at_end = eup[START + 3600]
    assert at_end is not None and at_end > 8  # far above the floor
    for k in (1, 2, 3):
        assert eup[START + 3600 + k * HALF_LIFE] == pytest.approx(at_end / 2**k, rel=1e-12)
    slots = {r.time: r.slots for r in result.rows if r.name == "a@d"}
    assert slots[START + 3000] == 20 and slots[START + 3600] == 0
