"""``fs whatif --set KEY=VALUE``: what a key written the wrong way says.

A group name with dots written unquoted (``groups.group_physics.hep.prio_factor``) was
refused as "unknown key 'groups."group_physics".hep'", which does not say to quote it; a
misspelt group (``"group_physics.hepp"``) silently added an empty group and printed "no
differences"; a duration such as ``1h`` was refused without saying that a plain number is
seconds; a list index out of range said ``--set: --set``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
VIEW = ("--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z")


def test_an_unquoted_group_name_with_dots_is_refused_naming_the_quoted_key(
    run: Callable[..., Any],
) -> None:
    result = run("whatif", "--set", "groups.group_physics.hep.prio_factor=4", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --set groups.group_physics.hep.prio_factor: group_physics.hep is one "
        "name (a table with dots in its name): quote it, as in "
        "--set 'groups.\"group_physics.hep\".prio_factor=VALUE'\n"
    )


def test_the_quoted_group_name_is_taken(run: Callable[..., Any]) -> None:
    result = run("whatif", "--set", 'groups."group_physics.hep".prio_factor=4', "quota", *VIEW)
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_group_the_config_does_not_have_is_a_warning_naming_the_closest(
    run: Callable[..., Any],
) -> None:
    key = 'groups."group_physics.hepp".prio_factor'
    result = run("whatif", "--set", f"{key}=4", "userprio", *VIEW)
    assert result.exit_code == 0
    assert result.stdout.endswith("before -> after: no differences\n")
    assert result.stderr == (
        f'fs: warning: --set {key}: the config has no groups."group_physics.hepp", so the '
        "after side adds it (did you mean 'group_physics.hep'?)\n"
    )


def test_a_key_of_a_table_the_config_has_is_no_warning(run: Callable[..., Any]) -> None:
    result = run("whatif", "--set", "accountant.default_prio_factor=2", "userprio", *VIEW)
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_duration_that_is_no_slurm_time_says_a_plain_number_is_seconds(
    run: Callable[..., Any],
) -> None:
    result = run("whatif", "--set", "accountant.priority_halflife=1h", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: --set: accountant.priority_halflife: "1h" has characters other than '
        'digits, "-" and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or '
        "INFINITE); a plain number is seconds (for 1h give 01:00:00, or the number 3600)\n"
    )


def test_a_missing_list_item_names_the_key_once(run: Callable[..., Any]) -> None:
    result = run("whatif", "--set", "machines.9.cpus=4", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "fs: error: --set machines.9.cpus: no item 9\n"


@pytest.mark.parametrize("index", ["-1", "-2", "+1", "1_0"])
def test_an_index_not_written_as_digits_is_no_item(run: Callable[..., Any], index: str) -> None:
    """``machines.-1.count=1`` changed the last entry (Python's index from the end: ``-2``
    the first of the sample's two) where ``machines[-1].count`` and ``machines.-3.count``
    were refused; an entry is named by its index, 0 up, as the config's errors write it."""
    result = run("whatif", "--set", f"machines.{index}.count=1", "quota", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: --set machines.{index}.count: no item {index}\n"


def test_one_key_set_twice_under_its_knob_name_is_refused_naming_both(
    run: Callable[..., Any],
) -> None:
    result = run(
        "whatif",
        "--set",
        "accountant.priority_halflife=3600",
        "--set",
        "accountant.PRIORITY_HALFLIFE=86400",
        "userprio",
        *VIEW,
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --set accountant.priority_halflife=3600 and --set "
        "accountant.PRIORITY_HALFLIFE=86400 both set accountant.priority_halflife: give one\n"
    )


def test_one_key_set_twice_quoted_and_not_or_spelt_alike_is_refused(
    run: Callable[..., Any],
) -> None:
    quoted = run(
        "whatif",
        "--set",
        'groups."group_physics".prio_factor=3',
        "--set",
        "groups.group_physics.prio_factor=2",
        "userprio",
        *VIEW,
    )
    assert (quoted.exit_code, quoted.stdout) == (2, "")
    assert quoted.stderr == (
        'fs: error: --set groups."group_physics".prio_factor=3 and --set '
        'groups.group_physics.prio_factor=2 both set groups."group_physics".prio_factor: '
        "give one\n"
    )
    alike = run(
        "whatif",
        "--set",
        "priority.weight_age=1",
        "--set",
        "priority.weight_age=2",
        "sshare",
        *VIEW,
    )
    assert alike.exit_code == 2
    assert alike.stderr == (
        "fs: error: --set priority.weight_age=1 and --set priority.weight_age=2 both set "
        "priority.weight_age: give one\n"
    )


def test_two_keys_of_one_table_are_both_taken(run: Callable[..., Any]) -> None:
    result = run(
        "whatif",
        "--set",
        'groups."group_physics".prio_factor=3',
        "--set",
        "groups.group_physics.quota=200",
        "quota",
        *VIEW,
    )
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_set_after_the_view_belongs_to_the_comparison(run: Callable[..., Any]) -> None:
    """``fs whatif userprio --set K=V`` said "Missing option '--set'" (the --set was there,
    after the view), and a second --set after the view "No such option '--set'"."""
    before = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *VIEW)
    after = run("whatif", "userprio", "--set", "accountant.priority_halflife=3600", *VIEW)
    assert (after.exit_code, after.stderr) == (0, "")
    assert after.stdout == before.stdout
    assert after.stdout.startswith("fs userprio with accountant.priority_halflife=3600: ")
    both = run(
        *("whatif", "--set", "accountant.priority_halflife=3600", "quota"),
        *("--set=groups.group_physics.quota=150", *VIEW),
    )
    assert both.exit_code == 0, both.stderr
    assert both.stdout.startswith(
        "fs quota with accountant.priority_halflife=3600, groups.group_physics.quota=150: "
    )


def test_no_set_anywhere_is_refused_naming_it(run: Callable[..., Any]) -> None:
    result = run("whatif", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "fs: error: Missing option '--set KEY=VALUE': the config key to change."
    )
    bare = run("whatif", "userprio", *VIEW, "--set")
    assert bare.exit_code == 2
    assert bare.stderr.startswith("fs: error: Option '--set' requires an argument.")


def test_an_entry_named_as_the_errors_name_it_is_taken(run: Callable[..., Any]) -> None:
    """fs whatif --set 'machines[0].count=20' quota (the key as the config's own errors
    write it: "machines[0].count: expected a whole number") said "unknown key 'machines[0]'
    (did you mean 'machines'?)"; it is machines.0.count. By hand: the sample's first entry
    is 50 eight-slot machines (400 of 420 slots); 20 of them leave 160 + 20 = 180."""
    bracket = run("whatif", "--set", "machines[0].count=20", "quota", *VIEW, "--json")
    dotted = run("whatif", "--set", "machines.0.count=20", "quota", *VIEW, "--json")
    assert (bracket.exit_code, bracket.stderr) == (0, "")
    assert bracket.stdout == dotted.stdout
    after = {row["group"]: row for row in json.loads(bracket.stdout)["after"]}
    assert after["<none>"]["subtree_quota"] == 180.0
    both = run(
        "whatif", "--set", "machines[0].count=20", "--set", "machines.0.count=20", "quota", *VIEW
    )
    assert both.exit_code == 2
    assert both.stderr == (
        "fs: error: --set machines[0].count=20 and --set machines.0.count=20 both set "
        "machines[0].count: give one\n"
    )


@pytest.mark.parametrize("key", ['accountant."priority_halflife', 'groups."group_physics".quota"'])
def test_a_quote_left_open_is_refused(run: Callable[..., Any], key: str) -> None:
    """``--set 'groups."group_physics".quota"=300'`` changed the quota (and
    ``accountant."priority_halflife=3600`` the half-life): the open quote was dropped."""
    result = run("whatif", "--set", f"{key}=300", "quota", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: the key {key}: a double quote is not closed; quote a whole name, as in "
        'groups."group_physics.hep".quota\n'
    )


@pytest.mark.parametrize(
    "key",
    [
        '"accountant"."priority_halflife"',
        'accountant."priority_halflife"',
        "'accountant'.priority_halflife",
        "accountant.PRIORITY_HALFLIFE",
    ],
)
def test_a_quoted_key_revalues_the_past_as_the_plain_key(run: Callable[..., Any], key: str) -> None:
    """``--set '"accountant"."priority_halflife"=3600' userprio`` replayed no history (the
    keys that revalue the past were matched as written) and printed "no differences";
    ``'accountant'.priority_halflife`` (TOML's literal quotes) was an unknown key. Each is
    the half-life, and shows what the plain key shows."""
    plain = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *VIEW)
    assert plain.exit_code == 0, plain.stderr
    assert plain.stdout.splitlines()[-1] == (
        "19 rows changed, 3 moved, 0 appeared, 0 left (41 changes)"
    )
    result = run("whatif", "--set", f"{key}=3600", "userprio", *VIEW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == plain.stdout.splitlines()[1:]
