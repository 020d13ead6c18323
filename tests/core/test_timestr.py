"""Slurm's time-string grammar, including the forms it rejects."""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.timestr import (
    TimeStringError,
    format_slurm_time,
    slurm_conf_minutes,
    time_str2mins,
    time_str2secs,
)


@pytest.mark.parametrize(
    ("text", "secs"),
    [
        pytest.param("30", 1800, id="minutes"),
        pytest.param("5:30", 330, id="minutes:seconds"),
        pytest.param("1:00:00", 3600, id="h:m:s"),
        pytest.param("7-0", 604800, id="days-hours"),
        pytest.param("1-12", 129600, id="d-h"),
        pytest.param("1-2:3", 93780, id="d-h:m"),
        pytest.param("1-12:30:00", 131400, id="d-h:m:s"),
        pytest.param("0", 0, id="zero"),
        pytest.param("00:10:00", 600, id="ten-minutes"),
    ],
)
def test_accepted(text: str, secs: int) -> None:
    assert time_str2secs(text) == secs


@pytest.mark.parametrize("text", ["INFINITE", "unlimited", "-1", "Infinite"])
def test_infinite(text: str) -> None:
    assert math.isinf(time_str2secs(text))


@pytest.mark.parametrize(
    "text",
    ["", "1:2:3:4", "-5", "1-2-3", "5:", "1:2-3", "abc", "1.5", "1-", "::", "-", " 5", "5 ", " "],
)
def test_rejected(text: str) -> None:
    if text == "1-":
        assert time_str2secs(text) == 86400  # one digit group with a dash passes the check
        return
    with pytest.raises(TimeStringError):
        time_str2secs(text)


def test_minutes_round_up() -> None:
    assert time_str2mins("0:1") == 1
    assert time_str2mins("5:30") == 6
    assert time_str2mins("5:00") == 5
    assert time_str2mins("1:00:59") == 61


def test_display() -> None:
    assert format_slurm_time(604800) == "7-00:00:00"
    assert format_slurm_time(3661) == "01:01:01"
    assert format_slurm_time(math.inf) == "UNLIMITED"


@pytest.mark.parametrize("text", ["1" * 5000, "1" * 400, "1-" + "9" * 19, "1:2:" + "3" * 19])
def test_a_number_of_more_than_18_digits_is_rejected(text: str) -> None:
    """A 5,000-digit time string crashed ``int()`` (Python's 4,300-digit limit), a 400-digit
    one ``float()``: one of more than 18 digits (what strtol reads) is refused, named
    shortened."""
    with pytest.raises(TimeStringError, match="has a number of more than 18 digits"):
        time_str2secs(text)
    assert time_str2secs("0" * 30 + "1") == 60.0  # (leading zeros are no digits of more)


@pytest.mark.parametrize(
    ("text", "secs"),
    [
        # time_str2mins, then x 60, as read_config.c stores PriorityMaxAge (a uint32_t).
        pytest.param("0", 0.0, id="zero"),
        pytest.param("7-0", 604800.0, id="a-week"),
        pytest.param("1:30", 120.0, id="rounded-up-to-a-minute"),
        # 35,791,393 minutes = 2,147,483,580 s; + 59 still fits in an int: whole minutes.
        pytest.param("35791393", 2147483580.0, id="largest-that-fits"),
        # 100,000,000 minutes = 6,000,000,000 s, an int wraps it to 6e9 - 2^32 =
        # 1,705,032,704; ROUNDUP: (1,705,032,704 + 59) / 60 = 28,417,212 minutes.
        pytest.param("100000000", 1705032720.0, id="wrapped-past-2^32"),
        # 71,582,788 minutes 16 s = 2^32 s exactly: wraps to 0.
        pytest.param("71582788:16", 0.0, id="wrapped-to-zero"),
        pytest.param("INFINITE", 4294967236.0, id="infinite-is-(uint32)(-1-x-60)"),
    ],
)
def test_minutes_knobs_are_what_slurmctld_stores(text: str, secs: float) -> None:
    assert slurm_conf_minutes(text, "PriorityMaxAge") == secs


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        # 3,000,000,000 s wraps to -1,294,967,296; (-1,294,967,296 + 59) / 60 = -21,582,787.
        pytest.param("50000000", -21582787, id="wrapped-below-zero"),
        # 2,147,483,640 s fits, but + 59 wraps to -2,147,483,597: / 60 = -35,791,393.
        pytest.param("35791394", -35791393, id="roundup-overflows"),
        # 49710-06:27:16 (4,294,967,236 s, what scontrol prints for INFINITE) wraps to -60,
        # (-60 + 59) / 60 = 0 in C: fine, 0 (only the reader of scontrol's output maps it).
    ],
)
def test_minutes_knobs_slurmctld_refuses(text: str, minutes: int) -> None:
    with pytest.raises(TimeStringError, match=f"{minutes} minutes, refused"):
        slurm_conf_minutes(text, "PriorityDecayHalfLife")
