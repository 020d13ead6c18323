"""``fs userprio``'s rows: the inline update equals ``accountant.advance``, bit for bit;
a group's Requested is ``fs quota``'s demand.

``userprio_view`` brings each record to ``now`` without building a record
(``advanced_values``); the numbers it shows must be the ones ``advance`` gives, for any
record and any ``now`` (before, at and after the record's last update, half-life 0 included).
The view reads the records of ``stored_records`` as those of ``accountant_from_json``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import AccountantConfig, Config, GroupSpec
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.accountant_decode import stored_records
from fairshare_cli.core.htcondor.decay import advanced_values
from fairshare_cli.core.htcondor.pool import group_demand, group_tree
from fairshare_cli.core.htcondor.userprio import userprio_view
from fairshare_cli.core.htcondor.userprio_query import UserprioQuery
from fairshare_cli.core.htcondor.userprio_rows import collector_ads, queue_demand
from fairshare_cli.core.jobs import Job

usage = st.floats(min_value=0.0, max_value=1e9)
times = st.floats(min_value=0.0, max_value=2e9)
records = st.builds(
    acct.CustomerRecord,
    name=st.sampled_from(["u@d", "g.u@d", "nice-user.v@d", "g", "<none>"]),
    is_group=st.booleans(),
    priority=st.floats(min_value=-10.0, max_value=1e7),
    last_update=st.none() | times,
    priority_factor=st.none() | st.floats(min_value=1.0, max_value=1e6),
    resources_used=st.integers(min_value=0, max_value=10**5),
    weighted_resources_used=usage,
    hier_weighted_resources_used=usage | st.just(0.0),
    accumulated_usage=usage | st.just(0.0),
    weighted_accumulated_usage=usage,
    begin_usage_time=times | st.just(0.0),
    last_usage_time=times,
    uncharged_time=usage | st.just(0.0),
    weighted_uncharged_time=usage | st.just(0.0),
)


@settings(max_examples=500, deadline=None)
@given(records, times, st.sampled_from([0.0, 1.0, 3600.0, 86400.0, 1e9]))
def test_advanced_values_are_advance(rec: acct.CustomerRecord, now: float, h: float) -> None:
    want = acct.advance(rec, now, h)
    got = advanced_values(rec, now, h, {})
    # repr: bit for bit (-0.0 is not 0.0), and a NaN both give (a Δt of 5e-324 s) is equal
    assert list(map(repr, got)) == list(
        map(
            repr,
            (
                want.priority,
                want.accumulated_usage,
                want.weighted_accumulated_usage,
                want.begin_usage_time,
                want.last_usage_time,
            ),
        )
    )


def _fields(rows: Any) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in rows]


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["a@d", "b@d", "g.c@d", "g", "<none>"]), records, max_size=5),
    times,
    st.booleans(),
    st.sampled_from(["priority", "usage", "name", "in-use", "last-usage", "factor"]),
    st.booleans(),
)
def test_the_view_reads_structs_as_records(
    recs: dict[str, acct.CustomerRecord], now: float, grouped: bool, sort: str, all_users: bool
) -> None:
    """The same rows, order and footer figures from the decoded structs as from the
    records the exact reader builds (the root's subtree usage as the reader sets it)."""
    state = acct.accountant_from_json(
        acct.accountant_to_json(
            acct.AccountantState(records={n: r for n, r in recs.items() if r.name == n})
        )
    )
    config = Config(
        accountant=AccountantConfig(priority_halflife=86400.0),
        groups={"g": GroupSpec(name="g", quota=4.0, prio_factor=2.0)} if grouped else {},
    )  # type: ignore[call-arg]
    query = UserprioQuery(all_users=all_users, sort=sort)
    a = userprio_view(state.records, config, now, query)
    b = userprio_view(stored_records(acct.accountant_to_json(state)), config, now, query)
    assert _fields(a.rows) == _fields(b.rows)
    assert _fields(a.listed) == _fields(b.listed)
    assert (a.total_records, a.cutoff, a.hierarchical) == (
        b.total_records,
        b.cutoff,
        b.hierarchical,
    )


def test_plain_userprio_counts_the_collectors_ads() -> None:
    """matchmaker.cpp: forwardGroupAccounting sends an Accounting ad per configured group
    and <none>; forwardAccountingData one per submitter of the cycle whose record has
    ResourcesUsed (written by AddMatch/RemoveMatch only). Records: group g; <none>;
    ran@d (matched: 2 slots); old@d (ran once: accumulated usage, nothing in use now);
    idle@d and edited@d (a priority read or -setfactor made them: never matched); the
    stale group record "gone" is not a configured group: no ad. No queue: 2 groups + ran +
    old = 4. A queue holding jobs of idle@d and old@d only: 2 groups + old = 3. Named
    "ran" and "idle": 1. -allusers counts every record (the negotiator's ad): 7.
    """
    config = Config(groups={"g": GroupSpec(name="g", quota=1.0)})
    records = {
        "g": acct.CustomerRecord(name="g", is_group=True),
        "gone": acct.CustomerRecord(name="gone", is_group=True),
        "ran@d": acct.CustomerRecord(name="ran@d", resources_used=2),
        "old@d": acct.CustomerRecord(name="old@d", accumulated_usage=60.0, last_usage_time=9.0),
        "idle@d": acct.CustomerRecord(name="idle@d", last_update=5.0),
        "edited@d": acct.CustomerRecord(name="edited@d", priority_factor=3.0),
    }
    no_queue = userprio_view(records, config, 10.0)
    assert no_queue.total_records == 4
    with_root = {**records, "<none>": acct.CustomerRecord(name="<none>", is_group=True)}
    assert collector_ads(with_root, config, UserprioQuery(), {"idle@d", "old@d"}) == 3
    named = userprio_view(records, config, 10.0, UserprioQuery(names=("ran", "idle")))
    assert named.total_records == 1
    every = userprio_view(records, config, 10.0, UserprioQuery(all_users=True))
    assert every.total_records == 7


GROUPED = Config(
    groups={
        "a": GroupSpec(name="a", quota=4.0),
        "a.b": GroupSpec(name="a.b", dynamic_quota=0.5),
        "C": GroupSpec(name="C", quota=2.0),
    }
)
submitters = st.sampled_from(
    ["a.b.x@d", "A.B.y@d", "a.c.z@d", "a.u@d", "c.v@d", "w@d", "nice-user.n@d",
     "a.b", "a", "a.b.x", "x.y.z@d", "a.b.c.d@e@f"]
)  # fmt: skip


@given(st.dictionaries(submitters, st.floats(min_value=0.0, max_value=1e6)))
def test_requested_is_quotas_demand_by_group(demand: dict[str, float]) -> None:
    """A group's Requested sums the demand of the submitters ``fs quota`` assigns to it
    (``GetAssignedGroup``: the path before the last ``@`` and ``.``, as deep as groups are
    configured, case-insensitively), the same numbers as ``fs quota``'s group demand, bit
    for bit (summed in the same order)."""
    tree = group_tree(GROUPED)
    assert tree is not None
    by_group, _ = group_demand(demand, tree)
    assert queue_demand([], demand, GROUPED).requested == by_group


def test_requested_adds_each_submitters_demand_in_its_group() -> None:
    """a.b: 2 (a.b.x@d) + 1.5 (A.B.y@d: groups match case-insensitively) = 3.5; a: 4
    (a.c.z@d: a.c is not configured, so a); <none>: 1 (w@d). The queue's submitters are
    those a submitter ad is sent for; with no groups configured nothing is requested."""
    demand = {"a.b.x@d": 2.0, "A.B.y@d": 1.5, "a.c.z@d": 4.0, "w@d": 1.0}
    job = Job(id="1.0", owner="w", accounting_group=None)
    got = queue_demand([job], demand, GROUPED)
    assert got.requested == {"a.b": 3.5, "a": 4.0, "<none>": 1.0}
    assert got.queued == {"w@localdomain"}
    assert queue_demand([job], demand, Config()).requested == {}
