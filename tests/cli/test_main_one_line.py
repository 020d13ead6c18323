"""User text echoed in an error stays on one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.cli.main import one_line

CONFIG = '[pool]\nuid_domain = "example.org"\n'


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["setfactor", "alice@example.org", "1\n2"], id="setfactor-value"),
        pytest.param(["delete", "\n"], id="delete-newline-name"),
        pytest.param(["userprio", "--now", "2026\nx"], id="now-with-newline"),
        pytest.param(["setprio", "a\tb@example.org", "x\x00y"], id="tab-and-nul"),
    ],
)
def test_errors_echoing_user_text_are_one_line(
    args: list[str], tmp_path: Path, write_config: Callable[..., Path], run: Callable[..., Any]
) -> None:
    config = write_config(CONFIG)
    state = tmp_path / "state.json"
    result = run(*args, "--config", str(config), "--state", str(state))
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert not state.exists()


def test_config_value_with_a_newline_is_one_line(
    write_config: Callable[..., Path], run: Callable[..., Any]
) -> None:
    config = write_config('[pool]\nuid_domain = "example.org"\ndefaults = "leg\\nacy"\n')
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "\\n" in result.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain message", "plain message"),
        ("got '1\n2'", "got '1\\n2'"),
        ("tab\there", "tab\\there"),
        ("nul \x00 and \u2028", "nul \\x00 and \\u2028"),
        ("unicode é stays", "unicode é stays"),
    ],
)
def test_one_line_escapes_control_characters(text: str, expected: str) -> None:
    assert one_line(text) == expected


@pytest.mark.parametrize(
    ("args", "where"),
    [
        pytest.param(["userprio", "--sort"], "userprio", id="userprio"),
        pytest.param(["sprio", "-o"], "sprio", id="sprio"),
        pytest.param(["import", "sacct", "x", "--now"], "import sacct", id="nested"),
        pytest.param(["sweep", "collect", "--objective"], "sweep collect", id="sweep"),
    ],
)
def test_a_missing_option_value_names_the_commands_help(
    args: list[str], where: str, run: Callable[..., Any]
) -> None:
    """fs userprio --sort said "(see 'fs --help')", whose help lists no --sort (the program
    is 'cli' under the test runner, 'fs' or 'fairshare' in a shell)."""
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.endswith(f"requires an argument. (see 'cli {where} --help')\n")


BIG = "1" * 5000


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["userprio", "--now", BIG], "--now: expected a time between", id="now"),
        pytest.param(["setfactor", "alice@example.org", BIG, "--create"],
                     "priority factor: expected a finite number, got '", id="setfactor"),
        pytest.param(["userprio", "--output", BIG], "Invalid value for '--output': '",
                     id="click-choice"),
        pytest.param(["submit", "--owner", "alice", "--set", f"{BIG}=1"],
                     "fs submit: job 1: unknown job field '", id="job-field"),
        pytest.param(["whatif", "--set", f"x{BIG}=1", "userprio"],
                     "--set: unknown key 'x", id="whatif-key"),
    ],
)  # fmt: skip
def test_a_long_value_is_echoed_shortened(
    args: list[str],
    said: str,
    tmp_path: Path,
    write_config: Callable[..., Path],
    run: Callable[..., Any],
) -> None:
    """A 5,000-character value was echoed whole in the one line (``fs userprio --now
    <5,000 digits>``: 5 kB of stderr); a quoted value of 200 characters or more is now
    shortened to its first 80 and ``...``, wherever the message comes from."""
    config = write_config(CONFIG)
    state = tmp_path / "state.json"
    result = run(*args, "--config", str(config), "--state", str(state))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: ") and said in result.stderr
    assert "1" * 79 + "...'" in result.stderr and "1" * 81 not in result.stderr
    assert len(result.stderr) < 600
    assert not state.exists()


def test_prose_between_apostrophes_is_not_shortened() -> None:
    """Only a quoted value is shortened, not the words between two apostrophes of prose."""
    prose = "the state's marks " + "x " * 150 + "aren't the store's"
    assert one_line(prose) == prose
    assert one_line(f"got '{'y' * 199}'") == f"got '{'y' * 199}'"
    assert one_line(f'got "{"y" * 300}"') == f'got "{"y" * 80}..."'


def test_running_out_of_memory_is_one_line(
    tmp_path: Path,
    write_config: Callable[..., Path],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``fs userprio --state BIG`` under a memory limit (``ulimit -v``) too small for the
    file ended in a MemoryError traceback, exit 1; now one line, exit 1, as any runtime
    failure (a reader that meets a file too big for the machine, here its stand-in)."""
    import fairshare_cli.io.state as state_io

    def too_big(path: Path) -> None:
        raise MemoryError

    monkeypatch.setattr(state_io, "load_state", too_big)
    config = write_config(CONFIG)
    result = run("userprio", "--config", str(config), "--state", str(tmp_path / "s.json"))
    assert result.exit_code == 1
    assert result.stderr == (
        "fs: error: out of memory (an input too big for this machine, or a memory limit)\n"
    )
