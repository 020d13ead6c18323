"""The history reader (``io.history``): its typed fast path gives what ``parse_record``
gives, or its error, and the exact parser reads only the lines the fast path refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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
_TRES: list[Any] = ["cpu=2,mem=8G,gres/gpu=1", "cpu=1", "mem=512,billing=3", "billing=3", "", None]
_TRES += ["mem=-1G", "cpu=1.5", 4]  # (refused)
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
        "tres": st.sampled_from(_TRES),
        "sluts": st.just(1),
    },
)


def _slow(obj: dict[str, Any]) -> Any:
    try:
        return parse_record(obj, "h.jsonl:2")
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


def _expected(objs: list[dict[str, Any]]) -> Any:
    """What the line-by-line reading gives: every record, or the first line's error."""
    out = []
    for lineno, obj in enumerate(objs, 1):
        try:
            out.append(parse_record(obj, f"h.jsonl:{lineno}"))
        except InputError as exc:
            return str(exc)
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(_RECORD, min_size=1, max_size=6), st.integers(1, 4), st.integers(1, 3))
def test_batches_are_line_by_line(
    tmp_path_factory: Any, objs: list[dict[str, Any]], batch: int, piece: int
) -> None:
    """Lines read a batch at a time (checked per column, a refused piece cut in two down
    to ``piece`` lines, the rest read exactly) give the records, or the error of the first
    bad line, as parse_record does."""
    import fairshare_cli.io.history as history

    folder: Path = tmp_path_factory.mktemp("h")
    path = folder / "h.jsonl"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objs))
    want = _expected(objs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history, "BATCH", batch)
        patch.setattr(history, "_PIECE", piece)
        for _ in range(2):  # the second time, names and minutes are known
            try:
                got: Any = list(read_records(str(path)))
            except InputError as exc:
                got = str(exc).replace(str(path), "h.jsonl")
            assert got == want


def test_the_exact_parser_reads_only_the_refused_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Among a thousand plain lines, a comment, a time with an offset and a line of another
    type: parse_record reads the two records the fast path refused (its pieces cut down to
    one line), no other line, and every record comes in file order."""
    import fairshare_cli.io.history as history

    lines = [
        json.dumps({"owner": "alice", "start": f"2026-11-20T10:{k // 60:02d}:{k % 60:02d}Z"})
        for k in range(1000)
    ]
    lines[10] = "# a comment"
    lines[500] = json.dumps({"owner": "bob", "start": "2026-11-20T10:00:00+01:00"})
    lines[900] = json.dumps({"owner": "carol", "start": "2026-11-20T10:00:00Z", "cpus": "2"})
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join(lines) + "\n")
    seen: list[str] = []

    def spied(obj: dict[str, Any], where: str) -> Any:
        seen.append(where)
        return parse_record(obj, where)

    monkeypatch.setattr(history, "_PIECE", 1)
    monkeypatch.setattr(history, "parse_record", spied)
    got = list(read_records(str(path)))
    assert seen == [f"{path}:501", f"{path}:901"]
    assert len(got) == 999
    assert [r.owner for r in got[498:501]] == ["alice", "bob", "alice"]
    assert (got[899].owner, got[899].cpus) == ("carol", 2)


def _plain_batch(lines: list[str]) -> Any:
    """The records of ``lines`` by the fast path alone (None: it refuses one)."""
    import msgspec
    from msgspec.structs import astuple

    from fairshare_cli.io.history import _decode_line, _records_of_rows

    try:
        return _records_of_rows([astuple(_decode_line(line)) for line in lines], lines)
    except msgspec.DecodeError:
        return None


def test_plain_batch_takes_plain_lines_and_refuses_the_rest() -> None:
    """The per-column path takes lines of known-good shape and leaves any other line
    (a time with a fraction, an unknown day, a bad name, an end before the start) to the
    exact parser."""
    plain_batch = _plain_batch

    good = '{"owner": "alice", "start": "2026-11-20T10:00:00Z", "end": "2026-11-20T10:00:60Z"}'
    got = plain_batch([good, good.replace("alice", "bob")])
    assert got is not None
    assert [r.end for r in got] == [1795168860.0, 1795168860.0]
    assert [r.owner for r in got] == ["alice", "bob"]
    for bad in (
        good.replace("10:00:00Z", "10:00:00.5Z"),
        good.replace("2026-11-20T10:00:00Z", "2026-02-30T10:00:00Z"),
        good.replace("alice", "bad name"),
        good.replace("10:00:60Z", "09:00:00Z"),
        good.replace("10:00:00Z", "10:00:61Z"),
        "# a comment",
        "",
    ):
        assert plain_batch([good, bad]) is None, bad


def test_typed_lines_hold_the_fields_in_line_order() -> None:
    """The reader hands records_of_columns each typed line as a tuple (msgspec's astuple): that is
    only right while the typed line's fields are LINE_FIELDS, in that order, and those are
    UsageRecord's fields but ``charged_cpus``, which only the usage history store keeps (a
    history file cannot give it)."""
    from fairshare_cli.core.usage import UsageRecord
    from fairshare_cli.core.usage_lines import LINE_FIELDS
    from fairshare_cli.io.history import _Line

    assert _Line.__struct_fields__ == LINE_FIELDS
    assert sorted(LINE_FIELDS) == sorted(f for f in UsageRecord._fields if f != "charged_cpus")
    assert UsageRecord._fields[-2:] == (LINE_FIELDS[-1], "charged_cpus") == ("tres", "charged_cpus")


def test_the_last_minute_of_year_9999_is_read_line_by_line(tmp_path: Path) -> None:
    """The per-column path caches only minutes whose every second (60 too) is a time
    parse_record takes, so it needs no range check of its own: a time in year 9999's last
    minute sends its line to the exact parser, which gives parse_record's record or error."""
    plain_batch = _plain_batch

    for end in ("9999-12-31T23:59:30Z", "9999-12-31T23:59:60Z"):
        obj = {"owner": "alice", "start": "9999-12-31T23:59:00Z", "end": end}
        assert plain_batch([json.dumps(obj)] * 2) is None
        path = tmp_path / "h.jsonl"
        path.write_text(json.dumps(obj) + "\n")
        try:
            got: Any = list(read_records(str(path)))
        except InputError as exc:
            got = str(exc).replace(str(path), "h.jsonl")
        want = _expected([obj])
        assert got == want


def test_a_day_of_minutes_learned_at_once_is_parse_time() -> None:
    """A minute not cached teaches the per-column path its whole day: every minute of
    the day it caches is the one parse_time reads, and no minute past the last time
    parse_record takes is cached."""
    from fairshare_cli.core import usage_lines as usage
    from fairshare_cli.core.epoch import parse_time

    for day in ("2024-02-29T", "0001-01-01T", "9999-12-31T", "2026-11-21T"):
        usage._MINUTES.clear()
        first = f'{{"owner": "alice", "start": "{day}12:34:56Z"}}'
        assert _plain_batch([first]) is not None
        for hour in range(24):
            for minute in range(60):
                prefix = f"{day}{hour:02d}:{minute:02d}:"
                if prefix == "9999-12-31T23:59:":
                    assert prefix not in usage._MINUTES
                else:
                    assert usage._MINUTES[prefix] == parse_time(prefix + "00Z", "")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3 * 86400 - 1),
            st.none() | st.just("") | st.integers(0, 3 * 86400 - 1),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_times_of_a_batch_are_parse_time(pairs: list[tuple[int, int | str | None]]) -> None:
    """The per-column times (minutes and seconds looked up in C, ends absent as None or "")
    are parse_time's, start for start and end for end."""
    from fairshare_cli.core.epoch import parse_time
    from fairshare_cli.core.usage_lines import _times

    base = parse_time("2026-11-20T00:00:00Z", "")

    def text(offset: int) -> str:
        import datetime as dt

        when = dt.datetime.fromtimestamp(base + offset, tz=dt.timezone.utc)
        return when.strftime("%Y-%m-%dT%H:%M:%SZ")

    starts = [text(s) for s, _ in pairs]
    ends = [text(e) if isinstance(e, int) else e for _, e in pairs]
    got = _times(starts, ends)
    assert got is not None
    assert got[0] == [parse_time(t, "") for t in starts]
    assert got[1] == [parse_time(e, "") if e else None for e in ends]
