"""``fs userprio`` against rules read in HTCondor's ``src/condor_tools/user_prio.cpp`` and
``src/classad/sink.cpp`` that no capture exercises: the footer's total usage is the sum of
the submitters' usage in seconds, divided by 3600 once; a record never used counts its
time since from -1; ``-l`` prints the usage the accountant holds, as the ClassAd unparser
prints a real. Every expected number is worked out by hand from those functions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = "1795262400"
CONFIG = """
[pool]
defaults = "current"
uid_domain = "example.org"
"""


def _pool(tmp_path: Path, run: Callable[..., Any], usage: dict[str, str]) -> list[str]:
    """A pool whose submitters have this weighted accumulated usage (seconds, set as
    ``condor_userprio -setaccum`` does), each last used at ``NOW``."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", NOW]  # fmt: skip
    for user, seconds in usage.items():
        result = run("setaccum", user, seconds, "--create", *args)
        assert result.exit_code == 0, result.stderr
        result = run("setlast", user, NOW_EPOCH, *args)
        assert result.exit_code == 0, result.stderr
    return args


def test_the_total_usage_is_the_seconds_summed_then_made_hours(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """PrintInfo adds each user's ``AccUsage`` (seconds) into ``Totals.AccUsage`` and prints
    ``FormatFloat(.., 12, 2, Totals.AccUsage / 3600.0)``: (684700 + 215102) / 3600 is
    249.944999... as a double, so 249.94; the rows' hours added (190.19444... + 59.75055...)
    make 249.94500000000002, which printed 249.95."""
    args = _pool(tmp_path, run, {"alice": "684700", "bob": "215102"})
    result = run("userprio", *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4].split()[-2] == "190.19"  # alice's row: 684700 / 3600
    assert lines[5].split()[-2] == "59.75"  # bob's row: 215102 / 3600
    assert lines[7] == (
        "Number of users: 2                             0       249.94    1+00:00"
        "                    "
    )


def test_long_prints_the_usage_the_accountant_holds(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``-l`` prints the ad's WeightedAccumulatedUsage, the accountant's double, as the
    ClassAd unparser prints a real (``ClassAdUnParser::UnparseReal``, old syntax:
    ``%.16G``, ".0" added where that has no '.', 'E' or 'e'), after ``-setaccum`` sent it
    (``Stream::put(double)``: the mantissa times 2147483647, cut to an integer) and the
    accountant stored it with ``%f``: 1000 = 0.9765625 * 2**10 is sent as 2097151999, which
    is 999.99999998..., stored 1000.000000 and printed 1000.0; 1e17 = 0.69388939... * 2**57
    is sent as 1490116118, which is 99999999953636080 (to the unit), printed
    9.999999995363608E+16 (not Python's e+16); 0.30000000000000004 = 0.6 * 2**-1 is sent as
    1288490188, which is 0.29999999995..., stored 0.300000 and printed 0.3."""
    usage = {"alice": "1000", "bob": "1e17", "carol": "0.30000000000000004"}
    args = _pool(tmp_path, run, usage)
    result = run("userprio", "-l", *args)
    assert result.exit_code == 0, result.stderr
    users = [ad for ad in result.stdout.split("\n\n") if "IsAccountingGroup = false" in ad]
    printed = [line for ad in users for line in ad.splitlines() if "WeightedAccumulated" in line]
    assert printed == [
        "WeightedAccumulatedUsage = 1000.0",
        "WeightedAccumulatedUsage = 9.999999995363608E+16",
        "WeightedAccumulatedUsage = 0.3",
    ]


def test_a_never_used_record_counts_its_time_since_from_minus_one(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """CollectInfo reads a LastUsageTime of 0 as -1 (``if (LastUsage==0) LastUsage=-1``),
    so PrintInfo's Time Since is ``format_time_nosecs(tmLast + 1)``, cut to its 10 columns:
    at 12:59:59 on day 20778 since 1970, 20778+13:00, cut to 20778+13:0 (from 0 it was
    20778+12:59, cut to 20778+12:5)."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:59:59Z"]  # fmt: skip
    assert run("setaccum", "zed", "100", "--create", *args).exit_code == 0
    result = run("userprio", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[4] == (
        "zed@example.org          500.00   1000.00      0         0.03 20778+13:0"
        "                    "
    )


def test_getreslist_prints_a_submitters_claims_as_print_res_list_does(
    run: Callable[..., Any],
) -> None:
    """``condor_userprio -getreslist NAME`` (``PrintResList``): ``%-30s %12s %12s`` rows
    between dashed lines, each resource's name (the startd's, before its address), its
    ``format_date`` start and ``format_time`` of now less it; the count last. The sample
    state's frank holds slot7 and slot8 of exec001 since 10:19:12 (1795256352): 1 h 40 min
    48 s at noon. fs refused -getreslist as not modelled."""
    repo = Path(__file__).resolve().parents[2]
    pool = str(repo / "sample_configs" / "pool.toml")
    result = run("userprio", "-getreslist", "group_physics.frank", "--config", pool,
                 "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "Resource Name                    Start Time   Match Time\n"
        "-------------                    ----------   ----------\n"
        "slot7@exec001                   11/21 10:19   0+01:40:48\n"
        "slot8@exec001                   11/21 10:19   0+01:40:48\n"
        "-------------                   ------------  ------------\n"
        "Number of Resources Used: 2\n"
    )
    nobody = run("userprio", "--getreslist", "bob", "--config", pool, "--now", NOW)
    assert nobody.stdout.endswith("Number of Resources Used: 0\n")
    refused = run("userprio", "--getreslist", "bob", "--json", "--config", pool, "--now", NOW)
    assert refused.exit_code == 2


def test_getreslist_with_long_is_refused(run: Callable[..., Any]) -> None:
    """``condor_userprio -getreslist NAME -l`` prints the negotiator's ad instead of the
    table (``if (LongFlag) fPrintAd``), whose ``Name1``... are ``GetResourceName``'s
    ``slot7@exec001@<startd address>``, which fs does not hold: refused, exit 2, nothing
    on stdout. fs printed the table, ignoring -l."""
    repo = Path(__file__).resolve().parents[2]
    pool = str(repo / "sample_configs" / "pool.toml")
    result = run("userprio", "-getreslist", "group_physics.frank", "-l", "--config", pool,
                 "--now", NOW)  # fmt: skip
    assert result.exit_code == 2 and result.stdout == ""
    assert "startd's address" in result.stderr


def test_getreslist_of_a_bare_name_whose_slots_are_held_inside_a_group_says_so(
    run: Callable[..., Any],
) -> None:
    """``fs userprio -getreslist dave`` looks up ``dave@example.org`` (the pool's
    uid_domain), who holds nothing: the sample state's dave holds his 8 slots as
    ``group_physics.hep.dave@example.org``. It printed "Number of Resources Used: 0" and
    nothing else; stdout stays condor_userprio's, and a note on stderr names the record."""
    repo = Path(__file__).resolve().parents[2]
    pool = str(repo / "sample_configs" / "pool.toml")
    result = run("userprio", "-getreslist", "dave", "--config", pool, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("Number of Resources Used: 0\n")
    assert result.stderr == (
        "fs: note: dave@example.org holds no slot; did you mean "
        "group_physics.hep.dave@example.org\n"
    )
    held = run("userprio", "-getreslist", "group_physics.hep.dave@example.org",
               "--config", pool, "--now", NOW)  # fmt: skip
    assert held.stdout.endswith("Number of Resources Used: 8\n")
    assert held.stderr == ""
