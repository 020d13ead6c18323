"""``fs import condor-userprio`` takes only condor_userprio -l output
(io/importers/condor_userprio.py)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import GARBAGE, HTCONDOR, OTHER_DUMPS, Refuse


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no LastUpdate; expected condor_userprio -l", id="empty"),
        pytest.param(GARBAGE, ":1: expected 'Attr = value'", id="garbage"),
        pytest.param(OTHER_DUMPS["condor_status -json"], "no LastUpdate", id="condor_status"),
        pytest.param(OTHER_DUMPS["condor_q -json"], "no LastUpdate", id="condor_q"),
        pytest.param(OTHER_DUMPS["condor_config"], ":1: expected 'Attr = value'", id="config"),
        pytest.param(
            'LastUpdate = 5\nName1 = "a\x1b[31m@d"\nPriority1 = 1.0\n',
            ":1: Name1: expected a name without blanks or control characters",
            id="escape-in-name",
        ),
        pytest.param(
            'LastUpdate = 5\nName1 = " "\nPriority1 = 1.0\n',
            ":1: Name1: expected a name without blanks",
            id="blank-name",
        ),
    ],
)
def test_what_is_not_condor_userprio_output_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("condor-userprio", content, expected)


def test_imported_records_keep_their_factors_when_the_default_changes(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The real pool's records all store their factor (``Accountant::GetPriorityFactor``
    writes it at its first read, and the negotiator read each one to make the ad), so a new
    ``DEFAULT_PRIO_FACTOR`` reaches none of them. ``fs import condor-userprio`` stored only
    the factors that differ from the config's (ann's 2000), so
    ``fs whatif --set accountant.default_prio_factor=500 userprio`` halved dan's
    effective priority (847.69 -> 423.84) and cat's and ben's, where HTCondor keeps them.
    Now every imported record stores its factor: no differences (a note counts the four
    that keep a factor of 1000, which the change would derive otherwise); --rederive-factors
    still gives 0.847686 x 500 = 423.843 for dan (Priority8 = 847.686 over its 1000)."""
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    at = f"--config {cfg} --state {state} --now 2026-11-23T18:25:33Z"
    lines = [
        f"import condor-config {HTCONDOR / 'condor_config'} --into {cfg}",
        f"import condor-userprio {HTCONDOR / 'condor_userprio.long_allusers.txt'} {at}",
    ]
    for line in lines:
        assert run(*shlex.split(line)).exit_code == 0
    whatif = "whatif --set accountant.default_prio_factor=500"
    result = run(*shlex.split(f"{whatif} userprio {at}"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        "before -> after: no differences\nNote: 4 accountant records keep the priority "
        "factor stored when first written, as HTCondor's accountant does, so the changed "
        "factor reaches only records that store none yet; --rederive-factors reads it as if "
        "always in force\n"
    )  # (dan, cat, ben and ops keep 1000; ann's 2000 was set, zed's and eve's are not 1000)
    out = run(*shlex.split(f"{whatif} userprio --allusers --json {at}")).stdout
    rows = json.loads(out)["after"]
    factors = {r["name"]: r["priority_factor"] for r in rows if not r["is_group"]}
    assert factors == {
        "group_ops.ops@htc.test": 1000,
        "dan@htc.test": 1000,
        "cat@htc.test": 1000,
        "ann@htc.test": 2000,
        "ben@htc.test": 1000,
        "zed@other.org": 1e7,
        "nice-user.eve@htc.test": 1e7,
    }
    fresh = run(*shlex.split(f"{whatif} --rederive-factors userprio --allusers --json {at}")).stdout
    dan = next(r for r in json.loads(fresh)["after"] if r["name"] == "dan@htc.test")
    assert (dan["priority_factor"], dan["effective_priority"]) == (500, pytest.approx(423.843))


def test_a_backslash_in_a_name_is_read_as_condor_userprio_prints_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``condor_userprio -l`` prints strings in the old ClassAd syntax, escaping only the
    quote (``ClassAdUnParser``): ``Name = "AD\\\\ann@htc.test"`` is the name with two
    backslashes (``Lexer::tokenizeStringOld`` keeps every backslash not before a quote).
    ``fs import condor-userprio`` read ``\\\\`` as one backslash, so the record became
    another submitter's (``AD\\ann@htc.test``, as ``Name = "AD\\ben@htc.test"`` is read);
    now the names are kept as ``classad2.parseAds(..., ParserType.Old)`` reads them."""
    record = (
        "AccumulatedUsage = 83.0\nBeginUsageTime = 1795458279\nLastUpdate = 1795458323\n"
        'LastUsageTime = 1795458323\nMyType = "Accounting"\nName = {name}\n'
        "Priority = 500.0\nPriorityFactor = 1000.0\n"
    )
    dump = tmp_path / "userprio.long.txt"
    dump.write_text(
        record.format(name='"AD\\\\ann@htc.test"') + "\n" + record.format(name='"AD\\ben@htc.test"')
    )
    cfg, state = tmp_path / "c.toml", tmp_path / "s.json"
    cfg.write_text('[pool]\nuid_domain = "htc.test"\ndefaults = "current"\n')
    at = f"--config {cfg} --state {state} --now 2026-11-23T18:25:33Z"
    result = run(*shlex.split(f"import condor-userprio {dump} {at}"))
    assert result.exit_code == 0, result.stderr
    rows = json.loads(run(*shlex.split(f"userprio --json {at}")).stdout)
    assert [row["name"] for row in rows] == ["AD\\\\ann@htc.test", "AD\\ben@htc.test"]


def test_a_dump_of_a_time_after_now_is_refused_unwritten(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import condor-userprio condor_userprio.long_allusers.txt --config
    sample_configs/pool.toml --state s.json --now 2026-11-21T12:00:00Z (the docs' time, two
    days before the capture's LastUpdate = 1795458323, 2026-11-23T18:25:23Z) wrote records
    valid at that later time: every command at the docs' time was then refused ('--now ...
    is before the last update of state file s.json'). The import is refused, naming the
    time to give; at that time it is read."""
    from tests.conftest import REPO

    state = tmp_path / "s.json"
    dump = HTCONDOR / "condor_userprio.long_allusers.txt"
    at = f"--config {REPO / 'sample_configs' / 'pool.toml'} --state {state}"
    early = run(*shlex.split(f"import condor-userprio {dump} {at} --now 2026-11-21T12:00:00Z"))
    assert (early.exit_code, early.stdout, state.exists()) == (2, "", False)
    assert early.stderr == (
        f"fs: error: {dump}: the accountant's LastUpdate 2026-11-23T18:25:23Z is after --now "
        "2026-11-21T12:00:00Z: the dump is of a later time; give 2026-11-23T18:25:23Z or a "
        "later time\n"
    )
    env = {"FAIRSHARE_NOW": "2026-11-21T12:00:00Z"}
    from_env = run(*shlex.split(f"import condor-userprio {dump} {at}"), env=env)
    assert from_env.exit_code == 2
    assert "is after FAIRSHARE_NOW 2026-11-21T12:00:00Z" in from_env.stderr
    assert "give --now 2026-11-23T18:25:23Z or a later time" in from_env.stderr
    line = f"import condor-userprio {dump} {at} --now 2026-11-23T18:25:23Z"
    assert run(*shlex.split(line)).exit_code == 0


def test_the_limits_the_accountant_counted_are_kept_where_their_names_are_known(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The real pool's ``-l -allusers`` ad with two of ``Accountant::ReportLimits``' lines
    added, as a negotiator that once counted the limits ``db`` and ``license.matlab`` and
    whose claims hold neither prints them: ``ConcurrencyLimit_db = 0.0``,
    ``ConcurrencyLimit_license_matlab = 0.0`` (the map keeps a name at 0, and a ``.`` is
    written ``_``). ``db`` has one name; ``license_matlab`` is ``license.matlab`` or
    ``license_matlab``, so it is not kept (a note names it): after the import
    ``fs userprio -l -allusers`` prints ``ConcurrencyLimit_db = 0.0``, as the negotiator
    does. fs kept neither and printed none."""
    dump = tmp_path / "userprio.txt"
    real = (HTCONDOR / "condor_userprio.long_allusers.txt").read_text(encoding="utf-8")
    added = "ConcurrencyLimit_db = 0.0\nConcurrencyLimit_license_matlab = 0.0\n"
    dump.write_text(added + real, encoding="utf-8")
    cfg, state = tmp_path / "c.toml", tmp_path / "s.json"
    cfg.write_text('[pool]\nuid_domain = "htc.test"\ndefaults = "current"\n')
    at = f"--config {cfg} --state {state} --now 2026-11-23T18:25:33Z"
    result = run(*shlex.split(f"import condor-userprio {dump} {at}"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(
        f"fs: note: {dump}: ConcurrencyLimit_license_matlab: condor_userprio prints a '.' of "
        "a limit's name as '_', so the name is not known; not kept (fs userprio -l -allusers "
        "prints it once a cycle counts it)\n"
    )
    assert json.loads(state.read_text())["negotiator"]["limits_seen"] == ["db"]
    long = run(*shlex.split(f"userprio -l -allusers {at}")).stdout.splitlines()
    assert [line for line in long if line.startswith("Concurrency")] == [
        "ConcurrencyLimit_db = 0.0"
    ]
