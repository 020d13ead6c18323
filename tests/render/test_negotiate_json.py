"""``fs negotiate``'s unmatched rows (``render/negotiate.unmatched_text``) against the
reference's text: ``json.dumps`` of each row, for ids that need escaping, non-ASCII ids
(which msgspec writes raw: written one at a time) and runs longer than a chunk."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor.negotiator import CycleResult, UnmatchedRun
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.jsontext import jsonable
from fairshare_cli.render import negotiate as render

ids = st.text(min_size=1, max_size=6)


def _result(runs: list[UnmatchedRun]) -> CycleResult:
    return CycleResult([], [], runs, [], 0.0, 0, 0, {}, {})


def _run(sub: str, reason: str, job_ids: list[str], count: int = 1) -> UnmatchedRun:
    return UnmatchedRun(sub, reason, [(JobBatch(Job(i, "u"), count), 0) for i in job_ids])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ids, ids, st.lists(ids, max_size=5)), max_size=4))
def test_rows_are_json_dumps_rows(spec: list[tuple[str, str, list[str]]]) -> None:
    """Each line is ``json.dumps`` of its row, in queue order, whatever the characters."""
    result = _result([_run(sub, reason, job_ids) for sub, reason, job_ids in spec])
    head = '{"kind": "unmatched", "job_id": '
    lines = "\n".join(render.unmatched_text(result, head, "\n")).split("\n")
    lines = [] if lines == [""] else lines
    assert lines == [
        json.dumps({"kind": "unmatched", "job_id": j, "submitter": s, "reason": r})
        for j, s, r in result.iter_unmatched()
    ]


def test_a_non_ascii_id_is_written_as_json_dumps_writes_it() -> None:
    """msgspec writes ``é`` raw where ``json.dumps`` writes ``\\u00e9``: the chunk holding
    it goes row by row, and its other rows are as ever."""
    result = _result([_run("u@x", "not_reached", ["1.0", "é.1", "1.2"])])
    lines = next(render.unmatched_text(result, '{"job_id": ', "\n")).split("\n")
    assert lines == [
        json.dumps({"job_id": j, "submitter": "u@x", "reason": "not_reached"})
        for j in ["1.0", "é.1", "1.2"]
    ]
    assert "\\u00e9" in lines[1]


def test_the_unmatched_list_of_a_long_run() -> None:
    """A count batch of 10,000 jobs (past two chunks of 4096) as ``json.dumps`` lays the
    object out: a row a line, four spaces in, commas between chunks as between rows."""
    result = _result([_run("u@x", "submitter_limit", ["7.0"], count=10_000)])
    out = io.StringIO()
    render.write_cycle_json(result, out)
    parsed = json.loads(out.getvalue())
    assert parsed["matches"] == [] and parsed["submitters"] == []
    assert [r["job_id"] for r in parsed["unmatched"]] == [f"7.{p}" for p in range(10_000)]
    rows = out.getvalue().split("\n")
    assert rows[:3] == ["{", '  "matches": [],', '  "submitters": [],']
    assert rows[3] == '  "unmatched": ['
    assert rows[4] == '    {"job_id": "7.0", "submitter": "u@x", "reason": "submitter_limit"},'
    assert rows[-4:] == [
        '    {"job_id": "7.9999", "submitter": "u@x", "reason": "submitter_limit"}',
        "  ]",
        "}",
        "",
    ]


scalars = st.one_of(
    st.text(max_size=5),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e-5, 1e16, -0.0, 1e-4, 0.1, True, False, None]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(scalars, min_size=1, max_size=30))
def test_json_texts_are_dumps_line_texts(values: list[object]) -> None:
    """Each value's text, written as one list and cut, is ``json.dumps(jsonable(v))``:
    NaN null, the infinities ``"inf"``, floats outside msgspec's repr range as repr."""
    assert render.json_texts(values) == [json.dumps(jsonable(v)) for v in values]


def test_json_texts_of_other_values_go_one_at_a_time() -> None:
    """A list among the values would be laid out over lines: each value alone."""
    values = [[1, 2], "x", {"a": None}]
    assert render.json_texts(values) == ["[1, 2]", '"x"', '{"a": null}']
