"""``fs userprio -activefrom MONTH DAY YEAR``, as HTCondor 25.0's ``user_prio.cpp`` reads it.

``CalcTime`` makes ``MinLastUsageTime`` local midnight of that day (``mktime``; a year
below 50 is 20xx); the rows are the records last used at or after it, in place of the last
24 hours; the footer's Last Usage Time shows that midnight and its Time Since the time from
it to the last update (``<now>`` when it is later; blank when it is at or before 1970).
The tests run with ``TZ=UTC`` (conftest). The pool, last uses: alice 30 h before now
(11/20 06:00), bob now (11/21 12:00, still running); alice's priority has decayed below
bob's, so she is listed first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = '[pool]\nuid_domain = "example.org"\n'
HISTORY = (
    '{"owner": "alice", "start": "2026-11-19T06:00:00Z", "end": "2026-11-20T06:00:00Z", '
    '"slots": 2}\n'
    '{"owner": "bob", "start": "2026-11-21T00:00:00Z", "end": null, "slots": 1}\n'
)


@pytest.fixture
def args(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(HISTORY, encoding="utf-8")
    out = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
           "--now", NOW]  # fmt: skip
    assert run("import", "history", str(tmp_path / "h.jsonl"), *out).exit_code == 0
    return out


def _names(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines()[4:-2]]


@pytest.mark.parametrize(
    ("date", "names", "since"),
    [
        # 11/20 00:00 is before alice's last use (06:00): both; 36 h before the update
        pytest.param(["11", "20", "2026"], ["alice@example.org", "bob@example.org"], "1+12:00"),
        # 11/21 00:00 is after it: bob alone; 12 h
        pytest.param(["11", "21", "26"], ["bob@example.org"], "0+12:00", id="two-digit-year"),
        # month 13 of 2025 is 1/1/2026: 324 days to 11/21 (31+28+31+30+31+30+31+31+30+31+20);
        # day 0 of December 2025 is 11/30/2025, 32 days earlier: 356
        pytest.param(["13", "1", "2025"], ["alice@example.org", "bob@example.org"], "324+12:00"),
        pytest.param(["12", "0", "2025"], ["alice@example.org", "bob@example.org"], "356+12:00"),
    ],
)
def test_rows_used_since_that_midnight(
    run: Callable[..., Any], args: list[str], date: list[str], names: list[str], since: str
) -> None:
    result = run("userprio", "-activefrom", *date, *args)
    assert result.exit_code == 0, result.stderr
    assert _names(result.stdout) == names
    assert result.stdout.splitlines()[-1].split()[-1] == since


def test_the_footer_shows_the_cutoff_date(run: Callable[..., Any], args: list[str]) -> None:
    """-usage: the footer's Last Usage Time is 11/20/2026 00:00 (the 24-hour filter's
    would be 11/20/2026 12:00)."""
    result = run("userprio", "-usage", "-activefrom", "11", "20", "2026", *args)
    assert result.stdout.splitlines()[-1].endswith("11/20/2026 00:00")


def test_a_later_or_pre_1970_cutoff(run: Callable[..., Any], args: list[str]) -> None:
    """A day after the update: no row, Time Since "<now>"; 1 1 1950 (50 is 1950): every
    record, Time Since blank (MinLastUsageTime <= 0)."""
    later = run("userprio", "-activefrom", "11", "22", "2026", *args).stdout.splitlines()
    assert _names("\n".join(later)) == []
    assert later[-1].split()[-1] == "<now>"
    old = run("userprio", "-activefrom", "1", "1", "50", *args).stdout.splitlines()
    assert len(_names("\n".join(old))) == 2
    assert old[-1].split()[-1] == "60.00"  # usage 2 x 24 h + 12 h, then nothing


def test_the_later_of_allusers_and_activefrom_sets_the_filter(
    run: Callable[..., Any], args: list[str]
) -> None:
    """Both set ``MinLastUsageTime`` as ``user_prio.cpp`` reads its arguments, so the later
    wins; ``-allusers`` also reads the negotiator's ad (as ``-negotiator`` does) either way.
    ``-allusers -activefrom 11 21 2026``: midnight 11/21, after alice's last use (11/20
    06:00): bob alone, Time Since 0+12:00, as ``-negotiator -activefrom 11 21 2026``.
    ``-activefrom 11 21 2026 -allusers``: -1, every record, as ``-allusers``. fs refused
    both."""
    date = ["-activefrom", "11", "21", "2026"]
    dated = run("userprio", "-allusers", *date, *args)
    assert dated.exit_code == 0, dated.stderr
    assert _names(dated.stdout) == ["bob@example.org"]
    assert dated.stdout.splitlines()[-1].split()[-1] == "0+12:00"
    assert dated.stdout == run("userprio", "-negotiator", *date, *args).stdout
    every = run("userprio", *date, "-allusers", *args)
    assert every.exit_code == 0, every.stderr
    assert _names(every.stdout) == ["alice@example.org", "bob@example.org"]
    assert every.stdout == run("userprio", "-allusers", *args).stdout


def test_the_double_dash_spellings_keep_the_later_filter(
    run: Callable[..., Any], args: list[str]
) -> None:
    """``--allusers`` and ``--activefrom`` are condor_userprio's own options spelt whole
    (``is_dash_arg_prefix`` reads ``--allusers`` as ``-allusers``), so the later sets the
    filter, as with one dash (``main``'s argument loop). fs refused them together: "give
    one of them", exit 2."""
    date = ["--activefrom", "11", "21", "2026"]
    dated = run("userprio", "--allusers", *date, *args)
    assert dated.exit_code == 0, dated.stderr
    assert dated.stdout == run("userprio", "-negotiator", "-activefrom", "11", "21", "2026",
                               *args).stdout  # fmt: skip
    assert _names(dated.stdout) == ["bob@example.org"]
    every = run("userprio", *date, "--allusers", *args)
    assert every.exit_code == 0, every.stderr
    assert every.stdout == run("userprio", "-allusers", *args).stdout


def test_refusals(run: Callable[..., Any], args: list[str]) -> None:
    bad = run("userprio", "-activefrom", "1", "x", "2026", *args)
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1


def test_numbers_past_a_c_int_wrap_as_atoi_reads_them(
    run: Callable[..., Any], args: list[str]
) -> None:
    """``atoi`` is ``(int) strtol``: ``99999999999`` is month 1215752191 (its low 32 bits),
    which ``mktime`` carries some hundred million years on: a cutoff after every last use,
    no row, Time Since ``<now>``. ``99999999999999999999`` is past a ``long``: ``strtol``
    gives LONG_MAX, whose low 32 bits are -1, year 1999 (below 50: 20xx less 1900): every
    record. fs refused both in Python's words ("signed integer is greater than maximum")."""
    far = run("userprio", "-activefrom", "99999999999", "1", "1", *args)
    assert far.exit_code == 0, far.stderr
    assert _names(far.stdout) == [] and far.stderr == ""
    assert far.stdout.splitlines()[-1].split()[-1] == "<now>"
    res = run("userprio", "-usage", "-activefrom", "1", "1", "99999999999999999999", *args)
    assert res.exit_code == 0, res.stderr
    assert sorted(_names(res.stdout)) == ["alice@example.org", "bob@example.org"]
    assert res.stdout.splitlines()[-1].endswith(" 1/01/1999 00:00")


def test_a_date_past_mktime_lists_every_record(run: Callable[..., Any], args: list[str]) -> None:
    """Year and month INT_MAX: past what ``mktime`` can give, so it gives -1, which
    ``MinLastUsageTime`` holds as ``-allusers`` sets it: every record, Time Since blank."""
    res = run("userprio", "-activefrom", "2147483647", "1", "2147483647", *args)
    assert res.exit_code == 0, res.stderr
    assert _names(res.stdout) == ["alice@example.org", "bob@example.org"]
    assert res.stdout.splitlines()[-1].split()[-1] == "60.00"
