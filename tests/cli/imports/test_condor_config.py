"""``fs import condor-config`` takes only HTCondor configuration (io/importers/condor_knobs.py)
and counts the knobs it ignores, listing them with ``-v`` (cli/fragment.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import write_pool
from tests.cli.imports.conftest import GARBAGE, HTCONDOR, OTHER_DUMPS, Refuse

DUMP = HTCONDOR / "condor_config_val.dump.txt"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param(
            "",
            "no knob settings; expected a condor_config file or condor_config_val -dump output",
            id="empty",
        ),
        pytest.param("# only a comment\n\n", "no knob settings", id="comments"),
        pytest.param(GARBAGE, ":1: expected NAME = value", id="garbage"),
        pytest.param(
            OTHER_DUMPS["slurm.conf"],
            "none of its 45 knobs is one the pool config models; expected a condor_config",
            id="slurm.conf",
        ),
        pytest.param(
            "SCHEDD_NAME = s\nALLOW_READ = *\n",
            "none of its 2 knobs is one the pool config models",
            id="no-known-knob",
        ),
        pytest.param(OTHER_DUMPS["dirac.cfg"], ":1: expected NAME = value", id="dirac.cfg"),
        pytest.param(OTHER_DUMPS["condor_status -json"], ":1: expected NAME = value", id="json"),
        pytest.param(
            "UID_DOMAIN = x\x1b[31mred\n",
            ":1: UID_DOMAIN: expected a name without blanks or control characters",
            id="escape-uid-domain",
        ),
        pytest.param(
            "ACCOUNTANT_LOCAL_DOMAIN = a\x07b\n",
            ":1: ACCOUNTANT_LOCAL_DOMAIN: expected a name without blanks",
            id="bell-local-domain",
        ),
        pytest.param(
            "GROUP_NAMES = ok, g\x1bh\n",
            ":1: GROUP_NAMES: expected a name without blanks or control characters, got 'g",
            id="escape-group",
        ),
        # another tool's ClassAds: a job's Rank and a slot's Start were taken as the knobs
        # RANK and START (merged with --into)
        pytest.param(
            HTCONDOR / "condor_q.long.txt",
            ':46: MyType = "Job": a ClassAd (condor_q or condor_status -long output)',
            id="condor_q-long",
        ),
        pytest.param(
            HTCONDOR / "condor_status.long.txt",
            ':17: MyType = "Machine": a ClassAd',
            id="condor_status-long",
        ),
        # an infinity: OverflowError (int() of it), a traceback
        pytest.param(
            "PRIORITY_HALFLIFE = 1e400\n",
            ":1: PRIORITY_HALFLIFE: expected a finite number, got '1e400'",
            id="halflife-1e400",
        ),
        pytest.param(
            "GROUP_NAMES = a\nGROUP_PRIO_FACTOR_a = -inf\n",
            ":2: GROUP_PRIO_FACTOR_a: expected a finite number, got '-inf'",
            id="factor-inf",
        ),
        # macros 5,000 deep: RecursionError, a traceback
        pytest.param(
            "X0 = 1\n"
            + "".join(f"X{i} = $(X{i - 1})\n" for i in range(1, 5000))
            + "PRIORITY_HALFLIFE = $(X4999)\n",
            ":101: X100: its macros nest more than 100 deep",
            id="macros-5000-deep",
        ),
        # each of 40 knobs names the next twice: 2**40 expansions, a hang
        pytest.param(
            "".join(f"L{i} = $(L{i + 1})$(L{i + 1})\n" for i in range(40))
            + "L40 = x\nPRIORITY_HALFLIFE = $(L0)\n",
            ":1: L0: its macros nest more than 100 deep or expand more than 100,000 macros",
            id="macros-doubling",
        ),
        pytest.param(
            "".join(f"L{i} = $(L{i + 1})$(L{i + 1})\n" for i in range(40))
            + "L40 = x\ninclude : $(L0)\n",
            ":42: include: its macros nest more than 100 deep",
            id="include-macros-doubling",
        ),
    ],
)
def test_what_is_not_htcondor_configuration_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-config", content, expected, into=True)


def test_macros_at_the_depth_limit_expand(tmp_path: Path, run: Callable[..., Any]) -> None:
    config = tmp_path / "condor_config"
    chain = "".join(f"X{i} = $(X{i - 1})\n" for i in range(1, 99))
    config.write_text("X0 = 600\n" + chain + "PRIORITY_HALFLIFE = $(X98)\n")  # 100 knobs
    result = run("import", "condor-config", str(config))
    assert result.exit_code == 0, result.stderr
    assert "priority_halflife = 600" in result.stdout


def test_a_real_dump_counts_its_ignored_knobs(run: Callable[..., Any]) -> None:
    """A real ``condor_config_val -dump`` ignores 1,096 knobs (NEGOTIATOR_INTERVAL,
    NEGOTIATOR_CYCLE_DELAY, NEGOTIATOR_MIN_INTERVAL, NEGOTIATOR_DEPTH_FIRST,
    NEGOTIATOR_IGNORE_USER_PRIORITIES, NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT,
    NEGOTIATOR_JOB_CONSTRAINT and NEGOTIATOR_SLOT_CONSTRAINT, listed blank, and
    NEGOTIATOR_MATCHLIST_CACHING, listed true, are taken):
    the summary line counts them and names the first 12; the TOML starts as it did."""
    result = run("import", "condor-config", str(DUMP))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"condor-config {DUMP}: 38 knobs taken, 1 group; ignored 1096: ABORT_ON_EXCEPTION, "
        "ACCOUNTANT_DATABASE_FILE, ACCOUNTANT_HOST, ACCOUNTING_DOMAIN, "
        "ADD_WINDOWS_FIREWALL_EXCEPTION, ADSTASH_CHECKPOINT_FILE, ADSTASH_DEBUG, "
        "ADSTASH_INTERFACE, ADSTASH_JSON_DIR, ADSTASH_LOG, ADSTASH_NUM_THREADS, "
        "ADSTASH_READ_POOLS (+1084 more; -v lists them)\n"
    )
    assert result.stdout.startswith('[pool]\ndefaults = "current"\n')


def test_verbose_lists_every_ignored_knob(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``-v``: after the summary line, each ignored knob on its own line, sorted; the
    merge is the same as without it."""
    pool = write_pool(tmp_path)
    args = ["--into", str(pool["config"]), "--replace", "--dry-run"]
    quiet = run("import", "condor-config", str(DUMP), *args)
    result = run("import", "condor-config", str(DUMP), *args, "-v")
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == quiet.stderr.splitlines()[0].replace("; -v lists them", "")
    assert lines[-1].startswith("fs: note: ") and "keeps" in lines[-1]  # (the pool's groups)
    lines = lines[:-1]
    assert len(lines) == 1 + 1096
    assert lines[1:4] == ["ABORT_ON_EXCEPTION", "ACCOUNTANT_DATABASE_FILE", "ACCOUNTANT_HOST"]
    assert lines[1:] == sorted(lines[1:])
    assert result.stdout == quiet.stdout


def test_a_few_ignored_knobs_are_all_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Twelve or fewer: named on the summary line, as before; ``-v`` adds one per line."""
    conf = tmp_path / "condor_config"
    conf.write_text("UID_DOMAIN = example.org\nSCHEDD_NAME = s\nALLOW_READ = *\n")
    result = run("import", "condor-config", str(conf))
    assert result.stderr == (
        f"condor-config {conf}: 1 knob taken, 0 groups; ignored 2: ALLOW_READ, SCHEDD_NAME\n"
    )
    result = run("import", "condor-config", str(conf), "--verbose")
    assert result.stderr.splitlines()[1:] == ["ALLOW_READ", "SCHEDD_NAME"]


@pytest.mark.parametrize(
    ("knob", "value"),
    [
        pytest.param("NEGOTIATOR_INTERVAL", "1e308", id="interval-1e308"),
        pytest.param("NEGOTIATOR_CYCLE_DELAY", "99999999999999999999", id="delay-20-digits"),
        pytest.param("NEGOTIATOR_MIN_INTERVAL", "2147483648", id="min-interval-int-max-plus-1"),
    ],
)
def test_cycle_times_beyond_an_int_are_refused(
    tmp_path: Path, run: Callable[..., Any], knob: str, value: str
) -> None:
    """``NEGOTIATOR_INTERVAL = 1e308`` was merged as an integer of 309 digits, and
    99999999999999999999 as 100000000000000000000 (read through a float). The negotiator
    reads the three with ``param_integer`` into an ``int`` (matchmaker.cpp), which stops on
    a value beyond INT_MAX 2147483647 ("out of bounds for an integer", condor_config.cpp):
    refused, the config untouched; INT_MAX itself is taken."""
    config = write_pool(tmp_path)["config"]
    before = config.read_bytes()
    knobs = tmp_path / "cc"
    knobs.write_text(f"{knob} = {value}\n", encoding="utf-8")
    res = run("import", "condor-config", str(knobs), "--into", str(config), "--replace")
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {knobs}:1: {knob}: expected at most 2147483647 seconds (HTCondor reads "
        f"an int; beyond it the negotiator stops), got '{value}'\n"
    )
    assert config.read_bytes() == before
    knobs.write_text(f"{knob} = 2147483647\n", encoding="utf-8")
    taken = run("import", "condor-config", str(knobs))
    assert taken.exit_code == 0, taken.stderr
    assert "= 2147483647\n" in taken.stdout


def test_depth_first_negotiation_is_taken_as_its_key(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``NEGOTIATOR_DEPTH_FIRST`` (read as ``param_boolean`` reads it: ``1 == 1`` is true)
    is ``negotiator.depth_first``, which fs negotiates with; it was a warning that fs did
    not model it."""
    conf = tmp_path / "condor_config"
    conf.write_text("NEGOTIATOR_DEPTH_FIRST = 1 == 1\nNEGOTIATOR_INTERVAL = 60\n")
    result = run("import", "condor-config", str(conf))
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr
    assert result.stdout.splitlines()[-3:] == [
        "[negotiator]",
        "depth_first = true",
        "interval = 60",
    ]
    conf.write_text("NEGOTIATOR_DEPTH_FIRST = False\nNEGOTIATOR_INTERVAL = 60\n")
    assert "depth_first = false" in run("import", "condor-config", str(conf)).stdout


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        pytest.param("-1e20", "-1e+20", id="negative"),
        pytest.param("9223372036854775807 + 1", "-9.223372036854776e+18", id="wraps-negative"),
    ],
)
@pytest.mark.parametrize("into", [False, True], ids=["fragment", "into"])
def test_what_the_config_refuses_is_refused_at_its_line(
    tmp_path: Path, run: Callable[..., Any], value: str, shown: str, into: bool
) -> None:
    """``PRIORITY_HALFLIFE = -1e20`` (and ``9223372036854775807 + 1``, which the ClassAd
    integer sum wraps to -2**63) printed a fragment that every command then refused, and
    with ``--into`` the refusal named the config's key, not the knob's line. The config's
    own check (``accountant.priority_halflife``: a duration of 0 or more) now runs at the
    import, naming FILE:LINE; nothing is printed or written."""
    config = write_pool(tmp_path)["config"]
    before = config.read_bytes()
    knobs = tmp_path / "cc"
    knobs.write_text(f"# a comment\nPRIORITY_HALFLIFE = {value}\n", encoding="utf-8")
    args = ["--into", str(config), "--replace"] if into else []
    res = run("import", "condor-config", str(knobs), *args)
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr == (
        f"fs: error: {knobs}:2: PRIORITY_HALFLIFE: accountant.priority_halflife: expected a "
        f"duration of 0 or more seconds, got {shown}\n"
    )
    assert config.read_bytes() == before


def test_the_old_group_knob_names_are_read_when_the_new_ones_are_blank(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """GroupEntry.cpp reads ``HFS_ROUND_ROBIN_RATE`` and ``HFS_MAX_ALLOCATION_ROUNDS`` only
    when ``param_defined`` fails for the new name, which has a built-in default: when a
    file sets it blank. Then the old one is taken (it was counted as ignored, and the
    default kept); otherwise it stays ignored, as the negotiator ignores it."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        "PRIORITY_HALFLIFE = 5\nGROUP_QUOTA_ROUND_ROBIN_RATE =\nHFS_ROUND_ROBIN_RATE = 4\n"
        "HFS_MAX_ALLOCATION_ROUNDS = 7\n",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == ["[negotiator]", "group_quota_round_robin_rate = 4.0"]
    assert result.stderr.splitlines()[0].endswith(
        "3 knobs taken, 0 groups; ignored 1: HFS_MAX_ALLOCATION_ROUNDS"
    )
