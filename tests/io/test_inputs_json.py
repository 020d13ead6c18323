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
def test_loads_gives_json_loads_objects(value: Any) -> None:
    from fairshare_cli.io.inputs import loads

    text = json.dumps(value)
    assert repr(loads(text)) == repr(json.loads(text))


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
def test_sprio_json_of_a_table_is_json_dumps_text(
    whos: list[Any], parts: list[Any], jobs: list[Any]
) -> None:
    """sprio's ``--json`` of a table (each share's texts made once, each row's own values
    put in) is ``json.dumps`` of its rows: each value, tiny, huge or non-finite floats,
    quotes and non-ASCII names, in its place."""
    from fairshare_cli.core.jsontext import dumps_columns
    from fairshare_cli.core.slurm.priority_table import AssocShare, PartShare, PriorityTable
    from fairshare_cli.render.sprio import json_columns
    from tests.core.slurm.priority_reference import reference_json

    assocs = [AssocShare(user, ("acct", wf[1], wf[2], wf[4], wf[5])) for user, wf in whos]
    shares = [
        PartShare((pf[0], pf[2], ()), (name, pf[1], pf[3], tres, tres, ()), ("normal", 0.5, 7.5))
        for name, pf, tres in parts
    ]
    picked = [(assocs[w % len(assocs)], shares[p % len(shares)]) for w, p, *_ in jobs]
    table = PriorityTable(
        [j[2] for j in jobs], [a for a, _ in picked], [s for _, s in picked],
        [j[5] for j in jobs], [j[6] for j in jobs], [0] * len(jobs), [j[4] for j in jobs],
        [float(j[3]) for j in jobs],
    )  # fmt: skip
    text = dumps_columns(json_columns(table), len(table))
    assert text == reference_json(table.rows())


def _fault(call: Any) -> tuple[Any, ...]:
    """What ``call`` refuses: a JSONFault's line, column and reason (or json's)."""
    from fairshare_cli.io.inputs import JSONFault

    try:
        call()
    except JSONFault as fault:
        return fault.line, fault.column, fault.reason
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno, exc.msg
    raise AssertionError("accepted")


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=3),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=8,
    ),
    st.integers(min_value=0),
    st.sampled_from(["\0", "\0\0\0", "\0]", "\0\n{", '\0\x00"x": 1}']),
    st.booleans(),
)
def test_a_nul_ends_the_reading_with_the_whole_texts_error(
    tmp_path_factory: Any, value: Any, at: int, nul: str, pretty: bool
) -> None:
    """The exact reader stops at the first NUL character (JSON takes none anywhere: a file
    ending in NUL bytes, ``truncate -s 2G jobs.json``, was read whole): its error is the
    one ``json.loads`` gives on the whole text, wherever the NUL falls (in a string, a
    number, between tokens, after the document), line and column included."""
    from fairshare_cli.io.json_keys import RepeatedKeys

    text = json.dumps(value, indent=1 if pretty else None)
    cut = at % (len(text) + 1)
    text = text[:cut] + nul + text[cut:]
    path: Path = tmp_path_factory.mktemp("j") / "doc.json"
    path.write_text(text, encoding="utf-8")
    read = _fault(lambda: read_json(str(path), pairs=RepeatedKeys()))  # (the exact reader)
    assert read == _fault(lambda: json.loads(text))


def test_a_nul_tail_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A jobs list followed by 64 MiB of NUL bytes (a sparse file): refused as the whole
    text is, after reading to the first NUL only (the text read is that short)."""
    from fairshare_cli.io import inputs

    path = tmp_path / "jobs.json"
    path.write_text('[{"id": "1.0", "owner": "alice"}]\n', encoding="utf-8")
    with path.open("r+b") as fh:
        fh.truncate(1 << 26)
    seen: list[int] = []
    real = inputs._text_to_nul

    def spy(stream: Any, name: str) -> str:
        text = real(stream, name)
        seen.append(len(text))
        return text

    monkeypatch.setattr(inputs, "_text_to_nul", spy)
    assert _fault(lambda: read_json(str(path), pairs=dict)) == (2, 1, "Extra data")
    assert seen == [len('[{"id": "1.0", "owner": "alice"}]\n') + 1]
