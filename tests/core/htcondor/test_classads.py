"""The ClassAd layer: scope rewriting, cached evaluation, and the check of an expression."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.classads import (
    Ad,
    Evaluator,
    check_expression,
    rewrite_scopes,
)
from fairshare_cli.errors import ConfigError


def test_unscoped_names_the_ad_lacks_go_to_target() -> None:
    text, mine, theirs = rewrite_scopes(
        'Memory >= RequestMemory && MY.Owner == "a" && isUndefined(KFlops) && x =?= UNDEFINED',
        frozenset({"requestmemory", "owner"}),
    )
    assert text == (
        'TARGET.Memory >= RequestMemory && MY.Owner == "a" && isUndefined(TARGET.KFlops)'
        " && TARGET.x =?= UNDEFINED"
    )
    assert mine == {"requestmemory", "owner"}
    assert theirs == {"memory", "kflops", "x"}


def test_evaluation_falls_through_to_target_and_is_shared() -> None:
    ev = Evaluator()
    job = Ad({"RequestMemory": 2048}, {"Requirements": "Memory >= RequestMemory"}, ev, "job")
    small = Ad({"Memory": 1024, "Name": "slot1"}, {}, ev, "slot")
    big = Ad({"Memory": 4096, "Name": "slot2"}, {}, ev, "slot")
    also_big = Ad({"Memory": 4096, "Name": "slot3"}, {}, ev, "slot")
    req = job.exprs["requirements"][1]
    assert ev.is_true(req, job, big) is True
    assert ev.is_true(req, job, small) is False
    assert ev.is_true(req, job, also_big) is True
    assert ev.evaluations == 2  # slot3 differs from slot2 only in a name nobody reads


def test_an_integer_a_real_and_a_boolean_do_not_share_a_result() -> None:
    """ClassAd integer division truncates (2048 / 3 is 682) where a real divides (682.67),
    and ``true`` is not the integer 1; Python holds ``2048 == 2048.0`` and ``1 == True``, so
    a cache keyed by bare values gave the first slot's answer to the others."""
    ev = Evaluator()
    job = Ad({}, {"Requirements": "Memory / 3 > 682"}, ev, "job")
    req = job.exprs["requirements"][1]
    as_int = Ad({"Memory": 2048}, {}, ev, "slot")
    as_real = Ad({"Memory": 2048.0}, {}, ev, "slot")
    assert ev.is_true(req, job, as_int) is False
    assert ev.is_true(req, job, as_real) is True
    flag = Ad({}, {"Requirements": "IsFast =?= true"}, ev, "job")
    flag_req = flag.exprs["requirements"][1]
    assert ev.is_true(flag_req, flag, Ad({"IsFast": 1}, {}, ev, "slot")) is False
    assert ev.is_true(flag_req, flag, Ad({"IsFast": True}, {}, ev, "slot")) is True


def test_unparsable_expression_names_where() -> None:
    with pytest.raises(ConfigError, match=r"machine x start: cannot parse ClassAd expression"):
        check_expression("Owner ==", "machine x start", ConfigError)


@pytest.mark.parametrize(
    "more",
    [
        pytest.param({"RemoteGroup": "g", "RemoteGroupQuota": 3.0}, id="new-names"),
        pytest.param({"Memory": 512}, id="same-names"),
        pytest.param({"memory": 512, "REMOTEGROUP": "h"}, id="other-spelling"),
    ],
)
def test_an_extended_ad_is_the_ad_built_with_the_values_added(more: dict[str, object]) -> None:
    """``Ad.extended`` gives what a new ``Ad`` over the old values updated with ``more``
    and the same expressions gives: the same values, names and compiled expressions (an
    unscoped ``RemoteGroup`` is MY once the ad has it, TARGET before)."""
    ev = Evaluator()
    base = {"Memory": 1024, "Name": "slot1"}
    exprs = {"Requirements": 'RemoteGroup =!= "g" && Memory > 100', "Rank": "Memory"}
    old = Ad(base, exprs, ev, "machine m", ConfigError)
    grown = old.extended(more, ev, "machine m", ConfigError)
    fresh = Ad({**base, **more}, exprs, ev, "machine m", ConfigError)
    assert grown.values == fresh.values
    assert grown.names == fresh.names
    assert grown.exprs == fresh.exprs
    assert old.values == Ad(base, exprs, ev, "machine m").values  # the old ad is unchanged
    requirements = grown.exprs["requirements"][1]
    assert ("remotegroup" in requirements.my_refs) == ("remotegroup" in grown.names)


def test_an_ad_like_another_is_the_ad_built_from_its_values() -> None:
    """``Ad.like``: values with the same names, spelt and ordered alike, give the ad a new
    ``Ad`` would (the same compiled expressions, through the same evaluator); other names
    give None (the caller builds the ad in full)."""
    ev = Evaluator()
    exprs = {"Requirements": "Memory > RequestMemory", "Rank": "SlotID"}
    first = Ad({"Memory": 1024, "SlotID": 1, "Name": "a"}, exprs, ev, "machine m")
    values: dict[str, object] = {"Memory": 2048, "SlotID": 2, "Name": "b"}
    alike = first.like(values)
    fresh = Ad(values, exprs, ev, "machine m")
    assert alike is not None
    assert (alike.values, alike.names, alike.exprs) == (fresh.values, fresh.names, fresh.exprs)
    assert first.get("memory") == 1024  # the first ad is unchanged
    assert first.like({"SlotID": 2, "Memory": 2048, "Name": "b"}) is None  # another order
    assert first.like({"memory": 2048, "SlotID": 2, "Name": "b"}) is None  # another spelling
    assert first.like({"Memory": 2048, "SlotID": 2}) is None  # fewer names
