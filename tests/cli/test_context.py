"""``GlobalOptions`` on Click's context; ``whatif``'s overrides in ``ctx.meta``, not a global."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from fairshare_cli.cli.context import WHATIF_OVERRIDES, GlobalOptions
from fairshare_cli.cli.main import cli
from fairshare_cli.cli.options import common_options, output_options, pass_options

POOL = """
[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
"""


@click.command()
@output_options
@common_options
@pass_options
def show(opts: GlobalOptions) -> None:
    """Echo what the options gathered."""
    click.echo(f"{opts.config_path} {opts.state_path} {opts.now} {opts.output} {opts.overrides}")


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        pytest.param([], {}, "None None None table {}", id="defaults"),
        pytest.param(
            ["--config", "c.toml", "--state", "s.json", "--now", "5", "--output", "csv"],
            {},
            "c.toml s.json 5 csv {}",
            id="flags",
        ),
        pytest.param(["--output", "json", "--json"], {}, "None None None json {}", id="json-twice"),
        pytest.param(
            ["--now", "7"],
            {"FAIRSHARE_CONFIG": "sample_configs/pool.toml", "FAIRSHARE_NOW": "6"},
            "sample_configs/pool.toml None 7 table {}",  # (a variable's file must exist)
            id="env-then-flag",
        ),
    ],
)
def test_options_gather_on_the_context(
    args: list[str], env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(show, args, env=env, catch_exceptions=False)
    assert result.output == expected + "\n"


def test_json_and_another_output_disagree() -> None:
    result = CliRunner().invoke(show, ["--output", "csv", "--json"])
    assert result.exit_code == 2
    assert "--json and --output csv disagree; give one of them" in result.output


def test_overrides_come_from_ctx_meta() -> None:
    """What ``fs whatif`` puts in the shared ``ctx.meta`` reaches the view's options."""
    parent = click.Context(click.Group("fs"))
    parent.meta[WHATIF_OVERRIDES] = {"accountant.priority_halflife": 60}
    with show.make_context("show", [], parent=parent) as sub:
        opts = sub.find_object(GlobalOptions)
    assert opts is not None
    assert opts.overrides == {"accountant.priority_halflife": 60}


def test_now_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --now the clock is read once, however often a command asks."""
    import time

    ticks = iter([100.0, 200.0])
    monkeypatch.setattr(time, "time", lambda: next(ticks))
    opts = GlobalOptions()
    assert opts.when() == 100.0
    assert opts.when() == 100.0


def test_whatif_leaves_no_override_behind(tmp_path: Path, write_config: Any) -> None:
    """One process: a view, the view under whatif, the view again: as the first time.

    Real priority 10 at time 0 with no usage, read an hour later (P' = P·β, β = 0.5^(t/h)):
    a half-life of a day gives 10 × 2^(-1/24); a half-life of a minute 10 × 2^(-60), which
    the floor lifts to 0.5."""
    cfg = write_config(POOL)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["setprio", "alice", "10", "--create", *args, "--now", "0"]).exit_code
        == 0
    )
    view = ["userprio", *args, "--now", "3600", "--json"]

    def eup(result: Any) -> float:
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        rows = {r["name"]: r for r in (doc["after"] if isinstance(doc, dict) else doc)}
        return float(rows["alice@example.org"]["effective_priority"])

    plain = eup(runner.invoke(cli, view))
    changed = eup(runner.invoke(cli, ["whatif", "--set", "accountant.priority_halflife=60", *view]))
    again = eup(runner.invoke(cli, view))
    assert plain == pytest.approx(10 * 2 ** (-1 / 24))
    assert changed == pytest.approx(0.5)
    assert again == plain


REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["setfactor", "group_physics.hep.alice@example.org", "3"], id="setfactor"),
        pytest.param(["submit", "--owner", "alice", "--count", "2"], id="submit"),
        pytest.param(["rm", "1"], id="rm"),
        pytest.param(["prio", "1", "7"], id="prio"),
    ],
)
def test_a_dry_run_writes_nothing_not_even_the_lock_file(
    tmp_path: Path, command: list[str]
) -> None:
    """``--dry-run`` is a read: the state's folder is left as it was (no ``.lock`` beside it)."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    common += ["--now", "2026-11-21T12:00:00Z"]
    CliRunner().invoke(cli, ["submit", "--owner", "alice", *common], catch_exceptions=False)
    (tmp_path / "s.json.lock").unlink()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = CliRunner().invoke(cli, [*command, "--dry-run", *common])
    assert result.exit_code == 0, result.output
    assert "dry run, nothing written" in result.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    ("env", "line", "named"),
    [
        pytest.param({"FAIRSHARE_NOW": "yesterday"}, [], "FAIRSHARE_NOW", id="variable"),
        pytest.param({}, ["--now", "yesterday"], "--now", id="option"),
        pytest.param(
            {"FAIRSHARE_NOW": "2026-11-21T12:00:00Z"}, ["--now", "yesterday"], "--now",
            id="option-over-variable",
        ),
    ],
)  # fmt: skip
def test_a_bad_time_names_where_it_came_from(
    env: dict[str, str], line: list[str], named: str, run: Callable[..., Any]
) -> None:
    """FAIRSHARE_NOW=yesterday fs userprio --config ... said '--now: expected ...' to an
    admin who typed no --now."""
    pool = str(Path(__file__).resolve().parents[2] / "sample_configs" / "pool.toml")
    result = run("userprio", "--config", pool, *line, env=env)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {named}: expected epoch seconds")


@pytest.mark.parametrize(
    ("env", "line", "named"),
    [
        pytest.param({"FAIRSHARE_CONFIG": "{dir}"}, [], "FAIRSHARE_CONFIG", id="config-variable"),
        pytest.param({}, ["--config", "{dir}"], "'--config'", id="config-option"),
        pytest.param({"FAIRSHARE_STATE": "{dir}"}, ["--config", "{pool}"], "FAIRSHARE_STATE",
                     id="state-variable"),
        pytest.param({}, ["--config", "{pool}", "--state", "{dir}"], "'--state'",
                     id="state-option"),
    ],
)  # fmt: skip
def test_a_folder_given_as_a_file_names_where_it_came_from(
    env: dict[str, str], line: list[str], named: str, run: Callable[..., Any], tmp_path: Path
) -> None:
    """FAIRSHARE_CONFIG=/tmp fs userprio said "Invalid value for '--config'" to an admin who
    typed no --config; the variable is named now (the option still, when typed)."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    fill = {"dir": str(tmp_path), "pool": pool}
    result = run(
        "userprio", *(a.format(**fill) for a in line), "--now", "2026-11-21T12:00:00Z",
        env={k: v.format(**fill) for k, v in env.items()},
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        f"fs: error: Invalid value for {named}: File '{tmp_path}' is a directory."
    )
    assert result.stderr.count("\n") == 1


def test_a_missing_config_from_the_variable_names_the_variable(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """FAIRSHARE_CONFIG=nope.toml fs userprio said "config file nope.toml does not exist",
    naming no variable to an admin who typed no --config; --config nope.toml still says so."""
    missing = str(tmp_path / "nope.toml")
    from_env = run("userprio", "--now", "2026-11-21T12:00:00Z", env={"FAIRSHARE_CONFIG": missing})
    assert (from_env.exit_code, from_env.stdout) == (2, "")
    assert from_env.stderr.startswith(
        f"fs: error: Invalid value for FAIRSHARE_CONFIG: File '{missing}' does not exist."
    )
    typed = run("userprio", "--config", missing, "--now", "2026-11-21T12:00:00Z")
    assert (typed.exit_code, typed.stderr) == (
        2,
        f"fs: error: File '{missing}' does not exist.\n",
    )


@pytest.mark.parametrize("option", ["--config", "--state"])
def test_a_typed_empty_path_is_refused(option: str, run: Callable[..., Any]) -> None:
    """``fs userprio --config ""`` (a script's ``--config "$UNSET"``) fell back to
    ./fairshare.toml, and ``--state ""`` to the config's state, in silence."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    args = ["--config", pool, "--state", "x.json"]
    args[args.index(option) + 1] = ""
    result = run("userprio", *args, "--now", "2026-11-21T12:00:00Z")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        f"fs: error: Invalid value for '{option}': an empty path; give a file's path, or "
        "leave it out"
    )


@pytest.mark.parametrize("where", ["option", "variable"])
def test_a_state_path_of_blanks_is_refused(
    where: str, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs submit --owner x --state ' '`` (or ``FAIRSHARE_STATE=' '``, a quoted
    ``" $DIR"``) wrote a state file named " " into the current folder, in silence, where
    ``[pool] state = " "`` is refused."""
    monkeypatch.chdir(tmp_path)
    pool = str(REPO / "sample_configs" / "pool.toml")
    line = ["submit", "--owner", "x", "--config", pool]
    if where == "option":
        result = run(*line, "--state", " ")
        said = "'--state'"
    else:
        result = run(*line, env={"FAIRSHARE_STATE": " "})
        said = "FAIRSHARE_STATE"
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: Invalid value for {said}: ' ' is only blanks; give a file's path, or "
        "leave it out (see 'cli submit --help')\n"  # (CliRunner names the program cli)
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("now", "hint"),
    [
        pytest.param("1795262400000", "; if it is milliseconds, give seconds: 1795262400", id="ms"),
        pytest.param("-1795262400000", "", id="negative"),
        pytest.param("1e400", "", id="past-floats"),
        # (the leap second that ends year 9999 is past the range, no milliseconds: the hint
        # said "if it is milliseconds, give seconds: 253402300")
        pytest.param("9999-12-31T23:59:60Z", "", id="iso-past-9999"),
    ],
)
def test_a_now_in_milliseconds_is_named_as_such(
    now: str, hint: str, run: Callable[..., Any]
) -> None:
    """``fs userprio --now $(date +%s%3N)`` (milliseconds) said only that the time is past
    the year 9999; it now gives the seconds to type (1795262400000 // 1000)."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("userprio", "--config", pool, "--now", now)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --now: expected a time between the years 1 and 9999 (epoch seconds "
        f"-62135596800 to 253402300799), got '{now}'{hint}\n"
    )


@pytest.mark.parametrize("now", ["", " "])
def test_a_typed_empty_now_is_refused(now: str, run: Callable[..., Any]) -> None:
    """``fs userprio --config sample_configs/pool.toml --now ""`` (a script's
    ``--now "$UNSET"``) read the clock in silence; an empty FAIRSHARE_NOW is still unset."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("userprio", "--config", pool, "--now", now)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: Invalid value for '--now': an empty time; give epoch seconds or an "
        "ISO-8601 time like 2026-11-21T12:00:00Z, or leave --now out to read the clock "
        "(see 'cli userprio --help')\n"
    )
    unset = run("userprio", "--config", pool, "--state", "x.json", env={"FAIRSHARE_NOW": ""})
    assert unset.exit_code == 0, unset.stderr


def test_a_wait_for_another_writer_says_so(tmp_path: Path) -> None:
    """``fs setfactor group_physics.hep.alice@example.org 2`` while another fs holds the
    state's lock: a note on stderr says what it waits for (it waited in silence, like a
    hang), then the edit is made once the lock is free."""
    import fcntl
    import os
    import threading

    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    lock = os.open(tmp_path / "s.json.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    release = threading.Timer(0.5, os.close, args=(lock,))  # (closing it releases the lock)
    release.start()
    try:
        line = ["setfactor", "group_physics.hep.alice@example.org", "2", *common]
        result = CliRunner().invoke(cli, [*line, "--now", "2026-11-21T12:00:00Z"])
    finally:
        release.join()
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"fs: note: waiting for {tmp_path / 's.json.lock'}: another fs is changing the state\n"
    )
    assert (
        json.loads(state.read_text())["accountant"]["records"][
            "group_physics.hep.alice@example.org"
        ]["priority_factor"]
        == 2
    )


@pytest.mark.parametrize(
    ("now", "shown"),
    [
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("-0", "1970-01-01T00:00:00Z"),
        # whole seconds (the second the instant falls in), as the daemons' time(0)
        ("-1.5", "1969-12-31T23:59:58Z"),
        ("1763726399.25", "2025-11-21T11:59:59Z"),
    ],
)
def test_a_time_before_the_last_update_is_shown_as_a_time(
    now: str, shown: str, run: Callable[..., Any]
) -> None:
    """``fs userprio --config sample_configs/pool.toml --now 0001-01-01T00:00:00Z`` said
    '--now -62135596800.0 is before ...' (an epoch float for a time given as text)."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("userprio", "--config", pool, "--now", now)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: --now {shown} is before the last update")
    assert "(2026-11-21T12:00:00Z)" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        pytest.param(["--now", "1000"], {}, "--now 1970-01-01T00:16:40Z", id="typed"),
        pytest.param([], {"FAIRSHARE_NOW": "1000"}, "FAIRSHARE_NOW 1970-01-01T00:16:40Z", id="env"),
        pytest.param([], {}, "the clock 1970-01-01T00:16:40Z", id="clock"),
    ],
)
def test_a_time_before_the_last_update_names_where_it_came_from(
    args: list[str],
    env: dict[str, str],
    named: str,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fs userprio --config sample_configs/pool.toml on a machine whose clock is before the
    sample state's last update (2026-11-21T12:00:00Z) said '--now ... is before the last
    update', to an admin who typed no --now; FAIRSHARE_NOW=1000 said '--now' too. The
    error names the clock, the variable or the option (the clock here: epoch 1000)."""
    import time

    monkeypatch.setattr(time, "time", lambda: 1000.25)
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("userprio", "--config", pool, *args, env=env)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {named} is before the last update")
    assert result.stderr.endswith(
        "give --now that time or a later one\n" if not args and not env else "or a later one\n"
    )
    assert result.stderr.count("\n") == 1


def test_a_config_variable_naming_a_link_to_nothing_names_the_variable(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """FAIRSHARE_CONFIG=link.toml fs userprio, the link's file gone (a disk not mounted):
    it said "File 'link.toml' does not exist." naming no variable, where a missing file
    named by the variable names it; the link is left as it was."""
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "gone" / "pool.toml")
    result = run("userprio", "--now", "2026-11-21T12:00:00Z", env={"FAIRSHARE_CONFIG": str(link)})
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: Invalid value for FAIRSHARE_CONFIG: File '{link}' does not exist. "
        "(see 'cli userprio --help')\n"
    )
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["link.toml"]
