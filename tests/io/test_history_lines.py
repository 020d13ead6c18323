"""The typed fast path of JSON-lines history gives what ``parse_record`` gives, or its error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.usage import parse_record
from fairshare_cli.errors import InputError
from fairshare_cli.io.history import read_records

_NAMES = st.sampled_from(["alice", "bob", "", "grp.a", "bad name", 7, None])
_TIMES = st.sampled_from(
    [
        "2026-11-20T10:00:00Z",
        "2026-11-20T11:30:05Z",
        "2026-11-20T25:00:00Z",
        "2026-02-30T10:00:00Z",
        " 2026-11-20T10:00:00Z",
        "2026-11-20T10:00:00",
        "",
        None,
        1795168800,
    ]
)
_COUNTS = st.sampled_from([0, 1, 4, -1, 2.0, "3", True, None, 2**63])
_RECORD = st.fixed_dictionaries(
    {"owner": _NAMES, "start": _TIMES},
    optional={
        "end": _TIMES,
        "accounting_group": _NAMES,
        "account": _NAMES,
        "dirac_group": _NAMES,
        "nice_user": st.sampled_from([True, False, None, 1, "x"]),
        "slots": _COUNTS,
        "cpus": _COUNTS,
        "sluts": st.just(1),
    },
)


def _slow(obj: dict[str, Any]) -> Any:
    try:
        return parse_record(obj, "h.jsonl line 2")
    except InputError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(st.lists(_RECORD, min_size=1, max_size=4))
def test_fast_path_is_parse_record(tmp_path_factory: Any, objs: list[dict[str, Any]]) -> None:
    """Each record read alone (line 2, after a comment) equals parse_record's answer."""
    folder: Path = tmp_path_factory.mktemp("h")
    for obj in objs * 2:  # the second time, names and days are known: the fast path
        path = folder / "h.jsonl"
        path.write_text("# a history\n" + json.dumps(obj) + "\n")
        try:
            got: Any = list(read_records(str(path)))
        except InputError as exc:
            got = str(exc).replace(str(path), "h.jsonl")
        want = _slow(obj)
        assert got == (want if isinstance(want, str) else [want])
