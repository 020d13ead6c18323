"""Shared fixtures: isolated home, config/state factories, a CLI runner."""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import settings

from fairshare_cli.cli.main import cli


def _separate_stderr_on_click_8_1() -> None:
    """Give click 8.1's CliRunner (Debian 12 ships 8.1.3) the streams of click 8.2 on: 8.1
    mixes stderr into stdout unless told ``mix_stderr=False``, and then ``output`` is stdout
    alone; from 8.2 stderr is always apart and ``output`` is both. The tests read
    ``result.stderr`` and ``result.output`` as 8.2 gives them, under either version, and a
    stream that fs closes stays readable, as from 8.3.2."""
    import click.testing

    if "mix_stderr" not in inspect.signature(CliRunner.__init__).parameters:
        return
    runner: Any = CliRunner
    result: Any = click.testing.Result
    init = runner.__init__

    def __init__(self: Any, *args: Any, mix_stderr: bool = False, **kwargs: Any) -> None:
        init(self, *args, mix_stderr=mix_stderr, **kwargs)

    def output(self: Any) -> str:
        return str(self.stdout) + (str(self.stderr) if self.stderr_bytes is not None else "")

    runner.__init__ = __init__
    result.output = property(output)
    # (fs closes stderr when its reader leaves: 8.3.2 on keep the captured stream open)
    wrapper: Any = click.testing._NamedTextIOWrapper
    wrapper.close = lambda self: None


_separate_stderr_on_click_8_1()

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"

# A property's examples are timed by hypothesis (200 ms each by default); on a loaded
# machine a slow example is not a failure, so no deadline anywhere.
settings.register_profile("fairshare", deadline=None)
settings.load_profile("fairshare")

#: Tests whose faults are real: a C shim (tests/fixtures/*_shim.c) loaded with LD_PRELOAD.
needs_linux_cc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None,
    reason="LD_PRELOAD fault injection needs Linux and a C compiler",
)


def _built_shim(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """``tests/fixtures/<name>.c`` built as a shared object to load with ``LD_PRELOAD``."""
    built = tmp_path_factory.mktemp("shim") / f"{name}.so"
    source = FIXTURES / f"{name}.c"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(built), str(source), "-ldl"], check=True)
    return built


@pytest.fixture(scope="session")
def fault_shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``fault_shim.c``: the Nth ``write``/``fsync`` (``FAULT_OP``, ``FAULT_AFTER``) of a
    regular file, or the making of a file ending ``FAULT_SUFFIX``, fails with ``FAULT_ERRNO``."""
    return _built_shim(tmp_path_factory, "fault_shim")


@pytest.fixture(scope="session")
def readonly_shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``readonly_shim.c``: every call that would change ``READONLY_DIR`` fails with EACCES."""
    return _built_shim(tmp_path_factory, "readonly_shim")


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the real home, config or state; times print in UTC; no progress
    line is open."""
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    for var in ("FAIRSHARE_CONFIG", "FAIRSHARE_STATE", "FAIRSHARE_NOW"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("COLUMNS", "200")
    import time

    time.tzset()
    # A progress line a test leaves open (fs simulate's bar below 100 %) would start the
    # next error this process shows with the newline that ends it: each test starts closed.
    from fairshare_cli.render import progress

    monkeypatch.setattr(progress, "_line_open", False)
    # A command a test stopped before its change ended (a save that raised) would leave
    # its change begun for the next: a closed pipe there then exits 1 where it means 0.
    # The program's entry forgets it at each command; click's runner does not pass there.
    from fairshare_cli.cli.interrupts import forget_written

    forget_written()


@pytest.fixture
def write_config(tmp_path: Path) -> Callable[[str], Path]:
    """Write a TOML config into tmp_path and return its path."""

    def write(text: str, name: str = "pool.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def run() -> Callable[..., Any]:
    """Invoke ``fs`` with arguments; returns the click Result (stdout/stderr apart)."""

    def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
        runner = CliRunner()
        return runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)

    return invoke


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
