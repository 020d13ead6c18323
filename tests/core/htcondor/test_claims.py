"""The ``negotiator`` section's claims: the match cost a claim holds until a cycle checks it."""

from __future__ import annotations

from typing import Any

import pytest

from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    checked_claim,
    claim_weight,
    negotiator_from_json,
    negotiator_to_json,
    unchecked_matches,
)
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.state import SectionError

PENDING = Claim("slot1_1@big", "a@d", "1", 100.0, 4.0, (("Cpus", 4),), None, 16.0)


def _never(slot: str, now: float) -> float:
    raise AssertionError("a claim that stores its weight is not weighed again")


def test_a_pending_claim_releases_its_match_cost_until_checked() -> None:
    """``RemoveMatch`` subtracts the SlotWeight of the resource record: before the next
    CheckMatches the partitionable slot's record (16), after it the dynamic slot's (4)."""
    assert claim_weight(PENDING, _never) == 16.0
    assert claim_weight(checked_claim(PENDING), _never) == 4.0
    assert checked_claim(checked_claim(PENDING)) == checked_claim(PENDING)
    assert unchecked_matches([PENDING, checked_claim(PENDING)], _never) == [("a@d", 16.0, 4.0)]


BODY: dict[str, Any] = {
    "submitter": "a@d",
    "job_id": "1",
    "start_time": 100.0,
    "weight": 4.0,
    "resources": {"Cpus": 4},
    "match_cost": 16.0,
}


def test_match_cost_round_trips_and_is_left_out_when_none() -> None:
    state = negotiator_from_json({"claims": {"slot1_1@big": BODY}})
    assert state.claims["slot1_1@big"] == PENDING
    assert negotiator_to_json(state)["claims"]["slot1_1@big"] == BODY
    checked = NegotiatorState({"slot1_1@big": checked_claim(PENDING)})
    body = negotiator_to_json(checked)["claims"]["slot1_1@big"]
    assert body == {k: v for k, v in BODY.items() if k != "match_cost"}


@pytest.mark.parametrize("bad", [-1, "16", True, float("nan")])
def test_a_bad_match_cost_names_the_key(bad: object) -> None:
    raw = {"claims": {"slot1_1@big": {**BODY, "match_cost": bad}}}
    with pytest.raises(SectionError, match=r"negotiator\.claims\.slot1_1@big\.match_cost"):
        negotiator_from_json(raw)


def test_accountant_start_round_trips_and_is_left_out_when_none() -> None:
    """A holder put back at 160 after a match no job took: its record's StartTime."""
    raw = {"claims": {"slot1_1@big": {**BODY, "accountant_start": 160}}}
    claim = negotiator_from_json(raw).claims["slot1_1@big"]
    assert claim.accountant_start == 160.0 and claim.start_time == 100.0
    assert negotiator_to_json(NegotiatorState({"slot1_1@big": claim}))["claims"] == raw["claims"]
    assert (
        "accountant_start" not in negotiator_to_json(NegotiatorState({"s": PENDING}))["claims"]["s"]
    )


@pytest.mark.parametrize("bad", [-1e30, "160", True, float("nan")])
def test_a_bad_accountant_start_names_the_key(bad: object) -> None:
    raw = {"claims": {"slot1_1@big": {**BODY, "accountant_start": bad}}}
    with pytest.raises(SectionError, match=r"slot1_1@big\.accountant_start: expected epoch"):
        negotiator_from_json(raw)


def test_group_quotas_round_trip_and_stay_out_when_none() -> None:
    """The last cycle's group quotas (``groupQuotasHash``) are written only when a cycle
    stored them, so a state without groups keeps its section as it was."""
    from fairshare_cli.core.htcondor.claims import (
        NegotiatorState,
        negotiator_from_json,
        negotiator_to_json,
    )

    assert "group_quotas" not in negotiator_to_json(NegotiatorState())
    body = negotiator_to_json(NegotiatorState(group_quotas={"group_a": 2.0, "<none>": 0.0}))
    assert body["group_quotas"] == {"<none>": 0.0, "group_a": 2.0}
    assert negotiator_from_json(body).group_quotas == {"<none>": 0.0, "group_a": 2.0}


@pytest.mark.parametrize("quotas", [[], {"g": -1}, {"g": "2"}, {"g": True}, {"g": float("inf")}])
def test_group_quotas_that_are_no_quotas_are_refused(quotas: object) -> None:
    from fairshare_cli.core.htcondor.claims import negotiator_from_json
    from fairshare_cli.core.state import SectionError

    with pytest.raises(SectionError, match=r"negotiator\.group_quotas: expected group name"):
        negotiator_from_json({"group_quotas": quotas})


JOBLESS: dict[str, Any] = {
    "slot": "slot1@s",
    "submitter": "a@d",
    "start_time": 100.0,
    "weight": 4.0,
}


def test_jobless_matches_round_trip_in_order_and_stay_out_when_none() -> None:
    """The last cycle's matches no job took (charged until the next cycle): written only
    when there are some, so an older state's section reads and writes as it was."""
    assert "jobless_matches" not in negotiator_to_json(NegotiatorState())
    assert negotiator_from_json({}).jobless == ()
    second = {**JOBLESS, "slot": "slot1@r", "submitter": "b@d"}
    state = negotiator_from_json({"jobless_matches": [JOBLESS, second]})
    assert state.jobless == (
        Claim("slot1@s", "a@d", "", 100.0, 4.0),
        Claim("slot1@r", "b@d", "", 100.0, 4.0),
    )
    assert negotiator_to_json(state)["jobless_matches"] == [JOBLESS, second]


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        pytest.param({}, r"jobless_matches: expected a list", id="not-a-list"),
        pytest.param([{**JOBLESS, "slot": ""}], r"jobless_matches\[0\]\.slot", id="no-slot"),
        pytest.param([{**JOBLESS, "weight": None}], r"jobless_matches\[0\]: expected the 'weight'", id="no-weight"),
        pytest.param([{**JOBLESS, "job_id": "1"}], r"jobless_matches\[0\]: expected .* no 'job_id'", id="a-job"),
        pytest.param([{**JOBLESS, "weight": -1}], r"jobless_matches\[0\]\.weight", id="negative"),
    ],
)  # fmt: skip
def test_a_malformed_jobless_match_names_its_place(bad: object, where: str) -> None:
    with pytest.raises(SectionError, match=where):
        negotiator_from_json({"jobless_matches": bad})
