"""A progress display on stderr for work that may take more than a second."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

T = TypeVar("T")

#: Nothing shows before this many seconds: quick commands stay quiet.
DELAY = 1.0

#: Whether a progress line (:func:`progress_line`) is open on stderr, its newline not written.
_line_open = False


def progress_line(text: str, done: bool) -> None:
    """``text`` on stderr over the line shown before (``\r``); ``done`` ends the line."""
    global _line_open
    if not done:  # (open before the text: a Ctrl-C while it is written finds it open)
        _line_open = True
    sys.stderr.write(f"\r{text}\n" if done else f"\r{text}")
    sys.stderr.flush()
    _line_open = not done


def end_progress_line() -> None:
    """End a progress line left open (a command stopped by an error or Ctrl-C), so that the
    message that follows starts a line of its own (it was written after ``0:20 left``)."""
    global _line_open
    if _line_open:
        _line_open = False
        with suppress(OSError, ValueError, AttributeError):  # (stderr closed, or gone)
            sys.stderr.write("\n")


@contextmanager
def counting(label: str, unit: str, enabled: bool | None = None) -> Iterator[Callable[[int], None]]:
    """A callback ``tick(done)`` that shows ``label: N unit`` on stderr after a second.

    Shown only when stderr is a terminal (or ``enabled``); erased when the work ends.
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    start = time.monotonic()
    state: dict[str, Any] = {"last": 0.0}

    def tick(done: int) -> None:
        if not enabled:
            return
        now = time.monotonic()
        if now - start < DELAY or now - state["last"] < 0.1:
            return
        state["last"] = now
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            bar = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(label, total=None)
        state["bar"].update(state["task"], description=f"{label}: {done:,} {unit}")

    try:
        yield tick
    finally:
        if "bar" in state:
            state["bar"].stop()


def counted(items: Iterable[T], label: str, unit: str, enabled: bool | None = None) -> Iterator[T]:
    """``items``, counted on stderr by :func:`counting` as they are taken."""
    with counting(label, unit, enabled) as tick:
        for n, item in enumerate(items, 1):
            if not n & 1023:
                tick(n)
            yield item


def counted_batches(items: Iterable[Any], label: str, unit: str) -> Iterator[list[Any]]:
    """The lists of ``items`` (a :class:`~fairshare_cli.core.usage.Batches`, else lists
    made of them), their items counted on stderr by :func:`counting` as they are taken."""
    from fairshare_cli.core.usage import batches_of

    with counting(label, unit) as tick:
        done = 0
        for batch in batches_of(items):
            done += len(batch)
            tick(done)
            yield batch


#: The widest bar ``fs simulate`` draws; a narrower terminal gets a shorter one.
BAR_WIDTH = 30
#: What the line holds besides the bar: ``\rsimulating [``, ``] ``, the percentage, the
#: time left, and the terminal's last column, left empty (a line that fills it wraps on
#: some terminals, and each redraw would then leave a line behind).
_BAR_TEXT = len("simulating [") + len("] ") + 6 + 2 + 10 + 1


def simulate_bar() -> Callable[[float], None]:
    """``fs simulate``'s one-line progress bar on stderr, with an estimate of the time left,
    as wide as the terminal lets it be (``$COLUMNS``, else the terminal's width): a line
    wider than the terminal wraps, and ``\r`` then redraws only its last part."""
    began = time.monotonic()
    columns = shutil.get_terminal_size((80, 24)).columns
    width = max(min(BAR_WIDTH, columns - _BAR_TEXT), 5)

    def show(fraction: float) -> None:
        spent = time.monotonic() - began
        left = spent * (1 - fraction) / fraction if fraction > 0 else 0.0
        done = int(width * fraction)
        bar = "#" * done + "-" * (width - done)
        eta = _time_left(left) if fraction < 1 else "done"
        progress_line(f"simulating [{bar}] {fraction:6.1%}  {eta:>10}", fraction >= 1)

    return show


def _time_left(seconds: float) -> str:
    """The time left in the bar's 10 characters: ``59:59 left``; from 100 minutes on
    ``1h40 left`` (``100:00 left`` would push the line into the terminal's last column),
    and ``>99h left`` past 99 hours 59 minutes."""
    minutes = int(seconds // 60)
    if minutes < 100:
        return f"{minutes}:{int(seconds % 60):02d} left"
    if minutes < 100 * 60:
        return f"{minutes // 60}h{minutes % 60:02d} left"
    return ">99h left"
