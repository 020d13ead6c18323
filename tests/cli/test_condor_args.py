"""``fs userprio`` with condor_userprio's own spellings: single dashes, prefixes, edits."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.cli.condor_args import find_option, translate
from fairshare_cli.errors import InputError

NOW = "2026-11-21T12:00:00Z"
REPO = Path(__file__).resolve().parents[2]
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]


@pytest.mark.parametrize(
    ("arg", "name"),
    [
        # user_prio.cpp tests options in order with is_dash_arg_prefix: the first option
        # whose name starts with the argument (and is at least min_len long) wins.
        pytest.param("-a", "all", id="a-is-all"),  # af needs 2 chars, autoformat 5
        pytest.param("-all", "all", id="all"),
        pytest.param("-allu", "allusers", id="allu"),
        pytest.param("-allusers", "allusers", id="allusers"),
        pytest.param("-s", "setprio", id="s-is-setprio"),  # setprio comes first
        pytest.param("-setf", "setfactor", id="setf"),
        # 25.0's order (user_prio.cpp of the V25_0 branch, lines 394-574): -debug (min 1)
        # takes "-d", -constraint (min 1) "-c"; the lease options of later versions
        # (-duration, -cancel...lease) are tried only after every 25.0 option.
        pytest.param("-d", "debug", id="d-is-debug"),  # delete needs 3 chars
        pytest.param("-du", "duration", id="du-is-the-later-duration"),
        pytest.param("-c", "constraint", id="c-is-constraint"),
        pytest.param("-col", "collector", id="col-is-collector"),  # not a constraint prefix
        pytest.param("-ca", "cancelceilinglease", id="ca-is-a-later-lease-option"),
        pytest.param("-af:h", "af", id="af-with-options"),  # is_dash_arg_colon_prefix
        pytest.param("-autof:lrng", "autoformat", id="autoformat-with-options"),
        pytest.param("-debug:D_ALL", "debug", id="debug-with-options"),
        pytest.param("-del", "delete", id="del"),
        pytest.param("-l", "long", id="l"),
        pytest.param("-h", "heir", id="h-is-heir"),  # hierarchical needs 2 chars
        pytest.param("-hi", "hierarchical", id="hi"),
        pytest.param("-fl", "flat", id="fl"),
        pytest.param("-mo", "most", id="mo"),
        pytest.param("-us", "usage", id="us"),
        pytest.param("-prio", "priority", id="prio"),
        pytest.param("-p", "pool", id="p-is-pool"),  # priority needs 4 chars
        pytest.param("--all", "all", id="double-dash-exact"),
        pytest.param("-g", "grouprollup", id="g-is-grouprollup"),  # before grouporder
        pytest.param("-groupo", "grouporder", id="groupo"),
        pytest.param("-so", "sortkey", id="so"),  # sortkey needs 2 chars
        pytest.param("-groupi", "groupid", id="groupi"),
        pytest.param("-o", "order", id="o"),
    ],
)
def test_condor_prefix_rules(arg: str, name: str) -> None:
    option = find_option(arg)
    assert option is not None and option.name == name


@pytest.mark.parametrize("arg", ["-pri", "-u", "--al", "-allusersx", "-x"])
def test_no_condor_option(arg: str) -> None:
    """``-pri`` is too short for priority (4) and matches nothing later; ``--`` is exact."""
    assert find_option(arg) is None


def test_translate_display_and_edit() -> None:
    assert translate(["-allusers", "-all", "--config", "-x", "alice"]).args == [
        "--allusers",
        "--all",
        "--config",
        "-x",
        "alice",
    ]
    assert translate(["-g", "-allusers"]).args == ["--grouprollup", "--allusers"]
    t = translate(["-setf", "u@d", "2", "-all", "--now", "5", "--dry-run"])
    assert t.edit == ["setfactor", "u@d", "2"]
    assert t.args == ["--now", "5", "--dry-run"]
    with pytest.raises(InputError, match="leave out --json/--output"):  # (the edit prints a line)
        translate(["-setf", "u@d", "2", "--json"])
    assert translate(["-resetall"]).edit == ["resetusage", "--all"]
    both = translate(["-delete", "b", "-setprio", "a", "1"])  # (main's chain: setprio first)
    assert both.edit == ["setprio", "a", "1"] and "ignored: -delete b" in both.notes[0]
    with pytest.raises(InputError, match="needs 2 argument"):
        translate(["-setfactor", "a"])


def test_single_dash_prints_what_long_options_print(run: Callable[..., Any]) -> None:
    condor = run("userprio", "-allusers", "-all", *SAMPLE)
    ours = run("userprio", "--allusers", "--all", *SAMPLE)
    assert condor.exit_code == 0 and condor.stdout == ours.stdout
    assert "nice-user.nobody@example.org" in condor.stdout
    assert run("userprio", "-l", *SAMPLE).stdout == run("userprio", "--long", *SAMPLE).stdout
    assert (
        run("userprio", "-prio", "-flat", *SAMPLE).stdout
        == run("userprio", "--priority", "--flat", *SAMPLE).stdout
    )


def test_most_adds_the_default_columns(run: Callable[..., Any]) -> None:
    """condor's DetailMost is the default set; ``-priority -most`` is their union."""
    plain = run("userprio", "--priority", *SAMPLE).stdout.splitlines()
    most = run("userprio", "-priority", "-most", *SAMPLE).stdout.splitlines()
    assert "Real" in plain[1] and "Real" in most[1]
    assert "Wghted" not in plain[1] and "Wghted" in most[1]


def test_setfactor_by_condor_spelling(run: Callable[..., Any], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    args = [*SAMPLE, "--state", str(state)]
    name = "group_physics.hep.dave@example.org"
    result = run("userprio", "-setfactor", name, "2", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"The priority factor of {name} was set to 2.000000\n"
    rows = json.loads(run("userprio", *args, "--json").stdout)
    assert next(r for r in rows if r["name"] == name)["priority_factor"] == 2.0
    before = state.read_bytes()
    dry = run("userprio", "-resetall", "--dry-run", *args)
    assert dry.stdout.startswith("(dry run, nothing written)")
    assert state.read_bytes() == before
    gone = run("userprio", "-del", name, *args)
    assert gone.stdout == f"The accountant record named {name} was deleted\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param(["-inputfile", "prio.txt"], "use 'fs import condor-userprio'", id="inputfile"),
        pytest.param(["-pri"], "unknown condor_userprio option '-pri'", id="unknown"),
        pytest.param(["-setfactor", "alice"], "needs 2 argument", id="operands"),
        pytest.param(["-d", "-allusers", "-col"], "-collector is not supported", id="col-allusers"),
        pytest.param(["-duration", "60"], "versions after 25.0", id="duration"),
        pytest.param(["-af:j", "Name"], "job ids (j)", id="af-job-ids"),
    ],
)
def test_condor_refusals(run: Callable[..., Any], args: list[str], needle: str) -> None:
    result = run("userprio", *args, *SAMPLE)
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: ") and needle in result.stderr


def test_fs_help_names_the_condor_spellings(run: Callable[..., Any]) -> None:
    assert "-setfactor" in run("--help").stdout
    assert "-allusers" in run("userprio", "--help").stdout


def test_dash_help_is_help(run: Callable[..., Any]) -> None:
    """condor_userprio 25.0 has no -help (it prints its usage for anything it does not
    know); fs reads ``-help`` as ``--help``."""
    result = run("userprio", "-help", *SAMPLE)
    assert result.exit_code == 0
    assert result.stdout == run("userprio", "--help").stdout


def test_help_says_which_options_are_fs_own(run: Callable[..., Any]) -> None:
    """--sort, --dry-run, --create, --output/--json, --config, --state and --now have no
    condor_userprio twin (its option parser, user_prio.cpp 25.0): the help says so."""
    text = " ".join(run("userprio", "--help", env={"COLUMNS": "200"}).stdout.split())
    assert "fs's own options (condor_userprio has none of them):" in text
    for option in ("--sort", "--dry-run", "--create"):
        assert f"{option} " in text
    assert "fs's own: row order" in text


def test_a_misspelt_condor_option_names_the_option(run: Callable[..., Any]) -> None:
    """fs userprio -allusrs said only "unknown condor_userprio option"; it names -allusers
    (and -pri, too short a prefix, -priority)."""
    for typed, meant in (("-allusrs", "-allusers"), ("-setfactr", "-setfactor"),
                         ("-pri", "-priority")):  # fmt: skip
        result = run("userprio", typed, *SAMPLE)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            f"fs: error: unknown condor_userprio option '{typed}' (did you mean '{meant}'?) "
            "(see 'fs userprio --help')\n"
        )
    result = run("userprio", "-xyz", *SAMPLE)
    assert result.stderr == (
        "fs: error: unknown condor_userprio option '-xyz' (see 'fs userprio --help')\n"
    )
