"""sprio's ``--json`` text is the general writer's, and jobs files read through msgspec
give the objects ``json.loads`` gives (the writer itself: ``tests/core/test_jsontext.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.jsontext import jsonable
from fairshare_cli.io.inputs import read_json


def test_jobs_file_numbers_msgspec_refuses_read_as_json_loads_reads_them(tmp_path: Path) -> None:
    """A number msgspec refuses (an integer of 5,000 digits, 1e400) or text it refuses (a
    lone surrogate escape, a byte-order mark) is read, or refused, by ``json.loads``: 1e400
    is infinity there, the lone surrogate is kept, and 5,000 digits exceed Python's limit."""
    from fairshare_cli.io.inputs import JSONFault, fast_loads

    assert fast_loads(b'[1e400, "\\ud800"]', None) is None
    assert fast_loads(b"\xef\xbb\xbf[1]", None) is None
    assert fast_loads(b"[" + b"7" * 5000 + b"]", None) is None
    assert fast_loads(b'{"a": 1, "a": 2, "b": 123456789012345678901234567890}', None) == {
        "a": 2,
        "b": 123456789012345678901234567890,
    }
    path = tmp_path / "doc.json"
    path.write_bytes(b'[1e400, "\\ud800"]')
    assert read_json(str(path)) == [math.inf, "\ud800"]
    path.write_bytes(b"[" + b"7" * 5000 + b"]")
    with pytest.raises(JSONFault):
        read_json(str(path))


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=15))  # fmt: skip
def test_read_json_gives_json_loads_objects(tmp_path_factory: Any, value: Any) -> None:
    path: Path = tmp_path_factory.mktemp("j") / "doc.json"
    text = json.dumps(value)
    path.write_text(text, encoding="utf-8")
    got = read_json(str(path))
    assert json.dumps(got) == json.dumps(json.loads(text))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(max_size=4),
            st.lists(st.floats(allow_nan=True) | st.floats(-1e-3, 1e-3), min_size=12, max_size=12),
            st.dictionaries(st.sampled_from(["cpu", "mem", "é"]), st.floats(), max_size=2),
        ),
        max_size=4,
    )
)
def test_sprio_json_text_is_emit_rows_text(cases: list[Any]) -> None:
    """sprio's own ``--json`` writer against the general one (``emit_rows(json_rows(...))``)."""
    from fairshare_cli.cli.sprio import JSON_FIELDS
    from fairshare_cli.core.slurm.priority import PriorityRow
    from fairshare_cli.render import sprio
    from fairshare_cli.render.sprio_json import json_text

    rows = [
        PriorityRow(
            f"{i}",
            "batch",
            user,
            "acct",
            "normal",
            7,
            0,
            0,
            tuple(nums[:6]),
            tuple(nums[6:]),
            tres,
            tres,
        )
        for i, (user, nums, tres) in enumerate(cases)
    ]
    want = json.dumps(
        [{c: jsonable(r.get(c)) for c in JSON_FIELDS} for r in sprio.json_rows(rows)], indent=2
    )
    assert json_text(rows, JSON_FIELDS) == want


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=4),
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats()
        | st.text(max_size=4)
        | st.lists(st.integers(), max_size=2),
        max_size=5,
    )
    | st.lists(st.integers(), max_size=2)
)
def test_loads_line_gives_json_loads_objects(value: Any) -> None:
    from fairshare_cli.io.inputs import loads_line

    text = json.dumps(value)
    assert repr(loads_line(text)) == repr(json.loads(text))


floats = (
    st.floats(allow_nan=True, allow_infinity=True)
    | st.floats(min_value=-1e-3, max_value=1e-3)
    | st.floats(min_value=1e15, max_value=1e17)
)


@settings(max_examples=150, deadline=None)
@given(
    whos=st.lists(
        st.tuples(
            st.sampled_from(["alice", "bob@x", "é", 'q"\\']),
            st.lists(floats, min_size=6, max_size=6),
        ),
        min_size=1,
        max_size=3,
    ),
    parts=st.lists(
        st.tuples(
            st.sampled_from(["batch", "gpu"]),
            st.lists(floats, min_size=4, max_size=4),
            st.dictionaries(st.sampled_from(["cpu", "mem", "é"]), floats, max_size=2),
        ),
        min_size=1,
        max_size=3,
    ),
    jobs=st.lists(
        st.tuples(
            st.integers(0, 2),
            st.integers(0, 2),
            st.sampled_from(["1", "2.5", "x\u00e9"]),
            st.integers(-(2**63), 2**63),
            st.integers(-5, 5),
            floats,
            floats,
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_sprio_json_of_grouped_rows_is_emit_rows_text(
    whos: list[Any], parts: list[Any], jobs: list[Any]
) -> None:
    """Rows that carry a ``group`` (as ``compute_rows`` makes them) are printed per group
    and per row; the text must still be the general writer's: each value, tiny, huge or
    non-finite floats, quotes and non-ASCII names, in its place."""
    from fairshare_cli.cli.sprio import JSON_FIELDS
    from fairshare_cli.core.slurm.priority import PriorityRow
    from fairshare_cli.render import sprio
    from fairshare_cli.render.sprio_json import json_text

    who_objs = [object() for _ in whos]
    part_objs = [object() for _ in parts]
    groups = {(i, j): (w, p) for i, w in enumerate(who_objs) for j, p in enumerate(part_objs)}
    rows = []
    for wi, pi, jid, prio, nice, age, age_w in jobs:
        user, wf = whos[wi % len(whos)]
        name, pf, tres = parts[pi % len(parts)]
        f = (age, wf[0], wf[1], pf[0], pf[1], wf[2])
        wt = (age_w, wf[3], wf[4], pf[2], pf[3], wf[5])
        group = groups[(wi % len(whos), pi % len(parts))]
        rows.append(
            PriorityRow(
                jid,
                name,
                user,
                "acct",
                "normal",
                prio,
                0,
                nice,
                f,
                wt,
                tres,
                tres,
                False,
                0.0,
                (0, 0, jid),
                group,
            )
        )
    want = json.dumps(
        [{c: jsonable(r.get(c)) for c in JSON_FIELDS} for r in sprio.json_rows(rows)], indent=2
    )
    assert json_text(rows, JSON_FIELDS) == want


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_sprio_json_in_pieces_is_the_whole_text(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Grouped rows are printed CHUNK_ROWS at a time (here 2, so counts on and off a
    multiple): the pieces joined are ``json.dumps`` of the rows."""
    from fairshare_cli.cli.sprio import JSON_FIELDS
    from fairshare_cli.core.slurm.priority import PriorityRow
    from fairshare_cli.render import sprio, sprio_json

    monkeypatch.setattr(sprio_json, "CHUNK_ROWS", 2)
    groups = [(object(), object()), (object(), object())]
    rows = [
        PriorityRow(
            str(i), "batch", "alice", "hep", "normal", 100 + i, 0, 0,
            (0.25 * i, 0.0, 0.5, 0.125, 1.0, 0.0), (250.0 * i, 0.0, 5000.0, 125.0, 1000.0, 0.0),
            {"cpu": 0.5}, {"cpu": 50.0}, False, 100.0 + i, (i, 0, str(i)), groups[0],
        )
        for i in range(count)
    ]  # fmt: skip
    want = json.dumps(
        [{c: jsonable(r.get(c)) for c in JSON_FIELDS} for r in sprio.json_rows(rows)], indent=2
    )
    assert "".join(sprio_json.json_chunks(rows, JSON_FIELDS)) == want
