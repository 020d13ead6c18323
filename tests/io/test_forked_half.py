"""The forked half (``io/forked_half.py``): the child's text comes after the parent's, only
when released; a cancelled or failing child writes nothing; how its writing ended is raised
in the parent as the parent's own writing would have raised it."""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.errors import RuntimeFailure
from fairshare_cli.io import forked_half
from fairshare_cli.io.forked_half import Made, fork_half


def _fork(work: Any, out: Any) -> forked_half.Half:
    half = fork_half(work, out)
    assert half is not None
    return half


def _out(tmp_path: Path) -> Any:
    out = (tmp_path / "out.txt").open("w+", encoding="utf-8")
    if not forked_half.usable(out):
        pytest.skip("no fork here, or a single CPU")
    return out


def _writer(stream: Any) -> Any:
    def write(text: Iterable[str]) -> None:
        for piece in text:
            stream.write(piece)
        stream.flush()

    return write


def test_the_childs_text_follows_the_parents_once_released(tmp_path: Path) -> None:
    out = _out(tmp_path)
    made: list[str] = []

    def pieces() -> Iterable[str]:  # made in the child, after its report
        made.append("x")
        yield from ("second ", "half\n")

    with _fork(lambda: ({"first": "7"}, pieces(), _writer(out)), out) as half:
        assert half.report() == {"first": "7"}
        out.write("first half\n")
        half.release(out)
    out.seek(0)
    assert out.read() == "first half\nsecond half\n"
    assert made == []  # (the child's list was its own)


@pytest.mark.parametrize("how", ["cancel", "leave"])
def test_a_child_given_up_writes_nothing_and_is_waited_for(tmp_path: Path, how: str) -> None:
    out = _out(tmp_path)
    half = fork_half(lambda: ("r", ["never\n"], _writer(out)), out)
    assert half is not None
    with half:
        assert half.report() == "r"
        out.write("all of it\n")
        if how == "cancel":
            half.cancel()
    out.flush()
    with pytest.raises(ChildProcessError):  # (waited for: no such child left)
        os.waitpid(half.pid, os.WNOHANG)
    out.seek(0)
    assert out.read() == "all of it\n"


def _fails() -> Made:
    raise ValueError("boom")


@pytest.mark.parametrize("work", [lambda: None, _fails], ids=["nothing", "raises"])
def test_a_child_that_makes_no_half_reports_none(tmp_path: Path, work: Any) -> None:
    out = _out(tmp_path)
    with _fork(work, out) as half:
        assert half.report() is None
    out.seek(0)
    assert out.read() == ""


def _failing_writer(exc: BaseException) -> Any:
    def write(text: Iterable[str]) -> None:
        raise exc

    return write


@pytest.mark.parametrize(
    ("exc", "raised", "check"),
    [
        (BrokenPipeError(), BrokenPipeError, None),
        (OSError(errno.ENOSPC, "No space left on device"), OSError, errno.ENOSPC),
        (UnicodeEncodeError("ascii", "é", 0, 1, "no"), RuntimeFailure, None),
    ],
    ids=["closed-pipe", "full-disk", "other"],
)
def test_how_the_childs_writing_ended_is_raised_in_the_parent(
    tmp_path: Path, exc: BaseException, raised: type[BaseException], check: int | None
) -> None:
    out = _out(tmp_path)
    with _fork(lambda: ("r", ["x"], _failing_writer(exc)), out) as half:
        assert half.report() == "r"
        with pytest.raises(raised) as caught:
            half.release(out)
    if check is not None:
        assert isinstance(caught.value, OSError)
        assert caught.value.errno == check
        assert caught.value.strerror == "No space left on device"
    if raised is RuntimeFailure:
        assert "UnicodeEncodeError" in str(caught.value)


def test_a_child_that_dies_after_reporting_is_a_runtime_failure(tmp_path: Path) -> None:
    out = _out(tmp_path)

    def die(text: Iterable[str]) -> None:
        os._exit(9)

    with _fork(lambda: ("r", ["x"], die), out) as half:
        assert half.report() == "r"
        with pytest.raises(RuntimeFailure, match="it died"):
            half.release(out)


def test_no_half_for_a_stream_without_a_descriptor() -> None:
    assert not forked_half.usable(io.StringIO())
    assert fork_half(lambda: None, io.StringIO()) is None  # type: ignore[arg-type]


def test_no_half_on_a_single_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = (tmp_path / "out.txt").open("w")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert not forked_half.usable(out)


def test_no_half_when_fork_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _out(tmp_path)
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None

    def no_fork() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert fork_half(lambda: None, out) is None
    if before is not None:  # its pipes are closed again
        assert len(os.listdir("/proc/self/fd")) == before


def test_the_childs_text_stops_when_its_parent_is_gone() -> None:
    pieces = forked_half.while_parent_lives(["a", "b"], os.getppid())
    assert list(pieces) == ["a", "b"]  # (this process's parent is alive)
    orphaned = forked_half.while_parent_lives(["a", "b"], parent=-1)
    with pytest.raises(forked_half.Orphaned):
        next(orphaned)
