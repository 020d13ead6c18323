"""The progress display: silent for a second, then a count on stderr, erased at the end."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import pytest

import fairshare_cli.render.progress as progress


class FakeProgress:
    """Records what a Rich ``Progress`` would have drawn."""

    made: ClassVar[list[FakeProgress]] = []

    def __init__(self, *columns: Any, console: Any, transient: bool) -> None:
        self.console = console
        self.transient = transient
        self.descriptions: list[str] = []
        self.stopped = False
        FakeProgress.made.append(self)

    def start(self) -> None:
        pass

    def add_task(self, description: str, total: float | None) -> int:
        return 0

    def update(self, task: int, description: str) -> None:
        self.descriptions.append(description)

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> type[FakeProgress]:
    import rich.progress

    FakeProgress.made = []
    monkeypatch.setattr(rich.progress, "Progress", FakeProgress)
    return FakeProgress


def test_shows_a_count_after_the_delay(
    fake: type[FakeProgress], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    with progress.counting("importing h.csv", "records", enabled=True) as tick:
        time.sleep(0.12)
        tick(2048)
        time.sleep(0.12)
        tick(4096)
    (bar,) = fake.made
    assert bar.descriptions == [
        "importing h.csv: 2,048 records",
        "importing h.csv: 4,096 records",
    ]
    assert bar.stopped and bar.transient and bar.console.stderr


def test_quiet_when_quick_or_not_a_terminal(fake: type[FakeProgress]) -> None:
    with progress.counting("importing", "records", enabled=True) as tick:
        tick(10)  # within the first second
    with progress.counting("importing", "records", enabled=False) as tick:
        tick(10)
    assert fake.made == []


def test_counted_passes_items_through(
    fake: type[FakeProgress], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    from types import SimpleNamespace

    clock = SimpleNamespace(monotonic=iter(range(10**6)).__next__)  # a second per reading
    monkeypatch.setattr(progress, "time", clock)
    items = list(progress.counted(range(3000), "importing", "records", enabled=True))
    assert items == list(range(3000))
    (bar,) = fake.made
    assert bar.descriptions == ["importing: 1,024 records", "importing: 2,048 records"]
