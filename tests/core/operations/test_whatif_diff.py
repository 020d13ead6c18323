"""``fs whatif``'s comparison: rows matched by key, figures and ranks that moved."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.operations.whatif import compare, diff_json, rows_of
from fairshare_cli.render.whatif import figure_text, render_diff, summary


def _up(name: str, eup: float, factor: float = 1.0) -> dict[str, object]:
    return {
        "name": name,
        "effective_priority": eup,
        "real_priority": eup / factor,
        "priority_factor": factor,
        "weighted_resources_in_use": 0.0,
    }


def test_identical_views_have_no_differences() -> None:
    rows = [_up("a@x", 1.0), _up("b@x", 2.0)]
    diff = compare("userprio", rows, [dict(r) for r in rows])
    assert diff.no_differences
    assert summary(diff) == "no differences"
    out = io.StringIO()
    render_diff(diff, "userprio", out)
    assert out.getvalue() == "userprio: no differences\n"


def test_two_six_decimal_roundings_of_one_priority_are_no_difference() -> None:
    """A replayed priority and the state's, each rounded to six decimals by the
    accountant, differ by 1e-6 at most: 0.736746 and 0.736745 (1.36e-6 of it) are one
    figure; 0.736746 and 0.736743 (4.07e-6 of it) are a change, as is the floor's
    0.500002 against 0.5 (4e-6 of it), while 0.500001 against 0.5 is not."""
    assert compare("userprio", [_up("a@x", 0.736746)], [_up("a@x", 0.736745)]).no_differences
    assert compare("userprio", [_up("a@x", 0.500001)], [_up("a@x", 0.5)]).no_differences
    for before, after in ((0.736746, 0.736743), (0.500002, 0.5)):
        diff = compare("userprio", [_up("a@x", before)], [_up("a@x", after)])
        assert {c.field for c in diff.changes} == {"effective_priority", "real_priority"}


def test_a_reordered_view_reports_rank_moves_and_figures() -> None:
    before = [_up("a@x", 1.0), _up("b@x", 2.0), _up("c@x", 3.0)]
    after = [_up("c@x", 0.5), _up("a@x", 1.0), _up("b@x", 2.0)]
    diff = compare("userprio", before, after)
    moves = {r.key: r.rank_move for r in diff.rows}
    assert moves == {"c@x": 2, "a@x": -1, "b@x": -1}
    fields = {(c.key, c.field): (c.before, c.after) for c in diff.changes}
    assert fields[("c@x", "rank")] == (3, 1)
    assert fields[("c@x", "effective_priority")] == (3.0, 0.5)
    assert fields[("c@x", "real_priority")] == (3.0, 0.5)
    assert ("a@x", "effective_priority") not in fields
    assert diff.counts() == {"changed": 1, "moved": 3, "appeared": 0, "left": 0}


def test_rows_that_appear_or_leave() -> None:
    diff = compare("quota", [{"group": "g1", "quota": 5.0}], [{"group": "g2", "quota": 5.0}])
    keys = [(r.key, r.rank_before, r.rank_after) for r in diff.rows]
    assert keys == [("g2", None, 1), ("g1", 1, None)]
    assert diff.counts()["appeared"] == 1 and diff.counts()["left"] == 1
    doc = diff_json(diff, [{"group": "g1"}], [{"group": "g2"}])
    assert doc["changes"][0] == {"key": "g2", "field": "rank", "before": None, "after": 1}


def test_composite_keys_and_negotiate_rows() -> None:
    sshare: list[dict[str, object]] = [
        {"account": "A", "user": None, "fairshare": 0.5},
        {"account": "A", "user": "u1", "fairshare": 0.25},
    ]
    diff = compare("sshare", sshare, [sshare[0], {**sshare[1], "fairshare": 0.75}])
    assert [c.key for c in diff.changes] == ["A/u1"]
    negotiate = {"matches": [], "submitters": [{"name": "a@x", "matched": 3}], "unmatched": []}
    assert rows_of("negotiate", negotiate) == [{"name": "a@x", "matched": 3}]


def test_figures_print_as_short_as_tells_them_apart() -> None:
    assert figure_text(0.5) == "0.5"
    assert figure_text(1.0000001, 1.0000002) == "1.0000001"
    assert figure_text(None) == "-"
    assert figure_text(float("inf")) == "inf"


def test_table_shows_before_and_after() -> None:
    diff = compare(
        "userprio", [_up("a@x", 1.0), _up("b@x", 2.0)], [_up("b@x", 0.5), _up("a@x", 1.0)]
    )
    out = io.StringIO()
    render_diff(diff, "userprio", out, wide=True)
    text = out.getvalue()
    assert "2 -> 1 (+1)" in text and "2 -> 0.5" in text
    assert text.rstrip().endswith("1 row changed, 2 moved, 0 appeared, 0 left (4 changes)")


@given(
    st.lists(st.tuples(st.sampled_from("abcdefgh"), st.floats(0.5, 1e6)), unique_by=lambda t: t[0]),
    st.permutations(range(8)),
)
def test_compare_is_empty_exactly_when_nothing_differs(
    pairs: list[tuple[str, float]], perm: list[int]
) -> None:
    before = [_up(n, e) for n, e in pairs]
    assert compare("userprio", before, list(before)).no_differences
    shuffled = [before[i] for i in perm if i < len(before)]
    diff = compare("userprio", before, shuffled)
    assert diff.no_differences == (shuffled == before)
    # Every change names a key present on one side or the other.
    keys = {r["name"] for r in before}
    assert all(c.key in keys for c in diff.changes)


def test_match_changes_list_jobs_in_job_id_order() -> None:
    """The negotiate view's changed matches come by job id as sprio orders ids: cluster
    then proc as numbers (``2.10`` after ``2.9``), plain numbers the same way, other ids
    last by text."""
    from fairshare_cli.core.operations.whatif import match_changes

    ids = ["x.1", "2.10", "10", "2.9", "3"]
    before = {"matches": [{"job_id": j, "slot": "s1"} for j in ids]}
    after: dict[str, list[object]] = {"matches": []}
    changes = match_changes("negotiate", before, after)
    assert [c.key for c in changes] == ["2.9", "2.10", "3", "10", "x.1"]
