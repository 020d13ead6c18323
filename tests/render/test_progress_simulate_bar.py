"""``fs simulate``'s bar keeps its time left within the width the line allows for it.

The line leaves the terminal's last column free by reserving 10 characters for the time
left (render/progress.py). ``M:SS left`` overran them from 100 minutes on (``100:00
left``, 11 characters), so a run whose estimate passed 100 minutes drew a line as wide as
the terminal, which wraps, and each redraw left a line behind. The estimate is the time
spent times (1 - done) / done: 60 s spent at 0.5 % done leaves 60 × 199 = 11,940 s, 3 h 19
min; 100 s at 0.1 % leaves 99,900 s, 27 h 45 min.
"""

from __future__ import annotations

import pytest

from fairshare_cli.render import progress


@pytest.mark.parametrize(
    ("spent", "fraction", "shown"),
    [
        pytest.param(60.0, 0.5, "1:00 left", id="a-minute"),
        pytest.param(3000.0, 0.5, "50:00 left", id="under-100-minutes"),
        pytest.param(5999.0, 0.5, "99:59 left", id="the-last-minutes-shown-so"),
        pytest.param(60.0, 0.005, "3h19 left", id="hours"),
        pytest.param(100.0, 0.001, "27h45 left", id="a-day"),
        pytest.param(3600.0, 0.001, ">99h left", id="past-99-hours"),
    ],
)
def test_the_time_left_fits_its_ten_columns(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    spent: float,
    fraction: float,
    shown: str,
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    clock = iter([1000.0, 1000.0 + spent])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    progress.simulate_bar()(fraction)
    line = capsys.readouterr().err
    assert line.endswith(f"  {shown:>10}")
    assert len(line.lstrip("\r")) == 59  # (the last of the 60 columns free)
