"""Slurm usage: decay per pass, accrual of running jobs, resets, lazy views."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.pass_grid import PassGrid, decay_factor
from fairshare_cli.core.slurm.usage import (
    DecayParams,
    RunningCharge,
    SlurmUsage,
    add_records,
    advance,
    charge_at,
    last_pass,
    restart,
    usage_at,
    usage_from_json,
    usage_to_json,
)
from fairshare_cli.core.state import SectionError


def _t(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


def test_decay_factor_is_linearised_ln2() -> None:
    d = decay_factor(600)
    assert d == 1 - 0.693 / 600
    # One half-life does not decay to exactly one half.
    assert d**600 != 0.5
    assert d**600 == pytest.approx(0.49987, abs=1e-5)
    assert decay_factor(0) == 1.0


def test_pass_by_pass_charge_matches_iteration() -> None:
    """8 CPUs from 23:09:01, passes every minute at :20, half-life 10 minutes."""
    d = decay_factor(600)
    expected = 19 * d**19 * 8
    for _ in range(4):
        expected = expected * d**60 + 60 * d**60 * 8
    got = charge_at(
        _t("2026-11-21T23:09:01"),
        None,
        8.0,
        PassGrid(
            anchor=_t("2026-11-21T23:08:20"), period=60, factor=d, upto=_t("2026-11-21T23:13:20")
        ),
    )
    assert got == pytest.approx(expected, rel=1e-13)
    assert round(got, 2) == 1731.96  # scontrol show assoc_mgr, ft1_running


def test_job_ending_between_passes_is_charged_to_the_pass_before() -> None:
    d = decay_factor(600)
    anchor = _t("2026-11-21T23:08:20")
    grid = PassGrid(anchor=anchor, period=60, factor=d, upto=_t("2026-11-21T23:19:20"))
    got = charge_at(_t("2026-11-21T23:09:01"), _t("2026-11-21T23:16:01"), 4.0, grid)
    same = charge_at(_t("2026-11-21T23:09:01"), _t("2026-11-21T23:15:20"), 4.0, grid)
    assert got == same
    assert round(got, 2) == 899.25  # ft2_idle
    more = charge_at(
        _t("2026-11-21T23:09:01"),
        _t("2026-11-21T23:16:01"),
        4.0,
        PassGrid(
            anchor=anchor, period=60, factor=d, upto=_t("2026-11-21T23:19:20"), charge_job_end=True
        ),
    )
    assert more == pytest.approx(same + 41 * d**41 * 4 * d ** (4 * 60))


def test_lazy_view_equals_advancing() -> None:
    p = DecayParams(halflife=600, calc_period=60)
    state = advance(
        SlurmUsage(last_decay_ran=_t("2026-11-21T23:08:20")), _t("2026-11-21T23:14:06"), p
    )
    charge = (("b", "u1"), _t("2026-11-21T23:09:01"), None, 8.0, None)
    state = add_records(state, [charge], _t("2026-11-21T23:14:06"), p)
    later = _t("2026-11-21T23:40:00")
    t1, view = usage_at(state, later, p)
    stepped = advance(advance(state, _t("2026-11-21T23:20:05"), p), later, p)
    assert t1 == stepped.last_decay_ran == _t("2026-11-21T23:39:20")
    assert view[("b", "u1")] == pytest.approx(stepped.usage[("b", "u1")], rel=1e-12)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 1200), st.one_of(st.none(), st.integers(0, 1200)), st.integers(1, 8)
        ),
        min_size=1,
        max_size=4,
    ),
    st.integers(0, 1500),
    st.integers(0, 300),
    st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_a_view_is_the_same_whether_or_not_the_state_was_advanced(
    charges: list[tuple[int, int | None, int]], first: int, wait: int, end_charge: bool
) -> None:
    """Advancing (what every mutating command does first) changes no later view: neither
    the usage nor the usage before the last pass charged its jobs (which classic fair
    share reads), a job ended after that pass included."""
    from fairshare_cli.core.slurm.tree_usage import pass_charges, usage_before_charges

    p = DecayParams(halflife=600, calc_period=60, charge_job_end=end_charge)
    t0 = _t("2026-11-21T00:00:00")
    running = tuple(
        RunningCharge("a", f"u{i}", float(rate), t0 + s, None if e is None else t0 + s + e)
        for i, (s, e, rate) in enumerate(charges)
    )
    state = SlurmUsage(last_decay_ran=t0, running=running)
    now = t0 + first
    later = now + wait
    stepped = advance(state, now, p)
    for view in (now, later):
        t, usage = usage_at(state, view, p)
        t2, usage2 = usage_at(stepped, view, p)
        assert t2 == t
        for key in usage.keys() | usage2.keys():
            assert usage2.get(key, 0.0) == pytest.approx(usage.get(key, 0.0), rel=1e-9, abs=1e-9)
        before = usage_before_charges(state, t, usage, view, p, pass_charges(state, t, p)) or usage
        charges2 = pass_charges(stepped, t, p)
        before2 = usage_before_charges(stepped, t, usage2, view, p, charges2) or usage2
        for key in before.keys() | before2.keys():
            assert before2.get(key, 0.0) == pytest.approx(before.get(key, 0.0), rel=1e-9, abs=1e-6)


def test_state_json_round_trip() -> None:
    state = SlurmUsage(last_decay_ran=1.0e9, usage={("a", "u"): 12.5})
    assert usage_from_json(usage_to_json(state)) == state


def test_daily_reset_zeroes_usage_at_the_first_pass_after_midnight() -> None:
    p = DecayParams(halflife=0, calc_period=300, reset_period="DAILY")
    state = SlurmUsage(last_decay_ran=_t("2026-11-21T23:50:00"), usage={("a", "u"): 100.0})
    _, before = usage_at(state, _t("2026-11-21T23:59:59"), p)
    assert before[("a", "u")] == 100.0
    _, after = usage_at(state, _t("2026-11-22T00:00:01"), p)
    assert after[("a", "u")] == 0.0


def test_restart_moves_the_pass_grid() -> None:
    p = DecayParams(halflife=600, calc_period=60)
    state = SlurmUsage(last_decay_ran=_t("2026-11-21T23:19:20"), usage={("a", "u"): 100.0})
    moved = restart(state, _t("2026-11-21T23:21:46"), p)
    assert moved.last_decay_ran == _t("2026-11-21T23:21:46")
    assert moved.usage[("a", "u")] == pytest.approx(100.0 * decay_factor(600) ** 146)
    assert last_pass(moved.last_decay_ran, _t("2026-11-21T23:26:00"), 60) == _t(
        "2026-11-21T23:25:46"
    )


@settings(max_examples=60, deadline=None)
@given(
    usage=st.floats(min_value=0, max_value=1e9),
    wait=st.integers(min_value=0, max_value=10**7),
    halflife=st.integers(min_value=60, max_value=10**7),
)
def test_decay_never_raises_usage(usage: float, wait: int, halflife: int) -> None:
    p = DecayParams(halflife=halflife, calc_period=300)
    state = SlurmUsage(last_decay_ran=0.0, usage={("a", "u"): usage})
    _, view = usage_at(state, float(wait), p)
    assert view[("a", "u")] <= usage


@settings(max_examples=40, deadline=None)
@given(
    jobs=st.lists(
        st.tuples(
            st.sampled_from(["u1", "u2", "u3"]),
            st.integers(min_value=0, max_value=20_000),
            st.one_of(st.none(), st.integers(min_value=0, max_value=20_000)),
            st.integers(min_value=1, max_value=16),
        ),
        min_size=1,
        max_size=12,
    ),
    seed=st.randoms(use_true_random=False),
)
def test_history_order_does_not_matter(jobs: list, seed: object) -> None:
    from fairshare_cli.core.config import AccountSpec, Config, SlurmPriorityConfig
    from fairshare_cli.core.slurm.model import make_slurm_history_sink
    from fairshare_cli.core.usage import UsageRecord

    config = Config(
        priority=SlurmPriorityConfig(decay_halflife=600, calc_period=60),
        accounts={"a": AccountSpec("a", users={"u1": 1, "u2": 1, "u3": 2})},
    )
    now = 1.0e9 + 25_000
    records = [
        UsageRecord(owner=u, start=1.0e9 + s, end=None if d is None else 1.0e9 + s + d, cpus=c)
        for u, s, d, c in jobs
    ]
    shuffled = list(records)
    seed.shuffle(shuffled)  # type: ignore[attr-defined]
    outs = []
    for order in (records, shuffled):
        sink = make_slurm_history_sink(config, {"last_decay_ran": 1.0e9 - 7}, now, False)
        for rec in order:
            sink.add(rec)
        outs.append(usage_from_json(sink.finish()))
    a, b = outs
    assert a.last_decay_ran == b.last_decay_ran
    for key in set(a.usage) | set(b.usage):
        assert a.usage.get(key, 0.0) == pytest.approx(b.usage.get(key, 0.0), rel=1e-9, abs=1e-9)
    assert sorted(a.running, key=repr) == sorted(b.running, key=repr)


def _amount_outcome(value: object) -> object:
    from fairshare_cli.core.slurm.usage import _amount

    try:
        return ("value", repr(_amount(value, "usage.a.u")))
    except SectionError as exc:
        return ("error", str(exc))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([-0.0, 0.0, 1e30, 1.0000000000000002e30, -1e-300, True, None, "1"]),
        st.integers(min_value=-(10**31), max_value=10**31),
    )
)
def test_usage_read_as_is_is_what_the_checked_reader_reads(value: object) -> None:
    """A plain stored float skips ``_amount`` when decoded; anything else goes through it:
    the same number (to the bit: repr) or the same error either way."""
    try:
        section = usage_from_json({"usage": {"a": {"u": value}}})
        got: object = ("value", repr(section.usage[("a", "u")]))
    except SectionError as exc:
        got = ("error", str(exc))
    assert got == _amount_outcome(value)


_CHARGE_VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([-0.0, 0.0, 1e30, 1.0000000000000002e30, -1e30, -1.5, True, None, "1"]),
    st.integers(min_value=-(10**31), max_value=10**31),
    st.text(max_size=3),
)
_CHARGES = st.lists(
    st.fixed_dictionaries(
        {
            "account": st.one_of(st.just("a"), _CHARGE_VALUES),
            "user": st.just("u"),
            "rate": st.one_of(st.floats(0, 64), _CHARGE_VALUES),
            "start": st.one_of(st.floats(1.7e9, 1.8e9), _CHARGE_VALUES),
        },
        optional={"end": _CHARGE_VALUES, "job": st.one_of(st.just("12"), _CHARGE_VALUES)},
    ),
    max_size=4,
)


def _running_outcome(items: object) -> object:
    try:
        running = usage_from_json({"running": items}).running
    except SectionError as exc:
        return ("error", str(exc))
    return (
        "value",
        [(r.account, r.user, repr(r.rate), repr(r.start), repr(r.end), r.job) for r in running],
    )


@settings(max_examples=400, deadline=None)
@given(_CHARGES)
def test_running_charges_read_at_once_are_what_the_checked_reader_reads(
    items: list[dict[str, object]],
) -> None:
    """Plain running charges are read a field at a time (``_plain_charges``); any others
    item by item: the same charges (to the bit) or the same error either way."""
    from unittest import mock

    from fairshare_cli.core.slurm import usage

    got = _running_outcome(items)
    with mock.patch.object(usage, "_plain_charges", return_value=None):
        assert got == _running_outcome(items)


def test_plain_running_charges_are_read_at_once() -> None:
    """Plain charges take the field-at-a-time path (ints made floats, ends and job ids
    kept); one that is not (a rate of -1) leaves it."""
    from fairshare_cli.core.slurm.usage import _plain_charges

    items = [{"account": "a", "user": "u", "rate": 2, "start": 1.8e9, "end": None, "job": "7"}]
    plain = _plain_charges(items)
    assert plain == (RunningCharge("a", "u", 2.0, 1.8e9, None, "7"),)
    assert plain is not None and type(plain[0].rate) is float
    assert _plain_charges([{**items[0], "rate": -1}]) is None
