"""The options a Slurm admin types to ``fs sprio`` and ``fs sshare`` from habit: each works
as sprio's or sshare's, or is refused in one line saying why.

Before, every one below said only ``No such option '-M'`` (``--local``, ``--sibling``,
``--helpformat``, ``--usage``, sshare's ``-e``, ``-V``, ...), exit 2, as if mistyped. The
rules are read from Slurm's source: ``src/sprio/opts.c`` (``-M`` sets ``local``; the
options), ``src/sprio/sprio.c`` (the short formats gain ``" %.8c"`` after ``%9r`` for
``--sibling`` without ``local``), ``src/api/job_info.c`` (``slurm_load_job_prio``: a
cluster in no federation is asked alone, and only the federation path sets a job's
``cluster_name``; ``_pack_priority_factors_object`` sends none), ``src/sprio/print.c``
(``_print_cluster_name`` prints that NULL with ``%Ns`` / ``%.Ns``) and
``src/sshare/sshare.c`` (``_help_format_msg``; ``-M``: ``_multi_cluster`` prints
``CLUSTER: name`` before the rows; ``--usage`` is ``--help``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

SPRIO = (
    "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE"
    "  PARTITION        QOS\n"
    "              1 batch              2          0          0          1          0"
    "          1          0\n"
)


def _sprio(run: Callable[..., Any], env: dict[str, Path], *args: str) -> Any:
    return run("sprio", *args, *common(env))


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["-M", "pool"], id="M-the-cluster"),
        pytest.param(["--clusters=POOL,all"], id="clusters-any-case-and-all"),
        pytest.param(["--local"], id="local"),
        pytest.param(["--federation"], id="federation"),
        pytest.param(["--sibling", "--local"], id="sibling-local"),
        pytest.param(["--sib", "-M", "pool"], id="sibling-M"),
    ],
)
def test_sprio_cluster_options_of_one_cluster_print_the_plain_listing(
    args: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """fs's pool is one cluster in no federation: ``-M`` naming it (the config's
    ``[pool] name``, here the default ``pool``), ``--local`` and ``--federation`` change
    nothing, and ``-M`` or ``--local`` drop ``--sibling``'s column, as in sprio."""
    result = _sprio(run, env, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, SPRIO, "")


@pytest.mark.parametrize(
    ("variables", "args", "column"),
    [
        pytest.param({"SPRIO_SIBLING": ""}, [], True, id="SPRIO_SIBLING-set-empty"),
        pytest.param({"SPRIO_SIBLING": "1", "SPRIO_LOCAL": "1"}, [], False, id="and-LOCAL"),
        pytest.param({"SLURM_CLUSTERS": "pool"}, ["--sibling"], False, id="SLURM_CLUSTERS"),
        pytest.param({"SPRIO_FEDERATION": "1"}, [], False, id="SPRIO_FEDERATION"),
    ],
)
def test_sprio_reads_its_environment_as_sprio_does(
    variables: dict[str, str],
    args: list[str],
    column: bool,
    env: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    """sprio's ``_opt_env`` (22.05 and today alike) reads, each when set, even empty:
    ``SPRIO_SIBLING`` as ``--sibling``, ``SPRIO_LOCAL`` as ``--local``, ``SPRIO_FEDERATION``
    as ``--federation`` (no effect here) and ``SLURM_CLUSTERS`` as ``-M`` (which also
    sets ``local``: no CLUSTER column). Before: fs read none of them, so
    ``SPRIO_SIBLING=1 fs sprio`` had no CLUSTER column and ``SLURM_CLUSTERS=pool fs sprio
    --sibling`` had one."""
    result = run("sprio", *args, *common(env), env=variables)
    assert result.exit_code == 0, result.stderr
    head, row = SPRIO.splitlines()
    want = [head[:25] + "  CLUSTER" + head[25:], row[:25] + "   (null)" + row[25:]]
    assert result.stdout.splitlines() == (want if column else [head, row])


def test_slurm_clusters_naming_another_cluster_is_refused(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``SLURM_CLUSTERS=other``: sprio asks that cluster; fs refuses it as ``-M other``,
    naming the variable; ``-M`` given wins over it."""
    result = run("sprio", *common(env), env={"SLURM_CLUSTERS": "other"})
    refused(result, "$SLURM_CLUSTERS 'other'", "one cluster, 'pool'")
    result = run("sprio", "-M", "pool", *common(env), env={"SLURM_CLUSTERS": "other"})
    assert (result.exit_code, result.stdout) == (0, SPRIO)


def test_sprio_sibling_adds_a_cluster_column_of_null_names(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs sprio --sibling``: the format ``%.15i %9r %.8c %.10Y ...``; a cluster in no
    federation sends no cluster name, so the cell is glibc's ``%8s`` of NULL: ``(null)``
    right-justified in 8."""
    result = _sprio(run, env, "--sibling")
    assert result.exit_code == 0, result.stderr
    head, row = SPRIO.splitlines()
    want = [head[:25] + "  CLUSTER" + head[25:], row[:25] + "   (null)" + row[25:]]
    assert result.stdout.splitlines() == want


def test_sprio_cluster_field_prints_what_sprio_prints_for_no_cluster_name(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs sprio -o '%c|%5c|%.3c|%8c|%.8c|'`` printed the pool's name; sprio prints a NULL
    string: ``%s`` and ``%8s`` give ``(null)``, ``%.8s`` ``(null)`` then padding, ``%.5s``
    (a precision under 6) nothing, and ``%3s`` cut to 3 ``(nu``."""
    result = _sprio(run, env, "-o", "%c|%5c|%.3c|%8c|%.8c|")
    assert result.exit_code == 0, result.stderr
    assert (
        result.stdout
        == "CLUSTER|CLUST|CLU|CLUSTER | CLUSTER|\n(null)|     |(nu|(null)  |  (null)|\n"
    )


@pytest.mark.parametrize("command", ["sprio", "sshare"])
@pytest.mark.parametrize("value", ["other", "", "pool,other"])
def test_m_naming_another_cluster_is_refused(
    command: str, value: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run(command, "-M", value, *common(env))
    refused(result, f"-M {value!r}", "one cluster, 'pool'", "[pool] name")
    assert result.stdout == ""


def test_sprio_helpformat_lists_the_letters_as_sprio_does(run: Callable[..., Any]) -> None:
    """opts.c's ``_help_format``: ``%%%-5c`` a letter, a new line after every eight."""
    result = run("sprio", "--helpformat")
    assert result.exit_code == 0
    assert result.stdout == (
        "%a    %A    %b    %B    %c    %f    %F    %i    \n"
        "%j    %J    %n    %N    %o    %p    %P    %r    \n"
        "%S    %q    %Q    %s    %u    %y    %Y    %t    \n"
        "%T    \n"
    )


@pytest.mark.parametrize("flag", ["-e", "--helpformat"])
def test_sshare_helpformat_lists_the_fields_as_sshare_does(
    flag: str, run: Callable[..., Any]
) -> None:
    """sshare.c's ``_help_format_msg``: ``%-17s`` a field, a blank between, four a line."""
    result = run("sshare", flag)
    assert result.exit_code == 0
    assert result.stdout == (
        "Account           Cluster           EffectvUsage      FairShare        \n"
        "GrpTRESMins       GrpTRESRaw        ID                LevelFS          \n"
        "NormShares        NormUsage         Partition         RawShares        \n"
        "RawUsage          TRESRunMins       User             \n"
    )


def test_usage_prints_the_usage(run: Callable[..., Any]) -> None:
    """sprio's ``--usage`` is its synopsis, as sprio's ``usage.txt`` gives it (it said only
    'Usage: fs sprio [OPTIONS]', which names no option); sshare's prints its help."""
    result = run("sprio", "--usage")  # ("cli": the runner's name for the program)
    assert result.exit_code == 0
    assert result.stdout == (
        "Usage: cli sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
        "   [--federation] [--local] [--sibling] [--usage] [-hlnvw] [--jobs-file FILE]\n"
    )
    result = run("sshare", "--usage")
    assert result.exit_code == 0
    assert result.stdout == run("sshare", "--help").stdout


SSHARE = (
    "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n"
)


@pytest.mark.parametrize("extra", [[], ["-P"], ["-n"]])
def test_sshare_m_prints_the_cluster_line_first(
    extra: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs sshare -a -M pool``: sshare's ``CLUSTER: pool`` line, then the listing."""
    plain = run("sshare", "-a", *extra, *common(env))
    result = run("sshare", "-a", "-M", "pool", *extra, *common(env))
    assert result.exit_code == plain.exit_code == 0, result.stderr
    assert result.stdout == "CLUSTER: pool\n" + plain.stdout
    assert plain.stdout.startswith(SSHARE if not extra else "")


def test_sshare_m_leaves_json_as_it_is(env: dict[str, Path], run: Callable[..., Any]) -> None:
    result = run("sshare", "-a", "-M", "pool", "--json", *common(env))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(
        run("sshare", "-a", "--json", *common(env)).stdout
    )


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("fs sprio -V", "fs is not Slurm"),
        ("fs sprio --version", "'fs --version' prints fs's own"),
        ("fs sshare -V", "fs is not Slurm"),
        ("fs sshare --yaml", "fs prints no YAML"),
    ],
)
def test_slurm_options_fs_does_not_offer_are_refused_saying_why(
    line: str, why: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run(*line.split()[1:], *common(env))
    refused(result, why)
    assert result.stdout == ""


def test_sprio_users_is_users_long_name(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """sprio's ``--users`` (opts.c: ``{"users", required_argument, 0, 'u'}``) said
    ``No such option '--users'``; it is ``-u``."""
    result = _sprio(run, env, "--users", "alice")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == _sprio(run, env, "-u", "alice").stdout
    assert "alice" in result.stdout.splitlines()[1]
