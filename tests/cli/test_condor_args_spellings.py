"""``fs userprio`` with condor_userprio's options spelt with two dashes, and its NAME rule.

``is_dash_arg_prefix`` (``match_prefix.cpp``) reads ``--x`` as ``-x`` when ``x`` is the
option's whole name, so ``--heir``, ``--setfactor`` and ``--af A B`` are condor_userprio's
too; ``main`` of ``user_prio.cpp`` takes an argument that is no option as a name only when
it starts with a letter (``isalpha``) or is ``<none>``, and prints its usage otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture
def args(tmp_path: Path) -> list[str]:
    """The sample pool on a copy of its state."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    return ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
            "--now", NOW]  # fmt: skip


def _state(args: list[str]) -> bytes:
    return Path(args[args.index("--state") + 1]).read_bytes()


@pytest.mark.parametrize(
    ("ours", "condor"),
    [
        # -heir (min 0) and --heir exact: HierFlag; fs said "No such option '--heir'"
        pytest.param(["--heir"], ["-heir"], id="heir"),
        # -grouporder sets HierFlag = false after -hierarchical set it: the later wins
        pytest.param(["--hierarchical", "--grouporder"], ["-grouporder"], id="hier-grouporder"),
        pytest.param(
            ["--grouporder", "--hierarchical"], ["-grouporder", "-hi"], id="grouporder-hier"
        ),
        # parse_autoformat_args takes every argument up to the next one starting with '-':
        # fs read Priority as a name ("no record Priority@example.org") and printed nothing
        pytest.param(["--af", "Name", "Priority"], ["-af", "Name", "Priority"], id="af-two"),
        pytest.param(["--autoformat:l", "Name"], ["-af:l", "Name"], id="autoformat-colon"),
    ],
)
def test_double_dash_is_the_single_dash_option(
    run: Callable[..., Any], args: list[str], ours: list[str], condor: list[str]
) -> None:
    mine, theirs = run("userprio", *ours, *args), run("userprio", *condor, *args)
    assert mine.exit_code == theirs.exit_code == 0, mine.stderr
    assert mine.stdout == theirs.stdout and mine.stdout


def test_af_two_expressions_print_both(run: Callable[..., Any], args: list[str]) -> None:
    """``--af Name PriorityFactor``: one line an ad, the two values a blank apart (``%v``
    with the default separators of ``parse_autoformat_args``), the ads in the collector's
    order fs gives them; the group's factor is ``remote_prio_factor`` (10000, an integer
    in the pool's config, printed as ``%v`` prints a real: 10000.0)."""
    result = run("userprio", "--af", "Name", "PriorityFactor", *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "group_physics.hep.dave@example.org 1.0" in lines
    assert all(len(line.split(" ")) == 2 for line in lines)


def test_af_opts_before_af_is_kept(run: Callable[..., Any], args: list[str]) -> None:
    """fs's own ``--af-opts l --af Name``: the letters stay (``--af`` brings none)."""
    result = run("userprio", "--af-opts", "l", "--af", "Name", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Name = group_chemistry"


def test_double_dash_edits(run: Callable[..., Any], args: list[str]) -> None:
    """``--setfactor NAME 2`` is ``-setfactor`` (its confirmation is the ``printf`` of
    ``main``'s SetFactor branch, ``%f``); ``--resetall --dry-run`` writes nothing. fs said
    "No such option '--setfactor'"."""
    name = "group_physics.hep.dave@example.org"
    before = _state(args)
    dry = run("userprio", "--resetall", "--dry-run", *args)
    assert dry.exit_code == 0, dry.stderr
    assert dry.stdout == (
        "(dry run, nothing written) The accumulated usage was reset for all users\n"
    )
    assert _state(args) == before
    result = run("userprio", "--setfactor", name, "2", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"The priority factor of {name} was set to 2.000000\n"
    rows = json.loads(run("userprio", "--allusers", "--json", *args).stdout)
    assert next(r for r in rows if r["name"] == name)["priority_factor"] == 2.0


def test_double_dash_pool_is_refused_as_one_dash(run: Callable[..., Any], args: list[str]) -> None:
    """``--pool HOST`` is condor_userprio's ``-pool``; fs said "No such option '--pool'"."""
    result = run("userprio", "--pool", "cm.example.org", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        "fs: error: condor_userprio option -pool is not supported "
        "(fs reads the pool from --config)\n"
    )


@pytest.mark.parametrize("name", ["123", "-", ".", "_x", ""])
def test_a_name_not_starting_with_a_letter_is_refused(
    run: Callable[..., Any], args: list[str], name: str
) -> None:
    """condor_userprio prints its usage for ``123`` or ``-`` (``main``: neither an option
    nor ``isalpha(argv[i][0])``); fs printed an empty table with "no record 123@..."
    (exit 0). With -allusers too, which ignores names."""
    before = _state(args)
    for extra in ([], ["-allusers"]):
        result = run("userprio", *extra, name, *args)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == (
            f"fs: error: NAME '{name}': condor_userprio reads a name that starts with a "
            "letter (a user, user@domain or an accounting group), or <none>\n"
        )
    assert _state(args) == before


def test_none_and_letters_are_names(run: Callable[..., Any], args: list[str]) -> None:
    """``<none>`` is the one name allowed that does not start with a letter."""
    assert run("userprio", "<none>", "-hier", *args).exit_code == 0
    assert run("userprio", "Zed", *args).exit_code == 0


def test_af_headings_grow_with_the_values(run: Callable[..., Any], args: list[str]) -> None:
    """``-af:h Name ResourcesUsed``: ``parse_autoformat_args`` gives each expression its
    text as heading and a left-aligned width of the heading's length, with
    ``FormatOptionAutoWidth``; ``AttrListPrintMask::display`` widens a column to each longer
    value and keeps that width for the ads after it, padding every value (the last column
    too) with blanks. Headings: ``Name`` (4), ``ResourcesUsed`` (13). Row 1's name is 17
    long (width 17), row 2's 34, row 3's 19 (padded to 34), row 4's 37; each count pads to
    13. fs refused the ``h`` letter, which condor_userprio's usage suggests (-af:h)."""
    result = run("userprio", "-af:h", "Name", "ResourcesUsed", "-constraint",
                 "ResourcesUsed >= 5", *args)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    pad = " " * 12
    assert result.stdout == (
        "Name ResourcesUsed\n"
        f"group_physics.hep 8{pad}\n"
        f"group_physics.hep.dave@example.org 8{pad}\n"
        f"group_chemistry.lab{' ' * 15} 6{pad}\n"
        f"group_chemistry.lab.heidi@example.org 5{pad}\n"
    )
    labelled = run("userprio", "-af:lh", "Name", "-constraint", "ResourcesUsed >= 8", *args)
    assert labelled.stdout == "Name\ngroup_physics.hep\ngroup_physics.hep.dave@example.org\n"


def test_debug_changes_nothing_printed(run: Callable[..., Any], args: list[str]) -> None:
    """``-debug[:OPTS]`` (``-d``, min 1) sets the tool's debug log (``dprintf_set_tool_debug``
    of ``main``), on stderr; stdout is the table without it. fs refused it (exit 2)."""
    plain = run("userprio", "-prio", *args)
    for spelling in ("-d", "-debug:D_ALL", "--debug"):
        result = run("userprio", spelling, "-prio", *args)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == plain.stdout
        assert result.stderr == (
            "fs: note: -debug: fs talks to no daemon, so it has no debug log to print; the "
            "output is as without it\n"
        )


def test_collector_alone_is_plain_userprio(run: Callable[..., Any], args: list[str]) -> None:
    """``-collector`` (``-col``, min 3) sets ``fromCollector``, the query plain
    condor_userprio makes; ``-getreslist`` asks the negotiator whatever it says. With
    ``-allusers`` condor_userprio reads the collector's ads unfiltered (``MinLastUsageTime``
    -1), which fs does not model: refused, as before, the state untouched."""
    plain = run("userprio", "-all", *args)
    assert run("userprio", "-col", "-all", *args).stdout == plain.stdout
    assert run("userprio", "-all", "--collector", *args).stdout == plain.stdout
    name = "group_physics.hep.dave"
    assert (run("userprio", "-col", "-getreslist", name, *args).stdout
            == run("userprio", "-getreslist", name, *args).stdout)  # fmt: skip
    before = _state(args)
    refused = run("userprio", "-allusers", "-col", *args)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr == (
        "fs: error: condor_userprio option -collector is not supported (beside -allusers, "
        "-negotiator or -grouprollup; alone it is plain 'fs userprio', which reads the "
        "collector's ads, and -allusers would read them unfiltered)\n"
    )
    assert _state(args) == before


def test_several_edits_run_the_first_of_mains_chain(
    run: Callable[..., Any], args: list[str]
) -> None:
    """``main`` of ``user_prio.cpp`` keeps each edit option's last index (``SetFactor=i``)
    and then runs one branch of its if/else chain: -setprio, -setfactor, -setfloor or
    -setceiling, -setaccum, -setbegin, -setlast, -resetusage, -delete, -resetall. So
    ``-setfactor D 2 -setprio D 5 -resetall`` sets D's priority alone, and ``-setf A 2
    -setf D 3`` sets D's factor to 3. fs refused both ("one edit at a time", exit 2)."""
    dave = "group_physics.hep.dave@example.org"
    before = _state(args)
    three = run("userprio", "-setfactor", dave, "2", "-setprio", dave, "5", "-resetall",
                "--dry-run", *args)  # fmt: skip
    assert three.exit_code == 0, three.stderr
    assert (
        three.stdout == f"(dry run, nothing written) The priority of {dave} was set to 5.000000\n"
    )
    assert three.stderr == (
        "fs: note: condor_userprio runs one edit, the last -setprio given (-setprio comes "
        f"first in its order); ignored: -setfactor {dave} 2, -resetall\n"
    )
    assert _state(args) == before
    twice = run("userprio", "-setf", "ann@example.org", "2", "-setf", dave, "3", *args)
    assert twice.exit_code == 0, twice.stderr
    assert twice.stdout == f"The priority factor of {dave} was set to 3.000000\n"
    rows = {r["name"]: r for r in json.loads(run("userprio", "--allusers", "--json", *args).stdout)}
    assert rows[dave]["priority_factor"] == 3.0 and "ann@example.org" not in rows


def test_each_af_formats_its_own_expressions(run: Callable[..., Any], args: list[str]) -> None:
    """``parse_autoformat_args`` registers each call's expressions with that call's letters
    (``l``: ``Name = %v``; ``h``: a heading, and one once an earlier call had one)
    and ends with ``SetAutoSep`` of its own letters, which clears the earlier ones: the last
    ``-af`` sets the separators. ``display_Headings`` prints the headings in order over the
    first columns. fs applied the last ``-af``'s letters to every expression."""
    only = ["-constraint", "ResourcesUsed >= 8", *args]
    labelled = run("userprio", "-af:l", "Name", "-af", "ResourcesUsed", *only)
    assert labelled.stdout == (
        "Name = group_physics.hep 8\nName = group_physics.hep.dave@example.org 8\n"
    )
    comma = run("userprio", "-af:V", "Name", "-af:,", "ResourcesUsed", *only)
    assert comma.stdout == ('"group_physics.hep", 8\n"group_physics.hep.dave@example.org", 8\n')
    # Name: heading "Name" (width 4, widening to 17, then 34); ResourcesUsed: its own
    # text (an attribute), width 13
    headed = run("userprio", "-af:h", "Name", "-af", "ResourcesUsed", *only)
    assert headed.stdout == (
        "Name ResourcesUsed\ngroup_physics.hep 8            \n"
        "group_physics.hep.dave@example.org 8            \n"
    )
    # the one heading goes over the first column, which has no width: printed bare
    late = run("userprio", "-af", "Name", "-af:h", "ResourcesUsed", *only)
    assert late.stdout == (
        "ResourcesUsed\ngroup_physics.hep 8            \n"
        "group_physics.hep.dave@example.org 8            \n"
    )
