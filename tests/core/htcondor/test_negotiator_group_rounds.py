"""Groups across allocation rounds (``hgq_negotiate_with_all_groups``): a group whose
submitters are all done is skipped in later rounds, as HTCondor skips a group whose
``submitterAds`` list ``negotiateWithGroup`` emptied ("skipping, no submitters")."""

from __future__ import annotations

from negotiation_helpers import jobs, matched_per_submitter, pool, run

from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree


def test_a_group_whose_submitters_are_done_gets_no_pie_spin_in_the_next_round() -> None:
    """Derived by hand from GroupEntry.cpp and matchmaker.cpp (25.0.13). 10 slots, no slot
    weights; group_a and group_b, static quota 5 each, accept surplus. x (group_a) has 3
    jobs that match and 5 that match nothing; y (group_b) has 10.

    Round 1: both allocated 5 (demand 8 and 10), sort keys 0/5 and 0/5 leave a then b.
    group_a, limit 5: spin 1, x matches 3, its other cluster matches no slot, x is done and
    leaves group_a's list (1 spin). group_b, limit 5: spin 1, y takes 5; spin 2 halts at
    the group's quota (2 spins). Used 3 + 5 < allocated 10: round 2. group_a requested =
    its usage 3 (allocated 3); group_b requested 5 + 5 = 10, allocated 5 + the surplus 2.
    group_a (key 3/5) comes first but has no submitter left: skipped, no spin. group_b,
    limit 5 + 2 = 7: y takes 2, the pool is full (1 spin). 4 pie spins in all."""
    tree = build_group_tree(
        [
            GroupConfig("group_a", quota=5, accept_surplus=True),
            GroupConfig("group_b", quota=5, accept_surplus=True),
        ]
    )
    queue = (
        jobs("x", 3, 1, accounting_group="group_a.x")
        + jobs("x", 5, 2, accounting_group="group_a.x", requirements="false")
        + jobs("y", 10, 3, accounting_group="group_b.y")
    )
    result = run(pool(10), queue, tree=tree)
    assert matched_per_submitter(result) == {"group_a.x@example.org": 3, "group_b.y@example.org": 7}
    assert result.spins == 4
