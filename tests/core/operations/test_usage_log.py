"""What a committed cycle adds to the usage history for a partitionable slot's match: the
CPUs its whole-slot charge is weighed on (``charged_cpus``), as the replay weighs a record
(``slot_weight`` over ``Cpus`` alone); for a match no job takes, its charge and the one it
took off its slot's holder."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations.usage_log import claim_usage
from fairshare_cli.core.state import State
from fairshare_cli.io.config import build_config
from fairshare_cli.io.toml import loads

T0 = 1795132800.0

POOL = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = {weights}
slot_weight = "{slot_weight}"
[[machines]]
name = "m"
count = 1
slots = 1
partitionable = true
attributes = {{ Cpus = 8, Memory = 8192 }}
"""


def _state(match_cost: float | None) -> State:
    claim = {
        "submitter": "alice@example.org", "job_id": "1", "start_time": T0, "weight": 1.0,
        "resources": {"Cpus": 1, "Memory": 1024},
    }  # fmt: skip
    if match_cost is not None:
        claim["match_cost"] = match_cost
    return State(sections={"negotiator": {"claims": {"slot1_1@m001": claim}}})


@pytest.mark.parametrize(
    ("weights", "slot_weight", "cost", "charged"),
    [
        pytest.param("true", "Cpus", 8.0, 8, id="cpus: the slot's 8 free CPUs"),
        # Cpus / 3.0 over the whole slot: 8 / 3.0 = 2.6666666666666665, which 8 CPUs weigh
        pytest.param("true", "Cpus / 3.0", 8 / 3.0, 8, id="a third of the free CPUs"),
        # slot weights off, a consumption policy's cost of 2: every record weighs 1, so no
        # count of CPUs weighs 2; the record is charged its own CPUs
        pytest.param("false", "Cpus", 2.0, None, id="no count weighs the cost"),
    ],
)
def test_a_match_held_at_its_cost_is_recorded_with_the_cpus_that_weigh_it(
    weights: str, slot_weight: str, cost: float, charged: int | None
) -> None:
    config = build_config(loads(POOL.format(weights=weights, slot_weight=slot_weight)), "p")
    [(record, key)] = claim_usage(config, State(sections={}), _state(cost), T0).started
    assert key == f"1 slot1_1@m001 {T0!r} match_cost"
    assert (record.cpus, record.charged_cpus) == (1, charged)


def test_the_next_cycle_ends_the_charge_and_starts_the_dynamic_slot() -> None:
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    usage = claim_usage(config, _state(8.0), _state(None), T0 + 60)
    key = f"1 slot1_1@m001 {T0!r}"
    assert usage.ended == ((f"{key} match_cost", T0 + 60),)
    [(record, started)] = usage.started
    assert (started, record.start, record.cpus, record.charged_cpus) == (key, T0 + 60, 1, None)


def _jobless(*weights: float) -> State:
    """A state whose last cycle made matches no job takes on the partitionable slot."""
    matches = [
        {"slot": "slot1@m001", "submitter": "alice@example.org", "start_time": T0, "weight": w}
        for w in weights
    ]
    return State(sections={"negotiator": {"claims": {}, "jobless_matches": matches}})


def test_matches_no_job_takes_are_recorded_for_the_accountant_alone_until_the_next_cycle() -> None:
    """Two matches no job takes on one slot (each charged the whole slot's 8, then 5 of
    its CPUs) are two records of no CPUs (no work ran) weighed on 8 and 5 CPUs, keyed by
    their place in the cycle; the next cycle, which has none, ends both."""
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    usage = claim_usage(config, State(sections={}), _jobless(8.0, 5.0), T0)
    keys = [f"{i} slot1@m001 {T0!r} jobless" for i in (0, 1)]
    assert [(key, r.owner, r.start, r.cpus, r.charged_cpus) for r, key in usage.started] == [
        (keys[0], "alice@example.org", T0, 0, 8),
        (keys[1], "alice@example.org", T0, 0, 5),
    ]
    ended = claim_usage(config, _jobless(8.0, 5.0), _jobless(), T0 + 60)
    assert ended.ended == ((keys[0], T0 + 60), (keys[1], T0 + 60))
    assert ended.started == ()


def _displacing(jobless_by: str | None, held_by: str = "bob@example.org") -> State:
    """A state whose claim on slot1_1@m001 (1 CPU carved, charged 1) is ``held_by``'s and,
    unless ``jobless_by`` is None, whose last cycle made a match no job takes there."""
    claim = {"submitter": held_by, "job_id": "1", "start_time": T0, "weight": 1.0,
             "resources": {"Cpus": 1, "Memory": 1024}}  # fmt: skip
    body: dict[str, object] = {"claims": {"slot1_1@m001": claim}}
    if jobless_by is not None:
        match = {"slot": "slot1_1@m001", "submitter": jobless_by, "start_time": T0 + 60,
                 "weight": 1.0}  # fmt: skip
        body["jobless_matches"] = [match]
    return State(sections={"negotiator": body})


def test_a_match_no_job_takes_on_a_claimed_slot_takes_the_charge_off_its_holder() -> None:
    """alice's match on the slot bob holds: her record (no CPUs, charged 1) and one of
    -1 slot of no CPUs for bob, charged the 1 CPU his claim weighs (``AddMatch``
    ``RemoveMatch``es him; his job's own record stays open); the next cycle, which
    puts him back (``CheckMatches``), ends both."""
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    usage = claim_usage(config, _displacing(None), _displacing("alice@example.org"), T0 + 60)
    key = f"0 slot1_1@m001 {T0 + 60!r} jobless"
    assert [(k, r.owner, r.start, r.slots, r.cpus, r.charged_cpus) for r, k in usage.started] == [
        (key, "alice@example.org", T0 + 60, 1, 0, 1),
        (f"{key} displaced", "bob@example.org", T0 + 60, -1, 0, 1),
    ]
    assert usage.ended == ()
    ended = claim_usage(config, _displacing("alice@example.org"), _displacing(None), T0 + 120)
    assert ended.ended == ((key, T0 + 120), (f"{key} displaced", T0 + 120))
    assert ended.started == ()


def test_a_match_no_job_takes_on_its_submitters_own_slot_displaces_no_one() -> None:
    """On a slot its own submitter holds (``AddMatch``: "Match already existed!") no
    charge is taken off the holder."""
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    before = _displacing(None, "alice@example.org")
    after = _displacing("alice@example.org", "alice@example.org")
    usage = claim_usage(config, before, after, T0 + 60)
    assert [k for _, k in usage.started if k.endswith(" displaced")] == []


def test_a_history_claim_that_ends_takes_its_charge_off_its_submitter() -> None:
    """A claim of a running usage-history record (``history:`` job id) starts no record
    (the import wrote it); when it ends, a record of -1 slot from then, of no CPUs (Slurm
    and DIRAC charge the record on, as the state does), weighed as the claim was charged
    (a ``Cpus`` slot weight of 2). An import's (``history_ends=False``) records none."""
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    job = "history:alice@example.org:1795100000:7.0"
    claim = {"submitter": "alice@example.org", "job_id": job, "start_time": 1795100000.0,
             "weight": 2.0}  # fmt: skip
    held = State(sections={"negotiator": {"claims": {"slot1@m001": claim}}})
    assert not claim_usage(config, State(sections={}), held, T0)
    usage = claim_usage(config, held, State(sections={}), T0)
    [(record, key)] = usage.started
    assert key == f"{job} slot1@m001 1795100000.0 history_end"
    assert (record.owner, record.start, record.end, record.slots) == (
        "alice@example.org", T0, None, -1,
    )  # fmt: skip
    assert (record.cpus, record.charged_cpus, record.dirac_group) == (0, 2, None)
    assert not usage.ended
    assert not claim_usage(config, held, State(sections={}), T0, history_ends=False)
